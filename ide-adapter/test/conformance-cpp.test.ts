/**
 * The C++ conformance row (conformance/cpp.cases.ts) against the clangd `dialect` spawns itself,
 * and, on the same session: clangd's background index lives in Dialect's private folder, never
 * in the workspace, and readiness waited for it.
 */
import { realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clangdStateDir } from '../languages/cpp/compile-db.js';
import { cppConformance } from './conformance/cpp.cases.js';
import { clangdAvailable, openClangdSession, treeOf } from './support/clangd.js';
import { runConformance } from './support/conformance-table.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

describe.skipIf(!available)('C++ answered by the spawned clangd', () => {
  let shared: (FixtureSession & { copy: { root: string; cache: string } }) | undefined;
  let treeBefore: string[] = [];
  let shardsAtReady: string[] = [];
  afterAll(async () => {
    await shared?.dispose();
  });

  runConformance(
    cppConformance,
    async (name, prepare) => {
      shared = await openClangdSession(name, async (root) => {
        await prepare?.(root);
        treeBefore = await treeOf(root);
      });
      shardsAtReady = await readdir(join(clangdStateDir(realpathSync(shared.root), { XDG_CACHE_HOME: shared.copy.cache }), '.cache', 'clangd', 'index')).catch(() => []);
      // Disposed once the checks below ran too.
      return { ...shared, dispose: () => Promise.resolve() };
    },
    'the spawned clangd',
  );

  describe('clangd writes nothing into the workspace', () => {
    it('indexes every translation unit of the database before it counts as ready, into the private folder', () => {
      for (const source of ['main.cpp', 'shape.cpp', 'math.cpp']) expect(shardsAtReady.some((s) => s.startsWith(`${source}.`) && s.endsWith('.idx')), `${source} in ${shardsAtReady.join(', ')}`).toBe(true);
    });

    it('leaves the tree as it was (no .cache/clangd next to the compilation database)', async () => {
      expect(shared).toBeDefined();
      expect(await treeOf(shared?.root as string)).toEqual(treeBefore);
    });
  });
});
