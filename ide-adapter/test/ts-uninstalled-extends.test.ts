/**
 * Projects whose tsconfig.json extends a configuration from a package that is not installed are
 * named once, with the fix (`languages/typescript/uninstalled-extends.ts`): tsgo loads them
 * without it, and the workspace packages they import may not resolve (trpc's `examples/.test/*`,
 * cloned without `npm install`). Real folder trees made in the test.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeScriptServer } from '../languages/typescript/index.js';
import { uninstalledExtendsNote } from '../languages/typescript/uninstalled-extends.js';
import { LanguageServer } from '../lsp/client.js';
import { startVerdict } from '../lsp/start-checks.js';
import { requireServer } from './support/servers.js';

const ts = await requireServer(typeScriptServer);

describe.skipIf(ts === undefined)('projects extending an uninstalled package configuration', () => {
  let root: string;
  const files: Record<string, string> = {
    'tsconfig.json': '{ "files": [] }',
    'apps/web/tsconfig.json': '{ // the shared settings\n "extends": "@acme/tsconfig/react.json", }',
    'apps/web/src/index.ts': 'export const web = 1;\n',
    'apps/api/tsconfig.json': '{ "extends": ["./tsconfig.base.json", "@acme/tsconfig/node"] }',
    'apps/api/tsconfig.base.json': '{}',
    'apps/api/src/index.ts': 'export const api = 1;\n',
    'libs/ok/tsconfig.json': '{ "extends": "@installed/tsconfig" }',
    'libs/ok/src/index.ts': 'export const ok = 1;\n',
    'node_modules/@installed/tsconfig/tsconfig.json': '{}',
    'libs/plain/tsconfig.json': '{ "extends": "../../tsconfig.json" }',
    'libs/plain/src/index.ts': 'export const plain = 1;\n',
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-uninstalled-extends-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names each configuration whose extends names a package no node_modules above it has, and none other, once', async () => {
    const { refusal, notes } = await startVerdict(typeScriptServer, root);
    expect(refusal).toBeUndefined();
    expect(notes).toEqual([
      'TypeScript: 2 projects extend configurations from a package that is not installed (apps/api extends @acme/tsconfig/node; apps/web extends @acme/tsconfig/react.json): ' +
        'tsgo loads them without it, so the workspace packages they import may not resolve and references from their files may be missing; install the dependencies (npm install) to load them whole',
    ]);
  });

  it("is one of a real tsgo start's warnings, once", async () => {
    const server = await LanguageServer.start(typeScriptServer, root, { binary: ts });
    try {
      expect(server.warnings.filter((w) => w.includes('from a package that is not installed'))).toEqual([expect.stringMatching(/^TypeScript: 2 projects extend configurations .*\(apps\/api extends @acme\/tsconfig\/node; apps\/web extends/)]);
    } finally {
      await server.shutdown();
    }
  });

  it('says nothing when every package a configuration extends is installed', async () => {
    const installed = await mkdtemp(join(tmpdir(), 'dialect-installed-extends-'));
    try {
      for (const path of ['tsconfig.json', 'libs/ok/tsconfig.json', 'libs/ok/src/index.ts', 'node_modules/@installed/tsconfig/tsconfig.json', 'libs/plain/tsconfig.json', 'libs/plain/src/index.ts']) {
        await mkdir(join(installed, path, '..'), { recursive: true });
        await writeFile(join(installed, path), files[path] as string);
      }
      expect(await startVerdict(typeScriptServer, installed)).toEqual({ refusal: undefined, notes: [] });
    } finally {
      await rm(installed, { recursive: true, force: true });
    }
  });

  it('names the configurations past the first three by their count', () => {
    const found = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ config: join(root, name, 'tsconfig.json'), spec: `@x/${name}` }));
    found.push({ config: join(root, 'configs/base.json'), spec: '@x/base' });
    expect(uninstalledExtendsNote(root, found)).toMatch(/^TypeScript: 6 projects extend configurations from a package that is not installed \(a extends @x\/a; b extends @x\/b; c extends @x\/c and 3 more\): /);
    expect(uninstalledExtendsNote(root, [{ config: join(root, 'configs/base.json'), spec: '@x/base' }])).toMatch(/^TypeScript: 1 project extends a configuration from a package that is not installed \(configs\/base\.json extends @x\/base\)/);
  });
});
