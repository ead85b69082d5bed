/**
 * A small demo domain for interpreter tests (not a mock of the IDE): "things" defined in files,
 * points with a constructor, and helpers that sleep, meet at a barrier or fail.
 */
import { DialectError, EvalCode, build, createRegistry, type Registry } from '../../index.js';

export interface Thing {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  readonly line: number;
}

export const THINGS: readonly Thing[] = [
  { name: 'validateToken', kind: 'function', file: 'src/auth.rs', line: 12 },
  { name: 'validateToken', kind: 'function', file: 'src/util.rs', line: 40 },
  { name: 'User', kind: 'struct', file: 'src/model.rs', line: 3 },
  { name: 'Config', kind: 'struct', file: 'src/config.rs', line: 1 },
  { name: 'Config', kind: 'struct', file: 'src/storage/mod.rs', line: 9 },
];

/** What the demo functions share: a log of calls and the timers still pending. */
export interface DemoHost {
  readonly calls: string[];
  readonly pending: Set<ReturnType<typeof setTimeout>>;
  readonly barriers: Map<string, { arrived: number; release: () => void; done: Promise<void> }>;
}

export function demoHost(): DemoHost {
  return { calls: [], pending: new Set(), barriers: new Map() };
}

const isThing = (v: unknown): v is Thing =>
  typeof v === 'object' && v !== null && typeof (v as Thing).name === 'string' && typeof (v as Thing).kind === 'string' && typeof (v as Thing).file === 'string';

