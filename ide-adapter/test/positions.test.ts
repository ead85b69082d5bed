import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointCount, SourceText } from '../../dialect/index.js';
import {
  fromLspCharacter,
  fromLspPosition,
  fromLspRange,
  negotiatedEncoding,
  TextLines,
  toLspCharacter,
  toLspPosition,
  type LineSource,
  type PositionEncoding,
  type TextRange,
} from '../lsp/positions.js';

/** Oracles, independent of the module under test. */
const codePointLength = (line: string): number => codePointCount(line, 0, line.length);
const encodedLength = (line: string, encoding: PositionEncoding): number =>
  encoding === 'utf-8' ? Buffer.byteLength(line, 'utf8') : encoding === 'utf-16' ? line.length : codePointLength(line);
const toLspRange = (lines: LineSource, range: TextRange, encoding: PositionEncoding) => ({
  start: toLspPosition(lines.lineText(range.start.line), range.start, encoding),
  end: toLspPosition(lines.lineText(range.end.line), range.end, encoding),
});

const encodings: PositionEncoding[] = ['utf-8', 'utf-16', 'utf-32'];

/** Lines mixing ASCII, BMP, astral characters (emoji, math letters) and combining marks; no terminators. */
const lineArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', 'Z', ' ', '\t', '"', 'é', 'ß', '€', '中', '\u0301', '😀', '𝔘', '🦀', '\u{10FFFF}', '\uFFFF'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join('').replace(/[\r\n]/g, ''));

const encodingArb = fc.constantFrom(...encodings);

/** The reference implementation: count units of the first `column - 1` code points with platform encoders. */
function reference(line: string, column: number, encoding: PositionEncoding): number {
  const prefix = Array.from(line).slice(0, column - 1).join('');
  if (encoding === 'utf-16') return prefix.length;
  if (encoding === 'utf-32') return Array.from(prefix).length;
  return Buffer.byteLength(prefix, 'utf8');
}

