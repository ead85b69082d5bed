/**
 * What every registry starts with: the JSON types, the built-in conversions (string↔number,
 * boolean↔number, array↔string) and the generic functions `help`, `pick` and `only`.
 */
import { MAX_LABEL_LENGTH, truncate } from './display.js';
import { build, type CallExpr } from './ast.js';
import { helpFor, helpOverview } from './help.js';
import { Ambiguity, DialectError, EvalCode, type Candidate } from './outcome.js';
import { printValue } from './printer.js';
import { Registry } from './registry.js';
import { closest } from './suggest.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Ambiguity);
const JSON_NUMBER = /^\s*-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\s*$/;

/** A new registry with the built-in types, conversions and functions. */
export function createRegistry<Host = undefined>(): Registry<Host> {
  const registry = new Registry<Host>();
  registry
    .registerType({ name: 'any', description: 'any value', is: () => true })
    .registerType({ name: 'object', description: 'a JSON object', is: isPlainObject })
    .registerType({ name: 'array', description: 'a JSON array', is: (v) => Array.isArray(v) })
    .registerType({ name: 'string', description: 'text', is: (v) => typeof v === 'string' })
    .registerType({ name: 'number', description: 'a finite number', is: (v) => typeof v === 'number' && Number.isFinite(v) })
    .registerType({ name: 'boolean', description: 'true or false', is: (v) => typeof v === 'boolean' })
    .registerType({ name: 'null', description: 'null', is: (v) => v === null });

  registry
    .registerConversion({
      from: 'string',
      to: 'number',
      description: 'text that is a number, e.g. "42"',
      convert: (v) => {
        const s = v as string;
        if (!JSON_NUMBER.test(s)) throw new DialectError({ code: EvalCode.ConversionFailed, message: `${JSON.stringify(s)} is not a number`, hint: 'pass a number such as 42' });
        return Number(s);
      },
    })
    .registerConversion({ from: 'number', to: 'string', description: 'the number written out', convert: (v) => String(v) })
    .registerConversion({ from: 'boolean', to: 'number', description: 'true is 1, false is 0', convert: (v) => (v === true ? 1 : 0) })
    .registerConversion({
      from: 'number',
      to: 'boolean',
      description: '1 is true, 0 is false',
      convert: (v) => {
        if (v === 1 || v === 0) return v === 1;
        throw new DialectError({ code: EvalCode.ConversionFailed, message: `${String(v)} is neither 0 nor 1`, hint: 'pass true or false' });
      },
    })
    .registerConversion({
      from: 'array',
      to: 'string',
      description: 'the elements joined with ","',
      convert: (v) => (v as unknown[]).map((e) => (typeof e === 'string' ? e : printValue(e, { mode: 'compact' }))).join(','),
    })
    .registerConversion({
      from: 'string',
      to: 'array',
      description: 'the text split at ","',
      convert: (v) => (v as string).split(',').map((s) => s.trim()),
    });

  registry.registerFunction({
    name: 'help',
    description: 'Lists every function with its signature, or describes one function with its parameters and examples.',
    category: 'language',
    parameters: [{ name: 'name', type: 'string', optional: true, description: 'a function name, for details' }],
    returns: 'string',
    examples: [{ program: 'help()' }, { program: 'help("pick")' }],
    implementation: (args, ctx) => {
      const name = args['name'] as string | undefined;
      if (name === undefined) return helpOverview(ctx.registry);
      const fn = ctx.registry.lookup(name);
      if (fn === undefined) {
        const near = closest(name, ctx.registry.callableNames);
        return ctx.fail(EvalCode.UnknownFunction, `there is no function \`${name}\``, near.length > 0 ? `did you mean ${near.join(', ')}?` : 'call help() for the list');
      }
      return helpFor(ctx.registry, fn);
    },
  });

  registry.registerFunction({
    name: 'pick',
    aliases: ['select'],
    description:
      'Chooses one item from a list or an ambiguous result: by 1-based position (pick(x, 2)), by text the item mentions (pick(x, "auth")), or by field values (pick(x, kind: "struct", file: "src/a.rs")). Paths match by suffix. Several matches give a narrower ambiguity.',
    category: 'selection',
    parameters: [
      { name: 'from', type: 'any', acceptsAmbiguity: true, description: 'a list, or an ambiguous result' },
      { name: 'criteria', type: 'number | string | object', rest: 'positional', description: 'positions, texts or field objects every chosen item must match' },
      { name: 'where', type: 'any', rest: 'named', description: 'field: value pairs the chosen item must match' },
    ],
    returns: 'any',
    examples: [
      { program: 'pick(findDefinitions("validateToken"), file: "src/auth.rs")', description: 'the definition in src/auth.rs' },
      { program: 'pick(["a", "b", "c"], 2)' },
    ],
    implementation: ({ from, criteria, where }, ctx) => {
      const items = itemsOf(from);
      if (items === undefined) return ctx.fail(EvalCode.InvalidArgument, `pick needs a list or an ambiguous result, got ${describe(from)}`, 'pass a list, e.g. pick(findDefinitions("User"), 1)');
      const positional = (criteria as unknown[] | undefined) ?? [];
      const named = (where as Record<string, unknown> | undefined) ?? {};
      const chosen = items.filter((item, i) => positional.every((c) => matchesCriterion(item, i, c)) && Object.entries(named).every(([k, v]) => matchesField(item, k, v)));
      if (chosen.length === 1) return (chosen[0] as Candidate).value;
      const shown = [...positional.map((c) => printValue(c, { mode: 'compact' })), ...Object.entries(named).map(([k, v]) => `${k}: ${printValue(v, { mode: 'compact' })}`)].join(', ');
      if (chosen.length === 0) {
        const options = items.slice(0, 10).map((c, i) => `${i + 1}. ${c.label}`);
        throw new DialectError({
          code: EvalCode.NoMatch,
          message: `nothing in the ${items.length} item(s) matches ${shown || 'the criteria'}`,
          hint: `choose by position or by a field the items have:\n${options.join('\n')}${items.length > 10 ? `\n… and ${items.length - 10} more` : ''}`,
        });
      }
      return narrowed(from, chosen, items, `${chosen.length} items match ${shown || 'the criteria'}; which one?`, ctx.call);
    },
  });

  registry.registerFunction({
    name: 'only',
    description: 'Returns the single item of a list or of an ambiguous result; an empty list is an error, several items give an ambiguity to choose from.',
    category: 'selection',
    parameters: [{ name: 'from', type: 'any', acceptsAmbiguity: true, description: 'a list, or an ambiguous result' }],
    returns: 'any',
    examples: [{ program: 'only(findDefinitions("User", kind: "struct"))' }],
    implementation: ({ from }, ctx) => {
      const items = itemsOf(from);
      if (items === undefined) return from;
      if (items.length === 1) return (items[0] as Candidate).value;
      if (items.length === 0) throw new DialectError({ code: EvalCode.Empty, message: 'expected exactly one item, but there are none', hint: 'check the inner query; help() lists the functions' });
      return narrowed(from, items, items, `expected exactly one item, but there are ${items.length}; which one?`, ctx.call);
    },
  });

  return registry;
}

