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

describe('projects extending an uninstalled package configuration', () => {
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

  it('names each project whose extends names a package no node_modules above it has, and none other', () => {
    const dirs = ['apps/web', 'apps/api', 'libs/ok', 'libs/plain'].map((d) => join(root, d));
    expect(uninstalledExtendsNote(root, dirs)).toBe(
      '2 projects extend configurations from a package that is not installed (apps/web extends @acme/tsconfig/react.json; apps/api extends @acme/tsconfig/node): ' +
        'tsgo loads them without it, so the workspace packages they import may not resolve and references from their files may be missing; install the dependencies (npm install) to load them whole',
    );
    expect(uninstalledExtendsNote(root, [join(root, 'libs/ok'), join(root, 'libs/plain')])).toBeUndefined();
  });

  it("is one of the TypeScript start's warnings, once its anchors are sent", async () => {
    const anchors = await typeScriptServer.projectAnchors?.(root);
    const later = await anchors?.later?.();
    expect(later?.warnings).toEqual([expect.stringMatching(/^TypeScript: 2 projects extend configurations from a package that is not installed \(apps\/api extends @acme\/tsconfig\/node; apps\/web extends/)]);
  });
});
