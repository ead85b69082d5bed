/**
 * Regex search over workspace files. Matching runs in a worker thread so that a pattern with
 * catastrophic backtracking can be stopped (a regex cannot be interrupted on the main thread):
 * past the time budget the worker is terminated and the search fails with a clear error.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { DialectError } from '../dialect/index.js';
import type { SearchMatch } from './model.js';
import { walkFiles } from './walk.js';
import { MAX_FILE_BYTES, type Workspace } from './workspace.js';

export const SearchCode = {
  InvalidRegex: 'invalid-regex',
  RegexTimeout: 'regex-timeout',
} as const;

export interface SearchOptions {
  /** Only files with one of these extensions (".rs" or "rs"). */
  readonly extensions?: readonly string[];
  readonly signal?: AbortSignal;
  /** Stop after this many matches. Default 500. */
  readonly maxResults?: number;
  /** Time budget for matching. Default 10 s. */
  readonly timeoutMs?: number;
}

export interface SearchResult {
  readonly matches: SearchMatch[];
  /** Matches found in total (more than `matches.length` when capped). */
  readonly total: number;
  readonly filesSearched: number;
}

/** Searches `path` (a file or folder) for `pattern`, one result per match. */
export async function searchWorkspace(workspace: Workspace, path: string, pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
  try {
    new RegExp(pattern, 'g');
  } catch (error) {
    throw new DialectError({
      code: SearchCode.InvalidRegex,
      message: `${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
      hint: 'patterns are JavaScript regular expressions; escape special characters with \\ (in a backtick string: `fn\\s+main\\(`)',
    });
  }
  const extensions = (options.extensions ?? []).map((e) => (e.startsWith('.') ? e : `.${e}`));
  const { files } = await walkFiles(workspace, path, options.signal !== undefined ? { signal: options.signal } : {});
  const selected = extensions.length === 0 ? files : files.filter((f) => extensions.some((e) => f.endsWith(e)));
  const maxResults = options.maxResults ?? 500;
  const reply = await runInWorker(
    { root: workspace.root, files: selected, pattern, maxResults, maxFileBytes: MAX_FILE_BYTES },
    options.timeoutMs ?? 10_000,
    options.signal,
  );
  return { matches: reply.matches, total: reply.total, filesSearched: selected.length };
}

interface WorkerRequest {
  readonly root: string;
  readonly files: readonly string[];
  readonly pattern: string;
  readonly maxResults: number;
  readonly maxFileBytes: number;
}

interface WorkerReply {
  readonly matches: SearchMatch[];
  readonly total: number;
}

// Self-contained so it runs from source (tests) and from the build alike. The worker serves
// requests one at a time; a worker that overran its time budget is terminated, never reused.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const cp = (s, from, to) => { let n = 0; for (let i = from; i < to; i++) { const c = s.charCodeAt(i); if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) { const d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) i++; } n++; } return n; };
parentPort.on('message', ({ id, root, files, pattern, maxResults, maxFileBytes }) => {
  const re = new RegExp(pattern, 'g');
  const matches = [];
  let total = 0;
  for (const path of files) {
    let text;
    try { if (statSync(join(root, path)).size > maxFileBytes) continue; text = readFileSync(join(root, path), 'utf8'); } catch { continue; }
    if (text.includes('\\u0000')) continue; // binary
    const lines = text.split(/\\r\\n|\\n|\\r/);
    for (let l = 0; l < lines.length; l++) {
      const line = lines[l];
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line)) !== null) {
        total++;
        if (matches.length < maxResults) {
          const startCol = cp(line, 0, m.index) + 1;
          const endCol = startCol + cp(line, m.index, m.index + m[0].length);
          matches.push({ path, start: { line: l + 1, column: startCol }, end: { line: l + 1, column: endCol }, content: line.length > 1000 ? line.slice(0, 1000) + '…' : line, match: m[0].length > 200 ? m[0].slice(0, 200) + '…' : m[0] });
        }
        if (m[0].length === 0) re.lastIndex++;
      }
    }
  }
  parentPort.postMessage({ id, matches, total });
});
`;

/**
 * At most this many searches run at once, each in its own worker; more wait their turn. Searching
 * is CPU-bound: more workers than cores only add start-up costs (tens of milliseconds each).
 */
const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
/** Idle workers kept for the next search. */
const idle: Worker[] = [];
let busy = 0;
const waiting: (() => void)[] = [];
let nextId = 0;

async function takeWorker(signal: AbortSignal | undefined): Promise<Worker> {
  while (busy >= MAX_WORKERS) {
    await new Promise<void>((resolve) => waiting.push(resolve));
    if (signal?.aborted === true) throw new DialectError({ code: 'cancelled', message: 'the search was cancelled' });
  }
  busy++;
  return idle.pop() ?? new Worker(WORKER_SOURCE, { eval: true });
}

function releaseWorker(worker: Worker, reusable: boolean): void {
  busy--;
  worker.unref(); // an idle worker never keeps the process alive
  if (reusable && idle.length < MAX_WORKERS) idle.push(worker);
  else void worker.terminate();
  waiting.shift()?.();
}

async function runInWorker(request: WorkerRequest, timeoutMs: number, signal: AbortSignal | undefined): Promise<WorkerReply> {
  const worker = await takeWorker(signal);
  return new Promise((resolve, reject) => {
    worker.ref(); // busy: keep the process alive until it answers
    const id = nextId++;
    let settled = false;
    const finish = (fn: () => void, reusable: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      releaseWorker(worker, reusable);
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(
          () =>
            reject(
              new DialectError({
                code: SearchCode.RegexTimeout,
                message: `the search for ${JSON.stringify(request.pattern)} was stopped after ${timeoutMs / 1000} s`,
                hint: 'the pattern may backtrack catastrophically (nested quantifiers such as (a+)+); simplify it, or search a smaller path',
              }),
            ),
          false,
        ),
      timeoutMs,
    );
    const onAbort = (): void => finish(() => reject(new DialectError({ code: 'cancelled', message: 'the search was cancelled' })), false);
    const onMessage = (reply: WorkerReply & { id: number }): void => {
      if (reply.id === id) finish(() => resolve(reply), true);
    };
    const onError = (error: Error): void => finish(() => reject(error), false);
    const onExit = (code: number): void => finish(() => reject(new Error(`the search worker exited with code ${code}`)), false);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ id, ...request });
  });
}
