/**
 * Projects whose `tsconfig.json` extends a configuration from a package that is not installed
 * (`"extends": "@acme/tsconfig/react.json"` in a monorepo whose dependencies were never
 * fetched): tsgo loads such a project without it — no `paths`, no `baseUrl`, other module
 * resolution — so the workspace packages it imports may not resolve, and references from its
 * files go missing with nothing said. Named once, with the fix. The project-file check finds
 * them as it follows every `extends` (`project-files-check.ts`); this is TypeScript's sentence.
 */
import { basename, dirname, relative, sep } from 'node:path';
import type { UninstalledExtends } from '../../project-files-check.js';
import { dependenciesInstallCommand, uninstalledDependencies } from './dependencies.js';

/** Configurations named in the note at most (the rest are counted). */
const MAX_NAMED = 3;

/** The note about the configurations of `found` (absolute, under `root`), or `undefined` when there are none. */
export function uninstalledExtendsNote(root: string, found: readonly UninstalledExtends[]): string | undefined {
  // Nothing installed at all: the dependencies warning says it, extended configurations included, with the same fix.
  if (found.length === 0 || uninstalledDependencies(root) !== undefined) return undefined;
  // A project's own tsconfig.json is named by its folder, another configuration by its file.
  const shown = (config: string): string => relative(root, basename(config) === 'tsconfig.json' ? dirname(config) : config).split(sep).join('/') || '.';
  const named = found
    .slice(0, MAX_NAMED)
    .map(({ config, spec }) => `${shown(config)} extends ${spec}`)
    .join('; ');
  const more = found.length > MAX_NAMED ? ` and ${found.length - MAX_NAMED} more` : '';
  return (
    `TypeScript: ${found.length === 1 ? '1 project extends a configuration' : `${found.length} projects extend configurations`} from a package that is not installed (${named}${more}): ` +
    `tsgo loads them without it, so the workspace packages they import may not resolve and references from their files may be missing; install the dependencies (${dependenciesInstallCommand(root)}) to load them whole`
  );
}
