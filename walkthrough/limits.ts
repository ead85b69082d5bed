/**
 * How much work one walkthrough may cause. Every comment runs a Dialect query, every gitdiff runs
 * git, every file link reads a file, and every place of an ambiguous comment is read and shown
 * with its context; a page holds all of it twice (markup and data). Unbounded, one large
 * walkthrough (13,874 comments in 1 M characters) took 4 GB and crashed building the page.
 *
 * Counts and sizes over a limit stop the walkthrough before the work starts, with an error that
 * names the limit and says how to split the walkthrough; only the choices of one ambiguous
 * comment are cut instead (with a note on the comment), since the first few still help the reader.
 */
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';
import type { ResolvedWalkthrough, WalkthroughDocument } from './model.js';

/** The limits of one walkthrough (see {@link DEFAULT_WALKTHROUGH_LIMITS}). */
export interface WalkthroughLimits {
  /** Largest walkthrough, in characters of markdown. */
  readonly maxMarkdownChars: number;
  /** Most comments (each one evaluates its location with the language servers). */
  readonly maxComments: number;
  /** Most gitdiff elements (each one runs git). */
  readonly maxDiffs: number;
  /** Most file links (each one reads a file). */
  readonly maxLinks: number;
  /** Most places shown for one ambiguous comment; the rest are left out with a note. */
  readonly maxChoicesPerComment: number;
  /** Largest page, in characters of HTML (mermaid's 3.6 MB, when the page has diagrams, included). */
  readonly maxPageChars: number;
  /**
   * Milliseconds all the queries of the walkthrough (comments, gitdiffs, link patterns) may take
   * together; past it the ones still running are cancelled and say so (`resolve-budget.ts`).
   */
  readonly maxResolveMs: number;
}

/** The defaults: far above any walkthrough a person reads, far below what hurts the machine. */
export const DEFAULT_WALKTHROUGH_LIMITS: WalkthroughLimits = Object.freeze({
  maxMarkdownChars: 1_000_000,
  maxComments: 500,
  maxDiffs: 20,
  maxLinks: 2_000,
  maxChoicesPerComment: 20,
  maxPageChars: 64 * 1024 * 1024,
  maxResolveMs: 120_000,
});

/** The defaults with some limits replaced; each must be a positive integer. */
export function walkthroughLimits(overrides: Partial<WalkthroughLimits> = {}): WalkthroughLimits {
  const limits = { ...DEFAULT_WALKTHROUGH_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, `the walkthrough limit ${name} must be a positive integer, not ${String(value)}`);
  }
  return Object.freeze(limits);
}

const SPLIT_HINT = 'Split it into several walkthroughs (one per topic, module or change) and present them one after another.';

function exceeded(what: string, limit: keyof WalkthroughLimits, value: number, hint: string = SPLIT_HINT): WalkthroughError {
  return new WalkthroughError(WalkthroughErrorCode.LimitExceeded, `the walkthrough ${what}; the limit is ${value.toLocaleString('en-US')} (${limit}). ${hint}`);
}

/** Refuses markdown longer than the limit (before it is parsed). */
export function checkMarkdownSize(length: number, limits: WalkthroughLimits, qualifier: '' | 'at least ' = ''): void {
  if (length > limits.maxMarkdownChars) throw exceeded(`is ${qualifier}${length.toLocaleString('en-US')} characters long`, 'maxMarkdownChars', limits.maxMarkdownChars);
}

/** Refuses a parsed walkthrough with more query-running elements than the limits (before any runs). */
export function checkElementCounts(document: WalkthroughDocument, limits: WalkthroughLimits): void {
  const count = (kind: string): number => document.elements.reduce((n, e) => (e.kind === kind ? n + 1 : n), 0);
  const comments = count('comment');
  if (comments > limits.maxComments) throw exceeded(`has ${comments.toLocaleString('en-US')} comments`, 'maxComments', limits.maxComments);
  const diffs = count('gitdiff');
  if (diffs > limits.maxDiffs) throw exceeded(`has ${diffs.toLocaleString('en-US')} gitdiff elements`, 'maxDiffs', limits.maxDiffs);
  if (document.links.length > limits.maxLinks) throw exceeded(`has ${document.links.length.toLocaleString('en-US')} links to files`, 'maxLinks', limits.maxLinks);
}

const PAGE_HINT = 'Show fewer places (narrow ambiguous locations, use smaller gitdiff ranges) or split it into several walkthroughs.';

/**
 * Refuses a resolved walkthrough whose page would be larger than the limit, before the page is
 * built: the code it shows (each place with its context, each diff line) goes into the page twice,
 * as markup and as data.
 */
export function checkResolvedSize(resolved: ResolvedWalkthrough, limits: WalkthroughLimits): void {
  let chars = 2 * resolved.document.source.length;
  const budget = limits.maxPageChars;
  const add = (text: string): void => {
    chars += 2 * text.length;
  };
  for (const comment of resolved.comments) {
    const r = comment.resolution;
    const places = r.status === 'resolved' ? [r.location] : r.status === 'ambiguous' ? r.choices.map((c) => c.location) : [];
    for (const place of places) {
      add(place.text);
      for (const line of place.context.lines) add(line);
    }
    if (chars > budget) break;
  }
  for (const diff of resolved.diffs) {
    for (const file of diff.files ?? []) for (const hunk of file.hunks) for (const line of hunk.lines) add(line.text);
    if (chars > budget) break;
  }
  if (chars > budget) throw exceeded(`shows more code than fits in one page (over ${budget.toLocaleString('en-US')} characters)`, 'maxPageChars', budget, PAGE_HINT);
}

/** Refuses a built page larger than the limit. */
export function checkPageSize(length: number, limits: WalkthroughLimits): void {
  if (length > limits.maxPageChars) throw exceeded(`page would be ${length.toLocaleString('en-US')} characters`, 'maxPageChars', limits.maxPageChars, PAGE_HINT);
}

/** A page too large for a JavaScript string (`RangeError: Invalid string length`) as the limit error. */
export function pageTooLarge(limits: WalkthroughLimits): WalkthroughError {
  return exceeded('page is too large to build', 'maxPageChars', limits.maxPageChars, PAGE_HINT);
}
