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
import { readConfined, readWalkedFile } from './confine.js';
import type { SearchMatch } from './model.js';
import { compileUserGlob, compileUserRegex } from './patterns.js';
import { scanProjectsSync, type ProjectScan, type ProjectsJob } from './project-scan.js';
import { listFolderSync, walkFilesSync, type ListedEntry, type ListJob, type WalkResult } from './walk.js';

/** A shown line is cut after this many characters; a shown match after this many. */
const MAX_CONTENT_CHARS = 1000;
const MAX_MATCH_CHARS = 200;
/** Characters that mean themselves in a regular expression (with or without the `u` flag). */
const PLAIN_PATTERN = /^[\w ,:;'"<>=@#%&~`!/-]+$/;

/** Lists files under `start` (workspace-relative, '' for the root), optionally by glob or extension. */
export interface WalkJob {
  readonly kind: 'walk';
  readonly root: string;
  readonly start: string;
  readonly limit: number;
  readonly glob?: string;
  /** Only files ending with one of these (".rs"); absent or empty for all. */
  readonly extensions?: readonly string[];
  /** Also say which listed paths are symlinks (a search reads those with the full check). */
  readonly withLinks?: boolean;
}

/** A walk's reply: the files, and with `withLinks` the listed symlinks among them. */
export type WalkReply = WalkResult & { readonly links?: readonly string[] };

/**
 * Searches listed files (a share of one walk's, in its order) for a regular expression, one
 * result per match. A search is split into such jobs so that several workers read at once.
 */
export interface SearchFilesJob {
  readonly kind: 'search-files';
  readonly root: string;
  /** Workspace-relative paths a walk listed. */
  readonly files: readonly string[];
  /** Those of `files` that are symlinks (read with the full check, not the walked-file one). */
  readonly links: readonly string[];
  readonly pattern: string;
  readonly maxResults: number;
  readonly maxFileBytes: number;
}

/** A job the worker runs. */
export type FileJob = WalkJob | SearchFilesJob | ProjectsJob | ListJob;

/** What searching some files found. */
export interface SearchFilesReply {
  readonly matches: SearchMatch[];
  /** Matches found in total (more than `matches.length` when capped). */
  readonly total: number;
  /** Files skipped for their size, and binary files. */
  readonly tooLarge: number;
  readonly binary: number;
}

/** What a search found, and the files it could not search. */
export interface SearchReply extends SearchFilesReply {
  readonly filesSearched: number;
  readonly walk: Omit<WalkResult, 'files'>;
}

/** The reply to a job. */
export type FileJobReply<J extends FileJob> = J extends WalkJob ? WalkReply : J extends ProjectsJob ? ProjectScan : J extends ListJob ? ListedEntry[] | undefined : SearchFilesReply;

/** Runs one job to completion (synchronously: the worker's thread is its own). */
export function runFileJob(job: FileJob): WalkReply | SearchFilesReply | ProjectScan | ListedEntry[] | undefined {
  if (job.kind === 'projects') return scanProjectsSync(job);
  if (job.kind === 'list') return listFolderSync(job);
  if (job.kind === 'walk') return walk(job);
  return searchFiles(job);
}

function walk(job: WalkJob): WalkReply {
  const glob = job.glob !== undefined ? compileUserGlob(job.glob) : undefined;
  const extensions = job.extensions ?? [];
  const byExtension = extensions.length > 0 ? (path: string) => extensions.some((e) => path.endsWith(e)) : undefined;
  const accept = glob !== undefined && byExtension !== undefined ? (path: string) => byExtension(path) && glob(path) : (glob ?? byExtension);
  const links = job.withLinks === true ? new Set<string>() : undefined;
  const result = walkFilesSync({ root: job.root, start: job.start, limit: job.limit, ...(accept !== undefined ? { accept } : {}), ...(links !== undefined ? { links } : {}) });
  return links !== undefined ? { ...result, links: [...links] } : result;
}

function searchFiles(job: SearchFilesJob): SearchFilesReply {
  const links = new Set(job.links);
  const re = compileUserRegex(job.pattern, 'g');
  // A pattern of plain characters matches a line only where the text contains it: most files
  // of a search for a name are ruled out without splitting them into lines.
  const literal = PLAIN_PATTERN.test(job.pattern) ? job.pattern : undefined;
  const matches: SearchMatch[] = [];
  let total = 0;
  let tooLarge = 0;
  let binary = 0;
  for (const path of job.files) {
    // A regular file the walk reached through real folders needs no realpath of its own.
    const read = (links.has(path) ? readConfined : readWalkedFile)(job.root, `${job.root}/${path}`, job.maxFileBytes);
    if (!read.ok) {
      if (read.reason === 'too-large') tooLarge++;
      continue;
    }
    if (read.text.includes('\u0000')) {
      binary++;
      continue;
    }
    if (literal !== undefined && !read.text.includes(literal)) continue;
    const source = new SourceText(read.text);
    for (let l = 1; l <= source.lineCount; l++) {
      const line = source.lineText(l);
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(line)) !== null) {
        total++;
        if (matches.length < job.maxResults) {
          const startColumn = codePointCount(line, 0, m.index) + 1;
          const endColumn = startColumn + codePointCount(line, m.index, m.index + m[0].length);
          matches.push({
            path,
            start: { line: l, column: startColumn },
            end: { line: l, column: endColumn },
            content: truncate(line, MAX_CONTENT_CHARS),
            match: truncate(m[0], MAX_MATCH_CHARS),
          });
        }
        // Past an empty match by one code point: a Unicode regex would find the same match again
        // if left inside a surrogate pair.
        if (m[0].length === 0) re.lastIndex = m.index + ((line.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      }
    }
  }
  return { matches, total, tooLarge, binary };
}

/** A request from `file-jobs.ts`. */
export interface WorkerRequest {
  readonly id: number;
  readonly job: FileJob;
}

/** The answer to a request: the reply, the stack it ran out of, or the message of what went wrong. */
export type WorkerResponse =
  | { readonly id: number; readonly reply: WalkReply | SearchFilesReply | ProjectScan | ListedEntry[] | undefined }
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
