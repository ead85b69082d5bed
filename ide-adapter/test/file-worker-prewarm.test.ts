/**
 * A file worker started ahead of its first job (`prewarmFileWorker`, `file-jobs.ts`, which a
 * server's start calls so its project scan does not wait for a thread to boot): the next job runs
 * on it, one that fails while it waits takes nothing down, and it never keeps the process alive.
 * Workers are counted (and one is made to fail) at the `Worker` constructor of
 * `node:worker_threads`, which the pool imports when it first needs a worker.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DialectError } from '../../dialect/outcome.js';
import { prewarmFileWorker, runFileJob } from '../file-jobs.js';

/** The workers made, and how many more are made on a module that fails as it loads. */
const made = vi.hoisted(() => ({ workers: [] as unknown[], failing: 0, heard: undefined as ((worker: unknown) => void) | undefined }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerThreads>();
  class CountedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      if (made.failing > 0) {
        made.failing--;
        super('throw new Error("the worker module failed to load")', { eval: true });
      } else super(...args);
      made.workers.push(this);
      made.heard?.(this);
    }
  }
  return { ...real, Worker: CountedWorker };
});

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-prewarm-'));
  writeFileSync(join(root, 'a.txt'), 'a\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const budget = { timeoutMs: 60_000, overrun: (stopped: string) => new DialectError({ code: 'walk-timeout', message: `the listing ${stopped}` }) };

describe('a file worker started ahead', () => {
  it('runs the next job, asked for at once, with no second thread; a worker already waiting is not doubled', async () => {
    prewarmFileWorker();
    expect(await runFileJob({ kind: 'list', root, dir: '' }, budget)).toEqual([{ name: 'a.txt', directory: false }]);
    expect(made.workers).toHaveLength(1);
    prewarmFileWorker(); // one is idle now: nothing to start
    expect(await runFileJob({ kind: 'list', root, dir: '' }, budget)).toEqual([{ name: 'a.txt', directory: false }]);
    expect(made.workers).toHaveLength(1);
  });

  it('one that fails while it waits leaves the idle ones without crashing the process; the next job starts another', async () => {
    // Started ahead only when no worker waits: a separate module instance starts from none.
    vi.resetModules();
    const fresh = await import('../file-jobs.js');
    made.failing = 1;
    const before = made.workers.length;
    // Its `new Worker` runs once `node:worker_threads` is loaded: heard here, then its thread ends.
    const failing = new Promise<unknown>((resolve) => (made.heard = resolve));
    fresh.prewarmFileWorker();
    // (`events.once` would reject on its 'error': the pool's own listener is what is tested.)
    const worker = (await failing) as WorkerThreads.Worker;
    await new Promise((resolve) => worker.once('exit', resolve));
    expect(await fresh.runFileJob({ kind: 'list', root, dir: '' }, budget)).toEqual([{ name: 'a.txt', directory: false }]);
    expect(made.workers.length).toBe(before + 2);
  });

  it('never keeps the process alive', () => {
    const pool = pathToFileURL(fileURLToPath(new URL('../file-jobs.ts', import.meta.url))).href;
    const code = `const { prewarmFileWorker } = await import(${JSON.stringify(pool)}); prewarmFileWorker();`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    expect([run.status, run.signal, run.stderr]).toEqual([0, null, '']);
  });
});
