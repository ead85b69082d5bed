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
    const batches: FileChange[][] = [];
    const watcher = new DirectoryWatcher(root, (changes) => batches.push(changes), { debounceMs: 50 });
    await watcher.start();
    expect(watcher.watchedDirectories).toBe(2);
    const next = async (): Promise<Map<string, number>> => {
      const before = batches.length;
      const deadline = Date.now() + 3000;
      while (batches.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Let a possible follow-up batch of the same burst arrive, then merge.
      await new Promise((r) => setTimeout(r, 150));
      return new Map(batches.splice(before).flat().map((c) => [c.path.slice(root.length + 1), c.type]));
    };
    try {
      await writeFile(join(root, 'src', 'a.ts'), 'changed');
      await writeFile(join(root, 'src', 'b.ts'), 'new');
      await writeFile(join(root, 'node_modules', 'dep', 'x.js'), 'ignored');
      expect(await next()).toEqual(new Map([['src/a.ts', 2], ['src/b.ts', 1]]));

      await mkdir(join(root, 'src', 'sub'));
      await writeFile(join(root, 'src', 'sub', 'c.ts'), 'c');
      expect((await next()).get('src/sub/c.ts')).toBe(1);
      await writeFile(join(root, 'src', 'sub', 'd.ts'), 'd');
      expect((await next()).get('src/sub/d.ts')).toBe(1);

      await rm(join(root, 'src', 'b.ts'));
      expect(await next()).toEqual(new Map([['src/b.ts', 3]]));
      await rm(join(root, 'src', 'sub'), { recursive: true });
      const removed = await next();
      expect(removed.get('src/sub/c.ts')).toBe(3);
      expect(removed.get('src/sub/d.ts')).toBe(3);
    } finally {
      watcher.close();
    }
  });
});
