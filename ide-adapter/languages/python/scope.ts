/**
 * The Python files a project's own pyright configuration leaves out. A `pyrightconfig.json` or a
 * `[tool.pyright]` table in `pyproject.toml` with `include` makes pyright's program those paths
 * only (psf/requests: `include = ["src/requests"]`; python-attrs/attrs: one file): its index,
 * references and call hierarchy then miss the tests and everything else, and an answer would look
 * complete. Pyright offers no setting that overrides a configuration file, so the files left out
 * are counted (by top folder) and said once, as a warning.
 *
 * Only the workspace is read: the two configuration files, and a walk of its folders that follows
 * no symbolic link, skips what pyright skips by default (dot folders, `node_modules`,
 * `__pycache__`, virtual environments) and reads at most {@link MAX_SCOPE_ENTRIES} entries.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyedWarning } from '../../lsp/servers.js';

/** Folder entries read at most while counting the files a configuration leaves out. */
export const MAX_SCOPE_ENTRIES = 20_000;

/** A configuration file read at most this far (they are small). */
const MAX_CONFIG_BYTES = 256 * 1024;

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
  const json = readSmall(join(root, 'pyrightconfig.json'));
  if (json !== undefined) {
    const include = includeOfJson(json);
    return include === undefined ? undefined : { source: 'pyrightconfig.json', include };
  }
  const toml = readSmall(join(root, 'pyproject.toml'));
  const include = toml === undefined ? undefined : includeOfPyproject(toml);
  return include === undefined ? undefined : { source: 'pyproject.toml [tool.pyright]', include };
}

/** The warning that pyright's own `include` leaves Python files of the workspace out, or none. */
export function pyrightScopeWarnings(root: string): KeyedWarning[] {
  const config = pyrightInclude(root);
  if (config === undefined || config.include.length === 0) return [];
  const specs = config.include.map(specPattern);
  const outside = new Map<string, number>();
  let total = 0;
  let left = 0;
  const cut = walkPython(root, (path) => {
    total++;
    if (specs.some((s) => s.test(path))) return;
    left++;
    const top = path.includes('/') ? `${path.slice(0, path.indexOf('/'))}/` : path;
    outside.set(top, (outside.get(top) ?? 0) + 1);
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

function readSmall(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length > MAX_CONFIG_BYTES ? undefined : text;
  } catch {
    return undefined;
  }
}

/** `include` of a pyrightconfig.json (JSON with comments and trailing commas, as pyright accepts). */
function includeOfJson(text: string): string[] | undefined {
  const plain = text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, s: string | undefined) => s ?? '').replace(/,(\s*[}\]])/g, '$1');
  try {
    const include = (JSON.parse(plain) as { include?: unknown }).include;
    return Array.isArray(include) ? include.filter((p): p is string => typeof p === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** `include` of the `[tool.pyright]` table of a pyproject.toml: an array of strings, on one line or several. */
function includeOfPyproject(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*\[\s*tool\.pyright\s*\]\s*(?:#.*)?$/.test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  const table = lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
  const array = /^\s*include\s*=\s*\[([^\]]*)\]/m.exec(table);
  if (array === null) return undefined;
  return [...(array[1] ?? '').replace(/#[^\n]*/g, '').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** A pyright file spec (a path relative to the root, with `**`, `*` and `?`) as a test of a relative path. */
function specPattern(spec: string): RegExp {
  const path = spec.replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/\/+$/, '');
  if (path === '') return /^/;
  let re = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (c === '*' && path[i + 1] === '*') {
      re += path[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += path[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}(?:/|$)`);
}

/** Calls `visit` with each Python file's workspace path; true when the walk stopped at its bound. */
function walkPython(root: string, visit: (path: string) => void): boolean {
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
      } else if (e.isFile() && /\.pyi?$/.test(e.name)) visit(path);
    }
  }
  return false;
}
