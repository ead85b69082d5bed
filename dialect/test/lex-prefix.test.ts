/** The scanner's tolerant mode (`lexPrefix`): half-typed programs as REPL completion sees them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lex, lexPrefix, type PrefixLex } from '../lexer.js';

/** The images of the open brackets. */
const openImages = (result: PrefixLex): string[] => result.open.map((k) => result.tokens[k]?.image ?? '?');
/** The token just before each open bracket: the callee of an open call. */
const callees = (result: PrefixLex): string[] => result.open.map((k) => result.tokens[k - 1]?.image ?? '');
const last = (result: PrefixLex) => result.tokens[result.tokens.length - 1];

describe('lexPrefix: open brackets', () => {
  it('lists the brackets open at the cursor, outermost first, as indices of their tokens', () => {
    const text = 'pick(findReferences(findDefinitions("User")), [1, {"a": f(';
    const result = lexPrefix(text);
    expect(result.end).toBe('code');
    expect(openImages(result)).toEqual(['(', '[', '{', '(']);
    expect(callees(result)).toEqual(['pick', ',', ',', 'f']);
    expect(result.open.map((k) => result.tokens[k]?.startOffset)).toEqual([
      text.indexOf('('), text.indexOf('['), text.indexOf('{'), text.lastIndexOf('('),
    ]);
  });

  it('reads only up to the cursor', () => {
    const text = 'findReferences(findDefinitions("User"))';
    const cursor = text.indexOf('"User"');
    const result = lexPrefix(text, cursor);
    expect(callees(result)).toEqual(['findReferences', 'findDefinitions']);
    expect(last(result)?.image).toBe('(');
    expect(lexPrefix(text).open).toEqual([]);
    expect(lexPrefix(text, -5)).toEqual({ tokens: [], open: [], end: 'code' });
  });

  it('lets a closing bracket close the innermost open one whatever its kind, and ignores one with nothing open', () => {
    const result = lexPrefix(')] [f(1], g(');
    expect(openImages(result)).toEqual(['[', '(']);
    expect(callees(result)).toEqual([']', 'g']);
  });

  it('does not count brackets inside strings and comments', () => {
    const result = lexPrefix('f("(", `[\n{`, /* ( */ \'{\', // (\n g(');
    expect(callees(result)).toEqual(['f', 'g']);
    expect(result.end).toBe('code');
  });
});

describe('lexPrefix: unclosed strings', () => {
  it('ends in a string when a quoted string is not closed; the last token holds the text so far, decoded', () => {
    const text = 'findDefinitions("User", file: "src\\/ma';
    const result = lexPrefix(text);
    expect(result.end).toBe('string');
    const token = last(result);
    expect(token?.startOffset).toBe(text.lastIndexOf('"'));
    expect(token?.payload).toBe('src/ma');
    expect(callees(result)).toEqual(['findDefinitions']);
  });

  it('treats an escaped quote at the end as part of the string, not its end', () => {
    const result = lexPrefix("lines('it\\'");
    expect(result.end).toBe('string');
    expect(last(result)?.payload).toBe("it'");
  });

  it('is back in code after a closed string, and after a quoted string cut by the line end', () => {
    expect(lexPrefix('f("a"').end).toBe('code');
    expect(lexPrefix('f("").').end).toBe('code');
    const cut = lexPrefix('f("abc\n, g(');
    expect(cut.end).toBe('code');
    expect(callees(cut)).toEqual(['f', 'g']);
  });
});

describe('lexPrefix: backtick strings', () => {
  it('ends in a string inside a backtick string that spans lines, keeping backslashes and escaped backticks', () => {
    const text = 'search(`fn \\d+\n  \\` x';
    const result = lexPrefix(text);
    expect(result.end).toBe('string');
    expect(last(result)?.startOffset).toBe(text.indexOf('`'));
    expect(last(result)?.payload).toBe('fn \\d+\n  ` x');
    expect(callees(result)).toEqual(['search']);
  });

  it('is back in code after the closing backtick', () => {
    const result = lexPrefix('search(`a\nb`, ');
    expect(result.end).toBe('code');
    expect(callees(result)).toEqual(['search']);
  });
});

describe('lexPrefix: comments', () => {
  it('ends in a comment inside a line comment that runs to the cursor, or an unclosed block comment', () => {
    expect(lexPrefix('f(1, // more to come').end).toBe('comment');
    expect(lexPrefix('f(1, /* more\n to come').end).toBe('comment');
    expect(lexPrefix('//').end).toBe('comment');
  });

  it('is back in code after the line ends or the block closes, and a comment makes no token', () => {
    const line = lexPrefix('f(1, // more\n');
    expect(line.end).toBe('code');
    expect(line.tokens.map((t) => t.image)).toEqual(['f', '(', '1', ',']);
    expect(lexPrefix('f(1, /* x */ ').end).toBe('code');
  });
});

describe('lexPrefix never throws and agrees with lex', () => {
  const fragments = ['f(', ')', '[', ']', '{', '}', ',', ':', '"a', '"', "'", '`', '\\', '//', '/*', '*/', '\n', ' ', 'x', '1e', '.', '\ud800'];

  it('gives the tokens lex gives for the same text, and open brackets that the matching closers close', () => {
    const closer: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const result = lexPrefix(text);
        expect(result.tokens.map((t) => [t.startOffset, t.endOffset])).toEqual(lex(text).tokens.map((t) => [t.startOffset, t.endOffset]));
        if (result.end !== 'code') return;
        const closers = openImages(result).reverse().map((image) => closer[image]).join('');
        expect(lexPrefix(`${text}\n${closers}`).open).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('handles deep nesting without recursion', () => {
    const depth = 200_000;
    const result = lexPrefix('f('.repeat(depth));
    expect(result.open).toHaveLength(depth);
  });
});
