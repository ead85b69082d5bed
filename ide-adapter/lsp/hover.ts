/**
 * Hover text as servers write it, turned into the port's `HoverInfo`: which code block is the
 * signature (a server's own layout, declared by its definition: `hoverSignature`), the rest as
 * documentation, and `file://` links into the workspace as `path:line:column`.
 *
 * Hover text is server data, as long as a workspace's doc comments make it: it is cut to
 * `MAX_HOVER_CHARS` before anything reads it, and every step after is one pass over it.
 */
import type { HoverInfo } from '../backend.js';
import { uriToPath } from './uris.js';

/**
 * Which of the code blocks a hover opens with is the signature. rust-analyzer opens with the module
 * path and then the signature; the default is the last of them too, the layout the built-in servers
 * share. A hover that opens with prose has its signature as the block it closes with (clangd).
 */
export type HoverSignature = 'first-code-block' | 'last-code-block';

/** A hover contributes at most this many characters (UTF-16 units); the rest is cut, with a marker. */
export const MAX_HOVER_CHARS = 100_000;

/** How a hover is read: its server's layout, and how a linked file maps into the workspace. */
export interface HoverReading {
  /** Which code block is the signature; the default is the last. */
  readonly layout?: HoverSignature | undefined;
  /** The workspace path of an absolute path, undefined when it is outside. */
  readonly toWorkspacePath: (absPath: string) => string | undefined;
}

/**
 * The one reading of a hover's Markdown (language servers and the editor's hover providers alike):
 * cut to {@link MAX_HOVER_CHARS}, `file://` links into the workspace rewritten, then split into
 * the signature (one of the code blocks the hover opens with, chosen by the layout, or the block it
 * closes with) and the documentation (everything else, horizontal rules dropped, the doc comment's
 * own code blocks kept in place); parts that are empty are left out.
 */
export function readHover(markdown: string, reading: HoverReading): HoverInfo {
  return hoverInfo(workspaceLinks(capHover(markdown), reading.toWorkspacePath), reading.layout ?? 'last-code-block');
}

const CUT_MARKER = `\n\n… (the hover text was cut at ${MAX_HOVER_CHARS.toLocaleString('en')} characters)`;

/**
 * `markdown` cut to {@link MAX_HOVER_CHARS}, a marker included, when it is longer; else as it is.
 * {@link readHover} does it first; a caller that reads the text before (the outside-sources
 * policy) cuts it first too. Cutting twice changes nothing.
 */
export function capHover(markdown: string): string {
  if (markdown.length <= MAX_HOVER_CHARS) return markdown;
  let end = MAX_HOVER_CHARS - CUT_MARKER.length;
  if (/[\uD800-\uDBFF]/.test(markdown.charAt(end - 1))) end--; // not inside a surrogate pair
  return `${markdown.slice(0, end)}${CUT_MARKER}`;
}

/**
 * A fenced code block, its language tag left out. Linear: a block ends at the first fence after
 * it, so only an opening fence with no fence after it scans to the end, and only one can.
 */
const CODE_BLOCK = /```[a-zA-Z0-9_-]*\n([\s\S]*?)```/g;

/** A `file://` link with an optional `#L12`, `#12:3` or `#L12,3` position. */
const FILE_LINK = /file:\/\/[^\s)#]+(?:#L?(\d+)(?:[,:](\d+))?[^\s)]*)?/g;

