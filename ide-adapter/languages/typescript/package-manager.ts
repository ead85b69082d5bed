/**
 * The command that installs a JavaScript workspace's dependencies, as its own package manager
 * runs it: a fix saying `npm install` in a pnpm workspace does not fix it (npm refuses pnpm's
 * `workspace:*` versions: TanStack/store's packages depend on each other so). Read from the root
 * `package.json`'s `packageManager` field (Corepack's), else the lock file or workspace file there.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A package manager Dialect names in a fix. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** The files at a workspace's root that say which package manager it uses, checked in this order. */
const MARKER_FILES: readonly (readonly [string, PackageManager])[] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['pnpm-workspace.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
];

/** `packageManager` values Corepack reads: `pnpm@9.1.0`, `yarn@4.2.2+sha512.…`. */
const PACKAGE_MANAGER_FIELD = /^(npm|pnpm|yarn|bun)@/;

/**
 * The package manager of the workspace at `root`, given its parsed root `package.json` (or
 * undefined): the `packageManager` field, else the first marker file found; `npm` when none says.
 */
export function packageManagerOf(root: string, manifest: unknown): PackageManager {
  const field = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>)['packageManager'] : undefined;
  const named = typeof field === 'string' ? PACKAGE_MANAGER_FIELD.exec(field)?.[1] : undefined;
  if (named !== undefined) return named as PackageManager;
  return MARKER_FILES.find(([file]) => existsSync(join(root, file)))?.[1] ?? 'npm';
}

/** The command that installs the dependencies with `manager` (`pnpm install`). */
export function installCommand(manager: PackageManager): string {
  return `${manager} install`;
}
