/**
 * File links: markdown links whose target is a place in the workspace rather than a URL.
 *
 * - `[text](src/a.rs#L42)`, `[text](src/a.rs#L42-L50)`, `[text](src/a.rs:42)`: a line or range;
 * - `[text](src/a.rs?fn main)` (or `<src/a.rs?fn main>`): the first line matching a regex;
 * - `[text](src/a.rs)`: the file;
 * - `[src/a.rs:42][]` (also with backticks, `` [`src/a.rs:42`][] ``): the reference-style shorthand.
 */
import type { StateCore, StateInline, Token } from 'markdown-it';
import { WarningCode } from './errors.js';
import type { FileLink } from './model.js';
import { parseEnv, type ParseEnv } from './parse-env.js';

/** What a file link's target says, before it gets an id and a line. */
export type FileTarget = Omit<FileLink, 'id' | 'line'>;

/** Meta of link tokens that are file links. */
export interface FileLinkMeta {
  readonly fileLink: string;
}

/** Meta of image tokens: images are not shown (the page loads nothing); this warning says so. */
export interface ImageMeta {
  readonly warning: number;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** The workspace target of a link, or undefined for URLs and in-page anchors. */
export function parseFileHref(href: string): FileTarget | undefined {
  const target = href.trim();
  if (target === '' || target.startsWith('#') || target.startsWith('//')) return undefined;
  const colon = /^(.+?):(\d+)(?:-(\d+)|:(\d+))?$/.exec(target);
  if (colon !== null && !target.includes('://')) {
    const [, path = '', start, end, column] = colon;
    return withPath(path, { startLine: Number(start), ...(end !== undefined ? { endLine: Number(end) } : {}), ...(column !== undefined ? { column: Number(column) } : {}) });
  }
  if (SCHEME.test(target)) return undefined;
  const query = target.indexOf('?');
  const hash = target.indexOf('#');
  if (query >= 0 && (hash < 0 || query < hash)) {
    const regex = target.slice(query + 1);
    return withPath(target.slice(0, query), regex === '' ? {} : { regex });
  }
  if (hash >= 0) {
    const anchor = /^L(\d+)(?:C(\d+))?(?:-L?(\d+)(?:C\d+)?)?$/.exec(target.slice(hash + 1));
    if (anchor === null) return withPath(target.slice(0, hash), {});
    const [, start, column, end] = anchor;
    return withPath(target.slice(0, hash), { startLine: Number(start), ...(end !== undefined ? { endLine: Number(end) } : {}), ...(column !== undefined ? { column: Number(column) } : {}) });
  }
  return withPath(target, {});
}

function withPath(path: string, rest: Omit<FileTarget, 'path'>): FileTarget | undefined {
  const clean = path.replace(/^\.\//, '');
  if (clean === '' || (rest.startLine !== undefined && rest.startLine < 1)) return undefined;
  if (rest.endLine !== undefined && rest.startLine !== undefined && rest.endLine < rest.startLine) return { path: clean, startLine: rest.startLine, ...(rest.column !== undefined ? { column: rest.column } : {}) };
  return { path: clean, ...rest };
}

/**
 * `[src/a.rs:42][]`, matched where it starts (sticky, on the text itself: no copy of the rest per
 * `[`). The target holds no `[`, so the scan from one `[` ends at the next: a run of brackets is
 * read once, not once per bracket.
 */
const FILE_REFERENCE = /\[(`?)([^[\]`\s]+?:\d+(?:-\d+)?)\1\]\[\]/y;

/** Inline rule for `[src/a.rs:42][]`: a link, unless the document defines that reference itself. */
export function fileReferenceRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */) return false;
  FILE_REFERENCE.lastIndex = state.pos;
  const m = FILE_REFERENCE.exec(state.src);
  if (m === null || m.index + m[0].length > state.posMax) return false;
  const [whole, tick = '', target = ''] = m;
  const env = parseEnv(state.env);
  const label = state.md.utils.normalizeReference(`${tick}${target}${tick}`);
  if (env.references?.[label] !== undefined) return false;
  if (!silent) {
    const open = state.push('link_open', 'a', 1);
    open.attrs = [['href', target]];
    const text = tick === '' ? state.push('text', '', 0) : state.push('code_inline', 'code', 0);
    text.content = target;
    if (tick !== '') text.markup = '`';
    state.push('link_close', 'a', -1);
  }
  state.pos += whole.length;
  return true;
}

/** Core rule: marks file links (and images) in every inline token, recording them. */
export function linkCoreRule(state: StateCore): void {
  const env = parseEnv(state.env);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || block.children === null) continue;
    const line = env.lineOffset + (block.map?.[0] ?? 0) + 1;
    markLinks(block.children, line, env, state.md.normalizeLinkText.bind(state.md));
  }
}

function markLinks(children: Token[], line: number, env: ParseEnv, decode: (href: string) => string): void {
  const open: Token[] = [];
  for (const token of children) {
    if (token.type === 'link_open') {
      open.push(token);
      const target = parseFileHref(decode(String(token.attrGet('href') ?? '')));
      if (target === undefined) continue;
      const id = env.collector.nextId('link');
      env.collector.links.push({ id, line, ...target });
      token.meta = { fileLink: id } satisfies FileLinkMeta;
    } else if (token.type === 'link_close') {
      const opening = open.pop();
      if (isFileLinkMeta(opening?.meta)) token.meta = opening.meta;
    } else if (token.type === 'image') {
      const warning = env.collector.warn({ code: WarningCode.ImageNotShown, message: `images are not shown in walkthroughs (the page loads nothing from outside); showing the alt text of ${token.attrGet('src') ?? 'an image'} instead`, line });
      token.meta = { warning } satisfies ImageMeta;
    }
  }
}

/** Whether token metadata is that of a file link. */
export function isFileLinkMeta(meta: unknown): meta is FileLinkMeta {
  return typeof meta === 'object' && meta !== null && typeof (meta as { fileLink?: unknown }).fileLink === 'string';
}
