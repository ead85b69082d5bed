/**
 * `package-files.ts` finds the same package root from the sources (this test, under vitest) and
 * from tsc's output in `dist/`, and names the file worker's module in each layout. The bundle's
 * layout is checked through the built command (`cli/test/package-files.test.ts`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as fromSource from '../package-files.js';
import { packageFile, packageModule, packageRequire, packageVersion } from '../package-files.js';
import { repoRoot } from './support/servers.js';

const root = repoRoot.replace(/\/$/, '');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

describe('the package files', () => {
  it('are found from the package root when running from the sources', () => {
    expect(packageFile()).toBe(root);
    expect(packageFile('mcp', 'guidance')).toBe(join(root, 'mcp', 'guidance'));
    expect(packageVersion()).toBe(version);
    expect(packageModule('ide-adapter/file-worker')).toBe(join(root, 'ide-adapter', 'file-worker.ts'));
    expect(packageRequire().resolve('tsnative/package.json')).toMatch(/tsnative\/package\.json$/);
  });

  it('are found from the same root when running from tsc’s output in dist/', async () => {
    const compiled = join(root, 'dist', 'ide-adapter', 'package-files.js');
    if (!existsSync(compiled)) throw new Error('dist/ is missing: run npm run build before this test');
    const fromDist = (await import(pathToFileURL(compiled).href)) as typeof fromSource;
    expect(fromDist.packageFile()).toBe(root);
    expect(fromDist.packageVersion()).toBe(version);
    const worker = fromDist.packageModule('ide-adapter/file-worker');
    expect(worker).toBe(join(root, 'dist', 'ide-adapter', 'file-worker.js'));
    expect(existsSync(worker)).toBe(true);
  });
});
