/**
 * Typed errors and warnings of walkthroughs. Codes are stable: tools, tests and agents match on them.
 */
import { EvalCode } from '../dialect/index.js';

/** Codes of warnings about a walkthrough's markdown (shown in the page and in the summary). */
export const WarningCode = {
  /** A tag that is not one of ours (`<div>`, `<Comment>`): shown as text. */
  UnknownElement: 'unknown-element',
  /** Raw HTML that is not a tag (`<!-- -->`, `<!DOCTYPE>`): shown as text. */
  HtmlNotAllowed: 'html-not-allowed',
  UnknownAttribute: 'unknown-attribute',
  DuplicateAttribute: 'duplicate-attribute',
  MissingAttribute: 'missing-attribute',
  InvalidAttribute: 'invalid-attribute',
  /** One of our tags with broken syntax (an unterminated quote, a missing `>`). */
  MalformedElement: 'malformed-element',
  UnclosedElement: 'unclosed-element',
  UnexpectedClosingTag: 'unexpected-closing-tag',
  /** An element inside a comment's or action's content. */
  NestedElement: 'nested-element',
  UnknownIcon: 'unknown-icon',
  EmptyContent: 'empty-content',
  IgnoredContent: 'ignored-content',
  ImageNotShown: 'image-not-shown',
  /** A file link whose file or line does not exist (found while resolving). */
  BrokenLink: 'broken-link',
  InternalError: 'internal-error',
  /** More warnings than one walkthrough lists (`MAX_LISTED_WARNINGS`): the rest are counted. */
  TooManyWarnings: 'too-many-warnings',
} as const;

/** One of {@link WarningCode}. */
export type WarningCode = (typeof WarningCode)[keyof typeof WarningCode];

/** Codes of {@link WalkthroughError}. */
export const WalkthroughErrorCode = {
  /** The same code as the interpreter's: one meaning, one owner. */
  Cancelled: EvalCode.Cancelled,
  /** A bundled asset (mermaid, the page script) could not be found or read. */
  AssetMissing: 'asset-missing',
  /** A bundled script cannot be inlined safely into a `<script>` element. */
  UnsafeAsset: 'unsafe-asset',
  /** The walkthrough file could not be read. */
  ReadFailed: 'read-failed',
  InvalidOption: 'invalid-option',
  /** The walkthrough is larger than a limit of `limits.ts` (too many comments, too long, too large a page). */
  LimitExceeded: 'limit-exceeded',
  /** A comment, gitdiff or link not resolved within the walkthrough's budget for all its queries (`maxResolveMs`). */
  OverBudget: 'resolve-budget',
} as const;

/** One of {@link WalkthroughErrorCode}. */
export type WalkthroughErrorCode = (typeof WalkthroughErrorCode)[keyof typeof WalkthroughErrorCode];

/** A failure of the walkthrough machinery itself (never of the user's markdown, which only warns). */
export class WalkthroughError extends Error {
  override readonly name = 'WalkthroughError';

  constructor(
    readonly code: WalkthroughErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
