/**
 * The file-job pool (`file-jobs.ts`) when a worker cannot be started: Node throws from `new Worker`
 * when it cannot make the thread (`ERR_WORKER_INIT_FAILED`: out of memory, a thread limit). The
 * fault is injected there — the `Worker` constructor of `node:worker_threads`, which the pool
 * imports when it first needs a worker — and the pool must give the slot back, so later jobs run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DialectError } from '../../dialect/outcome.js';
import { FILE_JOB_WORKERS, runFileJob } from '../file-jobs.js';

/** How many more `new Worker` calls fail. */
const fault = vi.hoisted(() => ({ failures: 0 }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerThreads>();
  class FailingWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      if (fault.failures > 0) {
        fault.failures--;
        throw Object.assign(new Error('Worker initialization failure: 11'), { code: 'ERR_WORKER_INIT_FAILED' });
      }
      super(...args);
    }
  }
  return { ...real, Worker: FailingWorker };
});

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-file-jobs-'));
  writeFileSync(join(root, 'a.txt'), 'a\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const budget = { timeoutMs: 60_000, overrun: (stopped: string) => new DialectError({ code: 'walk-timeout', message: `the listing ${stopped}` }) };

describe('file jobs', () => {
  it('gives a slot back when its worker cannot be started, so the next jobs still run', async () => {
    // Every slot's start fails once: a leaked slot each time would leave none.
    fault.failures = FILE_JOB_WORKERS + 1;
    for (let i = 0; i <= FILE_JOB_WORKERS; i++) {
      await expect(runFileJob({ kind: 'list', root, dir: '' }, budget)).rejects.toThrow(/Worker initialization failure/);
    }
    expect(fault.failures).toBe(0);
    const jobs = Array.from({ length: FILE_JOB_WORKERS + 1 }, () => runFileJob({ kind: 'list', root, dir: '' }, budget));
    for (const listed of await Promise.all(jobs)) expect(listed).toEqual([{ name: 'a.txt', directory: false }]);
  });
});
