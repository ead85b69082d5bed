/**
 * Runs file jobs (`file-worker.ts`) on a small pool of worker threads, each job under a time
 * budget: past it, or on cancellation, the worker is terminated — the only way to stop a
 * backtracking pattern — and the caller gets the error it chose. At most one worker per core
 * runs (matching is CPU-bound); idle workers are kept for the next job.
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { DialectError, EvalCode } from '../dialect/outcome.js';
import type { FileJob, FileJobReply, WorkerRequest, WorkerResponse } from './file-worker.js';
import { onAbort } from './lsp/abort.js';
import { packageModule, packageRequire } from './package-files.js';

/** The default time budget of one job: walking, globbing and regex matching together. */
export const FILE_JOB_BUDGET_MS = 10_000;

/** At most this many jobs run at once; more wait their turn. */
export const FILE_JOB_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
const MAX_WORKERS = FILE_JOB_WORKERS;

/**
 * Starts a worker on `file-worker`'s module in the layout this code runs from: the bundle's own
 * entry, tsc's `.js`, or the `.ts` source under tests (`packageModule`).
 */
async function startWorker(): Promise<Worker> {
  // Loaded on first use: most programs search no files.
  const { Worker } = await import('node:worker_threads');
  const worker = packageModule('ide-adapter/file-worker');
  if (!worker.endsWith('.ts')) return new Worker(worker);
  // From source (tests), the worker registers a TypeScript loader (tsx, a dev dependency) first.
  const tsx = pathToFileURL(join(dirname(packageRequire().resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const entry = pathToFileURL(worker).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/** How a job is bounded, and the error its overrun becomes. */
export interface JobBudget {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * The error for a job stopped at its budget (it names the pattern and how to fix it); `stopped`
   * says how, to follow the job's name: "was stopped after 10 s", "ran out of stack space".
   */
  readonly overrun: (stopped: string) => DialectError;
}

const idle: Worker[] = [];
let busy = 0;
const waiting: (() => void)[] = [];
let nextId = 0;

function cancelled(): DialectError {
  return new DialectError({ code: EvalCode.Cancelled, message: 'the file search was cancelled' });
}

async function takeWorker(signal: AbortSignal | undefined): Promise<Worker> {
  while (busy >= MAX_WORKERS) {
    await new Promise<void>((resolve) => waiting.push(resolve));
    if (signal?.aborted === true) throw cancelled();
  }
  busy++;
  const kept = idle.pop();
  if (kept !== undefined) return kept;
  try {
    return await startWorker();
  } catch (error) {
    // No thread was made (Node could not start one): the slot is free again, or it would be lost for good.
    freeSlot();
    throw error;
  }
}

function releaseWorker(worker: Worker, reusable: boolean): void {
  worker.unref(); // an idle worker never keeps the process alive
  if (reusable && idle.length < MAX_WORKERS) {
    idle.push(worker);
    freeSlot();
    return;
  }
  // A terminated worker may still be running (a pattern stopped at its budget): its slot is free
  // only once the thread is gone, so no more than MAX_WORKERS threads ever run at once.
  worker.terminate().then(freeSlot, freeSlot);
}

function freeSlot(): void {
  busy--;
  waiting.shift()?.();
}

/** Runs `job` in a worker within its budget. */
export async function runFileJob<J extends FileJob>(job: J, budget: JobBudget): Promise<FileJobReply<J>> {
  if (budget.signal?.aborted === true) throw cancelled();
  const timeoutMs = budget.timeoutMs ?? FILE_JOB_BUDGET_MS;
  const worker = await takeWorker(budget.signal);
  return new Promise((resolve, reject) => {
    worker.ref(); // busy: keep the process alive until it answers
    const id = nextId++;
    let settled = false;
    let stopListening = (): void => undefined;
    const finish = (fn: () => void, reusable: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopListening();
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      releaseWorker(worker, reusable);
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(budget.overrun(`was stopped after ${timeoutMs / 1000} s`)), false), timeoutMs);
    const onMessage = (response: WorkerResponse): void => {
      if (response.id !== id) return;
      // A pattern that recursed through the whole stack (deep backtracking over a long line) overran its budget too.
      if ('exhausted' in response) finish(() => reject(budget.overrun('ran out of stack space')), true);
      else if ('failure' in response) finish(() => reject(new Error(`the file worker failed: ${response.failure}`)), true);
      else finish(() => resolve(response.reply as FileJobReply<J>), true);
    };
    const onError = (error: Error): void => finish(() => reject(error), false);
    const onExit = (code: number): void => finish(() => reject(new Error(`the file worker exited with code ${code}`)), false);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    // One shared listener per signal (an evaluation hands one signal to every call it makes).
    stopListening = onAbort(budget.signal, () => finish(() => reject(cancelled()), false));
    if (settled) return; // it was cancelled meanwhile
    const request: WorkerRequest = { id, job };
    worker.postMessage(request);
  });
}
