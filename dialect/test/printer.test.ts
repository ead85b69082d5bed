import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build, dataValue, parse, printExpr, printValue, type Expr } from '../index.js';

/** An AST without spans, for structural comparison. */
function shape(e: Expr): unknown {
  switch (e.kind) {
    case 'literal':
      return { literal: e.value === undefined ? '<undefined>' : Object.is(e.value, -0) ? '<-0>' : e.value };
    case 'array':
      return { array: e.elements.map(shape) };
    case 'object':
      return { object: e.properties.map((p) => [p.key, shape(p.value)]) };
    case 'call':
      return { call: e.callee, args: e.args.map(shape), named: e.namedArgs.map((a) => [a.name, shape(a.value)]) };
  }
}

const name = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,8}$/).filter((n) => !['true', 'false', 'null', 'undefined'].includes(n));
const anyKey = fc.oneof(name, fc.string({ unit: 'binary', maxLength: 6 }));
const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant(undefined)).map(build.literal),
    fc.array(tie('expr'), { maxLength: 4 }).map(build.array),
    fc.array(fc.tuple(anyKey, tie('expr')), { maxLength: 4 }).map(build.object),
    fc
      .tuple(name, fc.array(tie('expr'), { maxLength: 3 }), fc.uniqueArray(fc.tuple(name, tie('expr')), { maxLength: 3, selector: ([n]) => n }))
      .map(([callee, args, named]) => build.call(callee, args, named)),
  ),
}));

describe('printer', () => {
  it('parse(print(ast)) gives the same tree, in both layouts', () => {
    fc.assert(
      fc.property(expr, fc.constantFrom('pretty' as const, 'compact' as const), fc.integer({ min: 10, max: 120 }), (ast, mode, width) => {
        const text = printExpr(ast, { mode, width });
        const again = parse(text);
        if (!again.ok) throw new Error(`printed text did not parse: ${text}\n${JSON.stringify(again.diagnostics)}`);
        expect(shape(again.ast)).toStrictEqual(shape(ast));
      }),
      { numRuns: 1000 },
    );
  });

  it('parse(print(value)) evaluates to the value for every JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('pretty' as const, 'compact' as const), (value, mode) => {
        const r = parse(printValue(value, { mode }));
        expect(r.ok && dataValue(r.ast)?.value).toStrictEqual(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps -0 and unpaired surrogates', () => {
    const r = parse(printValue([-0, '\ud800x']));
    const v = r.ok ? (dataValue(r.ast)?.value as unknown[]) : [];
    expect(Object.is(v[0], -0)).toBe(true);
    expect(v[1]).toBe('\ud800x');
  });

  it('compact mode is one line without spaces; pretty mode fits the width', () => {
    const value = { name: 'User', kind: 'struct', 'not a name': [1, 2, 3], nested: { deep: { deeper: ['a', 'b'] } } };
    expect(printValue(value, { mode: 'compact' })).toBe('{name:"User",kind:"struct","not a name":[1,2,3],nested:{deep:{deeper:["a","b"]}}}');
    const pretty = printValue(value, { width: 40 });
    expect(pretty.split('\n').every((line) => line.length <= 40)).toBe(true);
    expect(pretty).toBe(
      ['{', '  name: "User",', '  kind: "struct",', '  "not a name": [1, 2, 3],', '  nested: {deep: {deeper: ["a", "b"]}}', '}'].join('\n'),
    );
  });

  it('prints calls with positional arguments first, then named ones', () => {
    const r = parse('findReferences( findDefinitions( "Task" , file : "src/a.rs" ) , )');
    expect(r.ok && printExpr(r.ast)).toBe('findReferences(findDefinitions("Task", file: "src/a.rs"))');
  });

  it('prints values that have no Dialect form as null instead of failing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(printValue({ f: () => 1, n: Number.NaN, i: Infinity, cyclic }, { mode: 'compact' })).toBe('{f:null,n:null,i:null,cyclic:{a:1,self:null}}');
  });
});
