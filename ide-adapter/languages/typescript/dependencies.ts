/**
 * A workspace whose dependencies were never installed (cloned, no `npm install`/`pnpm install`): its
 * `package.json` names packages and no `node_modules` holds them. tsgo then resolves no import of
 * them, so a value typed by one reads as `any` in hovers, a configuration extended from one is not
 * applied, and uses made through them are not found — answers that look whole. Said once, from the
 * start, with the fix (Python's counterpart is its no-environment warning).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConfined } from '../../confine.js';
import type { KeyedWarning } from '../../lsp/servers.js';
import { MAX_PROJECT_FILE_BYTES } from '../../project-files-check.js';
import { installCommand, packageManagerOf } from './package-manager.js';

/** The `package.json` fields that name packages to install. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** The warning's key: one per session. */
export const DEPENDENCIES_NOT_INSTALLED = 'typescript:dependencies-not-installed';

/**
 * How many packages the root `package.json` names when none is installed (no `node_modules` at the
 * root); `undefined` when they are installed, none are named, or the manifest cannot be read.
 */
export function uninstalledDependencies(root: string): number | undefined {
  return uninstalled(root)?.count;
}

/** The command that installs the workspace's dependencies, with its own package manager (`pnpm install`; see `package-manager.ts`). */
export function dependenciesInstallCommand(root: string): string {
  return installCommand(packageManagerOf(root, readManifest(root)));
}

/** The root `package.json`, parsed; undefined when it cannot be read or parsed. */
function readManifest(root: string): unknown {
  const read = readConfined(root, join(root, 'package.json'), MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.text) as unknown;
  } catch {
    return undefined;
  }
}

/** How many packages the root manifest names when none is installed, with the manifest. */
function uninstalled(root: string): { count: number; manifest: object } | undefined {
  if (existsSync(join(root, 'node_modules'))) return undefined;
  const manifest = readManifest(root);
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const names = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    const listed = (manifest as Record<string, unknown>)[field];
    if (typeof listed === 'object' && listed !== null && !Array.isArray(listed)) for (const name of Object.keys(listed)) names.add(name);
  }
  return names.size > 0 ? { count: names.size, manifest } : undefined;
}

/** The start's warning when the root's dependencies are not installed (see {@link uninstalledDependencies}); Yarn Plug'n'Play, which tsgo cannot read, gets its own fix. */
export function dependenciesWarnings(root: string): KeyedWarning[] {
  const found = uninstalled(root);
  if (found === undefined) return [];
  const { count, manifest } = found;
  // Short: the line an answer carries keeps the fix and cuts the middle (`notes-ledger.ts`).
  const fix = existsSync(join(root, '.pnp.cjs')) ? "nodeLinker: node-modules (tsgo cannot read Yarn Plug'n'Play)" : installCommand(packageManagerOf(root, manifest));
  return [
    {
      key: DEPENDENCIES_NOT_INSTALLED,
      text:
        `TypeScript: none of the ${count} package${count === 1 ? '' : 's'} package.json names is installed (no node_modules): imports of them do not resolve, ` +
        `so their types read as any, configurations extended from them are not applied, and uses through them are missed. Fix: ${fix}`,
    },
  ];
}
