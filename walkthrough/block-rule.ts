/**
 * The markdown-it block rule for our elements written on their own lines:
 *
 *     <comment location="findDefinition(`User`)">
 *     Markdown content, possibly several paragraphs.
 *     </comment>
 *
 * Anything it does not accept (no closing tag, text after the closing tag, inside a comment) is
 * left to the paragraph and so to the inline rule, which parses or reports it.
 */
import type { StateBlock } from 'markdown-it';
import { buildElement, isElementName } from './elements.js';
import { ELEMENT_TOKEN, parseEnv, type ElementTokenMeta } from './parse-env.js';
import { findClosingTag, ForwardSearch, nextClosingTag, scanTag } from './tags.js';
import { dedent } from './text.js';

/** An opening tag may span this many lines (its attributes one per line, say). */
const MAX_TAG_LINES = 20;

/** The offset of the last `</name` in the text being parsed (-1 if none), computed once per parse. */
function lastClosingTag(env: ReturnType<typeof parseEnv>, src: string, name: string): number {
  const cache = (env.lastClosingTags ??= new Map<string, number>());
  let offset = cache.get(name);
  if (offset === undefined) {
    offset = src.lastIndexOf(`</${name}`);
    cache.set(name, offset);
  }
  return offset;
}

/** The line in `[from, to)` whose text holds `offset` (-1 if none), by binary search. */
function lineOf(state: StateBlock, offset: number, from: number, to: number): number {
  let lo = from;
  let hi = to - 1;
  if (hi < lo || (state.eMarks[hi] ?? 0) < offset) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((state.eMarks[mid] ?? 0) < offset) lo = mid + 1;
    else hi = mid;
  }
  return offset >= (state.bMarks[lo] ?? 0) + (state.tShift[lo] ?? 0) ? lo : -1;
}

/** The markdown-it block rule of walkthrough elements that start a line. */
export function elementBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const at = (array: number[], line: number): number => array[line] ?? 0;
  if (at(state.sCount, startLine) - state.blkIndent >= 4) return false;
  const start = at(state.bMarks, startLine) + at(state.tShift, startLine);
  if (state.src.charCodeAt(start) !== 0x3c /* < */) return false;
  const name = /^<([a-z]+)/.exec(state.src.slice(start, start + 12))?.[1];
  if (name === undefined || !isElementName(name)) return false;
  const env = parseEnv(state.env);
  if (env.nestedIn !== undefined) return false;
  // No closing tag anywhere after this line (and not self-closing): not a block element. Checked
  // first, with the last closing tag's offset cached, so unclosed tags stay linear.
  const lastClose = lastClosingTag(env, state.src, name);

  // The opening tag may span lines, up to the first blank one (and a few lines at most).
  let tagLimitLine = startLine;
  while (tagLimitLine + 1 < endLine && tagLimitLine - startLine < MAX_TAG_LINES && !state.isEmpty(tagLimitLine + 1)) tagLimitLine++;
  const search = (env.search ??= new ForwardSearch());
  const tag = scanTag(state.src, start, at(state.eMarks, tagLimitLine), search);
  if (tag?.kind !== 'open') return false;
  let tagEndLine = startLine;
  while (tagEndLine < tagLimitLine && at(state.eMarks, tagEndLine) < tag.end) tagEndLine++;
  const afterTag = state.src.slice(tag.end, at(state.eMarks, tagEndLine));

  let content = '';
  let contentLine = tagEndLine;
  let nextLine: number;
  if (tag.selfClosing) {
    if (afterTag.trim() !== '') return false;
    nextLine = tagEndLine + 1;
  } else {
    const sameLine = findClosingTag(state.src, name, tag.end, at(state.eMarks, tagEndLine));
    if (sameLine !== undefined) {
      if (state.src.slice(sameLine.end, at(state.eMarks, tagEndLine)).trim() !== '') return false;
      content = state.src.slice(tag.end, sameLine.start);
      nextLine = tagEndLine + 1;
    } else {
      if (lastClose < tag.end) return false;
      // The first line after the tag that closes it, before any line that leaves the container.
      // Both searches are remembered (`ForwardSearch`), so openers whose closing tag is missing,
      // or lies past the container, cost one scan of the document, not one each.
      const firstLine = tagEndLine + 1;
      if (firstLine >= endLine) return false;
      const closeAt = search.first(state.src, `line-close:${name}`, at(state.bMarks, firstLine), (from) => nextClosingTag(state.src, name, from, false));
      const closeLine = closeAt < 0 ? -1 : lineOf(state, closeAt, firstLine, endLine);
      const context = `leave:${endLine}:${state.blkIndent}:${state.parentType}`;
      const leave = search.first(state.src, context, firstLine, (from) => {
        for (let line = from; line < endLine; line++) if (at(state.sCount, line) < state.blkIndent && !state.isEmpty(line)) return line;
        return endLine;
      });
      const close = closeLine >= 0 && closeLine < leave ? findClosingTag(state.src, name, at(state.bMarks, closeLine) + at(state.tShift, closeLine), at(state.eMarks, closeLine)) : undefined;
      if (close === undefined || closeLine < 0) return false;
      if (state.src.slice(close.end, at(state.eMarks, closeLine)).trim() !== '') return false;
      const middle = state.getLines(tagEndLine + 1, closeLine, state.blkIndent, true);
      const last = state.src.slice(at(state.bMarks, closeLine) + at(state.tShift, closeLine), close.start);
      const opening = afterTag.trim() === '' ? '' : `${afterTag.trim()}\n`;
      if (opening === '') contentLine = tagEndLine + 1;
      content = opening + dedent(middle + last);
      nextLine = closeLine + 1;
    }
  }
  if (silent) return true;

  const { collector } = env;
  const id = collector.nextId(name);
  const { element, warnings } = buildElement({ kind: name, id, attributes: tag.attributes, content, form: 'block', line: env.lineOffset + startLine + 1, selfClosing: tag.selfClosing });
  collector.elements.push(element);
  for (const w of warnings) collector.warn(w);
  if (element.kind === 'comment' || element.kind === 'action') {
    collector.pending.push({ id, kind: element.kind, markdown: element.kind === 'comment' ? element.content : element.message, mode: 'block', lineOffset: env.lineOffset + contentLine });
  }
  const token = state.push(ELEMENT_TOKEN, '', 0);
  token.block = true;
  token.map = [startLine, nextLine];
  token.meta = { id } satisfies ElementTokenMeta;
  state.line = nextLine;
  return true;
}
