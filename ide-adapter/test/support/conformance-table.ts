/**
 * The one conformance table: the same questions for every language and every backend, written as
 * data. A language contributes one {@link LanguageConformance} (its fixture and, per case, the
 * program to ask and the answer expected, with positions found from the fixture text); the runner
 * ({@link runConformance}) asks every case through whichever backend opened the session. A case a
 * server cannot answer is an {@link Exception}: documented here, and tested to fail the way it says.
 *
 * Every check also reduces its answer to a comparable form (places, names, kinds, texts — never
 * the order a server happened to use), so one backend's answers can be compared case by case with
 * another's on the same fixture ({@link ConformanceOptions.sameAs}): the spawned servers and VS
 * Code must give the same answer, or the language documents the difference
 * ({@link LanguageConformance.backendDifferences}), tested to still be there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../../dialect/index.js';
import { isReference, isSymbolDefinition, type Diagnostic, type Reference, type SymbolDefinition, type SymbolInfo } from '../../model.js';
import type { FixtureSession } from './session.js';

/** Opens a session on a fresh copy of a fixture; `prepare` may change the copy before anything starts. */
export type OpenSession = (fixture: string, prepare?: (root: string) => Promise<void>) => Promise<FixtureSession>;

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
  /**
   * `program` is an ambiguity listing every candidate; each refinement program gives a value (it
   * selects one), and that value is about its candidate (the symbol itself, or uses of it); the
   * candidates are exactly the markers.
   */
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
  /**
   * Cases two backends answer differently because their servers do (not a bug of ours): why. When
   * answers are compared ({@link ConformanceOptions.sameAs}), such a case must still differ, so a
   * change of either server shows up; every other case must be equal.
   */
  readonly backendDifferences?: { readonly [K in keyof ConformanceCases]?: string };
}

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /**
   * Another backend on the same fixture (e.g. the spawned server, when the runner asks VS Code):
   * every case is asked of it too, and the two answers must be equal.
   */
  readonly sameAs?: { readonly open: OpenSession; readonly backend: string };
  /**
   * Focused tests of this backend that the table does not express, registered after the cases in
   * the same `describe`, so they share its session (one session per language per backend).
   */
  readonly focused?: (session: () => FixtureSession) => void;
  /**
   * Cases this backend still answers wrongly (a bug of ours, not of the server), with why: run as
   * `it.fails`, so the case is still asked and turns red the day it is answered — then remove it.
   */
  readonly knownGaps?: { readonly [K in keyof ConformanceCases]?: string };
}

function isException(value: unknown): value is Exception {
  return typeof value === 'object' && value !== null && 'exception' in value;
}

/** The runner: one `describe` per language, one `it` per case, asked through `open`'s backend. */
export function runConformance(table: LanguageConformance, open: OpenSession, backend: string, options: ConformanceOptions = {}): void {
  const { sameAs } = options;
  describe(`${table.language} conformance answered by ${backend} (fixtures/${table.fixture})`, () => {
    let f: FixtureSession;
    let other: FixtureSession | undefined;
    beforeAll(async () => {
      const [mine, theirs] = await Promise.allSettled([open(table.fixture, table.prepare), sameAs?.open(table.fixture, table.prepare)]);
      if (mine.status === 'fulfilled') f = mine.value;
      if (theirs.status === 'fulfilled') other = theirs.value;
      if (mine.status === 'rejected') throw mine.reason;
      if (theirs.status === 'rejected') throw theirs.reason;
    });
    afterAll(async () => {
      await Promise.all([f?.dispose(), other?.dispose()]);
    });

    for (const [name, spec] of Object.entries(table.cases) as [keyof ConformanceCases, unknown][]) {
      const difference = table.backendDifferences?.[name];
      const title = isException(spec) ? `${name}: documented exception — ${spec.exception}` : name;
      const suffix = sameAs === undefined ? '' : difference === undefined ? `, the same answer as ${sameAs.backend}` : `, unlike ${sameAs.backend} — ${difference}`;
      const gap = options.knownGaps?.[name];
      (gap === undefined ? it : it.fails)(gap === undefined ? `${title}${suffix}` : `${title}: known gap of ${backend} — ${gap}`, async () => {
        const answer = async (s: FixtureSession): Promise<unknown> => (isException(spec) ? checkException(spec, s) : CHECKS[name](spec as never, context(s)));
        const mine = await answer(f);
        if (sameAs === undefined) return;
        const theirs = await answer(other as FixtureSession);
        if (difference === undefined) expect(mine, `${backend} and ${sameAs.backend} answer ${name} alike`).toEqual(theirs);
        else expect(mine, `documented difference of ${name} between ${backend} and ${sameAs.backend}: ${difference}`).not.toEqual(theirs);
      });
    }
    options.focused?.(() => f);
  });
}

