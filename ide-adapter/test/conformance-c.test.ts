/**
 * The C conformance row (conformance/c.cases.ts: a Makefile project without a compilation
 * database) against the spawned clangd, and on the same session what such a project is told:
 * one line saying the flags are guessed and how to get a database, and diagnostics after an
 * `#include` that was not found never pass for the compiler's.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import { cConformance } from './conformance/c.cases.js';
import { clangdAvailable, openClangdSession, treeOf } from './support/clangd.js';
import { runConformance } from './support/conformance-table.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

/** A source whose include cannot be found: clangd's diagnostics after it are guesses. */
const MISSING_INCLUDE = '#include "generated/config.h"\n\nint configured(void) { return CONFIG_VALUE; }\n';

function notesOf(o: Outcome): string[] {
  return 'notes' in o && Array.isArray(o.notes) ? (o.notes as string[]) : [];
}

describe.skipIf(!available)('C answered by the spawned clangd, without a compilation database', () => {
  let shared: FixtureSession | undefined;
  let treeBefore: string[] = [];
  afterAll(async () => {
    await shared?.dispose();
  });

  runConformance(
    cConformance,
    async (name, prepare) => {
      shared = await openClangdSession(name, async (root) => {
        await prepare?.(root);
        await writeFile(join(root, 'src', 'configured.c'), MISSING_INCLUDE);
        treeBefore = await treeOf(root);
      });
      return { ...shared, dispose: () => Promise.resolve() };
    },
    'the spawned clangd',
  );

  describe('what a project without a compilation database is told', () => {
    it('says once, in one line, that flags are guessed, with the fix', async () => {
      const status = JSON.stringify(await shared?.value('status()'));
      expect(status).toContain('no compilation database');
      expect(status).toContain('CMAKE_EXPORT_COMPILE_COMMANDS=ON');
      expect(status).toContain('bear -- make');
    });

    it('diagnostics after an #include that was not found carry a note, not a clean bill', async () => {
      const o = (await shared?.outcome('diagnostics("src/configured.c")')) as Outcome;
      expect(o.kind).toBe('value');
      const notes = notesOf(o).join('\n');
      expect(notes).toContain("'generated/config.h' file not found");
      expect(notes).toContain('not the compiler');
      // A file whose includes resolve has no such note.
      expect(notesOf((await shared?.outcome('diagnostics("src/stack.c")')) as Outcome).join('\n')).not.toContain('not the compiler');
    });

    it('describes the layout from a private folder: the tree is unchanged', async () => {
      expect(await treeOf(shared?.root as string)).toEqual(treeBefore);
    });
  });
});
