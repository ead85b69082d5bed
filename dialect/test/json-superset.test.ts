import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataValue, parse, type Expr } from '../index.js';

/** The value a parsed data-only program denotes (fails the test if it does not parse). */
function valueOf(text: string): unknown {
  const result = parse(text);
  if (!result.ok) throw new Error(`did not parse: ${JSON.stringify(result.diagnostics)}`);
  const data = dataValue(result.ast);
  if (data === undefined) throw new Error('contains a call');
  return data.value;
}

describe('every JSON text parses to the value JSON.parse gives', () => {
  it('for arbitrary JSON values, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(valueOf(text)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('for arbitrary unicode strings, including unpaired surrogates written raw or escaped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const escaped = JSON.stringify(s);
        expect(valueOf(escaped)).toBe(JSON.parse(escaped));
        // Raw form: the JSON text with every character verbatim except quote, backslash, controls.
        // eslint-disable-next-line no-control-regex -- escaping exactly the characters JSON forbids raw
        const raw = `"${s.replace(/["\\\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
        expect(valueOf(raw)).toBe(JSON.parse(raw));
      }),
      { numRuns: 500 },
    );
  });

  it('for arbitrary doubles, including -0, extremes and exponents', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), (n, exponentForm) => {
        const text = exponentForm ? n.toExponential().replace('e+', 'E+') : JSON.stringify(n);
        const expected: unknown = JSON.parse(text);
        expect(Object.is(valueOf(text), expected)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['-0', -0], ['0', 0], ['1e308', 1e308], ['5e-324', 5e-324], ['1E+2', 100], ['-1.5e-3', -0.0015],
    // eslint-disable-next-line no-loss-of-precision -- the rounding is the point: it must match JSON.parse's
    ['123456789012345678901234567890', 123456789012345678901234567890], ['9007199254740993', 9007199254740992],
    ['0.1', 0.1], ['-12.5e3', -12500],
  ])('number %s', (text, expected) => {
    expect(Object.is(valueOf(text), expected)).toBe(true);
    expect(Object.is(valueOf(text), JSON.parse(text))).toBe(true);
  });

  it('every escape, surrogate pairs and lone surrogates', () => {
    const text = String.raw`"\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \uD800 \uDFFF x"`;
    expect(valueOf(text)).toBe(JSON.parse(text));
  });

  it('empty containers, null, whitespace everywhere JSON allows it', () => {
    const text = ' \t\r\n{ "a" : [ ] , "b" : { } , "c" : null , "d" : [ true , false ] } \n';
    expect(valueOf(text)).toStrictEqual(JSON.parse(text));
  });

  it('keeps __proto__ as an own property and lets later duplicate keys win, as JSON.parse does', () => {
    const text = '{"__proto__": {"polluted": true}, "a": 1, "a": 2}';
    const value = valueOf(text) as Record<string, unknown>;
    const expected = JSON.parse(text) as Record<string, unknown>;
    expect(value).toStrictEqual(expected);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('nesting up to the documented limit', async () => {
    const { MAX_NESTING_DEPTH } = await import('../index.js');
    for (const [open, close] of [['[', ']'], ['{"a":', '}']] as const) {
      const text = open.repeat(MAX_NESTING_DEPTH) + (open === '[' ? '' : '1') + close.repeat(MAX_NESTING_DEPTH);
      expect(valueOf(text)).toStrictEqual(JSON.parse(text));
    }
  });
});

describe('the LLM tolerances', () => {
  const cases: [string, string, unknown][] = [
    ['single quotes', `['a', 'it\\'s', '"q"']`, ['a', "it's", '"q"']],
    ['backticks span lines and keep backslashes', '[`line 1\nline "2" \'3\'`, `\\bfn\\s+\\w+`, `a \\` tick`]', ['line 1\nline "2" \'3\'', '\\bfn\\s+\\w+', 'a ` tick']],
    ['trailing commas', '{a: [1, 2,], b: {c: 3,},}', { a: [1, 2], b: { c: 3 } }],
    ['unquoted keys, including keywords', '{name: "x", _id$2: 1, null: 2, true: 3}', { name: 'x', _id$2: 1, null: 2, true: 3 }],
    ['undefined drops a property and is null in arrays', '{a: undefined, b: [undefined]}', { b: [null] }],
    ['line and block comments', '// lead\n[1, /* two */ 2 // three\n, 3]', [1, 2, 3]],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(valueOf(text)).toStrictEqual(expected);
  });

  it('calls with positional, named and nested arguments, and empty argument lists', () => {
    const result = parse('findReferences(findDefinitions("Task", file: "src/model.rs", kind: "struct",), limit: 5) ');
    expect(result.ok).toBe(true);
    const call = result.ast;
    if (call?.kind !== 'call') throw new Error('expected a call');
    expect(call.callee).toBe('findReferences');
    expect(call.namedArgs.map((a) => a.name)).toEqual(['limit']);
    const inner = call.args[0];
    if (inner?.kind !== 'call') throw new Error('expected a nested call');
    expect(inner.args.map((a) => dataValue(a)?.value)).toEqual(['Task']);
    expect(inner.namedArgs.map((a) => [a.name, dataValue(a.value)?.value])).toEqual([['file', 'src/model.rs'], ['kind', 'struct']]);
    const empty = parse('help()');
    expect(empty.ok && empty.ast.kind === 'call' && empty.ast.args.length === 0).toBe(true);
  });

  it('identifiers may contain digits, underscores and dollars', () => {
    for (const name of ['f2', '_private', '$x', 'snake_case_9']) {
      const r = parse(`${name}()`);
      expect(r.ok && r.ast.kind === 'call' && r.ast.callee === name).toBe(true);
    }
  });

  it('spans point back at the source of every node', () => {
    const text = 'f("a", b: [1, {c: null}])';
    const r = parse(text);
    if (!r.ok || r.ast.kind !== 'call') throw new Error('parse failed');
    expect(text.slice(r.ast.span.start, r.ast.span.end)).toBe(text);
    expect(r.source.slice(r.ast.calleeSpan)).toBe('f');
    expect(r.source.slice((r.ast.args[0] as Expr).span)).toBe('"a"');
    const named = r.ast.namedArgs[0];
    expect(named && r.source.slice(named.nameSpan)).toBe('b');
    expect(named && r.source.slice(named.value.span)).toBe('[1, {c: null}]');
  });
});

describe('bare names', () => {
  it('are references when the host binds them, errors otherwise', () => {
    const bound = parse('findReferences(_)', { names: new Set(['_']) });
    expect(bound.ok && bound.ast.kind === 'call' && bound.ast.args[0]?.kind).toBe('reference');
    const unbound = parse('findReferences(_)');
    expect(unbound.diagnostics.map((d) => d.code)).toEqual(['bare-identifier']);
    expect(parse('findReferences(User)', { names: new Set(['_']) }).diagnostics[0]?.message).toContain('`User` is not a value');
  });
});
