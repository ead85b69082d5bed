/**
 * Listing and searching workspace files: the main-thread side. Paths the user names are confined
 * here (`Workspace.resolveReal`); the work itself — walking with `.gitignore` rules, globbing,
 * regex matching — runs in the file worker under a time budget (`file-jobs.ts`), because every
 * one of those patterns comes from the user or the workspace and can backtrack without end.
 */
import { DialectError } from '../dialect/outcome.js';
import { FILE_JOB_BUDGET_MS, FILE_JOB_WORKERS, runFileJob, type JobBudget } from './file-jobs.js';
import type { FileJob, FileJobReply, SearchReply, SearchShareReply } from './file-worker.js';
import { onAbort } from './lsp/abort.js';
import { regexProblem } from './patterns.js';
import { newShareClaims, type WalkShare } from './share-claims.js';
import { MAX_WALK_DEPTH, type WalkResult } from './walk.js';
import { MAX_FILE_BYTES, type Workspace } from './workspace.js';

/** Stable error codes of searching and listing. */
export const SearchCode = {
  InvalidRegex: 'invalid-regex',
  RegexTimeout: 'regex-timeout',
  GlobTimeout: 'glob-timeout',
  WalkTimeout: 'walk-timeout',
} as const;

/** A walk lists at most this many files (a search searches at most this many). */
export const MAX_WALK_FILES = 200_000;

/** Search results shown by default. */
const DEFAULT_MAX_RESULTS = 500;

/** Options of a file walk. */
export interface WalkOptions {
  readonly signal?: AbortSignal;
  /** Stop after this many files (the result says it stopped). */
  readonly limit?: number;
  /** Only files whose path matches this glob (see `compileUserGlob`). */
  readonly glob?: string;
  /** Time budget. Default `FILE_JOB_BUDGET_MS`. */
  readonly timeoutMs?: number;
}

/**
 * Lists the files under `start` (a workspace-relative file or folder) that git would not ignore:
 * regular files, and symlinks that lead to one inside the workspace.
 */
export async function walkFiles(workspace: Workspace, start: string, options: WalkOptions = {}): Promise<WalkResult> {
  const startRel = await confinedStart(workspace, start);
  const glob = options.glob;
  const deadline = Date.now() + (options.timeoutMs ?? FILE_JOB_BUDGET_MS);
  const overrun = (stopped: string): DialectError =>
      glob !== undefined
        ? new DialectError({
            code: SearchCode.GlobTimeout,
            message: `matching files against ${JSON.stringify(glob)} ${stopped}`,
            hint: 'the glob may backtrack catastrophically (nested extglobs such as +(*)+(*)); simplify it, or list a smaller folder',
          })
        : new DialectError({
            code: SearchCode.WalkTimeout,
            message: `listing the files of ${start} ${stopped}`,
            hint: 'list a smaller folder; a .gitignore with pathological patterns also slows the walk',
          });
  // One job: a listing is cheap per file, and shares would each read every folder (measured: more time, not less).
  const { orders: _, ...walk } = await runFileJob(
    { kind: 'walk', root: workspace.root, start: startRel, limit: options.limit ?? MAX_WALK_FILES, ...(glob !== undefined ? { glob } : {}) },
    { timeoutMs: Math.max(1, deadline - Date.now()), signal: options.signal, overrun },
  );
  return walk;
}