describe('positions', () => {
  it('converts a known line with astral characters in all three encodings', () => {
    const line = 'let 🦀 = "é";';
    // Column of `=`: l e t ␠ 🦀 ␠ = → 7th code point.
    expect(toLspCharacter(line, 7, 'utf-32')).toBe(6);
    expect(toLspCharacter(line, 7, 'utf-16')).toBe(7);
    expect(toLspCharacter(line, 7, 'utf-8')).toBe(9);
    for (const encoding of encodings) expect(fromLspCharacter(line, toLspCharacter(line, 7, encoding), encoding)).toBe(7);
  });

  it('maps a character inside a multi-unit character to that character', () => {
    expect(fromLspCharacter('a😀b', 2, 'utf-16')).toBe(2); // between the surrogates
    expect(fromLspCharacter('a😀b', 3, 'utf-8')).toBe(2); // inside the 4-byte sequence
    expect(fromLspCharacter('a😀b', 5, 'utf-8')).toBe(3);
  });

  it('clamps columns and characters past the end of the line', () => {
    expect(toLspCharacter('abc', 99, 'utf-16')).toBe(3);
    expect(toLspCharacter('abc', 0, 'utf-16')).toBe(0);
    expect(toLspCharacter('abc', -5, 'utf-8')).toBe(0);
    expect(fromLspCharacter('abc', 99, 'utf-8')).toBe(4);
    expect(fromLspCharacter('', 3, 'utf-32')).toBe(1);
  });

  it('defaults the negotiated encoding to utf-16', () => {
    expect(negotiatedEncoding(undefined)).toBe('utf-16');
    expect(negotiatedEncoding('utf-8')).toBe('utf-8');
    expect(negotiatedEncoding('utf-32')).toBe('utf-32');
    expect(negotiatedEncoding('latin-1')).toBe('utf-16');
  });

  it('round-trips every column of arbitrary unicode lines', () => {
    fc.assert(
      fc.property(lineArb, encodingArb, fc.nat(40), (line, encoding, raw) => {
        const column = (raw % (codePointLength(line) + 1)) + 1;
        const lsp = toLspPosition(line, { line: 3, column }, encoding);
        expect(lsp.line).toBe(2);
        expect(fromLspPosition(line, lsp, encoding)).toEqual({ line: 3, column });
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the platform encoders (well-formed text)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), encodingArb, fc.nat(30), (line, encoding, raw) => {
        const column = (raw % (codePointLength(line) + 1)) + 1;
        expect(toLspCharacter(line, column, encoding)).toBe(reference(line, column, encoding));
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips LSP characters that sit on character boundaries and never moves past others', () => {
    fc.assert(
      fc.property(lineArb, encodingArb, fc.nat(60), (line, encoding, character) => {
        const column = fromLspCharacter(line, character, encoding);
        const back = toLspCharacter(line, column, encoding);
        expect(back).toBeLessThanOrEqual(Math.min(character, encodedLength(line, encoding)));
        // `back` is a boundary, so converting it again is the identity.
        expect(toLspCharacter(line, fromLspCharacter(line, back, encoding), encoding)).toBe(back);
        // Nothing in (back, character] is a boundary within the line: the next column starts later.
        if (column <= codePointLength(line)) expect(toLspCharacter(line, column + 1, encoding)).toBeGreaterThan(character);
      }),
      { numRuns: 2000 },
    );
  });

  it('converts a range as its two ends apart, an end on the start\'s line continuing the start\'s scan', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 3 }), encodingArb, fc.nat(2), fc.nat(40), fc.nat(2), fc.nat(40), (texts, encoding, l1, c1, l2, c2) => {
        const doc = new TextLines(texts.join('\n'));
        const range = { start: { line: l1, character: c1 }, end: { line: l2, character: c2 } };
        expect(fromLspRange(doc, range, encoding)).toEqual({
          start: fromLspPosition(doc.lineText(l1 + 1), range.start, encoding),
          end: fromLspPosition(doc.lineText(l2 + 1), range.end, encoding),
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('clamps columns past the end for any line', () => {
    fc.assert(
      fc.property(lineArb, encodingArb, fc.integer({ min: 1, max: 50 }), (line, encoding, extra) => {
        const end = codePointLength(line) + 1;
        expect(toLspCharacter(line, end + extra, encoding)).toBe(encodedLength(line, encoding));
        expect(fromLspCharacter(line, encodedLength(line, encoding) + extra, encoding)).toBe(end);
      }),
    );
  });

  it('converts ranges over whole documents, agreeing with the Dialect core line splitting', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), encodingArb, fc.nat(), fc.nat(), (lines, eol, encoding, a, b) => {
        const text = lines.join(eol);
        const doc = new TextLines(text);
        const core = new SourceText(text);
        expect(doc.lineCount).toBe(lines.length);
        for (let l = 1; l <= lines.length; l++) expect(doc.lineText(l)).toBe(core.lineText(l));
        const pick = (n: number) => {
          const line = (n % lines.length) + 1;
          return { line, column: (Math.floor(n / 7) % (codePointLength(doc.lineText(line)) + 1)) + 1 };
        };
        const range = { start: pick(a), end: pick(b) };
        expect(fromLspRange(doc, toLspRange(doc, range, encoding), encoding)).toEqual(range);
        expect(fromLspRange(core, toLspRange(core, range, encoding), encoding)).toEqual(range);
      }),
    );
  });

  it('finds positions of searched text (UTF-16 offsets) as code-point columns', () => {
    const doc = new TextLines('fn 😀() {}\nlet crab = "🦀"; crab\n');
    const offset = doc.text.lastIndexOf('crab');
    expect(doc.positionAt(offset)).toEqual({ line: 2, column: 17 });
    const lsp = toLspPosition(doc.lineText(2), doc.positionAt(offset), 'utf-8');
    expect(lsp).toEqual({ line: 1, character: Buffer.byteLength('let crab = "🦀"; ', 'utf8') });
  });
});
