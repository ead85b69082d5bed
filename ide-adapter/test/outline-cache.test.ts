/**
 * The one cache of file outlines (`outline-cache.ts`): under an unchanged stamp that covers the
 * file an outline is reused without looking at the disk; otherwise only while the file keeps its
 * real location, size and time; a folder the watcher skips is always checked; a file swapped for
 * a link that leads outside is asked afresh and refused; the stamp is read once per question.
 * The source is a stand-in for the server that outlines a file from its text as the workspace
 * reads it (through the confinement check, as the backend's open does).
 */
import { mkdir, mkdtemp, realpath, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutlineSymbol } from '../backend.js';
import { OutlineCache } from '../outline-cache.js';
import { Workspace, type DiskStamp } from '../workspace.js';

let base: string;
let root: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-outline-cache-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'function first() {}\n');
  await writeFile(join(base, 'secret.ts'), 'function secret() {}\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A cache over a real workspace whose outlines name the functions of the file's text. */
function setup(): { cache: OutlineCache<DiskStamp>; names: (path: string) => Promise<string[]>; counts: { stampReads: number; fetches: number }; setStamp: (s: DiskStamp | undefined) => void } {
  const workspace = new Workspace(root);
  const counts = { stampReads: 0, fetches: 0 };
  let stamp: DiskStamp | undefined;
  const cache = new OutlineCache<DiskStamp>(workspace, {
    diskNow: async () => {
      counts.stampReads++;
      return stamp;
    },
    fetch: async (path) => {
      counts.fetches++;
      const text = await workspace.readText(path);
      return [...text.matchAll(/function (\w+)/g)].map((m) => ({ name: m[1] }) as unknown as OutlineSymbol);
    },
  });
  const names = async (path: string): Promise<string[]> => (await cache.outline(path)).map((o) => o.name);
  return { cache, names, counts, setStamp: (s) => (stamp = s) };
}

/** Rewrites a file with other text of the same length and the same time: only a stamp can tell. */
async function rewriteUnseen(path: string, text: string): Promise<void> {
  const when = new Date('2020-01-01T00:00:00Z');
  await writeFile(path, text);
  await utimes(path, when, when);
}

describe('OutlineCache', () => {
  it('reuses an outline while the stamp holds, then only while the file is unchanged on disk', async () => {
    const { names, counts, setStamp } = setup();
    const file = join(root, 'src', 'a.ts');
    await rewriteUnseen(file, 'function first() {}\n');
    const owner = {};
    setStamp({ owner, value: 1, covers: () => true });
    expect(await names('src/a.ts')).toEqual(['first']);
    // Changed behind the watcher's back (its stamp would have moved): the stamp vouches.
    await writeFile(file, 'function second() {}\nfunction third() {}\n');
    expect(await names('src/a.ts')).toEqual(['first']);
    expect(counts).toEqual({ stampReads: 2, fetches: 1 });
    // The stamp moved: the file's stats decide, once (the new stamp vouches again after).
    setStamp({ owner, value: 2, covers: () => true });
    expect(await names('src/a.ts')).toEqual(['second', 'third']);
    expect(await names('src/a.ts')).toEqual(['second', 'third']);
    expect(counts).toEqual({ stampReads: 4, fetches: 2 });
    // Another watcher's count (a restarted one counts from zero) vouches for nothing it did not see.
    await rewriteUnseen(file, 'function fourth() {}\n');
    setStamp({ owner: {}, value: 2, covers: () => true });
    expect(await names('src/a.ts')).toEqual(['fourth']);
    // Unchanged stats under a new stamp: reused, without asking the server again.
    setStamp({ owner, value: 3, covers: () => true });
    expect(await names('src/a.ts')).toEqual(['fourth']);
    expect(counts.fetches).toBe(3);
  });

  it('always checks a file the stamp does not cover (a folder the watcher skips), and one with no stamp', async () => {
    const { names, counts, setStamp } = setup();
    const file = join(root, 'src', 'a.ts');
    setStamp({ owner: {}, value: 1, covers: () => false });
    expect(await names('src/a.ts')).toEqual(['first']);
    await writeFile(file, 'function second() {}\nfunction more() {}\n');
    expect(await names('src/a.ts')).toEqual(['second', 'more']);
    setStamp(undefined);
    await writeFile(file, 'function third() {}\n');
    expect(await names('src/a.ts')).toEqual(['third']);
    expect(counts.fetches).toBe(3);
  });

  it('reads the stamp once per question, hit or miss, and shares one answer among concurrent askers', async () => {
    const { names, counts, setStamp } = setup();
    setStamp({ owner: {}, value: 1, covers: () => true });
    const answers = await Promise.all([names('src/a.ts'), names('src/a.ts'), names(join(root, 'src', 'a.ts'))]);
    expect(answers).toEqual([['first'], ['first'], ['first']]);
    expect(counts).toEqual({ stampReads: 3, fetches: 1 });
  });

  it('asks afresh for a file swapped for a link that leads outside, and the workspace refuses it', async () => {
    const { names, setStamp } = setup();
    const owner = {};
    setStamp({ owner, value: 1, covers: () => true });
    expect(await names('src/a.ts')).toEqual(['first']);
    await unlink(join(root, 'src', 'a.ts'));
    await symlink(join(base, 'secret.ts'), join(root, 'src', 'a.ts'));
    // A watcher saw the swap: its stamp moved.
    setStamp({ owner, value: 2, covers: () => true });
    await expect(names('src/a.ts')).rejects.toMatchObject({ code: 'path-outside-workspace' });
    // The failure is not kept: asked again, refused again.
    await expect(names('src/a.ts')).rejects.toMatchObject({ code: 'path-outside-workspace' });
    await expect(names('../secret.ts')).rejects.toMatchObject({ code: 'path-outside-workspace' });
  });
});