/** The time left of one deadline for every share, the error an overrun becomes, the caller's signal. */
interface SharedBudget {
  readonly deadline: number;
  readonly overrun: JobBudget['overrun'];
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs one job per file worker, each on its share of the files (`walk.ts` `walkShareSync`: the
 * shares claim files as they reach them, so a worker on a busier core takes fewer), under one
 * budget; the first failure stops the others and is the answer.
 */
async function runShares<J extends FileJob>(jobOf: (share: WalkShare) => J, budget: SharedBudget): Promise<FileJobReply<J>[]> {
  const count = FILE_JOB_WORKERS;
  const claims = newShareClaims();
  const together = new AbortController();
  const stop = onAbort(budget.signal, () => together.abort());
  try {
    return await Promise.all(
      Array.from({ length: count }, (_, index) =>
        runFileJob(jobOf({ index, count, claims }), { timeoutMs: Math.max(1, budget.deadline - Date.now()), signal: together.signal, overrun: budget.overrun }).catch((error: unknown) => {
          together.abort();
          throw error;
        }),
      ),
    );
  } finally {
    stop();
  }
}

/** The items of several shares as one list in walk order (each share's are in its own; `orders[i]` places `items[i]`). */
function inWalkOrder<T>(shares: readonly { readonly items: readonly T[]; readonly orders: readonly number[] }[]): T[] {
  const tagged = shares.flatMap((s) => s.items.map((item, i) => ({ item, order: s.orders[i] ?? 0 })));
  // A stable sort: the matches of one file stay in their order.
  tagged.sort((a, b) => a.order - b.order);
  return tagged.map((t) => t.item);
}

/** Options of a text search. */
export interface SearchOptions {
  /** Only files with one of these extensions (".rs" or "rs"). */
  readonly extensions?: readonly string[];
  readonly signal?: AbortSignal;
  /** Stop after this many matches. Default 500. */
  readonly maxResults?: number;
  /** Time budget for walking and matching. Default `FILE_JOB_BUDGET_MS`. */
  readonly timeoutMs?: number;
}

/** What a search found, and what it could not search. */
export type SearchResult = SearchReply;

/** Searches `path` (a file or folder) for `pattern`, one result per match. */
export async function searchWorkspace(workspace: Workspace, path: string, pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
  const problem = regexProblem(pattern);
  if (problem !== undefined) {
    throw new DialectError({
      code: SearchCode.InvalidRegex,
      message: `${JSON.stringify(pattern)} is not a valid regular expression: ${problem}`,
      hint: 'patterns are JavaScript regular expressions; escape special characters with \\ (in a backtick string: `fn\\s+main\\(`)',
    });
  }
  const startRel = await confinedStart(workspace, path);
  const extensions = (options.extensions ?? []).map((e) => (e.startsWith('.') ? e : `.${e}`));
  const timeoutMs = options.timeoutMs ?? FILE_JOB_BUDGET_MS;
  const deadline = Date.now() + timeoutMs;
  const overrun = (stopped: string): DialectError =>
    new DialectError({
      code: SearchCode.RegexTimeout,
      message: `the search for ${JSON.stringify(pattern)} ${stopped}`,
      hint: 'the pattern may backtrack catastrophically (nested quantifiers such as (a+)+); simplify it, or search a smaller path',
    });
  // Every worker walks the tree and searches its share of the files as it goes.
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
  const replies = await runShares(
    (share) => ({ kind: 'search', root: workspace.root, start: startRel, share, extensions, pattern, maxResults, maxFileBytes: MAX_FILE_BYTES, limit: MAX_WALK_FILES }),
    { deadline, overrun, signal: options.signal },
  );
  const sum = (of: (r: SearchShareReply) => number): number => replies.reduce((n, r) => n + of(r), 0);
  return {
    matches: inWalkOrder(replies.map((r) => ({ items: r.matches, orders: r.orders }))).slice(0, maxResults),
    total: sum((r) => r.total),
    tooLarge: sum((r) => r.tooLarge),
    binary: sum((r) => r.binary),
    filesSearched: sum((r) => r.filesSearched),
    walk: { truncated: replies.some((r) => r.walk.truncated), linksOutside: sum((r) => r.walk.linksOutside), specialFiles: sum((r) => r.walk.specialFiles), foldersLeftOut: sum((r) => r.walk.foldersLeftOut) },
  };
}

/** The notes a person needs about what a walk or search left out (empty when nothing was). */
export function coverageNotes(result: { readonly truncated: boolean; readonly linksOutside: number; readonly specialFiles: number; readonly foldersLeftOut?: number; readonly tooLarge?: number }): string[] {
  const notes: string[] = [];
  if (result.truncated) notes.push(`stopped after ${MAX_WALK_FILES} files; name a smaller folder`);
  if ((result.tooLarge ?? 0) > 0) notes.push(`skipped ${plural(result.tooLarge ?? 0, 'file')} over ${MAX_FILE_BYTES / (1024 * 1024)} MB`);
  if (result.linksOutside > 0) notes.push(`left out ${plural(result.linksOutside, 'symlink')} leading outside the workspace`);
  if (result.specialFiles > 0) notes.push(`left out ${plural(result.specialFiles, 'special file')} (FIFOs, sockets, devices)`);
  if ((result.foldersLeftOut ?? 0) > 0) notes.push(`left out ${plural(result.foldersLeftOut ?? 0, 'folder')} nested deeper than ${MAX_WALK_DEPTH} levels or with too long a path`);
  return notes;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The workspace-relative form ('' for the root) of a start path the user named, confined. */
async function confinedStart(workspace: Workspace, start: string): Promise<string> {
  const rel = workspace.relative(await workspace.resolveReal(start));
  return rel === '.' ? '' : rel;
}