/** An exception's program does not give a value (and fails with its code): its outcome's kind and code are its answer. */
async function checkException(spec: Exception, f: FixtureSession): Promise<unknown> {
  const o = await f.outcome(spec.program);
  expect(o.kind, spec.program).not.toBe('value');
  const code = o.kind === 'error' ? o.error.code : undefined;
  if (spec.code !== undefined) expect(code, spec.program).toBe(spec.code);
  return { kind: o.kind, code };
}

/** Where a check looks and what it compares, for one session. */
interface CheckContext {
  readonly f: FixtureSession;
  at(m: Marker): Promise<{ line: number; column: number }>;
  expected(m: Marker): Promise<Place>;
}

/** A place in a workspace file, as compared: path and start. */
interface Place {
  readonly path: string;
  readonly start: { readonly line: number; readonly column: number };
}

function context(f: FixtureSession): CheckContext {
  const at = (m: Marker): Promise<{ line: number; column: number }> => f.at(m.file, m.needle, m.nth ?? 0);
  return { f, at, expected: async (m) => ({ path: m.file, start: await at(m) }) };
}

const placeOf = (d: SymbolDefinition): Place => ({ path: d.definedAt.path, start: d.definedAt.start });
const key = (p: Place): string => `${p.path}:${p.start.line}:${p.start.column}`;
/** Sorted by place, so answers compare whatever order a server listed them in. */
const byPlace = <T>(items: readonly T[], place: (t: T) => Place): T[] => [...items].sort((a, b) => key(place(a)).localeCompare(key(place(b))));

/** A definition as answers are compared: name, kind, container and place. */
function definitionAnswer(d: SymbolDefinition): unknown {
  return { name: d.name, kind: d.kind, ...(d.container !== undefined ? { container: d.container } : {}), at: key(placeOf(d)) };
}

async function expectDefinition(c: CheckContext, found: SymbolDefinition | undefined, want: ExpectedDefinition): Promise<void> {
  expect(found?.name).toBe(want.name);
  if (want.kind !== undefined) expect(found?.kind).toBe(want.kind);
  expect(found === undefined ? undefined : placeOf(found)).toEqual(await c.expected(want.at));
}

/**
 * The definitions a refinement's value is about, where the value says: a symbol is itself, a
 * reference is a use of its definition, a relation's item names the symbol it was asked `of`.
 */
function subjectsOf(value: unknown): SymbolDefinition[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item: unknown) => {
    const of = typeof item === 'object' && item !== null ? (item as { of?: unknown }).of : undefined;
    if (isSymbolDefinition(of)) return [of];
    if (isReference(item) || (!Array.isArray(value) && isSymbolDefinition(item))) return [item];
    return [];
  });
}

async function definitionCase(spec: ConformanceCases['definitionByName'], c: CheckContext): Promise<unknown> {
  const found = (await c.f.value(`findDefinitions(${JSON.stringify(spec.name)})`)) as SymbolDefinition[];
  expect(found.map(definitionAnswer)).toHaveLength(1);
  await expectDefinition(c, found[0], spec.expect);
  return found.map(definitionAnswer);
}

