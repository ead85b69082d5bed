/**
 * The compilation database clangd reads, always from a PRIVATE folder of ours (`--compile-commands-dir`):
 * clangd's background index writes `.cache/clangd/index` next to the database it uses, and the
 * user's tree must never be written. The folder is `$XDG_CACHE_HOME/dialect/clangd/<hash of the
 * root>` (default `~/.cache/dialect/clangd/…`), so the index survives restarts.
 *
 * What goes in it, first that applies:
 * 1. the workspace's own `compile_commands.json` (in the root or a direct subfolder such as
 *    `build/`), copied with relative `directory` entries made absolute: exact, and complete;
 * 2. its `compile_flags.txt`: those flags for every C/C++ source below its folder;
 * 3. neither: the layout described from the files (every source, with the workspace root, each
 *    folder holding headers and the folders above those as include folders). A guess, said once
 *    with the fix.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { readConfined } from '../../confine.js';
import { DialectError } from '../../../dialect/outcome.js';
import { SearchCode } from '../../search.js';
import { runFileJob } from '../../file-jobs.js';
import { SKIPPED_DIRS } from '../../skipped-dirs.js';
import { unfoundIncludes, unfoundIncludesWarning } from './unfound-includes.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A workspace database larger than this is not copied (LLVM's own is ~30 MB). */
export const MAX_DATABASE_BYTES = 64 * 1024 * 1024;
/** A `compile_flags.txt` larger than this is ignored. */
const MAX_FLAGS_BYTES = 256 * 1024;
/** At most this many sources are described to clangd when the workspace has no database. */
export const MAX_DESCRIBED_SOURCES = 5000;
/** At most this many header folders become include folders of a described layout. */
const MAX_INCLUDE_DIRS = 200;

/** C sources (compiled on their own). */
export const C_SOURCE_EXTENSIONS = ['.c'] as const;
/** C++ sources (compiled on their own). */
export const CPP_SOURCE_EXTENSIONS = ['.cc', '.cpp', '.cxx', '.c++', '.cp'] as const;
/** Headers (included, never compiled alone). */
export const HEADER_EXTENSIONS = ['.h', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tpp'] as const;

/** How the database in the private folder came about. */
export type DatabaseSource = 'compile_commands.json' | 'compile_flags.txt' | 'described';

/** The private database prepared for one workspace. */
export interface PreparedDatabase {
  /** The private folder holding `compile_commands.json` (and clangd's index below `.cache/`). */
  readonly dir: string;
  readonly source: DatabaseSource;
  /** The workspace file it came from (`build/compile_commands.json`), when it came from one. */
  readonly origin?: string;
  /** How many files it lists. */
  readonly entries: number;
  /** Why answers may miss things (a described layout, a bound reached), for people; one line. */
  readonly warning?: string;
  /** A described layout's headers found nowhere, read while the server starts (`unfound-includes.ts`). */
  readonly unfound?: Promise<string | undefined>;
}

/** One entry of a JSON compilation database. */
interface CompileCommand {
  readonly directory: string;
  readonly file: string;
  readonly arguments?: readonly string[];
  readonly command?: string;
  readonly output?: string;
}

/** The fix we name when there is no database. */
export const DATABASE_FIX = 'Fix: cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make';

/** `$XDG_CACHE_HOME/dialect/clangd/<hash>` for a workspace root (absolute). */
export function clangdStateDir(root: string, env: Env): string {
  const cache = env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : join(env['HOME'] ?? homedir(), '.cache');
  const hash = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 16);
  return join(cache, 'dialect', 'clangd', hash);
}

