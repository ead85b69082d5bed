/**
 * The walkthrough layer's codes: adds them to the core's `DialectCode` union (declaration merging,
 * see `dialect/codes.ts`) and documents each in one line.
 */
import type { CodeDocs, EvalCode } from '../dialect/index.js';
import type { WalkthroughErrorCode, WarningCode } from './errors.js';
import type { CommentErrorCode } from './resolve.js';

/** Every code of the walkthrough layer: its errors, unresolved comments, and warnings about the markdown. */
export type WalkthroughCode = WalkthroughErrorCode | CommentErrorCode | WarningCode;

declare module '../dialect/codes.js' {
  interface DialectCodeSets {
    /** The walkthrough layer's codes. */
    walkthrough: WalkthroughCode;
  }
}

/** The walkthrough layer's codes, documented (codes it shares with the core are documented there). */
export const WALKTHROUGH_CODE_DOCS: CodeDocs<Exclude<WalkthroughCode, EvalCode>> = {
  'asset-missing': 'A bundled asset (mermaid, the page script) could not be found or read.',
  'unsafe-asset': 'A bundled script cannot be inlined safely into a <script> element.',
  'read-failed': 'The walkthrough file could not be read.',
  'invalid-option': 'A walkthrough option (a limit) has a value that is not allowed.',
  'limit-exceeded': 'The walkthrough is larger than a limit of limits.ts (too many comments, too long, too large a page).',
  'resolve-budget': "A comment, gitdiff or link not resolved within the walkthrough's time budget for all its queries (maxResolveMs): fix the slow one or split the walkthrough.",
  'missing-location': 'A <comment> has no location attribute.',
  'no-location': "A comment's location expression evaluated to something that is not a location.",
  'evaluation-failed': "A comment's location expression failed in a way that is not a Dialect error.",
  'unknown-element': 'A tag that is not a walkthrough element (<div>, <Comment>): shown as text.',
  'html-not-allowed': 'Raw HTML that is not a tag (<!-- -->, <!DOCTYPE>): shown as text.',
  'unknown-attribute': 'An attribute the element does not take.',
  'duplicate-attribute': 'The same attribute twice on one element; the first is used.',
  'missing-attribute': 'An attribute the element needs is missing.',
  'invalid-attribute': 'An attribute with an empty or malformed value, or a flag given a value.',
  'malformed-element': 'A walkthrough tag with broken syntax (an unterminated quote, a missing >).',
  'unclosed-element': 'An element that is opened but never closed.',
  'unexpected-closing-tag': 'A closing tag that closes nothing.',
  'nested-element': "An element inside a comment's or action's content.",
  'unknown-icon': 'A comment icon that is not one of the known icons.',
  'empty-content': 'A comment or mermaid element with no content.',
  'ignored-content': 'Content where the element ignores it (e.g. inside <gitdiff>).',
  'image-not-shown': 'An image: walkthrough pages do not show images.',
  'broken-link': 'A file link whose file or line does not exist (found while resolving).',
  'internal-error': 'The walkthrough could not be parsed because of a bug; the page shows the text as is.',
  'too-many-warnings': 'More warnings than one walkthrough lists: the first 200 are listed, the rest counted in this one.',
};
