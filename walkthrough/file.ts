/**
 * One call from markdown (a string or a file) to everything a caller shows: the page, the JSON
 * model and the agent summary. This is what `dialect walkthrough render FILE.md` uses.
 */
import { basename, extname, parse as parsePath } from 'node:path';
import { readConfined, type ConfinedRead } from '../ide-adapter/confine.js';
import type { WalkthroughEnvironment } from './environment-types.js';
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';
import { walkthroughToJson, type WalkthroughJson } from './json.js';
import { checkElementCounts, checkMarkdownSize, checkPageSize, checkResolvedSize, DEFAULT_WALKTHROUGH_LIMITS, pageTooLarge, type WalkthroughLimits } from './limits.js';
import type { ResolvedWalkthrough, WalkthroughDocument } from './model.js';
import { parseWalkthrough } from './parse.js';
import { RenderContext } from './render-context.js';
import { renderWalkthroughHtml, type RenderHtmlOptions } from './render-html.js';
import { resolveWalkthrough, type ResolveOptions } from './resolve.js';
import { summarizeWalkthrough } from './summary.js';

/** Options of rendering a walkthrough: HTML options and resolution options. */
export interface RenderWalkthroughOptions extends RenderHtmlOptions, ResolveOptions {}

/** A rendered walkthrough in every form. */
export interface RenderedWalkthrough {
  readonly resolved: ResolvedWalkthrough;
  readonly html: string;
  readonly json: WalkthroughJson;
  /** For agents: what did not resolve and how to fix it. */
  readonly summary: string;
}

/**
 * Parses markdown within the limits: its length is checked before parsing, the number of
 * comments, diffs and links after (before any of them runs). Throws a `limit-exceeded`
 * `WalkthroughError`.
 */
export function parseWithinLimits(markdown: string, limits: WalkthroughLimits = DEFAULT_WALKTHROUGH_LIMITS): WalkthroughDocument {
  checkMarkdownSize(markdown.length, limits);
  const document = parseWalkthrough(markdown);
  checkElementCounts(document, limits);
  return document;
}

/**
 * Parses, resolves and renders walkthrough markdown. A walkthrough over one of the limits
 * (`options.limits`, default {@link DEFAULT_WALKTHROUGH_LIMITS}) is refused with a
 * `limit-exceeded` `WalkthroughError` as early as the limit can be checked: the length before
 * parsing, the element counts before any query runs, the page size before the page is built.
 */
export async function renderWalkthrough(markdown: string, env: WalkthroughEnvironment, options: RenderWalkthroughOptions = {}): Promise<RenderedWalkthrough> {
  return renderWalkthroughDocument(parseWithinLimits(markdown, options.limits), env, options);
}

/** Resolves and renders a parsed walkthrough (see {@link renderWalkthrough}). */
export async function renderWalkthroughDocument(document: WalkthroughDocument, env: WalkthroughEnvironment, options: RenderWalkthroughOptions = {}): Promise<RenderedWalkthrough> {
  const limits = options.limits ?? DEFAULT_WALKTHROUGH_LIMITS;
  return renderResolved(await resolveWalkthrough(document, env, { ...options, limits }), options);
}

/**
 * Renders a resolved walkthrough in every form, within the limits (the page size is estimated
 * before the page is built and checked after).
 */
export function renderResolved(resolved: ResolvedWalkthrough, options: RenderHtmlOptions & { readonly limits?: WalkthroughLimits } = {}): RenderedWalkthrough {
  const limits = options.limits ?? DEFAULT_WALKTHROUGH_LIMITS;
  checkResolvedSize(resolved, limits);
  let html: string;
  try {
    html = renderWalkthroughHtml(resolved, options);
  } catch (error) {
    // The estimate above should prevent it; should it not, a too-long string is still the limit.
    if (error instanceof RangeError) throw pageTooLarge(limits);
    throw error;
  }
  checkPageSize(html.length, limits);
  return {
    resolved,
    html,
    json: walkthroughToJson(resolved, new RenderContext(resolved)),
    summary: summarizeWalkthrough(resolved),
  };
}

/** A walkthrough file, read and parsed within the limits, with its title. */
export interface LoadedWalkthrough {
  readonly document: WalkthroughDocument;
  /** The first heading, else the file name. */
  readonly title: string;
}

/**
 * Reads and parses a walkthrough file within the limits. The file is read like every workspace
 * file (`ide-adapter/confine.ts` `readConfined`): a regular file (never a FIFO or device, which
 * would block or grow forever), of at most the bytes the limit allows (a file far over it is not
 * even read), and — given `within`, the workspace's real root when the file lies in it — whose
 * real location is inside `within`. Throws `read-failed` or `limit-exceeded` `WalkthroughError`s.
 */
export async function loadWalkthroughFile(path: string, limits: WalkthroughLimits = DEFAULT_WALKTHROUGH_LIMITS, within?: string): Promise<LoadedWalkthrough> {
  // A file of more bytes than 3 × the limit has more characters than the limit (UTF-8 takes at
  // most 3 bytes per UTF-16 unit): refused without reading it.
  const read = readConfined(within ?? parsePath(path).root, path, UTF8_BYTES_PER_UNIT * limits.maxMarkdownChars);
  if (!read.ok) {
    if (read.reason === 'too-large') checkMarkdownSize(Math.ceil((read.size ?? 0) / UTF8_BYTES_PER_UNIT), limits, 'at least ');
    throw new WalkthroughError(WalkthroughErrorCode.ReadFailed, `cannot read the walkthrough ${path}: ${refusal(read, within)}`);
  }
  const markdown = read.text;
  // The title is the parse's (its first heading), never a pattern over the text: one that allowed
  // blanks and closing #s around the title backtracked cubically (5,000 of each: 5 minutes).
  const document = parseWithinLimits(markdown, limits);
  return { document, title: document.title ?? basename(path, extname(path)) };
}

/** Why a walkthrough file was not read, in the reader's words. */
function refusal(read: Extract<ConfinedRead, { ok: false }>, within: string | undefined): string {
  switch (read.reason) {
    case 'outside':
      return `it leads outside the workspace ${within ?? ''} (through a symbolic link); render the file where it really is, or copy it into the workspace`;
    case 'not-a-file':
      return 'it is not a regular file (a folder, FIFO or device); name a markdown file';
    case 'missing':
      return 'no such file';
    case 'too-large':
      return 'it is too large';
  }
}

/** The most UTF-8 bytes one UTF-16 code unit takes. */
const UTF8_BYTES_PER_UNIT = 3;

