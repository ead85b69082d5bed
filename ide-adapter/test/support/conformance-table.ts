/**
 * The one conformance table: the same questions for every language and every backend, written as
 * data. A language contributes one {@link LanguageConformance} (its fixture and, per case, the
 * program to ask and the answer expected, with positions found from the fixture text); the runner
 * ({@link runConformance}) asks every case through whichever backend opened the session. A case a
 * server cannot answer is an {@link Exception}: documented here, and tested to fail the way it says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, Reference, SymbolDefinition, SymbolInfo } from '../../model.js';
import type { OpenSession } from './conformance.js';
import type { FixtureSession } from './session.js';

/** A place in a fixture file: the start of the `nth` (from 0) occurrence of `needle`. */
export interface Marker {
  readonly file: string;
  readonly needle: string;
  readonly nth?: number;
}

/** A definition expected in an answer: its name, kind (in the language's words) and where its name is. */
export interface ExpectedDefinition {
  readonly name: string;
  readonly kind?: string;
  readonly at: Marker;
}

/** A case the server (or backend) cannot answer: why, and the error code it gives instead (tested). */
export interface Exception {
  readonly exception: string;
  /** The program that shows it (it must not give a value). */
  readonly program: string;
  /** The error code the program fails with; omitted: any non-value outcome. */
  readonly code?: string;
}

/** Every case of the table; each language answers each one or documents an {@link Exception}. */
export interface ConformanceCases {
  /** `findDefinitions(name)` with a plain name finds exactly this one definition. */
  readonly definitionByName: { readonly name: string; readonly expect: ExpectedDefinition };
  /** The same through the language's qualified notation (`pkg.Type.Method`, `ns::Class::method`). */
  readonly definitionByQualifiedName: { readonly name: string; readonly expect: ExpectedDefinition };
  /** `program` is an ambiguity; each refinement selects one of `candidates`, all of them between them. */
  readonly ambiguity: { readonly program: string; readonly candidates: readonly Marker[] };
  /** `findReferences(of)` includes a reference at each marker. */
  readonly referencesAtName: { readonly of: string; readonly includes: readonly Marker[] };
  /** `getSymbolInfo(of)`: the signature (and documentation) contain these texts. */
  readonly hover: { readonly of: string; readonly signature: string; readonly documentation?: string };
  /** `documentSymbols(file)` holds these names (qualified names as the language writes them). */
  readonly outline: { readonly file: string; readonly names: readonly string[] };
  /** `implementations(of)` are exactly these names. */
  readonly implementations: { readonly of: string; readonly names: readonly string[] };
  /** `callers(of)` include these definitions, at their declarations. */
  readonly callers: { readonly of: string; readonly include: readonly ExpectedDefinition[] };
  /** `callees(of)` include these names. */
  readonly callees: { readonly of: string; readonly include: readonly string[] };
  /** `typeDefinition(of)` is this definition. */
  readonly typeDefinition: { readonly of: string; readonly expect: ExpectedDefinition };
  /** `symbolAt(file, line, column)` at the marker is this definition's name. */
  readonly symbolAt: { readonly at: Marker; readonly name: string; readonly kind?: string };
  /** `diagnostics(file)` holds an error at the marker whose message contains `message`. */
  readonly diagnostics: { readonly at: Marker; readonly severity: Diagnostic['severity']; readonly message: string };
  /** `lines(of)` shows text containing `contains`. */
  readonly lines: { readonly of: string; readonly contains: string };
}

/** One language's row of the table. */
export interface LanguageConformance {
  /** For test names: `Python`, `Go`, `C++`. */
  readonly language: string;
  /** The fixture folder under `fixtures/`. */
  readonly fixture: string;
  /** Changes the fixture copy before the servers start (e.g. writes a file with a deliberate error). */
  readonly prepare?: (root: string) => Promise<void>;
  readonly cases: { readonly [K in keyof ConformanceCases]: ConformanceCases[K] | Exception };
}

function isException(value: unknown): value is Exception {
  return typeof value === 'object' && value !== null && 'exception' in value;
}

/** The runner: one `describe` per language, one `it` per case, asked through `open`'s backend. */
export function runConformance(table: LanguageConformance, open: OpenSession, backend: string): void {
  describe(`${table.language} conformance answered by ${backend} (fixtures/${table.fixture})`, () => {
    let f: FixtureSession;
    beforeAll(async () => {
      f = await open(table.fixture, table.prepare);
    });
    afterAll(async () => {
      await f?.dispose();
    });
    const at = (m: Marker) => f.at(m.file, m.needle, m.nth ?? 0);
    const place = async (d: SymbolDefinition) => ({ path: d.definedAt.path, start: d.definedAt.start });
    const expected = async (m: Marker) => ({ path: m.file, start: await at(m) });

    for (const [name, spec] of Object.entries(table.cases) as [keyof ConformanceCases, unknown][]) {
      if (isException(spec)) {
        it(`${name}: documented exception — ${spec.exception}`, async () => {
          const o = await f.outcome(spec.program);
          expect(o.kind).not.toBe('value');
          if (spec.code !== undefined) expect(JSON.stringify(o)).toContain(spec.code);
        });
        continue;
      }
      it(name, async () => {
        await CHECKS[name](spec as never, { f, at, place, expected });
      });
    }
  });
}

