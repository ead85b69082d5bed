/**
 * The session note about imports pyright cannot resolve names them: once, in one short line,
 * with the way to where they are (`diagnostics`), from the first answer on. What pyright
 * resolves — the standard library, the workspace's own modules (a sibling module included),
 * relative imports — is never named, nor an import written in a docstring. Real pyright on a copy of fixtures/py-app with files added.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NOTE_LINE } from '../notes-ledger.js';
import { pythonServer } from '../languages/python/index.js';
import { IdeSession } from '../session.js';
import { copyFixture, requireServer } from './support/servers.js';

const available = (await requireServer(pythonServer)) !== undefined;

/** Modules no environment has: each imported in a different way. */
const MISSING = ['nopkg_alpha', 'nopkg_beta', 'nopkg_gamma'];

describe.runIf(available)('Python: the unresolved imports named (real pyright)', () => {
  let workspace: { root: string; dispose: () => Promise<void> };
  beforeAll(async () => {
    workspace = await copyFixture('py-app');
    const root = await realpath(workspace.root);
    await mkdir(join(root, 'tools'));
    await writeFile(join(root, 'tools', 'helpers.py'), 'def helper() -> int:\n    return 1\n');
    await writeFile(
      join(root, 'tools', 'run.py'),
      [
        'import os, sys',
        `import ${MISSING[0]}.sub as alpha  # a comment`,
        `from ${MISSING[1]} import thing`,
        `import json, ${MISSING[2]}`,
        'import helpers',
        'from shapes import Circle',
        'from . import helpers as again',
        '',
        'def documented() -> None:',
        '    """An example, not an import:',
        '',
        '        from nopkg_docstring import example',
        '    """',
        '',
        'def main() -> None:',
        '    print(os, sys, alpha, thing, helpers, Circle, again)',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await workspace.dispose();
  });

  it('names them in one line, once, with the way to where they are', async () => {
    const session = await IdeSession.open({ workspaceRoot: workspace.root, trusted: false, readyTimeoutMs: 120_000 });
    try {
      const first = await session.evaluate('findDefinitions("Circle")', { deadlineMs: 90_000 });
      expect(first.kind).toBe('value');
      const notes = first.notes.filter((n) => n.includes('cannot resolve'));
      expect(notes, first.notes.join('\n')).toHaveLength(1);
      const [note] = notes as [string];
      for (const missing of MISSING) expect(note, note).toContain(missing);
      // What pyright resolves is not named (the standard library, the workspace's modules), nor a docstring's example.
      for (const resolved of ['os', 'sys', 'json', 'helpers', 'shapes', 'nopkg_docstring']) expect(note).not.toMatch(new RegExp(`\\b${resolved}\\b`));
      expect(note).toContain('diagnostics(');
      expect(note, 'every name fits the line').not.toContain(' more');
      expect(note.length).toBeLessThanOrEqual(MAX_NOTE_LINE);
      const again = await session.evaluate('findDefinitions("Square")', { deadlineMs: 60_000 });
      expect(again.notes.filter((n) => n.includes('cannot resolve'))).toEqual([]);
    } finally {
      await session.shutdown();
    }
  }, 180_000);
});