/** Each check asserts its case and returns its answer in comparable form. */
const CHECKS: { readonly [K in keyof ConformanceCases]: (spec: ConformanceCases[K], c: CheckContext) => Promise<unknown> } = {
  definitionByName: definitionCase,
  definitionByQualifiedName: definitionCase,
  ambiguity: async (spec, c) => {
    const o: Outcome = await c.f.outcome(spec.program);
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity from ${spec.program}, got ${o.kind}`);
    const selected: { place: Place; program: string }[] = [];
    for (const refinement of o.refinements) {
      // The refinement's value is the candidate it stands for; running its program must select it alone.
      expect(isSymbolDefinition(refinement.value), `${refinement.program} stands for a symbol`).toBe(true);
      const candidate = placeOf(refinement.value as SymbolDefinition);
      const refined = await c.f.outcome(refinement.program);
      expect(refined.kind, `${refinement.program} selects one`).toBe('value');
      for (const subject of subjectsOf(refined.kind === 'value' ? refined.value : undefined)) expect(placeOf(subject), `${refinement.program} is about its candidate`).toEqual(candidate);
      selected.push({ place: candidate, program: refinement.program });
    }
    const wanted = await Promise.all(spec.candidates.map((m) => c.expected(m)));
    expect(byPlace(selected, (s) => s.place).map((s) => s.place)).toEqual(byPlace(wanted, (p) => p));
    return byPlace(selected, (s) => s.place).map((s) => ({ at: key(s.place), program: s.program }));
  },
  referencesAtName: async (spec, c) => {
    const refs = (await c.f.value(`findReferences(${spec.of})`)) as Reference[];
    const places = refs.map((r) => ({ path: r.referencedAt.path, start: r.referencedAt.start }));
    for (const m of spec.includes) expect(places).toContainEqual(await c.expected(m));
    return byPlace(refs, (r) => r.referencedAt).map((r) => ({ at: key(r.referencedAt), of: key(placeOf(r)) }));
  },
  hover: async (spec, c) => {
    const info = (await c.f.value(`getSymbolInfo(${spec.of})`)) as SymbolInfo;
    expect(info.signature).toContain(spec.signature);
    if (spec.documentation !== undefined) expect(info.documentation).toContain(spec.documentation);
    return { ...(definitionAnswer(info) as object), signature: info.signature, documentation: info.documentation };
  },
  outline: async (spec, c) => {
    const outline = (await c.f.value(`documentSymbols(${JSON.stringify(spec.file)})`)) as SymbolDefinition[];
    expect(outline.map((s) => s.name)).toEqual(expect.arrayContaining([...spec.names]));
    // In document order, as documentSymbols says (pyright lists a class's `self.x` attributes after its methods).
    const starts = outline.map((s) => [s.definedAt.start.line, s.definedAt.start.column] as const);
    expect(starts, 'document order').toEqual([...starts].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    return byPlace(outline, placeOf).map(definitionAnswer);
  },
  implementations: async (spec, c) => {
    const impls = (await c.f.value(`implementations(${spec.of})`)) as SymbolDefinition[];
    expect(impls.map((i) => i.name).sort()).toEqual([...spec.names].sort());
    return byPlace(impls, placeOf).map(definitionAnswer);
  },
  callers: async (spec, c) => {
    const callers = (await c.f.value(`callers(${spec.of})`)) as SymbolDefinition[];
    const found = callers.map((d) => ({ name: d.name, ...placeOf(d) }));
    for (const want of spec.include) expect(found).toContainEqual({ name: want.name, ...(await c.expected(want.at)) });
    return callAnswer(callers);
  },
  callees: async (spec, c) => {
    const callees = (await c.f.value(`callees(${spec.of})`)) as SymbolDefinition[];
    expect(callees.map((d) => d.name)).toEqual(expect.arrayContaining([...spec.include]));
    return callAnswer(callees);
  },
  typeDefinition: async (spec, c) => {
    const value = await c.f.value(`typeDefinition(${spec.of})`);
    const list = (Array.isArray(value) ? value : [value]) as SymbolDefinition[];
    await expectDefinition(c, list[0], spec.expect);
    return byPlace(list, placeOf).map(definitionAnswer);
  },
  symbolAt: async (spec, c) => {
    const p = await c.at(spec.at);
    const found = (await c.f.value(`symbolAt(${JSON.stringify(spec.at.file)}, ${p.line}, ${p.column})`)) as SymbolDefinition;
    expect(found.name).toBe(spec.name);
    if (spec.kind !== undefined) expect(found.kind).toBe(spec.kind);
    return definitionAnswer(found);
  },
  diagnostics: async (spec, c) => {
    // A server that only publishes (pyright) is waited for until it publishes — an event; the
    // default 15 s cap ran out under the suite's load. The cap is raised to just under the test's.
    const found = (await c.f.value(`diagnostics(${JSON.stringify(spec.at.file)}, wait: ${DIAGNOSTICS_WAIT_SECONDS})`)) as Diagnostic[];
    const start = await c.at(spec.at);
    const match = found.find((d) => d.severity === spec.severity && JSON.stringify(d.start) === JSON.stringify(start));
    expect(match, `a ${spec.severity} at ${JSON.stringify(start)} in ${JSON.stringify(found)}`).toBeDefined();
    expect(match?.message).toContain(spec.message);
    return byPlace(found, (d) => d).map((d) => ({ at: key(d), severity: d.severity, message: d.message, code: d.code }));
  },
  lines: async (spec, c) => {
    const shown = await c.f.value(`lines(${spec.of})`);
    expect(JSON.stringify(shown)).toContain(JSON.stringify(spec.contains).slice(1, -1));
    return shown;
  },
};

/** The diagnostics case's cap on waiting for a publish: under the 60 s a test may take, so a server that never publishes fails with its note. */
const DIAGNOSTICS_WAIT_SECONDS = 50;

/** Callers or callees as compared: each definition with its call sites. */
function callAnswer(items: readonly SymbolDefinition[]): unknown {
  return byPlace(items, placeOf).map((d) => {
    const sites = (d as { callSites?: readonly Place[] }).callSites ?? [];
    return { ...(definitionAnswer(d) as object), callSites: byPlace(sites, (s) => s).map(key) };
  });
}
