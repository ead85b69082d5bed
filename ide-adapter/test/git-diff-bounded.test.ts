/**
 * A diff's memory is bounded whatever the repository holds: every line of a hunk is an object, and
 * a 25 MB workspace of one-character lines (100 untracked files) made 12.5 million of them for one
 * `<gitdiff />` (1.4 GB; three gitdiffs 2.4 GB, and a walkthrough may have twenty). At most
 * `MAX_DIFF_LINES` lines are kept per diff; past them each file keeps its counts, and says how
 * many of its lines were left out.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitDiff, MAX_DIFF_LINES, parseUnifiedDiff } from '../git.js';
import type { DiffFile } from '../model.js';
import { Workspace } from '../workspace.js';

const FILES = 100;
const LINES_PER_FILE = 100_000;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-diff-bounded-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, env, stdio: 'ignore' });
  };
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'empty');
  const body = 'a\n'.repeat(LINES_PER_FILE);
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, `u${String(i).padStart(3, '0')}.txt`), body);
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const keptLines = (files: readonly DiffFile[]): number => files.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.length, 0), 0);
const leftOut = (files: readonly DiffFile[]): number => files.reduce((n, f) => n + (f.linesLeftOut ?? 0), 0);

describe('a diff keeps at most MAX_DIFF_LINES lines', () => {
  it('untracked files: ten million lines on disk, the budget in memory, every count right', async () => {
    const files = await gitDiff(new Workspace(root), undefined);
    expect(files).toHaveLength(FILES);
    expect(keptLines(files)).toBeLessThanOrEqual(MAX_DIFF_LINES);
    for (const f of files) expect(f.additions).toBe(LINES_PER_FILE);
    expect(keptLines(files) + leftOut(files)).toBe(FILES * LINES_PER_FILE);
  }, 120_000);

  it("git's own output: a hunk of two million lines is cut at the budget, its counts whole", () => {
    const lines = 2_000_000;
    const text = `diff --git a/big.txt b/big.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${lines} @@\n${'+a\n'.repeat(lines)}diff --git a/small.txt b/small.txt\n--- a/small.txt\n+++ b/small.txt\n@@ -1 +1 @@\n-x\n+y\n`;
    const files = parseUnifiedDiff(text);
    expect(files.map((f) => [f.path, f.additions, f.deletions])).toEqual([['big.txt', lines, 0], ['small.txt', 1, 1]]);
    expect(keptLines(files)).toBeLessThanOrEqual(MAX_DIFF_LINES);
    expect(keptLines(files) + leftOut(files)).toBe(lines + 2);
  });

  it('a small diff is kept whole', () => {
    const files = parseUnifiedDiff('diff --git a/s.txt b/s.txt\n--- a/s.txt\n+++ b/s.txt\n@@ -1,2 +1,2 @@\n ctx\n-x\n+y\n');
    expect(files[0]?.hunks[0]?.lines.map((l) => l.kind)).toEqual(['context', 'removed', 'added']);
    expect(files[0]?.linesLeftOut).toBeUndefined();
  });
});
