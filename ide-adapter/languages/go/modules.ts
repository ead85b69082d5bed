/**
 * Go modules the module cache lacks. gopls (x/tools 0.5.0, as Debian ships it) refuses every
 * workspace-wide request — references, implementations, incoming calls — with "N modules have
 * errors" as soon as one requirement of `go.mod` cannot be loaded (offline, dependencies not
 * downloaded). Dialect gives it a private copy of `go.mod` without those requirements
 * (`-modfile`, never written into the user's tree): the workspace then loads, only the imports of
 * the missing modules stay unresolved, and one warning names them with the fix.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { readConfined } from '../../confine.js';
import { MAX_PROJECT_FILE_BYTES } from '../../lsp/project-files.js';
import { removePrivateTempSync, tempParent } from '../../lsp/private-temp.js';
import { MAX_NOTE_LINE } from '../../notes-ledger.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A `require` of go.mod: the module, its version, and the line it is on (0-based). */
export interface Requirement {
  readonly path: string;
  readonly version: string;
  readonly line: number;
}

/** The requirements of a go.mod text and the modules its `replace` directives replace; one pass. */
export function parseGoMod(text: string): { requirements: Requirement[]; replaced: Set<string> } {
  const requirements: Requirement[] = [];
  const replaced = new Set<string>();
  let block: 'require' | 'replace' | undefined;
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (block !== undefined) {
      if (line === ')') block = undefined;
      else take(block, line, i);
      continue;
    }
    const directive = /^(require|replace)\s*(\(?)\s*(.*)$/.exec(line);
    if (directive === null) continue;
    if (directive[2] === '(') block = directive[1] as 'require' | 'replace';
    else take(directive[1] as 'require' | 'replace', directive[3] ?? '', i);
  }
  return { requirements, replaced };

  function take(kind: 'require' | 'replace', spec: string, line: number): void {
    const words = spec.split(/\s+/).filter((w) => w !== '').map((w) => w.replace(/^"|"$/g, ''));
    if (kind === 'require' && words.length >= 2) requirements.push({ path: words[0] as string, version: words[1] as string, line });
    if (kind === 'replace' && words.length >= 1) replaced.add(words[0] as string);
  }
}

/** The module cache: `GOMODCACHE`, else the first `GOPATH` entry's `pkg/mod`, else `~/go/pkg/mod`. */
export function moduleCache(env: Env): string {
  const explicit = env['GOMODCACHE'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const gopath = (env['GOPATH'] ?? '').split(delimiter).find((p) => p !== '');
  return join(gopath ?? join(env['HOME'] ?? homedir(), 'go'), 'pkg', 'mod');
}

/** A module path as the cache spells it: each upper-case letter as `!` and its lower case. */
function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** Whether the module cache holds a module's `go.mod` (all the go command needs to load the module graph). */
function cached(cache: string, r: Requirement): boolean {
  return existsSync(join(cache, 'cache', 'download', escapeModulePath(r.path), '@v', `${r.version}.mod`));
}

/** What a workspace's go.mod needs that the cache lacks, and a private go.mod without it. */
export interface MissingModules {
  /** The requirements not in the cache (replaced modules are never counted). */
  readonly missing: readonly Requirement[];
  /** The private copy of go.mod without them (absent when nothing is missing). */
  readonly modFile?: string;
}

/** Private folders made for go.mod copies, removed when the process exits. */
const madeFolders = new Set<string>();
let exitHook = false;

/**
 * The requirements of the root's go.mod that the module cache lacks, and (when there are any) a
 * private go.mod without them, with go.sum beside it. None when the root has no readable go.mod
 * or vendors its dependencies (`vendor/modules.txt`: the go command then needs no cache).
 */
export async function missingModules(root: string, env: Env): Promise<MissingModules> {
  const goMod = readConfined(root, join(root, 'go.mod'), MAX_PROJECT_FILE_BYTES);
  if (!goMod.ok || isFile(join(root, 'vendor', 'modules.txt'))) return { missing: [] };
  const { requirements, replaced } = parseGoMod(goMod.text);
  const cache = moduleCache(env);
  const missing = requirements.filter((r) => !replaced.has(r.path) && !cached(cache, r));
  if (missing.length === 0) return { missing };
  const dropped = new Set(missing.map((r) => r.line));
  const text = goMod.text
    .split('\n')
    .map((line, i) => (dropped.has(i) ? `// ${line.trim()} (not in the module cache)` : line))
    .join('\n')
    // A one-line `require x v` dropped above leaves nothing behind; an emptied block stays valid.
    .concat('\n');
  const dir = await mkdtemp(join(tempParent(env), 'dialect-gopls-mod-'));
  trackFolder(dir);
  const modFile = join(dir, 'go.mod');
  await writeFile(modFile, text, { mode: 0o600 });
  const goSum = readConfined(root, join(root, 'go.sum'), MAX_PROJECT_FILE_BYTES * 16);
  if (goSum.ok) await writeFile(join(dir, 'go.sum'), goSum.text, { mode: 0o600 });
  return { missing, modFile };
}

function trackFolder(dir: string): void {
  madeFolders.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const d of madeFolders) removePrivateTempSync(d);
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The one warning about missing modules: which (by path; versions are in go.mod) and the fix, with
 * as many paths as keep it within an answer's note line (`MAX_NOTE_LINE`), the rest counted.
 */
export function missingModulesWarning(missing: readonly Requirement[]): string {
  const text = (shown: number): string => {
    const paths = missing.slice(0, shown).map((r) => r.path);
    const rest = missing.length - shown;
    const which = rest > 0 ? `${paths.join(', ')} and ${rest} more` : paths.length === 2 ? paths.join(' and ') : paths.join(', ');
    return `Go: imports of ${which} are unresolved (not in the module cache). Fix: go mod download (online)`;
  };
  let shown = Math.min(missing.length, MAX_LISTED);
  while (shown > 1 && text(shown).length > MAX_NOTE_LINE) shown--;
  return text(shown);
}

/** The most module paths the warning lists. */
const MAX_LISTED = 5;
