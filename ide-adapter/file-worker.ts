/**
 * The file worker: every job that matches a user pattern — walking with `.gitignore` rules,
 * globbing, regex search, looking for projects (`project-scan.ts`), listing a folder for REPL
 * path completion — runs here, on a worker thread that `file-jobs.ts` terminates when the
 * job overruns its time budget (a backtracking pattern cannot be interrupted any other way).
 * Every file is read through `confine.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { truncate } from '../dialect/display.js';
import { codePointCount, SourceText } from '../dialect/source.js';
import { readConfinedBytes, readPinnedEntry } from './confine.js';
import type { SearchMatch } from './model.js';
import { compileUserGlob, compileUserRegex, requiredLiteral } from './patterns.js';
import { scanManyProjectsSync, type ProjectScan, type ProjectScansJob } from './project-scan.js';
import { listFolderSync, walkShareSync, type ListedEntry, type ListJob, type WalkResult } from './walk.js';
import type { WalkShare } from './share-claims.js';

/** A shown line is cut after this many characters; a shown match after this many. */
const MAX_CONTENT_CHARS = 1000;
const MAX_MATCH_CHARS = 200;
/** Characters that mean themselves in a regular expression (with or without the `u` flag), all ASCII and none a line break. */
const PLAIN_PATTERN = /^[\w ,:;'"<>=@#%&~`!/-]+$/;
/** Files up to this size are read into one buffer the worker reuses (most source files are smaller). */
const SCRATCH_BYTES = 256 * 1024;
const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

/**
 * Lists the files under `start` (workspace-relative, '' for the root) git would not ignore,
 * optionally by glob or extension; with a `share` (`walk.ts` `walkShareSync`), only that share of
 * them: the shares of one listing, run at once, together list every file once.
 */
export interface WalkJob {
  readonly kind: 'walk';
  readonly root: string;
  readonly start: string;
  /** At most this many files (this share's). */
  readonly limit: number;
  readonly glob?: string;
  /** Only files ending with one of these (".rs"); absent or empty for all. */
  readonly extensions?: readonly string[];
  /** Default: the whole listing. */
  readonly share?: WalkShare;
}

/** A listing: its files, each with its place in the walk (`orders[i]` for `files[i]`). */
export type WalkShareReply = WalkResult & { readonly orders: number[] };

/**
 * One share of a search (`walk.ts` `walkShareSync`): walks `start` and searches this share's files
 * for a regular expression as it goes, one result per match. The shares of one search run on
 * several workers at once and together search every file once.
 */
export interface SearchJob {
  readonly kind: 'search';
  readonly root: string;
  /** The workspace-relative file or folder ('' for the root); already confined. */
  readonly start: string;
  readonly share: WalkShare;
  /** Only files ending with one of these (".rs"); empty for all. */
  readonly extensions: readonly string[];
  readonly pattern: string;
  readonly maxResults: number;
  readonly maxFileBytes: number;
  /** The search looks at most at this many files (this share's, or all shares' with `share.claims`). */
  readonly limit: number;
}

/** A job the worker runs. */
export type FileJob = WalkJob | SearchJob | ProjectScansJob | ListJob;

/** What a search found, and the files it could not search. */
export interface SearchReply {
  readonly matches: SearchMatch[];
  /** Matches found in total (more than `matches.length` when capped). */
  readonly total: number;
  /** Files skipped for their size, and binary files. */
  readonly tooLarge: number;
  readonly binary: number;
  readonly filesSearched: number;
  readonly walk: Omit<WalkResult, 'files'>;
}

/** A share's reply: its first matches, each with its file's place in the walk (`orders[i]` for `matches[i]`). */
export interface SearchShareReply extends SearchReply {
  readonly orders: number[];
}

/** The reply to a job. */
export type FileJobReply<J extends FileJob> = J extends WalkJob
  ? WalkShareReply
  : J extends ProjectScansJob
    ? ProjectScan[]
    : J extends ListJob
      ? ListedEntry[] | undefined
      : SearchShareReply;

/** Runs one job to completion (synchronously: the worker's thread is its own). */
export function runFileJob(job: FileJob): WalkShareReply | SearchShareReply | ProjectScan[] | ListedEntry[] | undefined {
  if (job.kind === 'project-scans') return scanManyProjectsSync(job);
  if (job.kind === 'list') return listFolderSync(job);
  if (job.kind === 'walk') return walk(job);
  return search(job);
}

function byExtension(extensions: readonly string[]): ((path: string) => boolean) | undefined {
  return extensions.length > 0 ? (path: string) => extensions.some((e) => path.endsWith(e)) : undefined;
}

function walk(job: WalkJob): WalkShareReply {
  const files: string[] = [];
  const orders: number[] = [];
  const glob = job.glob !== undefined ? compileUserGlob(job.glob) : undefined;
  const extension = byExtension(job.extensions ?? []);
  const accept = glob !== undefined && extension !== undefined ? (path: string) => extension(path) && glob(path) : (glob ?? extension);
  const share = job.share ?? { index: 0, count: 1 };
  const { listed: _, ...walked } = walkShareSync({ root: job.root, start: job.start, limit: job.limit, share, ...(accept !== undefined ? { accept } : {}) }, (file) => {
    files.push(file.rel);
    orders.push(file.order);
  });
  return { ...walked, files, orders };
}

function search(job: SearchJob): SearchShareReply {
  const re = compileUserRegex(job.pattern, 'g');
  // A pattern of plain characters matches a line only where the text contains it: most files
  // of a search for a name are ruled out without splitting them into lines.
  const literal = PLAIN_PATTERN.test(job.pattern) ? job.pattern : undefined;
  // Any other pattern is matched only on the lines holding the literal every match contains, if any.
  const required = literal ?? requiredLiteral(job.pattern);
  const matches: SearchMatch[] = [];
  const orders: number[] = [];
  let total = 0;
  let tooLarge = 0;
  let binary = 0;
  const accept = byExtension(job.extensions);
  const found = (path: string, order: number, lineNumber: number, line: string, index: number, text: string): void => {
    total++;
    if (matches.length >= job.maxResults) return;
    const startColumn = codePointCount(line, 0, index) + 1;
    const endColumn = startColumn + codePointCount(text, 0, text.length);
    matches.push({ path, start: { line: lineNumber, column: startColumn }, end: { line: lineNumber, column: endColumn }, content: truncate(line, MAX_CONTENT_CHARS), match: truncate(text, MAX_MATCH_CHARS) });
    orders.push(order);
  };
  const walked = walkShareSync({ root: job.root, start: job.start, limit: job.limit, share: job.share, ...(accept !== undefined ? { accept } : {}) }, (file) => {
    // A file of a pinned folder is opened relative to it; any other (a symlink, no /proc) gets the full check.
    const read = file.folder !== undefined ? readPinnedEntry(file.folder, file.name, job.maxFileBytes, scratch) : readConfinedBytes(job.root, `${job.root}/${file.rel}`, job.maxFileBytes);
    if (!read.ok) {
      if (read.reason === 'too-large') tooLarge++;
      return;
    }
    // On the bytes, before decoding: a NUL byte is U+0000 in UTF-8 (and nothing else is), and an
    // ASCII literal's bytes are in the text exactly where the literal is.
    if (read.bytes.includes(0)) {
      binary++;
      return;
    }
    if (required !== undefined && !read.bytes.includes(required)) return;
    const source = new SourceText(read.bytes.toString('utf8'));
    if (literal !== undefined) {
      // A literal has no line break: its occurrences in the whole text are the per-line matches, left to right.
      for (let at = source.text.indexOf(literal); at !== -1; at = source.text.indexOf(literal, at + literal.length)) {
        if (matches.length >= job.maxResults) {
          total++;
          continue;
        }
        const { line } = source.position(at);
        const start = source.lineStarts[line - 1] as number;
        found(file.rel, file.order, line, source.lineText(line), at - start, literal);
      }
      return;
    }
    const matchLine = (l: number): void => {
      const line = source.lineText(l);
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(line)) !== null) {
        found(file.rel, file.order, l, line, m.index, m[0]);
        // Past an empty match by one code point: a Unicode regex would find the same match again
        // if left inside a surrogate pair.
        if (m[0].length === 0) re.lastIndex = m.index + ((line.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      }
    };
    if (required === undefined) {
      for (let l = 1; l <= source.lineCount; l++) matchLine(l);
      return;
    }
    // Each line holding the required literal, once, in order.
    for (let at = source.text.indexOf(required); at !== -1; ) {
      const { line } = source.position(at);
      matchLine(line);
      const next = source.lineStarts[line];
      at = next === undefined ? -1 : source.text.indexOf(required, next);
    }
  });
  const { listed, ...walk } = walked;
  return { matches, orders, total, tooLarge, binary, filesSearched: listed, walk };
}

/** A request from `file-jobs.ts`. */
export interface WorkerRequest {
  readonly id: number;
  readonly job: FileJob;
}

/** The answer to a request: the reply, the stack it ran out of, or the message of what went wrong. */
export type WorkerResponse =
  | { readonly id: number; readonly reply: WalkShareReply | SearchShareReply | ProjectScan[] | ListedEntry[] | undefined }
  | { readonly id: number; readonly exhausted: 'stack' }
  | { readonly id: number; readonly failure: string };

parentPort?.on('message', ({ id, job }: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    response = { id, reply: runFileJob(job) };
  } catch (error) {
    // V8's regex engine recurses while it backtracks: a hostile pattern over a long line overflows the stack.
    response = error instanceof RangeError && /call stack/i.test(error.message) ? { id, exhausted: 'stack' } : { id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});
