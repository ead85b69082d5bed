import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ambiguity, Interpreter, RegistryError, build, createRegistry, printValue, type Outcome } from '../index.js';
import { THINGS, demoHost, demoRegistry, type DemoHost } from './support/demo-registry.js';

const interpreter = new Interpreter(demoRegistry());
const run = (program: string, host: DemoHost = demoHost(), options: { signal?: AbortSignal; deadlineMs?: number } = {}): Promise<Outcome> =>
  interpreter.evaluate(program, { host, ...options });
const value = async (program: string): Promise<unknown> => {
  const o = await run(program);
  if (o.kind !== 'value') throw new Error(`expected a value from ${program}, got ${o.kind}: ${o.kind === 'error' ? o.error.message : o.message}`);
  return o.value;
};
const errorCode = async (program: string): Promise<string> => {
  const o = await run(program);
  if (o.kind !== 'error') throw new Error(`expected an error from ${program}, got ${o.kind}`);
  return o.error.code;
};

describe('registry', () => {
  it('rejects duplicate names and aliases, case-insensitively, at registration', () => {
    const r = demoRegistry();
    const base = { description: 'x', parameters: [], returns: 'any', examples: [{ program: 'x()' }], implementation: () => null };
    expect(() => r.registerFunction({ ...base, name: 'FINDTHINGS' })).toThrow(RegistryError);
    expect(() => r.registerFunction({ ...base, name: 'fresh', aliases: ['Thing'] })).toThrow(/already registered/);
    expect(() => r.registerFunction({ ...base, name: 'noExample', examples: [] })).toThrow(/example/);
    expect(() => r.registerFunction({ ...base, name: 'badType', parameters: [{ name: 'p', type: 'strnig', description: '' }] })).toThrow(/unknown type "strnig"/);
    expect(() => r.registerType({ name: 'Point', description: '', is: () => false })).toThrow(RegistryError);
    expect(() => r.registerConversion({ from: 'string', to: 'number', description: '', convert: (v) => v })).toThrow(/already registered/);
  });

  it('is one per interpreter: registering into one leaves another untouched', () => {
    const a = createRegistry();
    const b = createRegistry();
    a.registerFunction({ name: 'only_in_a', description: 'x', parameters: [], returns: 'any', examples: [{ program: 'only_in_a()' }], implementation: () => 1 });
    expect(a.lookup('only_in_a')).toBeDefined();
    expect(b.lookup('only_in_a')).toBeUndefined();
  });

  it('describes itself: help() lists every function, help("name") shows one', async () => {
    const overview = (await value('help()')) as string;
    for (const fn of interpreter.registry.functions) expect(overview).toContain(interpreter.registry.signature(fn));
    const one = (await value('help("findThing")')) as string;
    expect(one).toContain('findThing(name: string, file?: string) → thing');
    expect(one).toContain('Also callable as: thing');
    expect(one).toContain('findThing("validateToken", file: "src/auth.rs")');
    expect(await errorCode('help("findThign")')).toBe('unknown-function');
  });
});