interface CheckContext {
  readonly f: FixtureSession;
  at(m: Marker): Promise<{ line: number; column: number }>;
  place(d: SymbolDefinition): Promise<{ path: string; start: unknown }>;
  expected(m: Marker): Promise<{ path: string; start: unknown }>;
}

async function expectDefinition(c: CheckContext, found: SymbolDefinition | undefined, want: ExpectedDefinition): Promise<void> {
  expect(found?.name).toBe(want.name);
  if (want.kind !== undefined) expect(found?.kind).toBe(want.kind);
  expect(found === undefined ? undefined : await c.place(found)).toEqual(await c.expected(want.at));
}

const CHECKS: { readonly [K in keyof ConformanceCases]: (spec: ConformanceCases[K], c: CheckContext) => Promise<void> } = {
  definitionByName: async (spec, c) => {
    const found = (await c.f.value(`findDefinitions(${JSON.stringify(spec.name)})`)) as SymbolDefinition[];
    expect(found).toHaveLength(1);
    await expectDefinition(c, found[0], spec.expect);
  },
  definitionByQualifiedName: async (spec, c) => {
    const found = (await c.f.value(`findDefinitions(${JSON.stringify(spec.name)})`)) as SymbolDefinition[];
    expect(found).toHaveLength(1);
    await expectDefinition(c, found[0], spec.expect);
  },
  ambiguity: async (spec, c) => {
    const o = await c.f.outcome(spec.program);
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity from ${spec.program}, got ${o.kind}`);
    const selected: unknown[] = [];
    for (const refinement of o.refinements) {
      const value = await c.f.value(`findDefinitions(${refinement.program.replace(/^[A-Za-z]+\((findDefinition\(.*\))\)$/, '$1')})`);
      const list = (Array.isArray(value) ? value : [value]) as SymbolDefinition[];
      expect(list, `${refinement.program} selects one`).toHaveLength(1);
      selected.push(await c.place(list[0] as SymbolDefinition));
    }
    const wanted = await Promise.all(spec.candidates.map((m) => c.expected(m)));
    expect(selected).toEqual(expect.arrayContaining(wanted));
    expect(selected).toHaveLength(wanted.length);
  },
  referencesAtName: async (spec, c) => {
    const refs = (await c.f.value(`findReferences(${spec.of})`)) as Reference[];
    const places = refs.map((r) => ({ path: r.referencedAt.path, start: r.referencedAt.start }));
    for (const m of spec.includes) expect(places).toContainEqual(await c.expected(m));
  },
  hover: async (spec, c) => {
    const info = (await c.f.value(`getSymbolInfo(${spec.of})`)) as SymbolInfo;
    expect(info.signature).toContain(spec.signature);
    if (spec.documentation !== undefined) expect(info.documentation).toContain(spec.documentation);
  },
  outline: async (spec, c) => {
    const outline = (await c.f.value(`documentSymbols(${JSON.stringify(spec.file)})`)) as SymbolDefinition[];
    expect(outline.map((s) => s.name)).toEqual(expect.arrayContaining([...spec.names]));
  },
  implementations: async (spec, c) => {
    const impls = (await c.f.value(`implementations(${spec.of})`)) as SymbolDefinition[];
    expect(impls.map((i) => i.name).sort()).toEqual([...spec.names].sort());
  },
  callers: async (spec, c) => {
    const callers = (await c.f.value(`callers(${spec.of})`)) as SymbolDefinition[];
    const found = await Promise.all(callers.map(async (d) => ({ name: d.name, ...(await c.place(d)) })));
    for (const want of spec.include) expect(found).toContainEqual({ name: want.name, ...(await c.expected(want.at)) });
  },
  callees: async (spec, c) => {
    const callees = (await c.f.value(`callees(${spec.of})`)) as SymbolDefinition[];
    expect(callees.map((d) => d.name)).toEqual(expect.arrayContaining([...spec.include]));
  },
  typeDefinition: async (spec, c) => {
    const value = await c.f.value(`typeDefinition(${spec.of})`);
    const found = (Array.isArray(value) ? value[0] : value) as SymbolDefinition | undefined;
    await expectDefinition(c, found, spec.expect);
  },
  symbolAt: async (spec, c) => {
    const p = await c.at(spec.at);
    const found = (await c.f.value(`symbolAt(${JSON.stringify(spec.at.file)}, ${p.line}, ${p.column})`)) as SymbolDefinition;
    expect(found.name).toBe(spec.name);
    if (spec.kind !== undefined) expect(found.kind).toBe(spec.kind);
  },
  diagnostics: async (spec, c) => {
    const found = (await c.f.value(`diagnostics(${JSON.stringify(spec.at.file)})`)) as Diagnostic[];
    const start = await c.at(spec.at);
    const match = found.find((d) => d.severity === spec.severity && JSON.stringify(d.start) === JSON.stringify(start));
    expect(match, `a ${spec.severity} at ${JSON.stringify(start)} in ${JSON.stringify(found)}`).toBeDefined();
    expect(match?.message).toContain(spec.message);
  },
  lines: async (spec, c) => {
    const shown = await c.f.value(`lines(${spec.of})`);
    expect(JSON.stringify(shown)).toContain(JSON.stringify(spec.contains).slice(1, -1));
  },
};
