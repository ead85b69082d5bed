/**
 * Text from a workspace (file contents, file names, server messages) shown on a terminal must not
 * drive it: an escape sequence in a file could set the window title, write the clipboard (OSC 52)
 * or redraw lines (`\r`, cursor moves) to hide what is really there. `showControls` is the one
 * place such text is made safe: control characters become visible pictures (`␛`, `␍`), and only
 * our own colour sequences may pass.
 *
 * What a terminal does not show at all is made visible too: the bidirectional controls, and the
 * invisible format characters (Unicode's default-ignorable code points: zero-width spaces and
 * joiners, the word joiner, soft hyphens, left-to-right and right-to-left marks, variation
 * selectors, and the tag characters U+E0000–U+E007F, which spell ASCII invisibly: an instruction
 * for an agent hidden in a comment or a name, "ASCII smuggling"). A name `auth\u200b.rs` must not
 * read as `auth.rs`. Whole texts keep the joiners and the first variation selectors, which emoji
 * and some scripts need ({@link keptInText}); fields show every one.
 */

/** The SGR parameters our own output uses (reset, bold, dim, normal intensity, colours). */
// eslint-disable-next-line no-control-regex
const OWN_SGR = /^\u001b\[(?:(?:0|1|2|22|3[0-9])(?:;(?:0|1|2|22|3[0-9]))*)?m/;

/**
 * How a control character is shown: its Unicode control picture, `\xNN` for C1 controls, and
 * `\u202e` for the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which reorder what a terminal shows (Trojan Source: a name `a\u202Ecod.rs` reads
 * `asr.doc`).
 */
export function controlPicture(codePoint: number): string | undefined {
  if (codePoint < 0x20) return String.fromCharCode(0x2400 + codePoint);
  if (codePoint === 0x7f) return '\u2421';
  if (codePoint >= 0x80 && codePoint <= 0x9f) return `\\x${codePoint.toString(16).toUpperCase()}`;
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069)) return `\\u${codePoint.toString(16)}`;
  return undefined;
}

/** Invisible format characters: Unicode's default-ignorable code points (the bidirectional controls among them). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

/** Invisible characters whole texts keep: ZWNJ and ZWJ (Persian, Indic scripts, emoji sequences) and VS1–VS16 (emoji). */
function keptInText(codePoint: number): boolean {
  return codePoint === 0x200c || codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f);
}

/** How an invisible format character is shown: `\u200b`, or `\u{e0041}` beyond the BMP. */
function invisiblePicture(codePoint: number): string {
  const hex = codePoint.toString(16);
  return codePoint > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * `text` with its invisible format characters shown ({@link invisiblePicture}); `keep` those a
 * whole text keeps. One pass by code point.
 */
function showInvisible(text: string, keep: ((codePoint: number) => boolean) | undefined): string {
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) as number;
    out += INVISIBLE.test(char) && keep?.(codePoint) !== true ? invisiblePicture(codePoint) : char;
  }
  return out;
}

/**
 * `text` with every control character shown as a picture, except line feeds and tabs, and
 * (with `keepColours`) the colour sequences our own presentation adds.
 */
export function showControls(text: string, options: { readonly keepColours?: boolean } = {}): string {
  const visible = INVISIBLE.test(text) ? showInvisible(text, keptInText) : text;
  return showControlCharacters(visible, options);
}

/** {@link showControls} for the control characters (C0, C1, DEL, bidirectional controls). */
function showControlCharacters(text: string, options: { readonly keepColours?: boolean }): string {
  // Fast path: most text has no control characters at all.
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b && options.keepColours === true) {
      const own = OWN_SGR.exec(text.slice(i, i + 32));
      if (own !== null) {
        out += own[0];
        i += own[0].length - 1;
        continue;
      }
    }
    out += c === 0x0a || c === 0x09 ? text[i] : (controlPicture(c) ?? text[i]);
  }
  return out;
}

/**
 * One field of a line — a path, a name — with every control character shown as a picture, line
 * feeds and tabs included (and the Unicode line and paragraph separators as `\u2028`/`\u2029`):
 * a file named `a\nsrc/x.rs:1:1  fake` stays one visibly escaped field and cannot forge a result
 * line. Whole texts keep their line feeds ({@link showControls}); fields never have any.
 */
export function showFieldControls(text: string): string {
  const visible = INVISIBLE.test(text) ? showInvisible(text, undefined) : text;
  return showFieldControlCharacters(visible);
}

/** {@link showFieldControls} for the control characters and line separators. */
function showFieldControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c === 0x2028 || c === 0x2029 ? `\\u${c.toString(16)}` : (controlPicture(c) ?? text[i]);
  }
  return out;
}

/** A value shown inside a label or a message line is cut to this many characters. */
export const MAX_LABEL_LENGTH = 80;

/** The one mark of cut text. */
export const ELLIPSIS = '…';

/**
 * `text` cut to at most `max` code points, the last of them {@link ELLIPSIS} when anything was
 * cut. The one truncation of labels, messages and matched lines: it never splits a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 length ≥ code points: nothing to cut
  let end = 0;
  let kept = 0;
  for (; end < text.length && kept < max - 1; kept++) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  // Does the rest fit in the one place the ellipsis would take?
  const next = end >= text.length ? 0 : (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  if (end + next >= text.length) return text;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * A message, label, hint or note of a Dialect error is cut to this many code points: they echo
 * what the program wrote (a name, a literal), and a 4 MB name printed a 12 MB error.
 */
export const MAX_DIAGNOSTIC_TEXT = 1000;

/**
 * `text` cut to at most `max` code points by dropping its middle for {@link ELLIPSIS}: the start
 * says what is wrong and the end keeps a closing quote or `(…)`. Never splits a surrogate pair;
 * the work is bounded by `max`, not by the length of `text`.
 */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 length ≥ code points: nothing to cut
  const headCount = Math.ceil((max - 1) / 2);
  const tailCount = max - 1 - headCount;
  let head = 0;
  for (let kept = 0; kept < headCount && head < text.length; kept++) head += (text.codePointAt(head) as number) > 0xffff ? 2 : 1;
  let tail = text.length;
  for (let kept = 0; kept < tailCount && tail > head; kept++) tail -= isLowSurrogate(text.charCodeAt(tail - 1)) && isHighSurrogate(text.charCodeAt(tail - 2)) && tail - 2 >= head ? 2 : 1;
  // Does the middle fit in the one place the ellipsis would take?
  if (tail - head <= 1 || (tail - head === 2 && isHighSurrogate(text.charCodeAt(head)) && isLowSurrogate(text.charCodeAt(head + 1)))) return text;
  return `${text.slice(0, head)}${ELLIPSIS}${text.slice(tail)}`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** `1.2 s`, `340 ms`, `2 min 5 s`: a duration as people read it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
