/** What resolving a walkthrough needs from its surroundings: an evaluator, file lines and git. */
import type { Outcome } from '../dialect/index.js';
import type { DiffFile } from '../ide-adapter/model.js';

/** What a `<gitdiff>` element asks of the environment. */
export interface GitDiffRequest {
  readonly excludeUnstaged?: boolean;
  readonly excludeStaged?: boolean;
  readonly signal?: AbortSignal;
}

/** The workspace a walkthrough is resolved against. */
export interface WalkthroughEnvironment {
  /** Evaluates a Dialect expression (a comment's `location`). */
  evaluate(expression: string, signal?: AbortSignal): Promise<Outcome>;
  /** Lines `start`..`end` (1-based, inclusive) of a workspace file; fewer at the end of the file. */
  readLines(path: string, start: number, end: number): Promise<string[]>;
  /**
   * The first line of a workspace file that matches a user's regular expression, or undefined.
   * Matching runs under the search time budget (a link's regex can backtrack without end);
   * throws a `DialectError` (`invalid-regex`, `regex-timeout`, a path error) on failure.
   */
  findLine(path: string, regex: string, signal?: AbortSignal): Promise<{ readonly line: number; readonly text: string } | undefined>;
  /** The diff of a revision range (see `ide-adapter/git.ts`); throws a `DialectError` with a code on failure. */
  gitDiff(range: string | undefined, options: GitDiffRequest): Promise<DiffFile[]>;
}
