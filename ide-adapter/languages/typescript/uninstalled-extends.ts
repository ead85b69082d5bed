/**
 * Projects whose `tsconfig.json` extends a configuration from a package that is not installed
 * (`"extends": "@acme/tsconfig/react.json"` in a monorepo whose dependencies were never
 * fetched): tsgo loads such a project without it — no `paths`, no `baseUrl`, other module
 * resolution — so the workspace packages it imports may not resolve, and references from its
 * files go missing with nothing said. Named once, with the fix. Our own confined reads of the
 * projects' configurations; a package is looked up as the project-file check follows `extends`
 * (`project-files-check.ts`).
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { readConfined } from '../../confine.js';
import { extendsSpecs, MAX_PROJECT_FILE_BYTES, packageConfiguration } from '../../project-files-check.js';

/** Projects named in the note at most (the rest are counted). */
const MAX_NAMED = 3;

/** The note about the projects of `projectDirs` (absolute) that extend an uninstalled package's configuration, or `undefined` when none does. */
export function uninstalledExtendsNote(root: string, projectDirs: readonly string[]): string | undefined {
  const found: string[] = [];
  for (const dir of projectDirs) {
    const read = readConfined(root, join(dir, 'tsconfig.json'), MAX_PROJECT_FILE_BYTES);
    if (!read.ok) continue;
    const missing = extendsSpecs(read.text).find((spec) => !spec.startsWith('.') && !isAbsolute(spec) && packageConfiguration(root, dir, spec) === undefined);
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