describe('calls', () => {
  it('match names case-insensitively and resolve aliases', async () => {
    expect(await value('FINDTHING("User")')).toEqual(THINGS[2]);
    expect(await value('thing("User")')).toEqual(THINGS[2]);
  });

  it('give the same result positionally and by name (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer(), async (a, b) => {
        const positional = await value(`add(${a}, ${b})`);
        expect(await value(`add(a: ${a}, b: ${b})`)).toBe(positional);
        expect(await value(`add(b: ${b}, a: ${a})`)).toBe(positional);
        expect(await value(`add(${a}, b: ${b})`)).toBe(positional);
        expect(await value(`{"add": {"a": ${a}, "b": ${b}}}`)).toBe(positional);
      }),
      { numRuns: 100 },
    );
  });

  it('accept the aliases a parameter declares for its name', async () => {
    expect(await value('findThing(symbol: "validateToken", path: "src/util.rs")')).toEqual(THINGS[1]);
    expect(await errorCode('findThing("User", name: "User")')).toBe('too-many-arguments');
    const r = demoRegistry();
    const base = { description: 'x', returns: 'any', examples: [{ program: 'x()' }], implementation: () => null };
    expect(() => r.registerFunction({ ...base, name: 'clash', parameters: [{ name: 'a', type: 'string', description: '', aliases: ['B'] }, { name: 'b', type: 'string', description: '' }] })).toThrow(/declared twice/);
  });

  it('apply defaults for omitted optional parameters; explicit undefined counts as omitted', async () => {
    expect(await value('add(5)')).toBe(5);
    expect(await value('add(5, undefined)')).toBe(5);
    expect(await errorCode('add(undefined)')).toBe('missing-argument');
  });

  it('treat only a single-key object naming a function with an object value as a call', async () => {
    expect(await value('{"findThing": {"name": "User"}}')).toEqual(THINGS[2]);
    expect(await value('{"findThing": "User"}')).toEqual({ findThing: 'User' });
    expect(await value('{"notAFunction": {"name": "User"}}')).toEqual({ notAFunction: { name: 'User' } });
    expect(await value('{"findThing": {"name": "User"}, "other": 1}')).toEqual({ findThing: { name: 'User' }, other: 1 });
  });

  it('evaluate independent arguments concurrently', async () => {
    // Each meet() waits until all three have started: sequential evaluation would never finish.
    const outcome = await run('[meet("b", 3, "x"), {y: meet("b", 3, "y")}, describe(findThing(meet("b", 3, "User")))]', demoHost(), { deadlineMs: 5000 });
    expect(outcome.kind === 'value' && outcome.value).toEqual(['x', { y: 'y' }, 'User is a struct at src/model.rs:3']);
  });

  it('validate before calling: nothing runs when a call is malformed', async () => {
    const host = demoHost();
    const o = await run('describe(findThings("Config"), extra: 1)', host);
    expect(o.kind === 'error' && o.error.code).toBe('unknown-argument');
    expect(host.calls).toEqual([]);
  });
});