/** Writes the private database for `root` (see the module comment) and says what it holds. */
export async function preparePrivateDatabase(root: string, env: Env): Promise<PreparedDatabase> {
  const dir = clangdStateDir(root, env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const own = await workspaceDatabase(root);
  let commands: CompileCommand[];
  let result: Omit<PreparedDatabase, 'entries'>;
  if (own !== undefined && 'commands' in own) {
    commands = own.commands;
    result = { dir, source: 'compile_commands.json', origin: own.origin };
  } else {
    const flags = await compileFlags(root);
    const described = await describeLayout(root, flags?.flags, flags?.dir);
    commands = described.commands;
    const unreadable = own !== undefined && 'problem' in own ? `${own.origin} could not be used (${own.problem}); ` : '';
    const cut = described.cut ? `; only the first ${MAX_DESCRIBED_SOURCES} sources are indexed` : '';
    result =
      flags !== undefined
        ? { dir, source: 'compile_flags.txt', origin: flags.origin, ...(unreadable !== '' || cut !== '' ? { warning: `C/C++: ${unreadable}flags from ${flags.origin}${cut}` } : {}) }
        : {
            dir,
            source: 'described',
            warning: `C/C++: ${unreadable}no compilation database, flags guessed (answers may miss code)${cut}. ${DATABASE_FIX}`,
            unfound: new Promise<void>((ready) => setImmediate(ready)).then(async () => unfoundIncludesWarning(await unfoundIncludes(root, described.files, described.includeDirs))),
          };
  }
  await writeFile(join(dir, 'compile_commands.json'), JSON.stringify(commands, null, 1), { mode: 0o600 });
  return { ...result, entries: commands.length };
}

/** The workspace's `compile_commands.json` (root first, then direct subfolders by name), parsed. */
async function workspaceDatabase(root: string): Promise<{ origin: string; commands: CompileCommand[] } | { origin: string; problem: string } | undefined> {
  const dirs = [root];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') dirs.push(join(root, e.name));
  for (const dir of dirs) {
    const path = join(dir, 'compile_commands.json');
    const read = readConfined(root, path, MAX_DATABASE_BYTES);
    const origin = relativeOf(root, path);
    if (!read.ok) {
      if (read.reason === 'missing') continue;
      return { origin, problem: read.reason === 'too-large' ? `larger than ${MAX_DATABASE_BYTES / 1024 / 1024} MB` : `it is ${read.reason === 'outside' ? 'a link out of the workspace' : 'not a regular file'}` };
    }
    try {
      return { origin, commands: normalizeCommands(JSON.parse(read.text), dir) };
    } catch (error) {
      return { origin, problem: (error as Error).message };
    }
  }
  return undefined;
}

/** Entries with an absolute `directory` (a relative one is taken from the database's folder). */
function normalizeCommands(parsed: unknown, databaseDir: string): CompileCommand[] {
  if (!Array.isArray(parsed)) throw new Error('not a JSON array of compile commands');
  const out: CompileCommand[] = [];
  for (const entry of parsed as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    if (typeof e['file'] !== 'string' || typeof e['directory'] !== 'string') continue;
    const args = Array.isArray(e['arguments']) && e['arguments'].every((a) => typeof a === 'string') ? (e['arguments']) : undefined;
    const command = typeof e['command'] === 'string' ? e['command'] : undefined;
    if (args === undefined && command === undefined) continue;
    const directory = isAbsolute(e['directory']) ? e['directory'] : resolve(databaseDir, e['directory']);
    out.push({ directory, file: e['file'], ...(args !== undefined ? { arguments: args } : { command: command }), ...(typeof e['output'] === 'string' ? { output: e['output'] } : {}) });
  }
  return out;
}

/** The root's `compile_flags.txt`: one flag per line. */
async function compileFlags(root: string): Promise<{ origin: string; dir: string; flags: string[] } | undefined> {
  const path = join(root, 'compile_flags.txt');
  const read = readConfined(root, path, MAX_FLAGS_BYTES);
  if (!read.ok) return undefined;
  const flags = read.text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  return { origin: 'compile_flags.txt', dir: root, flags };
}

/**
 * One command per C/C++ source (outside dependency, build and hidden folders, and .gitignored
 * ones), bounded by {@link MAX_DESCRIBED_SOURCES}. With `flags` (compile_flags.txt) those are the
 * flags; else include folders are the root, every folder holding headers, then the folders above them.
 */
async function describeLayout(root: string, flags: readonly string[] | undefined, flagsDir: string | undefined): Promise<{ commands: CompileCommand[]; cut: boolean; files: readonly string[]; includeDirs: readonly string[] }> {
  const extensions = [...C_SOURCE_EXTENSIONS, ...CPP_SOURCE_EXTENSIONS, ...HEADER_EXTENSIONS];
  const walk = await runFileJob({ kind: 'walk', root, start: '', limit: MAX_DESCRIBED_SOURCES * 4, extensions }, { overrun: (stopped) => new DialectError({ code: SearchCode.WalkTimeout, message: `listing the C/C++ sources ${stopped}` }) }).catch(() => ({ files: [] as string[] }));
  const files = walk.files.filter((f) => !f.split('/').slice(0, -1).some((part) => SKIPPED_DIRS.has(part) || part.startsWith('.')));
  const sources = files.filter((f) => !isHeader(f));
  const headerDirs = [...new Set(files.filter(isHeader).map((f) => f.split('/').slice(0, -1).join('/')))];
  // The folders above them too, after them: `include/spdlog/logger.h` is written `"spdlog/logger.h"`.
  const includeDirs = [...new Set(['', ...headerDirs, ...headerDirs.flatMap(foldersAbove)])].slice(0, MAX_INCLUDE_DIRS);
  const includes = includeDirs.flatMap((d) => ['-I', d === '' ? root : join(root, ...d.split('/'))]);
  const cut = sources.length > MAX_DESCRIBED_SOURCES;
  const commands = sources.slice(0, MAX_DESCRIBED_SOURCES).map((f) => {
    const file = join(root, ...f.split('/'));
    const cpp = !f.endsWith('.c');
    // The driver's name only tells clangd the language: nothing runs it (no --query-driver matches it).
    const driver = cpp ? 'clang++' : 'clang';
    const args = flags !== undefined ? [...flags] : includes;
    return { directory: flagsDir ?? dirname(file), file, arguments: [driver, ...args, '-c', file] };
  });
  return { commands, cut, files, includeDirs };
}

/** The folders above a workspace folder (`a/b/c` → `a/b`, `a`), nearest first. */
function foldersAbove(dir: string): string[] {
  const parts = dir.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, parts.length - 1 - i).join('/'));
}

function isHeader(path: string): boolean {
  return HEADER_EXTENSIONS.some((e) => path.endsWith(e));
}

function relativeOf(root: string, path: string): string {
  return path.slice(root.length + 1).split(sep).join('/');
}
