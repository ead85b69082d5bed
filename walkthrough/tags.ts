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

const NAME_START = /[A-Za-z]/;
const NAME = /[A-Za-z0-9-]/;
const SPACE = /[ \t\n\r\f]/;
const ATTRIBUTE_NAME = /[^ \t\n\r\f"'<>/=`]/;

/**
 * The tag at `src[pos]` (which should be `<`), looking no further than `max`. Undefined when the
 * text there does not look like a tag at all (`a < b`, `<https://x>`).
 */
export function scanTag(src: string, pos: number, max: number = src.length): ScannedTag | undefined {
  if (src[pos] !== '<') return undefined;
  let i = pos + 1;
  if (src[i] === '!' || src[i] === '?') return scanMarkup(src, pos, max);
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
      const close = src.indexOf(quote, j + 1);
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

function scanMarkup(src: string, pos: number, max: number): ScannedTag | undefined {
  const rest = src.slice(pos, max);
  const ends: [string, string][] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>'], ['<!', '>']];
  for (const [open, close] of ends) {
    if (!rest.startsWith(open)) continue;
    if (open === '<!' && !/^<![A-Za-z]/.test(rest)) return undefined;
    const end = rest.indexOf(close, open.length);
    return end < 0 ? undefined : { kind: 'markup', end: pos + end + close.length };
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
export function findClosingTag(src: string, name: string, from: number, max: number = src.length): { start: number; end: number } | undefined {
  // Only the window is searched: callers look line by line, and a search running on to the end
  // of the document for every line would make long elements quadratic.
  const window = src.slice(from, max);
  const m = new RegExp(`</${name}[ \\t\\n\\r\\f]*>`).exec(window);
  return m === null ? undefined : { start: from + m.index, end: from + m.index + m[0].length };
}