describe('conversions', () => {
  it('convert through the shortest path, several types long', async () => {
    expect(await value('toKelvin(20)')).toBeCloseTo(293.15);
    expect(await value('toKelvin("20")')).toBeCloseTo(293.15); // string → number → celsius → kelvin
  });

  it('built-ins: string↔number, boolean↔number, array↔string, element-wise and lifted', async () => {
    expect(await value('add("2", true)')).toBe(3);
    expect(await value('total(["1", 2, "3.5"])')).toBe(6.5);
    expect(await value('total(4)')).toBe(4);
    expect(await value('count("a, b,c")')).toBe(3); // string → array splits at commas
    expect(await value('findThings(["User"])')).toEqual([THINGS[2]]); // array → string joins with commas
  });

  it('compose: converting in two steps equals the path conversion (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1000, max: 1000 }), async (n) => {
        expect(await value(`toKelvin("${n}")`)).toBe(await value(`toKelvin(${n})`));
        expect(await value(`add("${n}")`)).toBe(n);
      }),
      { numRuns: 50 },
    );
  });

  it('unwrap a list where one value is expected: one element is it, several are an ambiguity', async () => {
    expect(await value('describe(findThings("User"))')).toBe('User is a struct at src/model.rs:3');
    const o = await run('describe(findThings("Config"))');
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${o.kind}`);
    expect(o.refinements.map((r) => r.program)).toEqual(['describe(pick(findThings("Config"), 1))', 'describe(pick(findThings("Config"), 2))']);
    for (const r of o.refinements) expect((await run(r.program)).kind).toBe('value');
    // A list of strings where text is expected is joined (the registered array→string), not unwrapped.
    expect(await value('findThings(["User"])')).toEqual([THINGS[2]]);
  });

  it('report a mismatch only when no conversion applies', async () => {
    expect(await errorCode('add("two")')).toBe('conversion-failed');
    expect(await errorCode('add({a: 1})')).toBe('type-mismatch');
    expect(await errorCode('describe({a: 1})')).toBe('type-mismatch');
    expect(await errorCode('describe(42)')).toBe('invalid-argument'); // number → string → thing applies, then finds nothing
  });

  it('refuse a number, boolean or null where a type named by text is expected, and a word a parameter does not take, at the argument', async () => {
    const r = createRegistry();
    r.registerType({ name: 'item', description: 'an item', is: (v) => typeof v === 'object' && v !== null && 'item' in v, namedByText: true });
    r.registerConversion({ from: 'string', to: 'item', description: 'the item named', convert: (v) => ({ item: v }) });
    const words = { describe: 'a colour', list: () => ['red', 'green'], accepts: (w: string) => ['red', 'green'].includes(w) };
    r.registerFunction({
      name: 'look',
      description: 'x',
      parameters: [
        { name: 'of', type: 'string | item | (string | item)[]', description: 'a name or an item' },
        { name: 'colour', type: 'string', optional: true, description: 'a colour', words },
        { name: 'count', type: 'string', optional: true, description: 'text; numbers are written out' },
      ],
      returns: 'any',
      examples: [{ program: 'look("a")' }],
      implementation: (args) => args,
    });
    const look = new Interpreter(r);
    const failure = async (program: string): Promise<{ code: string; hint: string | undefined; example: string | undefined; at: string }> => {
      const o = await look.evaluate(program, { host: undefined });
      if (o.kind !== 'error') throw new Error(`expected an error from ${program}, got ${o.kind}`);
      return { code: o.error.code, hint: o.error.hint, example: o.error.example, at: program.slice(o.error.span?.start, o.error.span?.end) };
    };
    expect(await failure('look(42)')).toMatchObject({ code: 'type-mismatch', at: '42', example: 'look("42")' });
    expect(await failure('look(true)')).toMatchObject({ code: 'type-mismatch', at: 'true', example: 'look("true")' });
    expect(await failure('look(null)')).toMatchObject({ code: 'type-mismatch', at: 'null' });
    expect(await failure('look(["a", 7])')).toMatchObject({ code: 'type-mismatch', at: '7' });
    // Text stays text, and a parameter of plain text still takes a number written out.
    expect((await look.evaluate('look("42", count: 3)', { host: undefined })).kind).toBe('value');
    const misspelt = await failure('look("a", colour: "gren")');
    expect(misspelt).toMatchObject({ code: 'invalid-argument', at: '"gren"' });
    expect(misspelt.hint).toBe('did you mean "green"? `colour` takes one of: red, green');
    expect((await look.evaluate('look("a", colour: "red")', { host: undefined })).kind).toBe('value');
  });
});

describe('three outcomes', () => {
  it('an ambiguity lists candidates with programs that select exactly each one', async () => {
    const o = await run('describe(findThing("validateToken"))');
    if (o.kind !== 'ambiguity') throw new Error('expected an ambiguity');
    expect(o.refinements.map((r) => r.program)).toEqual([
      'describe(findThing("validateToken", file: "src/auth.rs"))',
      'describe(findThing("validateToken", file: "src/util.rs"))',
    ]);
    for (const r of o.refinements) {
      const chosen = await run(r.program);
      expect(chosen.kind).toBe('value');
      expect(chosen.kind === 'value' && chosen.value).toBe(`validateToken is a function at ${(r.value as { file: string }).file}:${(r.value as { line: number }).line}`);
    }
  });

  it('an ambiguous conversion replaces the argument in its refinements', async () => {
    const o = await run('describe("Config")');
    if (o.kind !== 'ambiguity') throw new Error('expected an ambiguity');
    expect(o.refinements.map((r) => r.program)).toEqual([
      'describe(findThing("Config", file: "src/config.rs"))',
      'describe(findThing("Config", file: "src/storage/mod.rs"))',
    ]);
  });

  it('an ambiguity narrowed to the candidates a parameter prefers says how many it lists, not only how many there were', async () => {
    const r = createRegistry();
    r.registerType({ name: 'shape', description: 'a shape', is: (v) => typeof v === 'object' && v !== null && 'sides' in v });
    const shapes = [{ sides: 3 }, { sides: 4 }, { sides: 0 }];
    r.registerConversion({
      from: 'string',
      to: 'shape',
      description: 'the shape with that name',
      convert: (_v, ctx) => ctx.ambiguous(`"Poly" names ${shapes.length} shapes`, shapes.map((sh) => ({ label: `${sh.sides} sides`, value: sh, replacement: build.literal(`${sh.sides}`) }))),
    });
    r.registerFunction({
      name: 'corners',
      description: 'the corners of a shape',
      parameters: [{ name: 'of', type: 'shape', description: 'a shape with corners', prefers: (v) => (v as { sides: number }).sides > 0 }],
      returns: 'number',
      examples: [{ program: 'corners("Poly")' }],
      implementation: ({ of }) => (of as { sides: number }).sides,
    });
    const o = await new Interpreter(r).evaluate('corners("Poly")', { host: undefined });
    if (o.kind !== 'ambiguity') throw new Error('expected an ambiguity');
    expect(o.refinements).toHaveLength(2);
    expect(o.message).toBe('"Poly" names 3 shapes, 2 of which `corners` applies to');
  });

  it('pick and only resolve lists and ambiguities without another round trip', async () => {
    expect(await value('describe(pick(findThing("validateToken"), file: "src/util.rs"))')).toBe('validateToken is a function at src/util.rs:40');
    expect(await value('describe(pick(findThing("validateToken"), file: "util.rs"))')).toContain('src/util.rs');
    expect(await value('pick(findThings("Config"), 2)')).toEqual(THINGS[4]);
    expect(await value('pick(findThings("Config"), "storage")')).toEqual(THINGS[4]);
    expect(await value('pick(findThings("Config"), {file: "src/config.rs"})')).toEqual(THINGS[3]);
    expect(await value('only(findThings("User"))')).toEqual(THINGS[2]);
    expect(await errorCode('only(findThings("Nobody"))')).toBe('empty-result');
    expect(await errorCode('pick(findThings("Config"), kind: "enum")')).toBe('no-match');
    const several = await run('only(findThings("Config"))');
    expect(several.kind === 'ambiguity' && several.refinements.map((r) => r.program)).toEqual([
      'pick(findThings("Config"), 1)',
      'pick(findThings("Config"), 2)',
    ]);
    for (const r of several.kind === 'ambiguity' ? several.refinements : []) expect((await run(r.program)).kind).toBe('value');
  });

  it('an error deep in a composition names the chain that led to it', async () => {
    const o = await run('describe(pick([findThing("Nobody")], 1))');
    if (o.kind !== 'error') throw new Error('expected an error');
    expect(o.error.code).toBe('invalid-argument');
    expect(o.error.chain).toEqual(['describe(…) at 1:1', 'pick(…) at 1:10']);
    expect(o.source.slice(o.error.span ?? { start: 0, end: 0 })).toBe('findThing("Nobody")');
  });

  it('a plain exception inside a function becomes a function-failed error at its call', async () => {
    const o = await run('[1, explode()]');
    expect(o.kind === 'error' && [o.error.code, o.error.message, o.source.slice(o.error.span ?? { start: 0, end: 0 })]).toEqual(['function-failed', 'explode failed: boom', 'explode()']);
  });
});

describe('cancellation and deadlines', () => {
  it('an AbortSignal ends an evaluation promptly and reaches the running functions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 4 }), async (abortAfter, width) => {
        const host = demoHost();
        const controller = new AbortController();
        const program = `[${Array.from({ length: width }, (_, i) => `slow(60000, ${i})`).join(', ')}]`;
        const pending = run(program, host, { signal: controller.signal });
        setTimeout(() => controller.abort(), abortAfter);
        const outcome = await pending;
        expect(outcome.kind === 'error' && outcome.error.code).toBe('cancelled');
        await new Promise((r) => setImmediate(r));
        expect(host.pending.size).toBe(0); // every timer the functions started was cleared
      }),
      { numRuns: 25 },
    );
  });

  it('a deadline ends with an error that says what was still running', async () => {
    const host = demoHost();
    const o = await run('describe(findThing(slow(60000, "User")))', host, { deadlineMs: 50 });
    if (o.kind !== 'error') throw new Error('expected an error');
    expect(o.error.code).toBe('deadline-exceeded');
    expect(o.error.notes.join()).toMatch(/still running: slow\(…\) at 1:20 \(running for \d+ ms\)/);
    await new Promise((r) => setImmediate(r));
    expect(host.pending.size).toBe(0);
  });

  it('an already aborted signal runs nothing', async () => {
    const host = demoHost();
    const o = await run('findThings("User")', host, { signal: AbortSignal.abort() });
    expect(o.kind === 'error' && o.error.code).toBe('cancelled');
    expect(host.calls).toEqual([]);
  });
});

describe('constructors', () => {
  it("a registered constructor's printed form evaluates back to an equal value (property)", async () => {
    const registry = interpreter.registry;
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), async (x, y) => {
        const point = { x, y };
        const expr = registry.toExpr(point);
        expect(expr?.kind).toBe('call');
        const printed = printValue(point, { toExpr: (v) => registry.toExpr(v) });
        expect(printed.startsWith('point(')).toBe(true);
        expect(await value(printed)).toStrictEqual(point);
        expect(await value(`[${printed}]`)).toStrictEqual([point]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('an ambiguity over a long list', () => {
  it('is built in linear time and lists a bounded number of refinements, with a note for the rest', async () => {
    const count = 100_000;
    const program = `only([${Array.from({ length: count }, () => '0').join(',')}])`;
    const started = performance.now();
    const outcome = await run(program);
    const elapsed = performance.now() - started;
    expect(outcome.kind).toBe('ambiguity');
    if (outcome.kind !== 'ambiguity') return;
    // Each refinement was the whole program again: 100,000 of them took minutes and gigabytes.
    expect(outcome.refinements.length).toBeGreaterThan(0);
    expect(outcome.refinements.length).toBeLessThanOrEqual(100);
    expect(outcome.refinements[1]?.program).toMatch(/^pick\([\s\S]*\],\s*2\s*\)$/);
    expect(outcome.notes.join('\n')).toMatch(new RegExp(`^${count - outcome.refinements.length} more candidates not listed`, 'm'));
    // Generous for a loaded 2-core machine: the linear work takes about a second.
    expect(elapsed).toBeLessThan(15_000);
  }, 60_000);

  it('lists every refinement of a short one, without a note', async () => {
    const outcome = await run('only([1, 2, 3])');
    expect(outcome.kind === 'ambiguity' && outcome.refinements.map((r) => r.program)).toEqual(['pick([1, 2, 3], 1)', 'pick([1, 2, 3], 2)', 'pick([1, 2, 3], 3)']);
    expect(outcome.notes).toEqual([]);
  });
});

describe('a bound ambiguity (the REPL binds `_` to the last ambiguity)', () => {
  const bound = (): Ambiguity =>
    new Ambiguity(
      'two things',
      THINGS.filter((t) => t.name === 'validateToken').map((t) => ({
        label: `${t.kind} ${t.name} in ${t.file}`,
        value: t,
        replacement: build.call('findThing', [build.literal(t.name)], [['file', build.literal(t.file)]]),
        facets: { file: t.file },
      })),
    );

  it('is chosen from by pick', async () => {
    const picked = await interpreter.evaluate('pick(_, 2)', { host: demoHost(), bindings: { _: bound() } });
    expect(picked.kind === 'value' ? picked.value : picked.kind).toEqual(THINGS[1]);
  });

  it('is the same ambiguity where one value is needed, its choices substituted for `_`', async () => {
    const again = await interpreter.evaluate('describe(_)', { host: demoHost(), bindings: { _: bound() } });
    if (again.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${again.kind}`);
    expect(again.refinements.map((r) => r.program)).toEqual(['describe(findThing("validateToken", file: "src/auth.rs"))', 'describe(findThing("validateToken", file: "src/util.rs"))']);
  });
});
