import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, parse, printValue, renderDiagnostic, SyntaxCode, type ParseResult } from '../index.js';

/** Every diagnostic span (primary and labels) lies within the input. */
function expectSpansInside(result: ParseResult, text: string): void {
  for (const d of result.diagnostics) {
    for (const span of [d.span, ...(d.labels ?? []).map((l) => l.span)]) {
      expect(span.start).toBeGreaterThanOrEqual(0);
      expect(span.end).toBeGreaterThanOrEqual(span.start);
      expect(span.end).toBeLessThanOrEqual(text.length);
    }
  }
}

const fragments = [
  'f(', ')', '[', ']', '{', '}', ',', ':', '"a"', "'b'", '`c`', '1', '-2.5e3', 'true', 'null', 'undefined',
  'findDefinitions', 'x', ' ', '\n', '//c\n', '/*c*/', ';', '.', '=>', '=', '+', 'new ', '"', "'", '`', '\\', '@', '\u0000', '\ud800',
];

describe('parsing never throws on user input', () => {
  it('on arbitrary strings: either an AST or diagnostics, with spans inside the input, and a rendering', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const result = parse(text);
        expect(result.ok ? result.diagnostics.length === 0 : result.diagnostics.length > 0).toBe(true);
        expectSpansInside(result, text);
        for (const d of result.diagnostics) expect(renderDiagnostic(d, result.source)).toContain(`error[${d.code}]`);
      }),
      { numRuns: 2000 },
    );
  });

  it('on token soup close to real programs', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const result = parse(text);
        expectSpansInside(result, text);
        for (const d of result.diagnostics) {
          expect(d.message.length).toBeGreaterThan(0);
          expect(renderDiagnostic(d, result.source).split('\n').length).toBeGreaterThan(1);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('on valid programs with one character deleted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, at) => {
        const text = `f(${printValue(value)}, name: "x")`;
        const cut = at % text.length;
        const broken = text.slice(0, cut) + text.slice(cut + 1);
        expectSpansInside(parse(broken), broken);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('pathological input ends in a clear error, never a crash or a hang', () => {
  it('100,000 nested brackets', () => {
    for (const open of ['[', '{"a":', 'f(']) {
      const result = parse(open.repeat(100_000));
      expect(result.diagnostics[0]?.code).toBe(SyntaxCode.TooDeep);
      expect(result.diagnostics[0]?.hint).toContain(String(MAX_NESTING_DEPTH));
    }
    const balanced = parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(balanced.diagnostics[0]?.code).toBe(SyntaxCode.TooDeep);
  });

  it('calls nest to the limit too', () => {
    const depth = MAX_NESTING_DEPTH;
    expect(parse('f('.repeat(depth) + ')'.repeat(depth)).ok).toBe(true);
  });

  it('a 10 MB string, closed and unclosed', () => {
    const big = 'x'.repeat(10_000_000);
    const closed = parse(`"${big}"`);
    expect(closed.ok && closed.ast.kind === 'literal' && closed.ast.value === big).toBe(true);
    const open = parse(`"${big}`);
    expect(open.diagnostics.map((d) => d.code)).toEqual([SyntaxCode.UnterminatedString]);
    // The rendering shows a window of the line, not ten megabytes.
    expect(renderDiagnostic(open.diagnostics[0]!, open.source).length).toBeLessThan(2000);
  });

  it('unterminated everything', () => {
    const cases: [string, string][] = [
      ['"abc', SyntaxCode.UnterminatedString], ["'abc", SyntaxCode.UnterminatedString], ['`abc', SyntaxCode.UnterminatedString],
      ['/* abc', SyntaxCode.UnterminatedComment], ['f(1, [2, {a: ', SyntaxCode.UnclosedObject], ['f(', SyntaxCode.UnclosedCall],
      ['[', SyntaxCode.UnclosedArray], ['{', SyntaxCode.UnclosedObject], ['"\\u12', SyntaxCode.InvalidEscape],
    ];
    for (const [text, code] of cases) expect(parse(text).diagnostics[0]?.code, text).toBe(code);
  });

  it('control characters and invalid UTF-16 outside strings', () => {
    expect(parse('f(\u0000)').diagnostics[0]?.code).toBe(SyntaxCode.StrayCharacter);
    expect(parse('f(\u0000)').diagnostics[0]?.message).toContain('U+0000');
    expect(parse('[1, \ud800]').diagnostics[0]?.message).toContain('unpaired surrogate');
    expect(parse('"a\u0001b"').diagnostics[0]?.code).toBe(SyntaxCode.ControlCharacter);
    // Raw lone surrogates inside strings are kept, as JSON.parse keeps them.
    const lone = parse('"\udc00"');
    expect(lone.ok && lone.ast.kind === 'literal' && lone.ast.value === '\udc00').toBe(true);
  });

  it('a number too large for a double is an error, not a silent null', () => {
    for (const text of ['1e999', '-1e999', '1'.repeat(400), `f(${'9'.repeat(4_000_000)})`]) {
      const result = parse(text);
      expect(result.diagnostics[0]?.code, text.slice(0, 20)).toBe(SyntaxCode.InvalidNumber);
      expect(result.diagnostics[0]?.message).toContain('too large for a number');
      expect(renderDiagnostic(result.diagnostics[0]!, result.source).length).toBeLessThan(2_000);
    }
    // The largest and smallest doubles, and underflow to zero, are numbers as in JSON.
    for (const [text, value] of [['1.7976931348623157e308', Number.MAX_VALUE], ['5e-324', 5e-324], ['1e-400', 0]] as const) {
      const result = parse(text);
      expect(result.ok && result.ast.kind === 'literal' && result.ast.value, text).toBe(value);
    }
  });

  it('a million stray characters report a bounded number of diagnostics', () => {
    const result = parse('@'.repeat(1_000_000));
    expect(result.diagnostics.length).toBeLessThanOrEqual(20);
    expect(result.diagnostics.at(-1)?.hint).toContain('more lexical error');
  });
});

describe('every check of a call is linear in its arguments', () => {
  const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const TAIL = `${LETTERS}0123456789_`;
  /** The `i`-th distinct three-character name (`aaa`, `aab`, …): short, so 160k fit the length limit. */
  const nameOf = (i: number): string => `${LETTERS[Math.floor(i / TAIL.length ** 2)]}${TAIL[Math.floor(i / TAIL.length) % TAIL.length]}${TAIL[i % TAIL.length]}`;
  /** `f(aaa:0,aab:0,…)` with `count` distinct names, then `extra`. */
  const namedCall = (count: number, extra = ''): string => `f(${Array.from({ length: count }, (_, i) => `${nameOf(i)}:0`).join(',')}${extra})`;

  it('160,000 distinct named arguments parse within a bound (a search per argument took minutes)', () => {
    const program = namedCall(160_000);
    expect(program.length).toBeLessThan(1_000_000); // within MCP's program length limit (DEFAULT_MAX_PROGRAM_LENGTH)
    const started = performance.now();
    const result = parse(program);
    const elapsed = performance.now() - started;
    expect(result.diagnostics).toEqual([]);
    // Generous for a loaded 2-core machine: the linear parse takes well under a second.
    expect(elapsed).toBeLessThan(15_000);
  });

  it('a duplicate among them is still reported, with both places', () => {
    const program = namedCall(160_000, `,${nameOf(7)}:1`);
    const result = parse(program);
    expect(result.diagnostics.map((d) => d.code)).toEqual([SyntaxCode.DuplicateNamedArgument]);
    const d = result.diagnostics[0]!;
    expect(d.span.start).toBe(program.lastIndexOf(`,${nameOf(7)}:`) + 1);
    expect(program.slice(d.span.start, d.span.end)).toBe(nameOf(7));
    expect(d.labels?.[0]?.span.start).toBe(program.indexOf(`,${nameOf(7)}:`) + 1);
    const shown = renderDiagnostic(d, result.source);
    expect(shown).toContain('given again here');
    expect(shown).toContain('^^^');
  });
});
