import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryWatcher, type FileChange } from '../lsp/watcher.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-watch-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'a');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DirectoryWatcher', () => {
  it('reports created, changed and deleted files in batches, including new directories, and skips node_modules', async () => {
    // Each step waits on the watcher's own event (its callback) until the changes it expects have
    // arrived, merging the batches of one burst; no fixed waits.
    let seen = new Map<string, number>();
    let waiting: { until: (changes: Map<string, number>) => boolean; resolve: () => void } | undefined;
    const onChanges = (changes: FileChange[]): void => {
      for (const c of changes) {
        const path = c.path.slice(root.length + 1);
        seen.set(path, seen.get(path) === 1 && c.type === 2 ? 1 : c.type); // created, then written: created
      }
      if (waiting?.until(seen) === true) waiting.resolve();
    };
    const watcher = new DirectoryWatcher(root, onChanges, { debounceMs: 50 });
    await watcher.start();
    expect(watcher.watchedDirectories).toBe(2);
    /** The changes reported since the last step, once `until` holds for them. */
    const next = async (until: (changes: Map<string, number>) => boolean): Promise<Map<string, number>> => {
      if (!until(seen)) await new Promise<void>((resolve) => (waiting = { until, resolve }));
      waiting = undefined;
      const changes = seen;
      seen = new Map();
      return changes;
    };
    const has = (...entries: [string, number][]) => (changes: Map<string, number>) => entries.every(([path, type]) => changes.get(path) === type);
    try {
      await writeFile(join(root, 'src', 'a.ts'), 'changed');
      await writeFile(join(root, 'src', 'b.ts'), 'new');
      await writeFile(join(root, 'node_modules', 'dep', 'x.js'), 'ignored');
      expect(await next(has(['src/a.ts', 2], ['src/b.ts', 1]))).toEqual(new Map([['src/a.ts', 2], ['src/b.ts', 1]])); // nothing from node_modules

      await mkdir(join(root, 'src', 'sub'));
      await writeFile(join(root, 'src', 'sub', 'c.ts'), 'c');
      await next(has(['src/sub/c.ts', 1]));
      await writeFile(join(root, 'src', 'sub', 'd.ts'), 'd');
      await next(has(['src/sub/d.ts', 1]));

      await rm(join(root, 'src', 'b.ts'));
      const deleted = await next(has(['src/b.ts', 3]));
      expect([...deleted].filter(([, type]) => type === 3)).toEqual([['src/b.ts', 3]]);
      await rm(join(root, 'src', 'sub'), { recursive: true });
      await next(has(['src/sub/c.ts', 3], ['src/sub/d.ts', 3]));
    } finally {
      watcher.close();
    }
  });

  it('keeps its stamp while nothing changes, and vouches for no stamp until a change is settled (caches depend on it)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-stamp-'));
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'a.ts'), 'a');
    let settled: (() => void) | undefined;
    const watcher = new DirectoryWatcher(dir, () => undefined, { debounceMs: 50, onSettled: () => settled?.() });
    try {
      expect(watcher.stamp()).toBeUndefined(); // not watching yet
      await watcher.start();
      const before = watcher.stamp();
      expect(before).toBeTypeOf('number');
      expect(watcher.stamp()).toBe(before);
      const batch = new Promise<void>((resolve) => (settled = resolve));
      await writeFile(join(dir, 'src', 'a.ts'), 'changed');
      // The change is seen on the event loop's next turn, before its batch is made: no stamp then.
      await new Promise((resolve) => setImmediate(resolve));
      expect(watcher.stamp()).toBeUndefined();
      await batch;
      const after = watcher.stamp();
      expect(after).toBeTypeOf('number');
      expect(after).not.toBe(before);
      watcher.close();
      expect(watcher.stamp()).toBeUndefined(); // a closed watcher vouches for nothing
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('remembers at most its file cap, and past it (as past its folder cap) is truncated and gives no stamp', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-files-'));
    const files = 1_000;
    const cap = 200;
    await mkdir(join(dir, 'many'));
    await mkdir(join(dir, 'other'));
    for (let i = 0; i < files; i++) await writeFile(join(dir, 'many', `f${i}.ts`), '');
    const watchers: DirectoryWatcher[] = [];
    const started = async (options: { maxFiles?: number; maxDirs?: number }): Promise<DirectoryWatcher> => {
      const watcher = new DirectoryWatcher(dir, () => undefined, options);
      watchers.push(watcher);
      await watcher.start();
      return watcher;
    };
    try {
      const under = await started({ maxFiles: files });
      expect(under.rememberedFiles).toBe(files);
      expect(under.truncated).toBe(false);
      expect(under.stamp()).toBeTypeOf('number');

      const over = await started({ maxFiles: cap });
      expect(over.rememberedFiles).toBeLessThanOrEqual(cap);
      expect(over.truncated).toBe(true);
      expect(over.stamp()).toBeUndefined(); // caches relying on the stamp must not trust it
      expect(over.watchedDirectories).toBe(3); // folders are still watched

      const pastFolders = await started({ maxDirs: 2 });
      expect(pastFolders.truncated).toBe(true);
      expect(pastFolders.stamp()).toBeUndefined();
    } finally {
      for (const watcher of watchers) watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('given its root with a trailing separator, knows the files by the paths its events name (a write is a change, not a creation)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-slash-'));
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'a.ts'), 'a');
    let heard: (changes: FileChange[]) => void = () => undefined;
    const watcher = new DirectoryWatcher(`${dir}/`, (changes) => heard(changes), { debounceMs: 50 });
    try {
      await watcher.start();
      const changes = new Promise<FileChange[]>((resolve) => (heard = resolve));
      await writeFile(join(dir, 'src', 'a.ts'), 'changed');
      expect(await changes).toEqual([{ path: join(dir, 'src', 'a.ts'), type: 2 }]);
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('past its file cap still reports a change to a file it does not remember (as created) and its deletion', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-unremembered-'));
    for (let i = 0; i < 20; i++) await writeFile(join(dir, `f${i}.ts`), '');
    const seen = new Map<string, number>();
    let waiting: { until: () => boolean; resolve: () => void } | undefined;
    const watcher = new DirectoryWatcher(
      dir,
      (changes) => {
        for (const c of changes) seen.set(c.path.slice(dir.length + 1), c.type);
        if (waiting?.until() === true) waiting.resolve();
      },
      { maxFiles: 5, debounceMs: 50 },
    );
    const until = async (check: () => boolean): Promise<void> => {
      if (!check()) await new Promise<void>((resolve) => (waiting = { until: check, resolve }));
      waiting = undefined;
    };
    try {
      await watcher.start();
      expect(watcher.truncated).toBe(true);
      // A file made past the cap is not remembered: each write of it is reported as a creation.
      const unremembered = 'new.ts';
      await writeFile(join(dir, unremembered), 'new');
      await until(() => seen.get(unremembered) === 1);
      seen.clear();
      await writeFile(join(dir, unremembered), 'changed');
      await until(() => seen.has(unremembered));
      expect(seen.get(unremembered)).toBe(1);
      expect(watcher.rememberedFiles).toBe(5);
      seen.clear();
      await rm(join(dir, unremembered));
      await until(() => seen.get(unremembered) === 3);
      expect(seen.get(unremembered)).toBe(3);
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('holds at most its pending cap, and past it re-reads the changed folder: every creation, change and deletion still reported', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-flood-'));
    await writeFile(join(dir, 'kept.ts'), 'kept');
    await writeFile(join(dir, 'gone.ts'), 'gone');
    const maxPending = 5;
    const created = 200;
    const seen = new Map<string, number>();
    let most = 0;
    let waiting: { until: () => boolean; resolve: () => void } | undefined;
    const watcher: DirectoryWatcher = new DirectoryWatcher(
      dir,
      (changes) => {
        for (const c of changes) seen.set(c.path.slice(dir.length + 1), seen.get(c.path.slice(dir.length + 1)) === 1 ? 1 : c.type);
        if (waiting?.until() === true) waiting.resolve();
      },
      { maxPending, debounceMs: 50, onActivity: () => (most = Math.max(most, watcher.heldChanges)) },
    );
    const wanted = (): boolean => seen.get('kept.ts') === 2 && seen.get('gone.ts') === 3 && Array.from({ length: created }, (_, i) => seen.get(`n${i}.ts`)).every((t) => t === 1);
    try {
      await watcher.start();
      await writeFile(join(dir, 'kept.ts'), 'changed');
      await rm(join(dir, 'gone.ts'));
      for (let i = 0; i < created; i++) await writeFile(join(dir, `n${i}.ts`), 'new');
      if (!wanted()) await new Promise<void>((resolve) => (waiting = { until: wanted, resolve }));
      expect(wanted()).toBe(true);
      // The paths held never passed the cap; one folder (the root) was marked for re-reading.
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(maxPending + 1);
      expect(watcher.rememberedFiles).toBe(created + 1);
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a folder that never stops changing within its longest batch delay, not when it goes quiet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-watch-storm-'));
    let reported = false;
    // Quiet for 5 s never happens while the writes go on; the batch delay (100 ms) ends a batch anyway.
    const watcher = new DirectoryWatcher(dir, () => (reported = true), { debounceMs: 5_000, maxBatchDelayMs: 100 });
    const stormMs = 4_000;
    try {
      await watcher.start();
      const started = Date.now();
      for (let i = 0; !reported && Date.now() - started < stormMs; i++) await writeFile(join(dir, 'log.txt'), String(i));
      expect(reported).toBe(true);
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
