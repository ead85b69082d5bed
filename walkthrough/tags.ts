/**
 * Scanning XML-style tags (`<comment location="…">`, `</action>`, `<gitdiff … />`) in markdown
 * source. Pure and total: any input gives a result, never an exception.
 */

/** An attribute as written: a value, or none for a bare flag such as `exclude-staged`. */
export interface RawAttribute {
  readonly name: string;
  readonly value: string | undefined;
}

/** A tag found by the scanner: an opening or closing tag, or a malformed one with the reason. */
export type ScannedTag =
  | { readonly kind: 'open'; readonly name: string; readonly attributes: readonly RawAttribute[]; readonly selfClosing: boolean; readonly end: number }
  | { readonly kind: 'close'; readonly name: string; readonly end: number }
  /** Starts like a tag (`<name`) but is not one: `reason` says why; `end` is just after the name. */
  | { readonly kind: 'malformed'; readonly name: string; readonly reason: string; readonly end: number }
  /** `<!-- … -->`, `<!DOCTYPE …>`, `<?…?>`, `<![CDATA[…]]>`. */
  | { readonly kind: 'markup'; readonly end: number };

/**
 * Forward searches through one text that remember their last answer: a search for the first
 * position at or after `from` with some property has the same answer for any later `from` up to
 * that answer. A run of tag starts whose end is missing (`<!--` repeated, an unclosed quote on
 * every line, openers whose closing tag lacks its `>`) then costs one scan of the text, not one
 * per tag start. One per parse (it lives in the env); it forgets everything when the text changes.
 */
export class ForwardSearch {
  #src: string | undefined;
  readonly #last = new Map<string, { readonly from: number; readonly found: number }>();

  /**
   * `find(from)`: the first position at or after `from` with a property named by `key` (-1 or
   * any value past the range when there is none), remembered. `find` must be such a search.
   */
  first(src: string, key: string, from: number, find: (from: number) => number): number {
    if (src !== this.#src) {
      this.#src = src;
      this.#last.clear();
    }
    const last = this.#last.get(key);
    if (last !== undefined && from >= last.from && (last.found < 0 || from <= last.found)) return last.found;
    const found = find(from);
    this.#last.set(key, { from, found });
    return found;
  }

  /** `src.indexOf(needle, from)`, remembered. */
  indexOf(src: string, needle: string, from: number): number {
    return this.first(src, `text:${needle}`, from, (f) => src.indexOf(needle, f));
  }
}

/** Without a shared search (a single scan), each search is a plain one. */
const plainSearch = { indexOf: (src: string, needle: string, from: number): number => src.indexOf(needle, from) };

