/**
 * Go-to-definition answers are kept while nothing they depend on can have changed (the server
 * process, ready, and the disk as a watcher saw it): a lookup asks the same candidates again and
 * again. An edit that moves the target, below a call site that stays where it was (so the question
 * is the same), is answered at once with the new place. Real clangd (it registers no watch globs:
 * the client watches for the stamp) on a copy of fixtures/c-plain.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { clangdServer } from '../languages/cpp/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(clangdServer)) !== undefined;

const source = (gap: number): string =>
  ['static int twice(int x);', '', 'int use_twice(int n) {', '  return twice(n);', '}', ...Array.from({ length: gap }, () => ''), 'static int twice(int x) {', '  return 2 * x;', '}', ''].join('\n');

describe.runIf(available)('go-to-definition answers kept by the disk stamp (real clangd)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('c-plain', async (root) => {
      await writeFile(join(root, 'src', 'twice.c'), source(1));
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  const at = (symbol: unknown): string => {
    const s = symbol as SymbolDefinition;
    return `${s.definedAt.path}:${s.definedAt.start.line}:${s.definedAt.start.column}`;
  };

  it('answers an edit that moved the target at once, though the question is the same', async () => {
    const call = await f.at('src/twice.c', 'twice(n)');
    const ask = `symbolAt("src/twice.c", ${call.line}, ${call.column})`;
    const before = await f.nameIn('src/twice.c', 'static int twice(int x) {', 'twice');
    expect(at(await f.value(ask))).toBe(`src/twice.c:${before.line}:${before.column}`);
    expect(at(await f.value(ask))).toBe(`src/twice.c:${before.line}:${before.column}`); // kept
    await writeFile(join(f.root, 'src', 'twice.c'), source(4));
    const after = await f.nameIn('src/twice.c', 'static int twice(int x) {', 'twice');
    expect(after.line).toBe(before.line + 3);
    expect((await f.at('src/twice.c', 'twice(n)')).line).toBe(call.line); // the same question
    expect(at(await f.value(ask))).toBe(`src/twice.c:${after.line}:${after.column}`);
    // Once the watcher made its batch (a new stamp), and kept again under it.
    await expect.poll(async () => at(await f.value(ask)), { timeout: 20_000, interval: 100 }).toBe(`src/twice.c:${after.line}:${after.column}`);
    expect(at(await f.value(ask))).toBe(`src/twice.c:${after.line}:${after.column}`);
  });
});
