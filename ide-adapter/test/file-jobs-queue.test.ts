/**
 * The file-job pool's queue (`file-jobs.ts`) when a waiting job is cancelled: the slot a finished
 * job frees wakes one waiter; a cancelled waiter must not swallow that wake-up, or the jobs behind
 * it wait for a slot that is already free until some other job happens to finish (an MCP client's
 * search stalled behind another client's cancelled one).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialectError } from '../../dialect/outcome.js';
import { FILE_JOB_WORKERS, runFileJob } from '../file-jobs.js';
import type { SearchJob } from '../file-worker.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-file-queue-'));
  // One long line a backtracking pattern takes far longer than any budget here to fail on.
  writeFileSync(join(root, 'slow.txt'), `${'a'.repeat(100_000)}\n`);
  writeFileSync(join(root, 'fast.txt'), 'needle\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const overrun = (stopped: string): DialectError => new DialectError({ code: 'regex-timeout', message: `the search ${stopped}` });
const search = (start: string, pattern: string): SearchJob => ({
  kind: 'search', root, start, share: { index: 0, count: 1 }, extensions: [], pattern, maxResults: 1, maxFileBytes: 1 << 24, limit: 10,
});

describe('the file-job queue', () => {
  it('a cancelled waiter passes the free slot on: the job behind it runs', async () => {
    // Every slot busy with a pattern that only its budget stops.
    const busy = Array.from({ length: FILE_JOB_WORKERS }, () => runFileJob(search('slow.txt', '(a|a)*b'), { timeoutMs: 1_500, overrun }).catch((e: unknown) => e));
    const cancelling = new AbortController();
    // As many cancelled waiters as there are slots: each freed slot woke one of them, and was lost.
    const cancelled = Array.from({ length: FILE_JOB_WORKERS }, () => runFileJob(search('fast.txt', 'needle'), { timeoutMs: 60_000, overrun, signal: cancelling.signal }).catch((e: unknown) => e));
    const behind = runFileJob(search('fast.txt', 'needle'), { timeoutMs: 60_000, overrun });
    cancelling.abort();
    // Prompt: a cancelled job leaves the queue at once, not when a slot frees.
    const settledEarly = await Promise.race([Promise.all(cancelled).then(() => true), new Promise((r) => setTimeout(() => r(false), 1_000))]);
    expect(settledEarly).toBe(true);
    for (const e of await Promise.all(cancelled)) expect((e as DialectError).code).toBe('cancelled');
    for (const e of await Promise.all(busy)) expect((e as DialectError).code).toBe('regex-timeout');
    // Once the busy jobs are stopped, the one behind runs (before the fix it waited for ever).
    const found = await Promise.race([behind, new Promise<'stalled'>((r) => setTimeout(() => r('stalled'), 30_000))]);
    expect(found).not.toBe('stalled');
    expect((found as { matches: unknown[] }).matches).toHaveLength(1);
  }, 60_000);
});