/** Sleeps unless aborted; the timer is tracked so tests can check nothing is left running. */
function sleep(host: DemoHost, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      host.pending.delete(timer);
      resolve();
    }, ms);
    host.pending.add(timer);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        host.pending.delete(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

export function demoRegistry(): Registry<DemoHost> {
  const registry = createRegistry<DemoHost>();
  registry.registerType({ name: 'thing', description: 'a named thing defined in a file', is: isThing });
  registry.registerType({
    name: 'point',
    description: 'a 2-D point',
    is: (v) => typeof v === 'object' && v !== null && Object.keys(v).sort().join() === 'x,y' && typeof (v as { x: unknown }).x === 'number',
    construct: { function: 'point', toArguments: (v) => ({ args: [(v as { x: number }).x, (v as { y: number }).y] }) },
  });
  registry.registerType({ name: 'celsius', description: 'a temperature in °C', is: (v) => typeof v === 'object' && v !== null && 'celsius' in v });
  registry.registerType({ name: 'kelvin', description: 'a temperature in K', is: (v) => typeof v === 'object' && v !== null && 'kelvin' in v });
  registry.registerConversion({ from: 'number', to: 'celsius', description: 'a number of degrees Celsius', convert: (v) => ({ celsius: v }) });
  registry.registerConversion({ from: 'celsius', to: 'kelvin', description: '°C + 273.15', convert: (v) => ({ kelvin: (v as { celsius: number }).celsius + 273.15 }) });
  registry.registerConversion({
    from: 'string',
    to: 'thing',
    description: 'the thing with that name',
    convert: (v, ctx) => {
      const found = THINGS.filter((t) => t.name === v);
      if (found.length === 0) throw new DialectError({ code: EvalCode.InvalidArgument, message: `no thing is named ${JSON.stringify(v)}` });
      if (found.length === 1) return found[0];
      return ctx.ambiguous(
        `${found.length} things are named ${JSON.stringify(v)}`,
        found.map((t) => ({
          label: `${t.kind} ${t.name} in ${t.file}:${t.line}`,
          value: t,
          replacement: build.call('findThing', [build.literal(t.name)], [['file', build.literal(t.file)]]),
          facets: { file: t.file },
        })),
      );
    },
  });

  registry.registerFunction({
    name: 'findThings',
    description: 'All things with a name, optionally in one file or of one kind.',
    category: 'demo',
    parameters: [
      { name: 'name', type: 'string', description: 'the name' },
      { name: 'file', type: 'string', optional: true, description: 'only in this file' },
      { name: 'kind', type: 'string', optional: true, description: 'only of this kind' },
    ],
    returns: 'thing[]',
    examples: [{ program: 'findThings("Config")' }],
    implementation: ({ name, file, kind }, ctx) => {
      ctx.host.calls.push(`findThings ${String(name)}`);
      return THINGS.filter((t) => t.name === name && (file === undefined || t.file === file) && (kind === undefined || t.kind === kind));
    },
  });

  registry.registerFunction({
    name: 'findThing',
    aliases: ['thing'],
    description: 'The one thing with a name; ambiguous when several match.',
    category: 'demo',
    parameters: [
      { name: 'name', type: 'string', description: 'the name', aliases: ['symbol'] },
      { name: 'file', type: 'string', optional: true, description: 'the file it is defined in', aliases: ['path'] },
    ],
    returns: 'thing',
    examples: [{ program: 'findThing("User")' }, { program: 'findThing("validateToken", file: "src/auth.rs")' }],
    implementation: ({ name, file }, ctx) => {
      const found = THINGS.filter((t) => t.name === name && (file === undefined || t.file === file));
      if (found.length === 0) return ctx.fail(EvalCode.InvalidArgument, `no thing is named ${JSON.stringify(name)}${typeof file === 'string' ? ` in ${file}` : ''}`, 'findThings("…") lists candidates');
      if (found.length === 1) return found[0];
      return ctx.ambiguous(
        `\`${String(name)}\` is defined in ${found.length} places`,
        found.map((t) => ({ label: `${t.kind} ${t.name} in ${t.file}:${t.line}`, value: t, refine: { file: t.file } })),
      );
    },
  });

  registry.registerFunction({
    name: 'describe',
    description: 'A sentence about a thing.',
    category: 'demo',
    parameters: [{ name: 'thing', type: 'thing', description: 'a thing or its name' }],
    returns: 'string',
    examples: [{ program: 'describe(findThing("User"))' }],
    implementation: ({ thing }) => {
      const t = thing as Thing;
      return `${t.name} is a ${t.kind} at ${t.file}:${t.line}`;
    },
  });

  registry.registerFunction({
    name: 'point',
    description: 'A point.',
    category: 'demo',
    parameters: [
      { name: 'x', type: 'number', description: 'x' },
      { name: 'y', type: 'number', description: 'y' },
    ],
    returns: 'point',
    examples: [{ program: 'point(1, 2)' }],
    implementation: ({ x, y }) => ({ x, y }),
  });

  registry.registerFunction({
    name: 'add',
    description: 'Adds two numbers.',
    category: 'demo',
    parameters: [
      { name: 'a', type: 'number', description: 'first' },
      { name: 'b', type: 'number', optional: true, default: 0, description: 'second' },
    ],
    returns: 'number',
    examples: [{ program: 'add(1, 2)' }],
    implementation: ({ a, b }) => (a as number) + (b as number),
  });

  registry.registerFunction({
    name: 'toKelvin',
    description: 'A temperature in kelvin.',
    category: 'demo',
    parameters: [{ name: 't', type: 'kelvin', description: 'a temperature' }],
    returns: 'number',
    examples: [{ program: 'toKelvin(20)' }],
    implementation: ({ t }) => (t as { kelvin: number }).kelvin,
  });

  registry.registerFunction({
    name: 'total',
    description: 'Sums a list of numbers.',
    category: 'demo',
    parameters: [{ name: 'values', type: 'number[]', description: 'numbers' }],
    returns: 'number',
    examples: [{ program: 'total([1, 2, 3])' }],
    implementation: ({ values }) => (values as number[]).reduce((a, b) => a + b, 0),
  });

  registry.registerFunction({
    name: 'count',
    description: 'The number of elements of an array.',
    category: 'demo',
    parameters: [{ name: 'values', type: 'array', description: 'any array' }],
    returns: 'number',
    examples: [{ program: 'count([1, 2])' }],
    implementation: ({ values }) => (values as unknown[]).length,
  });

  registry.registerFunction({
    name: 'slow',
    description: 'Returns a value after a delay (honours cancellation).',
    category: 'demo',
    parameters: [
      { name: 'ms', type: 'number', description: 'delay' },
      { name: 'value', type: 'any', optional: true, description: 'what to return' },
    ],
    returns: 'any',
    examples: [{ program: 'slow(10, "done")' }],
    implementation: async ({ ms, value }, ctx) => {
      await sleep(ctx.host, ms as number, ctx.signal);
      return value ?? null;
    },
  });

  registry.registerFunction({
    name: 'meet',
    description: 'Waits until `count` calls of meet with the same barrier name have started, then returns its name.',
    category: 'demo',
    parameters: [
      { name: 'barrier', type: 'string', description: 'barrier name' },
      { name: 'count', type: 'number', description: 'how many must arrive' },
      { name: 'name', type: 'string', description: 'what to return' },
    ],
    returns: 'string',
    examples: [{ program: '[meet("b", 2, "x"), meet("b", 2, "y")]' }],
    implementation: async ({ barrier, count, name }, ctx) => {
      let b = ctx.host.barriers.get(barrier as string);
      if (b === undefined) {
        let release = (): void => undefined;
        const done = new Promise<void>((r) => (release = r));
        b = { arrived: 0, release, done };
        ctx.host.barriers.set(barrier as string, b);
      }
      b.arrived++;
      if (b.arrived >= (count as number)) b.release();
      await b.done;
      return name;
    },
  });

  registry.registerFunction({
    name: 'explode',
    description: 'Always fails with a plain JavaScript error.',
    category: 'demo',
    parameters: [{ name: 'input', type: 'any', optional: true, description: 'ignored' }],
    returns: 'any',
    examples: [{ program: 'explode()' }],
    implementation: () => {
      throw new Error('boom');
    },
  });

  return registry;
}
