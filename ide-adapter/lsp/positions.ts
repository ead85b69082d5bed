/**
 * The one converter between LSP positions and Dialect positions.
 *
 * - LSP: 0-based line, 0-based `character` counted in the code units of the position encoding the
 *   client and server negotiated (`utf-16` unless the server said otherwise, or `utf-8`/`utf-32`).
 * - Dialect: 1-based line, 1-based column counted in Unicode code points, so a column never lands
 *   inside a surrogate pair or a UTF-8 sequence.
 *
 * Functions take the text of the line (without its terminator) because code-unit counts depend on
 * it. Columns past the end of a line clamp to just after its last character; an LSP `character`
 * that falls inside a multi-unit character maps to the start of that character. A lone surrogate
 * counts as one code point (one UTF-16 unit, three UTF-8 bytes: what U+FFFD takes on disk).
 */
import type { Position as LspPosition, Range as LspRange } from 'vscode-languageserver-protocol';
import { SourceText } from '../../dialect/index.js';

export type { LspPosition, LspRange };

/** A position encoding from LSP 3.17 `general.positionEncodings`. */
export type PositionEncoding = 'utf-8' | 'utf-16' | 'utf-32';

/** The encodings this client supports, in the order offered to servers. */
export const SUPPORTED_ENCODINGS: readonly PositionEncoding[] = ['utf-8', 'utf-16', 'utf-32'];

/** A Dialect position: 1-based line, 1-based column in code points. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** A Dialect range; `end` is exclusive. */
export interface TextRange {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** Anything that yields the text of a 1-based line without its terminator (Dialect's `SourceText` fits). */
export interface LineSource {
  lineText(line: number): string;
}

/**
 * The encoding a server's `initialize` result chose. A missing or unknown value means UTF-16,
 * which LSP mandates as the default.
 */
export function negotiatedEncoding(serverValue: unknown): PositionEncoding {
  return serverValue === 'utf-8' || serverValue === 'utf-32' ? serverValue : 'utf-16';
}

/** Code units one code point takes in `encoding`. */
function unitsOf(codePoint: number, encoding: PositionEncoding): number {
  switch (encoding) {
    case 'utf-32':
      return 1;
    case 'utf-16':
      return codePoint > 0xffff ? 2 : 1;
    case 'utf-8':
      return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
}

/**
 * The LSP `character` of a 1-based code-point column. Columns below 1 clamp to 1; columns past the
 * end clamp to the end of the line.
 */
export function toLspCharacter(lineText: string, column: number, encoding: PositionEncoding): number {
  const before = Number.isFinite(column) ? Math.max(0, Math.floor(column) - 1) : 0;
  let units = 0;
  let seen = 0;
  for (let i = 0; i < lineText.length && seen < before; seen++) {
    // codePointAt pairs surrogates and returns a lone one as is; no allocation per character.
    const cp = lineText.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    units += cp < 0x80 ? 1 : unitsOf(cp, encoding);
    i += width;
  }
  return units;
}

/**
 * The 1-based code-point column of an LSP `character`. A `character` inside a multi-unit
 * character maps to that character's column; past the end clamps to the end of the line.
 */
export function fromLspCharacter(lineText: string, character: number, encoding: PositionEncoding): number {
  return scanTo(lineText, character, encoding, 0, 0, 1);
}

/** Where {@link scanTo} stopped: the UTF-16 index and the units counted before it (a range's end continues from its start). */
let scannedIndex = 0;
let scannedUnits = 0;

/**
 * The column of an LSP `character`, scanning from UTF-16 index `from` (where `units` were counted
 * and the column was `column`); leaves where it stopped in `scannedIndex` and `scannedUnits`.
 */
function scanTo(lineText: string, character: number, encoding: PositionEncoding, from: number, units: number, column: number): number {
  const target = Number.isFinite(character) ? Math.max(0, Math.floor(character)) : 0;
  const length = lineText.length;
  let i = from;
  // Hot path (thousands of reference locations per query): no allocation per character.
  for (; i < length; column++) {
    // A surrogate pair is one code point; a lone surrogate counts as itself (as `codePointAt`).
    let cp = lineText.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < length) {
      const low = lineText.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const next = units + (cp < 0x80 ? 1 : unitsOf(cp, encoding));
    if (next > target) break;
    units = next;
    i += width;
  }
  scannedIndex = i;
  scannedUnits = units;
  return column;
}

/** Dialect position → LSP position. `lineText` is the text of `position.line`. */
export function toLspPosition(lineText: string, position: TextPosition, encoding: PositionEncoding): LspPosition {
  return { line: Math.max(0, Math.floor(position.line) - 1), character: toLspCharacter(lineText, position.column, encoding) };
}

/** LSP position → Dialect position. `lineText` is the text of LSP line `position.line` (0-based). */
export function fromLspPosition(lineText: string, position: LspPosition, encoding: PositionEncoding): TextPosition {
  return { line: Math.max(0, position.line) + 1, column: fromLspCharacter(lineText, position.character, encoding) };
}

/** LSP range → Dialect range, reading line texts from `lines`. */
export function fromLspRange(lines: LineSource, range: LspRange, encoding: PositionEncoding): TextRange {
  const { start, end } = range;
  const text = lines.lineText(start.line + 1);
  const column = scanTo(text, start.character, encoding, 0, 0, 1);
  const from = { line: Math.max(0, start.line) + 1, column };
  // An end on the same line, after the start (a name: most ranges), continues the start's scan.
  const endTarget = Number.isFinite(end.character) ? Math.max(0, Math.floor(end.character)) : 0;
  const startTarget = Number.isFinite(start.character) ? Math.max(0, Math.floor(start.character)) : 0;
  if (end.line === start.line && endTarget >= startTarget) {
    return { start: from, end: { line: from.line, column: scanTo(text, endTarget, encoding, scannedIndex, scannedUnits, column) } };
  }
  return { start: from, end: fromLspPosition(lines.lineText(end.line + 1), end, encoding) };
}

/**
 * A {@link LineSource} over a whole document text; lines end at `\n`, `\r\n` or `\r`. It is the
 * Dialect core's `SourceText` (one line index for programs and documents alike).
 */
export class TextLines extends SourceText implements LineSource {
  /** The Dialect position of a text that is found by searching (e.g. `indexOf`): UTF-16 offset → position. */
  positionAt(offset: number): TextPosition {
    const { line, column } = this.position(offset);
    return { line, column };
  }
}
