/**
 * The state one parse shares between our markdown-it rules: the elements, file links and
 * warnings found so far, and where the text being parsed sits in the document.
 */
import type { Env } from 'markdown-it';
import { cutMiddle, MAX_DIAGNOSTIC_TEXT } from '../dialect/index.js';
import type { ElementKind, FileLink, WalkthroughElement, WalkthroughWarning } from './model.js';
import type { ForwardSearch } from './tags.js';

/** Content of a comment or action, parsed after the body (so link references are known). */
export interface PendingContent {
  readonly id: string;
  readonly kind: 'comment' | 'action';
  readonly markdown: string;
  /** Block content (paragraphs, lists) or inline content (inside a paragraph). */
  readonly mode: 'block' | 'inline';
  /** The 0-based document line the content starts on. */
  readonly lineOffset: number;
}

/**
 * One parse keeps at most this many warnings; the rest are counted in one last warning. Each
 * stray tag is a warning of about a kilobyte (it lists the elements), so a megabyte of `<div>`
 * lines made 165,000 of them: a 190 MB page, 900 MB of memory and 18 s for one walkthrough.
 */
export const MAX_LISTED_WARNINGS = 200;

/** Everything one parse collects. */
export class ParseCollector {
  readonly elements: WalkthroughElement[] = [];
  readonly links: FileLink[] = [];
  readonly warnings: WalkthroughWarning[] = [];
  readonly pending: PendingContent[] = [];
  readonly #counters = new Map<string, number>();

  /** The next id for a kind: `comment-1`, `comment-2`, … */
  nextId(kind: ElementKind | 'link'): string {
    const n = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, n);
    return `${kind}-${n}`;
  }

  /** Warnings past {@link MAX_LISTED_WARNINGS}, counted only. */
  unlisted = 0;

  /**
   * Records a warning and returns its index (warning tokens refer to it); past
   * {@link MAX_LISTED_WARNINGS} it is only counted, and its index is -1 (nothing is shown there).
   */
  warn(warning: WalkthroughWarning): number {
    if (this.warnings.length >= MAX_LISTED_WARNINGS) {
      this.unlisted += 1;
      return -1;
    }
    // A warning quotes what the walkthrough wrote (a name, an attribute, a path): cut, as an error's text is.
    this.warnings.push({ ...warning, message: cutMiddle(warning.message, MAX_DIAGNOSTIC_TEXT) });
    return this.warnings.length - 1;
  }
}

/** The markdown-it `env` of our parses. */
export interface ParseEnv extends Env {
  readonly collector: ParseCollector;
  /** Set while parsing a comment's or action's content, where elements are not allowed. */
  readonly nestedIn?: { readonly kind: ElementKind; readonly id: string };
  /** The 0-based document line of this text's first line. */
  readonly lineOffset: number;
  /** The 0-based line (in this text) of the inline token being parsed; set by our inline core rule. */
  currentLine?: number;
  /** Per element name, the offset of the last closing tag in this text (block rule cache). */
  lastClosingTags?: Map<string, number>;
  /** Line breaks before `pos` in the inline text being parsed (inline rule cache). */
  lineCountCache?: { readonly src: string; readonly pos: number; readonly lines: number };
  /** Per element name, the offset of the last closing tag in the inline text being parsed. */
  inlineCloseCache?: { readonly src: string; readonly offsets: Map<string, number> };
  /** The remembered forward searches of our rules (tag ends, closing tags), so they stay linear. */
  search?: ForwardSearch;
}

/** Our env from markdown-it's untyped one. */
export function parseEnv(env: unknown): ParseEnv {
  return env as ParseEnv;
}

/** Type of the tokens that stand for our elements; `meta.id` is the element id. */
export const ELEMENT_TOKEN = 'wt_element';
/** Type of the tokens that show a warning in place; `meta.warning` is its index. */
export const WARNING_TOKEN = 'wt_warning';

/** The metadata of an element token: the element. */
export interface ElementTokenMeta {
  readonly id: string;
}

/** The metadata of a warning token: the warning. */
export interface WarningTokenMeta {
  readonly warning: number;
}
