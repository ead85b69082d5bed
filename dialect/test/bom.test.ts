/**
 * A byte-order mark (U+FEFF) at the very start of a program is ignored: the program parses as
 * without it, spans are offsets into the text as given, and columns do not count the mark.
 */
import { describe, expect, it } from 'vitest';
import { parse, printExpr, renderDiagnostic, resolveDiagnostic, type ParseResult } from '../index.js';

const BOM = '\uFEFF';

function errorOf(result: ParseResult): NonNullable<ParseResult['diagnostics'][number]> {
  const [d] = result.diagnostics;
  if (d === undefined) throw new Error('expected a diagnostic');
  return d;
}

/** 1-based line and column (code points) of the first `needle` in `text`, computed from the text. */
function lineColumn(text: string, needle: string): { line: number; column: number } {
  const before = text.slice(0, text.indexOf(needle));
  const lines = before.split('\n');
  return { line: lines.length, column: [...(lines[lines.length - 1] ?? '')].length + 1 };
}

describe('a byte-order mark at the start of a program', () => {
  it('is ignored: the program parses to the same tree, and spans still slice the text as given', () => {
    const program = 'findReferences(findDefinition("User"), limit: 5)';
    const plain = parse(program);
    const marked = parse(BOM + program);
    expect(marked.ok && plain.ok).toBe(true);
    if (!marked.ok || !plain.ok) return;
    expect(printExpr(marked.ast)).toBe(printExpr(plain.ast));
    expect(marked.source.slice(marked.ast.span)).toBe(program);
    expect(marked.source.range(marked.ast.span).start).toEqual({ line: 1, column: 1, offset: 1 });
  });

  it('does not count in columns: errors on line 1 and later lines are where they are without it', () => {
    for (const program of ['[1, @]', '{\n  "a": 1,\n  "b": @\n}', 'f("é😀", @)']) {
      const needle = '@';
      const plain = resolveDiagnostic(errorOf(parse(program)), parse(program).source);
      const markedResult = parse(BOM + program);
      const marked = resolveDiagnostic(errorOf(markedResult), markedResult.source);
      expect(marked.code).toBe(plain.code);
      expect({ line: marked.range.start.line, column: marked.range.start.column }).toEqual({ line: plain.range.start.line, column: plain.range.start.column });
      expect({ line: marked.range.start.line, column: marked.range.start.column }).toEqual(lineColumn(program, needle));
      // The rendering shows the line without the mark, with the caret under the same column.
      expect(renderDiagnostic(errorOf(markedResult), markedResult.source)).toBe(renderDiagnostic(errorOf(parse(program)), parse(program).source));
    }
  });

  it('only at the very start: elsewhere (or a second one) it is still an error, rendered without crashing', () => {
    for (const text of [`[1, ${BOM}2]`, `${BOM}${BOM}1`, `1 ${BOM}`]) {
      const result = parse(text);
      expect(result.ok).toBe(false);
      const d = resolveDiagnostic(errorOf(result), result.source);
      expect(d.range.start).toMatchObject(lineColumn(text.startsWith(BOM) ? text.slice(1) : text, BOM));
      expect(renderDiagnostic(errorOf(result), result.source)).toContain(`error[${d.code}]`);
    }
  });

  it('alone, or before only whitespace, is an empty program like an empty text', () => {
    for (const text of ['', ' \n']) {
      const plain = parse(text);
      const marked = parse(BOM + text);
      expect(marked.ok).toBe(plain.ok);
      expect(errorOf(marked).code).toBe(errorOf(plain).code);
      expect(renderDiagnostic(errorOf(marked), marked.source)).toContain(`error[${errorOf(plain).code}]`);
    }
  });
});
