/**
 * A workspace whose package.json names packages and no node_modules holds them (cloned without
 * `npm install`) is said once, from a real tsgo start, with the fix
 * (`languages/typescript/dependencies.ts`); the note about configurations extended from those
 * packages is then not said besides. Real folder trees made in the test.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEPENDENCIES_NOT_INSTALLED, dependenciesWarnings, uninstalledDependencies } from '../languages/typescript/dependencies.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { LanguageServer } from '../lsp/client.js';
import { startVerdict } from '../lsp/start-checks.js';
import { requireServer } from './support/servers.js';

const ts = await requireServer(typeScriptServer);

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-ts-dependencies-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes the files (workspace-relative path → text) under the test's root. */
async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const MANIFEST = JSON.stringify({ name: 'app', dependencies: { express: '^5' }, devDependencies: { '@acme/tsconfig': '1', vitest: '3', express: '^5' } });

describe('dependencies not installed', () => {
  it('counts the distinct packages package.json names when no node_modules holds them', async () => {
    await write({ 'package.json': MANIFEST });
    expect(uninstalledDependencies(root)).toBe(3);
    const warnings = dependenciesWarnings(root);
    expect(warnings.map((w) => w.key)).toEqual([DEPENDENCIES_NOT_INSTALLED]);
    expect(warnings[0]?.text).toMatch(/^TypeScript: none of the 3 packages package\.json names is installed \(no node_modules\).*Fix: npm install$/);
    await write({ '.pnp.cjs': '' });
    expect(dependenciesWarnings(root)[0]?.text).toMatch(/Fix: nodeLinker: node-modules/);
  });

  it("names the workspace's own package manager in the fix: npm refuses pnpm's workspace:* versions (TanStack/store)", async () => {
    await write({ 'package.json': MANIFEST, 'pnpm-lock.yaml': 'lockfileVersion: 9.0\n' });
    expect(dependenciesWarnings(root)[0]?.text).toMatch(/Fix: pnpm install$/);
    await rm(join(root, 'pnpm-lock.yaml'));
    await write({ 'yarn.lock': '' });
    expect(dependenciesWarnings(root)[0]?.text).toMatch(/Fix: yarn install$/);
    // Corepack's field decides over a lock file.
    await write({ 'package.json': JSON.stringify({ ...JSON.parse(MANIFEST), packageManager: 'pnpm@9.1.0' }) });
    expect(dependenciesWarnings(root)[0]?.text).toMatch(/Fix: pnpm install$/);
  });

  it('says nothing when they are installed, when none are named, or when package.json cannot be read', async () => {
    await write({ 'package.json': MANIFEST, 'node_modules/express/package.json': '{}' });
    expect(dependenciesWarnings(root)).toEqual([]);
    await rm(join(root, 'node_modules'), { recursive: true });
    for (const text of ['{ "name": "app", "scripts": {} }', '{ "dependencies": [] }', 'not json']) {
      await write({ 'package.json': text });
      expect(uninstalledDependencies(root), text).toBeUndefined();
    }
  });

  it.skipIf(ts === undefined)("is one of a real tsgo start's warnings, once, and the extends note is not said besides", async () => {
    await write({ 'package.json': MANIFEST, 'tsconfig.json': '{ "extends": "@acme/tsconfig/base.json" }', 'src/index.ts': 'export const x = 1;\n' });
    expect((await startVerdict(typeScriptServer, root)).notes).toEqual([]);
    const server = await LanguageServer.start(typeScriptServer, root, { binary: ts });
    try {
      expect(server.warnings.filter((w) => /installed/.test(w))).toEqual([expect.stringMatching(/^TypeScript: none of the 3 packages/)]);
    } finally {
      await server.shutdown();
    }
  });
});
