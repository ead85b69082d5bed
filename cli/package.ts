/**
 * Where the package lives (the CLI runs from `dist/cli/` after a build, or from `cli/` under tsx)
 * and what it is called: the version, the bundled fixtures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package root: the nearest folder above this module with the package's `package.json`. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && packageName(candidate) === 'dialect') return (root = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the dialect package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function packageName(file: string): string | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof data.name === 'string' ? data.name : undefined;
  } catch {
    return undefined;
  }
}

/** The version in package.json. */
export function packageVersion(): string {
  const data = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof data.version === 'string' ? data.version : '0.0.0';
}

/** A bundled fixture workspace (`fixtures/NAME`), relative to the package, never to the cwd. */
export function bundledFixture(name: string): string {
  return join(packageRoot(), 'fixtures', name);
}
