/**
 * Projects whose `tsconfig.json` extends a configuration from a package that is not installed
 * (`"extends": "@acme/tsconfig/react.json"` in a monorepo whose dependencies were never
 * fetched): tsgo loads such a project without it — no `paths`, no `baseUrl`, other module
 * resolution — so the workspace packages it imports may not resolve, and references from its
 * files go missing with nothing said. Named once, with the fix. Our own confined reads of the
 * projects' configurations; a package counts as installed when a `node_modules` folder of the
 * project or of one above it, within the workspace, has the file.
 */
import { lstatSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isInside, readConfined } from '../../confine.js';
import { MAX_PROJECT_FILE_BYTES, withoutCommentsAndTrailingCommas } from '../../lsp/project-files.js';

/** Projects named in the note at most (the rest are counted). */
const MAX_NAMED = 3;

/** The note about the projects of `projectDirs` (absolute) that extend an uninstalled package's configuration, or `undefined` when none does. */
export function uninstalledExtendsNote(root: string, projectDirs: readonly string[]): string | undefined {
  const found: string[] = [];
  for (const dir of projectDirs) {
    const missing = packageExtends(root, dir).find((spec) => !installed(root, dir, spec));
    if (missing !== undefined) found.push(`${relative(root, dir).split(sep).join('/') || '.'} extends ${missing}`);
  }
  if (found.length === 0) return undefined;
  const named = found.slice(0, MAX_NAMED).join('; ');
  const more = found.length > MAX_NAMED ? ` and ${found.length - MAX_NAMED} more` : '';
  return (
    `${found.length === 1 ? '1 project extends a configuration' : `${found.length} projects extend configurations`} from a package that is not installed (${named}${more}): ` +
    'tsgo loads them without it, so the workspace packages they import may not resolve and references from their files may be missing; install the dependencies (npm install) to load them whole'
  );
}

/** The package specifiers (not paths) the `tsconfig.json` of `dir` extends. */
function packageExtends(root: string, dir: string): string[] {
  const read = readConfined(root, join(dir, 'tsconfig.json'), MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return [];
  let value: unknown;
  try {
    value = (JSON.parse(withoutCommentsAndTrailingCommas(read.text)) as { extends?: unknown }).extends;
  } catch {
    return []; // a broken configuration is the server's to report
  }
  const specs = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  return specs.filter((spec) => !spec.startsWith('.') && !isAbsolute(spec));
}

/** Whether `spec` is found as TypeScript finds an `extends` package: under a `node_modules` of `dir` or a folder above it, within the workspace. */
function installed(root: string, dir: string, spec: string): boolean {
  for (let at = dir; isInside(root, at); at = dirname(at)) {
    const base = join(at, 'node_modules', spec);
    if ([base, `${base}.json`, join(base, 'tsconfig.json')].some(present)) return true;
    if (at === root) break;
  }
  return false;
}

/** Whether something is at `path`, without following or opening it. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
