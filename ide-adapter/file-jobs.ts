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
  const module = packageModule('ide-adapter/file-worker');
  let worker: Worker;
  if (!module.endsWith('.ts')) worker = new Worker(module);
  else {
    // From source (tests), the worker registers a TypeScript loader (tsx, a dev dependency) first.
    const tsx = pathToFileURL(join(dirname(packageRequire().resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
    const entry = pathToFileURL(module).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
    worker = new Worker(bootstrap, { eval: true });
  }
  // A worker that fails or ends while idle (its module did not load, it ran out of memory) leaves
  // the idle ones, so no job is given a dead thread; its error is not the process's to crash on
  // (a job running on it hears it through its own listener).
  const forget = (): void => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on('error', forget);
  worker.once('exit', forget);
  return worker;
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

/** A worker being started ahead of its first job ({@link prewarmFileWorker}), with the slot it holds for it. */
let warming: Promise<Worker | undefined> | undefined;

/**
 * Starts a worker ahead of the first job, when none runs, waits or is starting: a thread takes
 * tens of milliseconds to boot and load its modules (more on a loaded machine), which the next job
 * (the project scan of a server's start) then does not wait for. The next job takes it; until then
 * it waits among the idle workers and, like them, never keeps the process alive.
 */
export function prewarmFileWorker(): void {
  if (warming !== undefined || idle.length > 0 || busy > 0) return;
  busy++;
  const started: Promise<Worker | undefined> = startWorker().then(
    (worker) => {
      // Not taken by a job while it was made: it joins the idle ones and frees its slot.
      if (warming === started) {
        warming = undefined;
        releaseWorker(worker, true);
      }
      return worker;
    },
    () => {
      if (warming === started) warming = undefined;
      freeSlot();
      return undefined;
    },
  );
  warming = started;
}

async function takeWorker(signal: AbortSignal | undefined): Promise<Worker> {
  const ahead = warming;
  if (ahead !== undefined) {
    // The worker started ahead is this job's, with its slot; if it could not be made, its slot is free again.
    warming = undefined;
    const worker = await ahead;
    if (worker !== undefined) return worker;
  }
  while (busy >= MAX_WORKERS) await waitForSlot(signal);
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

/**
 * Waits until a slot frees ({@link freeSlot} wakes the first waiter). A job cancelled while it
 * waits leaves the queue at once: were it woken and then gave up, the wake-up would be lost, and
 * the jobs behind it would wait for a free slot until some other job happened to finish.
 */
function waitForSlot(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const wake = (): void => {
      stopListening();
      resolve();
    };
    waiting.push(wake);
    const stopListening = onAbort(signal, () => {
      const at = waiting.indexOf(wake);
      if (at >= 0) waiting.splice(at, 1);
      reject(cancelled());
    });
  });
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
