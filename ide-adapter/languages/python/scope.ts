/**
 * The Python files a project's own pyright configuration leaves out. A `pyrightconfig.json` or a
 * `[tool.pyright]` table in `pyproject.toml` with `include` makes pyright's program those paths
 * only (psf/requests: `include = ["src/requests"]`; python-attrs/attrs: one file): its index,
 * references and call hierarchy then miss the tests and everything else, and an answer would look
 * complete. Pyright offers no setting that overrides a configuration file, so the files left out
 * are counted (by top folder) and said once, as a warning.
 *
 * Only the workspace is read: the two configuration files (through the one confinement check,
 * `readConfined`: a FIFO, a device or a link leading out is not read), and a walk of its folders
 * that follows no symbolic link, skips what pyright skips by default (dot folders, `node_modules`,
 * `__pycache__`, virtual environments) and reads at most {@link MAX_SCOPE_ENTRIES} entries.
 *
 * This runs on the main thread as a server starts, on text the workspace writes: the files are
 * read in one pass each (no regular expression that rescans from every line or `/*`), and the
 * `include` specs are globs matched by `lsp/glob.ts`'s automaton under one budget
 * ({@link SCOPE_GLOB_STEPS}), never compiled to a backtracking regular expression.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConfined, withoutTrailingSlashes } from '../../confine.js';
import { compileGlob, type GlobBudget, type GlobMatcher } from '../../lsp/glob.js';
import { withoutCommentsAndTrailingCommas } from '../../lsp/project-files.js';
import type { KeyedWarning } from '../../lsp/servers.js';

/** Folder entries read at most while counting the files a configuration leaves out. */
export const MAX_SCOPE_ENTRIES = 20_000;

/** A configuration file read at most this far (they are small). */
const MAX_CONFIG_BYTES = 256 * 1024;

/** Glob steps the count may spend matching files against the include (past it, counting stops). */
const SCOPE_GLOB_STEPS = 5_000_000;

/** Top folders named in the warning at most. */
const MAX_NAMED_FOLDERS = 4;

/** Folders pyright leaves out by default: `node_modules`, `__pycache__` and dot folders. */
const SKIPPED_FOLDER = /^(?:node_modules|__pycache__|\..*)$/;

/** Where a configuration's `include` comes from, and its paths (relative to the root). */
export interface PyrightInclude {
  readonly source: string;
  readonly include: readonly string[];
}

/** The `include` of the workspace's pyright configuration (pyrightconfig.json first, as pyright reads them), if any. */
export function pyrightInclude(root: string): PyrightInclude | undefined {
  const json = readSmall(root, join(root, 'pyrightconfig.json'));
  if (json !== undefined) {
    const include = includeOfJson(json);
    return include === undefined ? undefined : { source: 'pyrightconfig.json', include };
  }
  const toml = readSmall(root, join(root, 'pyproject.toml'));
  const include = toml === undefined ? undefined : includeOfPyproject(toml);
  return include === undefined ? undefined : { source: 'pyproject.toml [tool.pyright]', include };
}

/** The warning that pyright's own `include` leaves Python files of the workspace out, or none. */
export function pyrightScopeWarnings(root: string): KeyedWarning[] {
  const config = pyrightInclude(root);
  if (config === undefined || config.include.length === 0) return [];
  const specs = config.include.map(specMatcher);
  const budget: GlobBudget = { steps: SCOPE_GLOB_STEPS };
  const outside = new Map<string, number>();
  let total = 0;
  let left = 0;
  const cut = walkPython(root, (path) => {
    if (budget.steps <= 0) return false;
    total++;
    if (specs.some((matches) => matches(path, budget))) return true;
    left++;
    const top = path.includes('/') ? `${path.slice(0, path.indexOf('/'))}/` : path;
    outside.set(top, (outside.get(top) ?? 0) + 1);
    return true;
  });
  if (left === 0) return [];
  const folders = [...outside].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = folders.slice(0, MAX_NAMED_FOLDERS).map(([f, n]) => `${f} ${n}`);
  const more = folders.length > MAX_NAMED_FOLDERS ? ` and ${folders.length - MAX_NAMED_FOLDERS} more` : '';
  return [
    {
      key: 'python:pyright-include',
      text: `pyright sees ${total - left} of ${cut ? 'the first ' : ''}${total} Python files, not ${named.join(', ')}${more}: the project's pyright include (${config.include.join(', ')} in ${config.source}) leaves them out; answers miss the definitions and uses there`,
    },
  ];
}

/** A configuration file of the workspace, or undefined when it is missing or fails the confinement check. */
function readSmall(root: string, path: string): string | undefined {
  const read = readConfined(root, path, MAX_CONFIG_BYTES);
  return read.ok ? read.text : undefined;
}

/** `include` of a pyrightconfig.json (JSON with comments and trailing commas, as pyright accepts). */
function includeOfJson(text: string): string[] | undefined {
  try {
    const include = (JSON.parse(withoutCommentsAndTrailingCommas(text)) as { include?: unknown }).include;
    return Array.isArray(include) ? include.filter((p): p is string => typeof p === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `include` of the `[tool.pyright]` table of a pyproject.toml: an array of strings, on one line or
 * several. Each line is looked at once: the array runs from its `include = [` line to the first `]`.
 */
function includeOfPyproject(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*\[\s*tool\.pyright\s*\]\s*(?:#.*)?$/.test(l));
  if (start < 0) return undefined;
  let array: string[] | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (array === undefined) {
      if (/^\s*\[/.test(line)) return undefined; // the next table: no include
      const opening = /^\s*include\s*=\s*\[/.exec(line);
      if (opening === null) continue;
      array = [];
      const rest = line.slice(opening[0].length);
      const close = rest.indexOf(']');
      array.push(close < 0 ? rest : rest.slice(0, close));
      if (close >= 0) break;
    } else {
      const close = line.indexOf(']');
      array.push(close < 0 ? line : line.slice(0, close));
      if (close >= 0) break;
    }
  }
  if (array === undefined) return undefined;
  return [...array.map((l) => l.replace(/#.*$/, '')).join('\n').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
}

/**
 * A pyright file spec (a path relative to the root, with `**`, `*` and `?`) as a test of a
 * relative path: the path itself, or anything below it.
 */
function specMatcher(spec: string): GlobMatcher {
  const path = withoutTrailingSlashes(spec.replace(/\\/g, '/').replace(/^\.\/?/, ''));
  if (path === '') return () => true;
  // pyright's specs have no braces or classes: those characters are literal.
  return compileGlob(`${path.replace(/[{}[\],!]/g, '\\$&')}/**`);
}

/**
 * Calls `visit` with each Python file's workspace path while it returns true; true when the walk
 * stopped early (at its bound, or told to by `visit`).
 */
function walkPython(root: string, visit: (path: string) => boolean): boolean {
  const folders = [''];
  let entries = 0;
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    const abs = folder === '' ? root : join(root, folder);
    if (folder !== '' && existsSync(join(abs, 'pyvenv.cfg'))) continue; // a virtual environment
    let list;
    try {
      list = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list) {
      if (++entries > MAX_SCOPE_ENTRIES) return true;
      const path = folder === '' ? e.name : `${folder}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIPPED_FOLDER.test(e.name)) folders.push(path);
      } else if (e.isFile() && /\.pyi?$/.test(e.name) && !visit(path)) return true;
    }
  }
  return false;
}
