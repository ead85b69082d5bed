/**
 * Source text and position conversion for Dialect programs.
 *
 * The parser works in UTF-16 offsets (what JavaScript strings index by). Everything a person or a
 * model sees uses 1-based lines and 1-based columns counted in Unicode code points, so a column
 * never lands inside a surrogate pair. This module is the single place that converts between them.
 *
 * A byte-order mark (U+FEFF) at the very start of a program (what some editors save) is ignored:
 * the scanner skips it, spans stay offsets into the text as given (so they still slice it), and
 * line 1 starts after it, so columns do not count it.
 */

/** U+FEFF, the byte-order mark. */
export const BYTE_ORDER_MARK = 0xfeff;

/** Where the program proper starts: after a leading byte-order mark, if any. */
export function programStart(text: string): number {
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
}

/** A half-open range of UTF-16 offsets into the source, `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A 1-based line and column (column in code points), plus the UTF-16 offset it came from. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A range expressed as two positions; `end` is exclusive. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** The text of a program with a lazily built line index. */
export class SourceText {
  readonly text: string;
  #lineStarts: number[] | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /**
   * Offsets at which each line begins (line 1 at 0, or at 1 after a leading byte-order mark).
   * Lines end at `\n`, `\r\n` or `\r`.
   */
  get lineStarts(): readonly number[] {
    if (this.#lineStarts === undefined) this.#lineStarts = computeLineStarts(this.text);
    return this.#lineStarts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The position of a UTF-16 offset (clamped into the text). */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(Number.isFinite(offset) ? offset : this.text.length, this.text.length));
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= clamped) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = starts[lo] as number;
    return { line: lo + 1, column: codePointCount(this.text, lineStart, clamped) + 1, offset: clamped };
  }

  /** The range covered by a span. */
  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  /** The text of a 1-based line without its line terminator. */
  lineText(line: number): string {
    const starts = this.lineStarts;
    const start = starts[line - 1];
    if (start === undefined) return '';
    let end = line < starts.length ? (starts[line] as number) : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }

  /** The source text under a span. */
  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }
}

function computeLineStarts(text: string): number[] {
  const first = programStart(text);
  const starts = [first];
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** Number of code points in `text[from, to)`; a lone surrogate counts as one. */
export function codePointCount(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