const NAME_START = /[A-Za-z]/;
const NAME = /[A-Za-z0-9-]/;
const SPACE = /[ \t\n\r\f]/;
const ATTRIBUTE_NAME = /[^ \t\n\r\f"'<>/=`]/;

/**
 * The tag at `src[pos]` (which should be `<`), looking no further than `max`. Undefined when the
 * text there does not look like a tag at all (`a < b`, `<https://x>`). A parse passes its
 * `search` so that scanning every tag of a text stays linear.
 */
export function scanTag(src: string, pos: number, max: number = src.length, search: Pick<ForwardSearch, 'indexOf'> = plainSearch): ScannedTag | undefined {
  if (src[pos] !== '<') return undefined;
  let i = pos + 1;
  if (src[i] === '!' || src[i] === '?') return scanMarkup(src, pos, max, search);
  const closing = src[i] === '/';
  if (closing) i++;
  if (i >= max || !NAME_START.test(src[i] ?? '')) return undefined;
  const nameStart = i;
  while (i < max && NAME.test(src[i] ?? '')) i++;
  const name = src.slice(nameStart, i);
  const next = src[i];
  // `<https:…>`, `<a@b.c>`: an autolink or plain text, not a tag.
  if (i < max && next !== '>' && next !== '/' && !SPACE.test(next ?? '')) return undefined;
  const nameEnd = i;
  const malformed = (reason: string): ScannedTag => ({ kind: 'malformed', name, reason, end: nameEnd });

  if (closing) {
    while (i < max && SPACE.test(src[i] ?? '')) i++;
    return src[i] === '>' && i < max ? { kind: 'close', name, end: i + 1 } : malformed(`the closing tag </${name}> is missing its ">"`);
  }

  const attributes: RawAttribute[] = [];
  for (;;) {
    const before = i;
    while (i < max && SPACE.test(src[i] ?? '')) i++;
    if (i >= max) return malformed(`the tag <${name}> is missing its closing ">"`);
    const c = src[i];
    if (c === '>') return { kind: 'open', name, attributes, selfClosing: false, end: i + 1 };
    if (c === '/') {
      return src[i + 1] === '>' && i + 1 < max
        ? { kind: 'open', name, attributes, selfClosing: true, end: i + 2 }
        : malformed(`"/" inside <${name}> must be followed by ">"`);
    }
    if (c === '<') return malformed(`the tag <${name}> is missing its closing ">"`);
    if (i === before) return malformed(`attributes of <${name}> must be separated by spaces`);
    if (!ATTRIBUTE_NAME.test(c ?? '')) return malformed(`unexpected ${JSON.stringify(c)} in <${name}>`);
    const attrStart = i;
    while (i < max && ATTRIBUTE_NAME.test(src[i] ?? '')) i++;
    const attrName = src.slice(attrStart, i);
    let j = i;
    while (j < max && SPACE.test(src[j] ?? '')) j++;
    if (src[j] !== '=' || j >= max) {
      attributes.push({ name: attrName, value: undefined });
      continue;
    }
    j++;
    while (j < max && SPACE.test(src[j] ?? '')) j++;
    const quote = src[j];
    if (quote === '"' || quote === "'") {
      const close = search.indexOf(src, quote, j + 1);
      if (close < 0 || close >= max) return malformed(`the value of ${attrName} in <${name}> has no closing ${quote}`);
      attributes.push({ name: attrName, value: decodeEntities(src.slice(j + 1, close)) });
      i = close + 1;
    } else {
      const valueStart = j;
      while (j < max && !SPACE.test(src[j] ?? '') && !'"\'=<>`'.includes(src[j] ?? '')) j++;
      if (j === valueStart) return malformed(`${attrName}= in <${name}> has no value`);
      attributes.push({ name: attrName, value: decodeEntities(src.slice(valueStart, j)) });
      i = j;
    }
  }
}

function scanMarkup(src: string, pos: number, max: number, search: Pick<ForwardSearch, 'indexOf'>): ScannedTag | undefined {
  const ends: [string, string][] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>'], ['<!', '>']];
  for (const [open, close] of ends) {
    if (!src.startsWith(open, pos) || pos + open.length > max) continue;
    if (open === '<!' && (pos + 2 >= max || !/^[A-Za-z]/.test(src.charAt(pos + 2)))) return undefined;
    const end = search.indexOf(src, close, pos + open.length);
    return end < 0 || end + close.length > max ? undefined : { kind: 'markup', end: end + close.length };
  }
  return undefined;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML character references in an attribute value; unknown ones stay as written. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** The closing tag `</name>` (spaces allowed before `>`) within `src[from, max)`, if any. */
export function findClosingTag(src: string, name: string, from: number, max: number = src.length, search?: ForwardSearch): { start: number; end: number } | undefined {
  if (search === undefined) {
    // Only the window is searched: callers look line by line, and a search running on to the end
    // of the document for every line would make long elements quadratic.
    const window = src.slice(from, max);
    const m = new RegExp(`</${name}[ \\t\\n\\r\\f]*>`).exec(window);
    return m === null ? undefined : { start: from + m.index, end: from + m.index + m[0].length };
  }
  // The first closing tag anywhere after `from` (remembered): if it ends past `max`, so do all later ones.
  const start = search.first(src, `close:${name}`, from, (f) => nextClosingTag(src, name, f, true));
  const end = start < 0 ? -1 : closingTagEnd(src, name, start, true);
  return end < 0 || end > max ? undefined : { start, end };
}

/**
 * The offset of the first `</name>` at or after `from` (-1 if none); with `acrossLines` false,
 * only one whose `>` is on its line (markdown-it normalizes line ends to `\n`).
 */
export function nextClosingTag(src: string, name: string, from: number, acrossLines: boolean): number {
  for (let at = src.indexOf(`</${name}`, from); at >= 0; at = src.indexOf(`</${name}`, at + 1)) {
    if (closingTagEnd(src, name, at, acrossLines) >= 0) return at;
  }
  return -1;
}

/** Where the closing tag `</name …>` starting at `at` ends, or -1 when it is not one. */
function closingTagEnd(src: string, name: string, at: number, acrossLines: boolean): number {
  let i = at + 2 + name.length;
  for (; i < src.length; i++) {
    const c = src.charAt(i);
    if (!(c === ' ' || c === '\t' || c === '\r' || c === '\f' || (acrossLines && c === '\n'))) break;
  }
  return src.charAt(i) === '>' ? i + 1 : -1;
}
