/**
 * Reads vouched for by a directory watcher's stamp (`Workspace.watchedBy`): under an unchanged
 * stamp a file is answered from memory, without its real location or a stat; a change on disk
 * moves the stamp, so the next read sees it, and a file swapped for a link that leads outside is
 * still refused. A server that registers no watch globs (clangd) gets a watcher for the stamp
 * without being told of changes.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWatchRegistry } from '../lsp/file-watch.js';
import { DirectoryWatcher, type FileChange } from '../lsp/watcher.js';
import { Workspace, type DiskStamp } from '../workspace.js';

let base: string;
let root: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-disk-stamp-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.rs'), 'fn first() {}\n');
  await writeFile(join(base, 'secret.txt'), 'outside the workspace\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Resolves once the watcher reported a settled batch. */
function nextSettle(onSettled: { resolve?: () => void }): Promise<void> {
  return new Promise((resolve) => (onSettled.resolve = resolve));
}

describe('Workspace.watchedBy', () => {
  it('answers from memory while the stamp holds, and from the disk once it moves or does not cover the file', async () => {
    const workspace = new Workspace(root);
    let stamp: DiskStamp | undefined = { owner: {}, value: 1, covers: () => true };
    workspace.watchedBy(async () => stamp);
    expect(await workspace.lines('src/a.rs')).toEqual(['fn first() {}', '']);
    // Changed behind the watcher's back (a watcher would have moved its stamp): the stamp vouches.
    await writeFile(join(root, 'src', 'a.rs'), 'fn second() {}\n');
    expect(await workspace.lines('src/a.rs')).toEqual(['fn first() {}', '']);
    stamp = { ...stamp, value: 2 };
    expect(await workspace.lines('src/a.rs')).toEqual(['fn second() {}', '']);
    // Another watcher's count (a restarted one counts from zero) vouches for nothing it did not see.
    await writeFile(join(root, 'src', 'a.rs'), 'fn third() {}\n');
    stamp = { owner: {}, value: 2, covers: () => true };
    expect(await workspace.lines('src/a.rs')).toEqual(['fn third() {}', '']);
    // A stamp that does not cover the file (a folder the watcher skips): always the disk.
    stamp = { owner: {}, value: 3, covers: () => false };
    expect(await workspace.lines('src/a.rs')).toEqual(['fn third() {}', '']);
    await writeFile(join(root, 'src', 'a.rs'), 'fn fourth() {}\n');
    expect(await workspace.lines('src/a.rs')).toEqual(['fn fourth() {}', '']);
    // No stamp (the watcher cannot vouch right now): the disk.
    stamp = undefined;
    await writeFile(join(root, 'src', 'a.rs'), 'fn fifth() {}\n');
    expect(await workspace.lines('src/a.rs')).toEqual(['fn fifth() {}', '']);
  });

  it('with a real watcher, sees an edit at once and still refuses a file swapped for a link outside', async () => {
    const workspace = new Workspace(root);
    const settled: { resolve?: () => void } = {};
    const owner = {};
    const watcher = new DirectoryWatcher(root, () => undefined, { debounceMs: 30, onSettled: () => settled.resolve?.() });
    await watcher.start();
    try {
      // Like the backend: the stamp is read after the event loop's next turn (events before the read count).
      workspace.watchedBy(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const value = watcher.stamp();
        return value === undefined ? undefined : { owner, value, covers: (abs) => abs.startsWith(`${root}/`) };
      });
      expect(await workspace.lines('src/a.rs')).toEqual(['fn first() {}', '']);
      expect(await workspace.lines('src/a.rs')).toEqual(['fn first() {}', '']);
      let batch = nextSettle(settled);
      await writeFile(join(root, 'src', 'a.rs'), 'fn edited() {}\n');
      expect(await workspace.lines('src/a.rs')).toEqual(['fn edited() {}', '']); // before the batch: no stamp, the disk
      await batch;
      expect(await workspace.lines('src/a.rs')).toEqual(['fn edited() {}', '']); // a new stamp
      expect(await workspace.lines('src/a.rs')).toEqual(['fn edited() {}', '']);
      batch = nextSettle(settled);
      await unlink(join(root, 'src', 'a.rs'));
      await symlink(join(base, 'secret.txt'), join(root, 'src', 'a.rs'));
      await expect(workspace.lines('src/a.rs')).rejects.toMatchObject({ code: 'path-outside-workspace' });
      await batch;
      await expect(workspace.lines('src/a.rs')).rejects.toMatchObject({ code: 'path-outside-workspace' });
    } finally {
      watcher.close();
    }
  });
});

describe('FileWatchRegistry.stamp', () => {
  it('starts a watcher for a server that registered nothing, which tells it of no change and never marks it rereading', async () => {
    const sent: FileChange[][] = [];
    let changing = 0;
    const settled: { resolve?: () => void } = {};
    const registry = new FileWatchRegistry(root, (changes) => sent.push(changes), { changing: () => changing++, settled: () => settled.resolve?.() });
    try {
      // The first call starts it; it vouches once every folder is watched.
      const first = registry.stamp();
      expect(first).toBeUndefined();
      await expect.poll(() => registry.stamp(), { timeout: 10_000, interval: 10 }).toBeTypeOf('number');
      const before = registry.stamp();
      const batch = nextSettle(settled);
      await writeFile(join(root, 'src', 'a.rs'), 'fn edited() {}\n');
      await batch;
      const after = registry.stamp();
      expect(after).toBeTypeOf('number');
      expect(after).not.toBe(before);
      expect(sent).toEqual([]);
      expect(changing).toBe(0);
    } finally {
      registry.close();
    }
    expect(registry.stamp()).toBeUndefined(); // closed: no new watcher
  });

  it('started by a start before the server registers, sends nothing until it does, then what its globs match', async () => {
    const sent: FileChange[][] = [];
    const settled: { resolve?: () => void } = {};
    const registry = new FileWatchRegistry(root, (changes) => sent.push(changes), { changing: () => undefined, settled: () => settled.resolve?.() });
    try {
      registry.start();
      registry.start(); // once is enough: the same watcher
      await expect.poll(() => registry.stamp(), { timeout: 10_000, interval: 10 }).toBeTypeOf('number');
      const early = nextSettle(settled);
      await writeFile(join(root, 'src', 'early.rs'), 'fn early() {}\n');
      await early; // seen, in a batch of its own
      expect(sent).toEqual([]); // no globs yet: nothing concerns the server
      registry.register('tsgo', { watchers: [{ globPattern: '**/*.rs' }] });
      const batch = nextSettle(settled);
      await writeFile(join(root, 'src', 'a.rs'), 'fn edited() {}\n');
      await batch;
      expect(sent).toEqual([[{ path: join(root, 'src', 'a.rs'), type: 2 }]]);
    } finally {
      registry.close();
    }
  });
});
