/** Moving a document symbol's location onto its name when the editor gave the declaration's start. */
import { describe, expect, it } from 'vitest';
import { TextLines } from '../../ide-adapter/lsp/positions.js';
import { positionOf } from '../../ide-adapter/test/support/servers.js';
import { nameRange } from '../src/names.js';

const TEXT = "export function format(value: number): string;\nexport function formatAll(v: string): string;\nexport const éformat = '😀', format2 = 2;\n";
const lines = new TextLines(TEXT);
const at = (needle: string, nth = 0): { line: number; column: number } => {
  const p = positionOf(TEXT, needle, nth);
  return { line: p.line, column: p.column };
};

describe('nameRange', () => {
  it('moves a selection at the declaration start onto the name', () => {
    const start = { line: 1, column: 1 };
    const moved = nameRange(lines, 'format', { start, end: start }, { start, end: { line: 1, column: 47 } });
    expect(moved.start).toEqual(at('format('));
    expect(moved.end).toEqual({ line: 1, column: at('format(').column + 'format'.length });
  });

  it('matches whole words only, in code-point columns', () => {
    const start = { line: 2, column: 1 };
    // `formatAll`, `éformat` and `format2` contain `format` but are other words.
    expect(nameRange(lines, 'format', { start, end: start }, { start, end: { line: 3, column: 40 } })).toEqual({ start, end: start });
    const line3 = { line: 3, column: 1 };
    expect(nameRange(lines, 'format2', { start: line3, end: line3 }, { start: line3, end: { line: 3, column: 40 } }).start).toEqual(at('format2'));
  });

  it('keeps a selection that is already the name', () => {
    const name = at('format(');
    const selection = { start: name, end: { line: 1, column: name.column + 6 } };
    expect(nameRange(lines, 'format', selection, { start: { line: 1, column: 1 }, end: { line: 1, column: 47 } })).toBe(selection);
  });
});
