/**
 * The data of a walkthrough: what parsing finds (elements, file links, warnings) and what
 * resolution adds (code locations, diffs). Lines are 1-based everywhere.
 */
import type { Token } from 'markdown-it';
import type { DialectCode } from '../dialect/index.js';
import type { DiffFile } from '../ide-adapter/model.js';
import type { WarningCode } from './errors.js';

/** How an element was written: `<comment …>` on its own lines, inside a paragraph, or as a fenced block. */
export type ElementForm = 'block' | 'inline' | 'fenced';

interface ElementBase {
  /** `comment-1`, `action-2`, …: unique in the document, numbered per kind in order of appearance. */
  readonly id: string;
  /** The source line the element starts on. */
  readonly line: number;
  readonly form: ElementForm;
}

/** `<comment location="EXPR" icon="NAME">markdown</comment>` */
export interface CommentElement extends ElementBase {
  readonly kind: 'comment';
  /** The Dialect expression, or undefined when the attribute is missing. */
  readonly location: string | undefined;
  /** The icon name as written (or `comment`, the default). */
  readonly icon: string;
  readonly emoji: string;
  /** The content as markdown. */
  readonly content: string;
}

/** `<action button="TEXT">message for the agent</action>` */
export interface ActionElement extends ElementBase {
  readonly kind: 'action';
  readonly button: string;
  /** The message handed to the agent: the content as written (markdown). */
  readonly message: string;
}

/** `<mermaid>diagram</mermaid>` */
export interface MermaidElement extends ElementBase {
  readonly kind: 'mermaid';
  readonly source: string;
}

/** `<gitdiff range="A..B" exclude-unstaged exclude-staged />` */
export interface GitDiffElement extends ElementBase {
  readonly kind: 'gitdiff';
  readonly range: string | undefined;
  readonly excludeUnstaged: boolean;
  readonly excludeStaged: boolean;
}

/** Any walkthrough element. */
export type WalkthroughElement = CommentElement | ActionElement | MermaidElement | GitDiffElement;
/** The name of a walkthrough element. */
export type ElementKind = WalkthroughElement['kind'];

/** A markdown link to a place in the workspace: `[t](src/a.rs#L42)`, `#L42-L50`, `?regex`, `[src/a.rs:42][]`. */
export interface FileLink {
  /** `link-1`, … */
  readonly id: string;
  readonly line: number;
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly column?: number;
  /** For `path?regex`: the first line matching it is the target. */
  readonly regex?: string;
}

/** Something wrong with the markdown; shown where it happened and listed in the summary. */
export interface WalkthroughWarning {
  readonly code: WarningCode;
  readonly message: string;
  readonly line?: number;
  /** The element (or file link) the warning belongs to; it is shown on that element. */
  readonly elementId?: string;
}

/** The result of {@link parseWalkthrough}. */
export interface WalkthroughDocument {
  readonly source: string;
  /** The text of the first heading, if any. */
  readonly title: string | undefined;
  readonly elements: readonly WalkthroughElement[];
  readonly links: readonly FileLink[];
  readonly warnings: readonly WalkthroughWarning[];
  /** markdown-it tokens of the body; `wt_element` tokens refer to elements by `meta.id`. */
  readonly tokens: readonly Token[];
  /** markdown-it tokens of each comment's and action's content, by element id. */
  readonly contentTokens: ReadonlyMap<string, readonly Token[]>;
}

/** A code location ready for display: where, the line's text, and a few lines around it. */
export interface CodeLocation {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** The text of `line`. */
  readonly text: string;
  /** Lines around the location (empty when the file could not be read). */
  readonly context: { readonly startLine: number; readonly lines: readonly string[] };
}

/** One place an ambiguous comment could go, with the program that selects it. */
export interface LocationChoice {
  readonly label: string;
  /** The program that selects exactly this location (absent when the result cannot be picked from). */
  readonly program?: string;
  readonly location: CodeLocation;
}

/** Where a comment's location expression led: code locations, or an error that says why not. */
export type CommentResolution =
  | { readonly status: 'resolved'; readonly location: CodeLocation }
  | {
      readonly status: 'ambiguous';
      readonly message: string;
      readonly choices: readonly LocationChoice[];
      /** How many more places matched than `choices` lists (cut at `maxChoicesPerComment`). */
      readonly omitted?: number;
    }
  | { readonly status: 'unresolved'; readonly error: { readonly code: DialectCode; readonly message: string; readonly text: string } };

/** Whether a comment resolved. */
export type CommentStatus = CommentResolution['status'];

/** A comment with its resolution and the notes of its evaluation. */
export interface ResolvedComment {
  readonly element: CommentElement;
  readonly resolution: CommentResolution;
  /** Notes of the evaluation (e.g. a server was still indexing). */
  readonly notes: readonly string[];
}

/** A `<gitdiff>` element with the files of its diff. */
export interface ResolvedDiff {
  readonly element: GitDiffElement;
  readonly files?: readonly DiffFile[];
  readonly error?: { readonly code: DialectCode; readonly message: string };
}

/** A file link, with the error that makes it broken if any. */
export interface ResolvedLink {
  readonly link: FileLink;
  /** The target line (for `?regex` links: the first matching line), when it was found. */
  readonly line?: number;
  readonly text?: string;
  readonly error?: string;
}

/** The result of {@link resolveWalkthrough}: the document with every location and diff filled in. */
export interface ResolvedWalkthrough {
  readonly document: WalkthroughDocument;
  readonly comments: readonly ResolvedComment[];
  readonly actions: readonly ActionElement[];
  readonly diagrams: readonly MermaidElement[];
  readonly diffs: readonly ResolvedDiff[];
  readonly links: readonly ResolvedLink[];
  /** The document's warnings plus those found while resolving. */
  readonly warnings: readonly WalkthroughWarning[];
}