/** The items of a list or an ambiguity, as candidates. */
function itemsOf(value: unknown): Candidate[] | undefined {
  if (value instanceof Ambiguity) return [...value.candidates];
  if (Array.isArray(value)) {
    return value.map((v: unknown) => ({ label: labelOf(v), value: v, replacement: build.literal(null), facets: {} }));
  }
  return undefined;
}

/**
 * Several items remain: an ambiguity. For an ambiguous input, its own candidates (whose
 * refinements already select exactly one); for a list, `pick(<same input>, N)` per item.
 */
function narrowed(from: unknown, chosen: Candidate[], all: Candidate[], message: string, call: CallExpr): Ambiguity {
  if (from instanceof Ambiguity) {
    const a = new Ambiguity(message, chosen);
    a.node = from.node;
    return a;
  }
  const input = call.args[0] ?? build.literal(null);
  const position = new Map(all.map((c, i) => [c, i + 1])); // not a search per candidate: lists can be long
  const candidates = chosen.map((c) => ({ ...c, replacement: build.call('pick', [input, build.literal(position.get(c) ?? 0)]) }));
  const a = new Ambiguity(message, candidates);
  a.node = call;
  return a;
}

function matchesCriterion(item: Candidate, index: number, criterion: unknown): boolean {
  if (typeof criterion === 'number') return index + 1 === criterion;
  if (typeof criterion === 'string') {
    const needle = criterion.toLowerCase();
    return item.label.toLowerCase().includes(needle) || stringLeaves(item.value, 4).some((s) => s.toLowerCase().includes(needle));
  }
  if (isPlainObject(criterion)) return Object.entries(criterion).every(([k, v]) => matchesField(item, k, v));
  return false;
}

function matchesField(item: Candidate, key: string, expected: unknown): boolean {
  if (Object.prototype.hasOwnProperty.call(item.facets, key) && sameValue(item.facets[key], expected)) return true;
  return fieldValues(item.value, key, 4).some((v) => sameValue(v, expected));
}

/** Equality for selection: strings case-insensitively or as a path suffix; the rest exactly. */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') {
    const a = actual.toLowerCase();
    const e = expected.toLowerCase().replace(/^\.\//, '');
    return a === e || a.endsWith(`/${e}`);
  }
  if (typeof actual === 'number' && typeof expected === 'string') return String(actual) === expected;
  return Object.is(actual, expected) || JSON.stringify(actual) === JSON.stringify(expected);
}

function fieldValues(value: unknown, key: string, depth: number): unknown[] {
  if (depth < 0 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return [];
  const out: unknown[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k.toLowerCase() === key.toLowerCase()) out.push(v);
    out.push(...fieldValues(v, key, depth - 1));
  }
  return out;
}

function stringLeaves(value: unknown, depth: number): string[] {
  if (typeof value === 'string') return [value];
  if (depth < 0 || typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap((v) => stringLeaves(v, depth - 1));
}

function labelOf(value: unknown): string {
  const s = printValue(value, { mode: 'compact' });
  return truncate(s, MAX_LABEL_LENGTH);
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `${typeof value} ${printValue(value)}`;
}
