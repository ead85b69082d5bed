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
});
