/** Copies a fixture to a temp dir, so language servers never write into the repository. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function copyWorkspace(name: string): Promise<{ root: string; dispose: () => Promise<void> }> {
  const source = fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
  const base = await mkdtemp(join(tmpdir(), `dialect-bench-${name}-`));
  const root = join(base, name);
  await cp(source, root, { recursive: true, filter: (src) => !/[/\\](target|node_modules)$/.test(src) });
  return { root, dispose: () => rm(base, { recursive: true, force: true }) };
}
