/**
 * The markdown-it inline rule for our elements inside a paragraph
 * (`see <comment location="…">this</comment> here`), and for every other tag-like text: unknown
 * tags, stray closing tags and raw HTML stay text (escaped when rendered) and get a warning.
 */
import type { StateInline } from 'markdown-it';
import { closest } from '../dialect/index.js';
import { ELEMENT_NAMES, buildElement, isElementName } from './elements.js';
import { WarningCode } from './errors.js';
import type { WalkthroughWarning } from './model.js';
import { ELEMENT_TOKEN, WARNING_TOKEN, parseEnv, type ElementTokenMeta, type ParseEnv, type WarningTokenMeta } from './parse-env.js';
import { findClosingTag, ForwardSearch, scanTag } from './tags.js';
import { countLines } from './text.js';

const ELEMENT_LIST = ELEMENT_NAMES.map((n) => `<${n}>`).join(', ');

/** The markdown-it inline rule of walkthrough elements inside a paragraph. */
export function elementInlineRule(state: StateInline, silent: boolean): boolean {
  const pos = state.pos;
  if (state.src.charCodeAt(pos) !== 0x3c /* < */) return false;
  const env = parseEnv(state.env);
  const search = (env.search ??= new ForwardSearch());
  const tag = scanTag(state.src, pos, state.posMax, search);
  if (tag === undefined) return false;
  const line = lineAt(state, env, pos);

  /** Keeps `src[pos, end)` as text, with a warning marker after it. */
  const asText = (end: number, warning?: Omit<WalkthroughWarning, 'line'>): boolean => {
    if (!silent) {
      state.pending += state.src.slice(pos, end);
      if (warning !== undefined) {
        const token = state.push(WARNING_TOKEN, '', 0);
        token.meta = { warning: env.collector.warn({ ...warning, line }) } satisfies WarningTokenMeta;
      }
    }
    state.pos = end;
    return true;
  };

  switch (tag.kind) {
    case 'markup':
      return asText(tag.end, { code: WarningCode.HtmlNotAllowed, message: 'raw HTML is not rendered, so it is shown as text.' });
    case 'malformed':
      if (!isElementName(tag.name)) return false;
      return asText(tag.end, { code: WarningCode.MalformedElement, message: `malformed <${tag.name}>: ${tag.reason}` });
    case 'close':
      if (!isElementName(tag.name)) return asText(tag.end);
      return asText(tag.end, { code: WarningCode.UnexpectedClosingTag, message: `</${tag.name}> closes nothing: there is no <${tag.name}> before it in this paragraph` });
    case 'open':
      break;
  }

  const name = tag.name;
  if (!isElementName(name)) {
    const near = closest(name.toLowerCase(), ELEMENT_NAMES);
    const hint = near.length > 0 ? ` Did you mean <${near[0]}>?` : '';
    return asText(tag.end, { code: WarningCode.UnknownElement, message: `<${name}> is not a walkthrough element, so it is shown as text (HTML is not rendered).${hint} Elements: ${ELEMENT_LIST}` });
  }
  let content = '';
  let end = tag.end;
  if (!tag.selfClosing) {
    const close = lastClosingTag(env, state.src, name) < tag.end ? undefined : findClosingTag(state.src, name, tag.end, state.posMax, search);
    if (close === undefined) {
      return asText(tag.end, { code: WarningCode.UnclosedElement, message: `<${name}> is not closed: add </${name}> at the end of its content (within the same paragraph, or put the tags on their own lines)` });
    }
    content = state.src.slice(tag.end, close.start);
    end = close.end;
  }
  if (env.nestedIn !== undefined) {
    return asText(end, { code: WarningCode.NestedElement, message: `<${name}> cannot be used inside <${env.nestedIn.kind}>; it is shown as text` });
  }
  if (!silent) {
    const { collector } = env;
    const id = collector.nextId(name);
    const { element, warnings } = buildElement({ kind: name, id, attributes: tag.attributes, content, form: 'inline', line, selfClosing: tag.selfClosing });
    collector.elements.push(element);
    for (const w of warnings) collector.warn(w);
    if (element.kind === 'comment' || element.kind === 'action') {
      const contentLine = line - 1 + countLines(state.src.slice(pos, tag.end), Infinity);
      collector.pending.push({ id, kind: element.kind, markdown: element.kind === 'comment' ? element.content : element.message, mode: 'inline', lineOffset: contentLine });
    }
    const token = state.push(ELEMENT_TOKEN, '', 0);
    token.meta = { id } satisfies ElementTokenMeta;
  }
  state.pos = end;
  return true;
}

/** The offset of the last `</name` in this inline text, cached per text so unclosed tags stay linear. */
function lastClosingTag(env: ParseEnv, src: string, name: string): number {
  if (env.inlineCloseCache?.src !== src) env.inlineCloseCache = { src, offsets: new Map() };
  const { offsets } = env.inlineCloseCache;
  let offset = offsets.get(name);
  if (offset === undefined) {
    offset = src.lastIndexOf(`</${name}`);
    offsets.set(name, offset);
  }
  return offset;
}

/** The 1-based document line of `pos` in the inline text being parsed. */
export function lineAt(state: StateInline, env: ParseEnv, pos: number): number {
  // Counted on from the previous answer in the same text: rules ask in increasing order.
  let cache = env.lineCountCache;
  if (cache?.src !== state.src || cache.pos > pos) cache = { src: state.src, pos: 0, lines: 0 };
  cache = { src: state.src, pos, lines: cache.lines + countLines(state.src.slice(cache.pos, pos), Infinity) };
  env.lineCountCache = cache;
  return env.lineOffset + (env.currentLine ?? 0) + cache.lines + 1;
}