function hoverInfo(markdown: string, layout: HoverSignature): HoverInfo {
  if (markdown.trim() === '') return {};
  // One pass over the code blocks: each block (its text and its fenced source) and the prose between them.
  const blocks: { readonly text: string; readonly fenced: string }[] = [];
  const prose: string[] = [];
  // Whether the text before each block joins it to the header: blank, and for a block after the
  // first, no rule either (a rule ends the header: what follows it is documentation).
  const joins: boolean[] = [];
  let last = 0;
  for (const m of markdown.matchAll(CODE_BLOCK)) {
    blocks.push({ text: (m[1] ?? '').trim(), fenced: m[0] });
    const before = markdown.slice(last, m.index);
    prose.push(withoutRules(before));
    joins.push((blocks.length === 1 ? (prose[0] ?? '') : before).trim() === '');
    last = m.index + m[0].length;
  }
  prose.push(withoutRules(markdown.slice(last)));
  const header = headerBlocks(joins, (prose[prose.length - 1] ?? '').trim() === '');
  const signatureAt = header.leading > 0 ? (layout === 'first-code-block' ? 0 : header.leading - 1) : header.closing ? blocks.length - 1 : -1;
  // The documentation is the prose with the code blocks a doc comment writes (examples) in place;
  // the header blocks (a module path, the signature) are not repeated in it.
  const parts: string[] = [];
  for (let i = 0; i < prose.length; i++) {
    parts.push(prose[i] ?? '');
    const block = blocks[i];
    if (block !== undefined && i >= header.leading && i !== signatureAt) parts.push(block.fenced);
  }
  const rest = parts.join('').trim();
  const signature = blocks[signatureAt]?.text;
  return { ...(signature !== undefined ? { signature } : {}), ...(rest !== '' ? { documentation: rest } : {}) };
}

/**
 * Which code blocks are the hover's header rather than its documentation: the run of blocks it
 * opens with (`joins[i]`: only blanks before block `i`, and no rule after the first — rust-analyzer's
 * module path and signature, pyright's, tsgo's and gopls's signature), or else the one block it
 * closes with (`endsBlank`: clangd writes the declaration after the documentation). A doc
 * comment's examples are neither.
 */
function headerBlocks(joins: readonly boolean[], endsBlank: boolean): { leading: number; closing: boolean } {
  let leading = 0;
  while (leading < joins.length && joins[leading] === true) leading++;
  return { leading, closing: leading === 0 && joins.length > 0 && endsBlank };
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** A line terminator as JavaScript's multiline `^` and `$` see them. */
function isLineEnd(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The first line start after `from` (past the next line terminator), or the end. */
function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (isLineEnd(text.charCodeAt(i))) return i + 1;
  return text.length;
}

/**
 * `text` without its horizontal rules — what `text.replace(/^\s*---\s*$/gm, '')` gives (the rule
 * with the blank lines before it and all but one line end after it), in one pass. That regex
 * rescans a run of blank lines from each of them: quadratic on a doc comment of blank lines.
 */
function withoutRules(text: string): string {
  const n = text.length;
  const kept: string[] = [];
  let copied = 0;
  let p = 0; // a line start
  while (p < n) {
    const dashes = skipSpaces(text, p); // blank lines and indentation before a rule
    if (text.startsWith('---', dashes)) {
      const after = skipSpaces(text, dashes + 3);
      // The rule ends at the last line end of the whitespace after it (or at the end of the text).
      let end = after === n ? n : -1;
      for (let i = after - 1; end < 0 && i >= dashes + 3; i--) if (isLineEnd(text.charCodeAt(i))) end = i;
      if (end >= 0) {
        kept.push(text.slice(copied, p));
        copied = end;
        p = end < n && isLineEnd(text.charCodeAt(end - 1)) ? end : nextLineStart(text, end);
        continue;
      }
    }
    // Every line start up to `dashes` begins the same failed match: go past them.
    p = nextLineStart(text, dashes);
  }
  kept.push(text.slice(copied));
  return kept.join('');
}

function workspaceLinks(markdown: string, toWorkspacePath: (absPath: string) => string | undefined): string {
  return markdown.replace(FILE_LINK, (uri: string, line?: string, column?: string) => {
    const abs = uriToPath(uri.replace(/#.*$/, ''));
    const path = abs === undefined ? undefined : toWorkspacePath(abs);
    if (path === undefined) return uri;
    return `${path}${line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ''}` : ''}`;
  });
}
