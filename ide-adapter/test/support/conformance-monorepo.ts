/**
 * The conformance questions on fixtures/ts-monorepo: exact names on a real monorepo shape —
 * projects at depth two and three, an app whose package imports do not resolve (a fresh clone
 * before `npm install`), declaration merging, overloads, and methods of one name on classes living
 * in files named after other classes — asked through any backend (the spawned TypeScript server in
 * ide-adapter/test/functions-ts-monorepo.test.ts, VS Code in vscode/test/conformance.test.ts).
 * Positions come from the fixture text.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SymbolDefinition } from '../../model.js';
import { presentOutcome } from '../../present.js';
import type { OpenSession } from './conformance-table.js';
import type { FixtureSession } from './session.js';

/**
 * Where a backend's servers answer differently, by design of the server rather than a bug of
 * ours: that backend is asked a weaker question instead (what it does answer), so a change of
 * either server shows up.
 */
export interface KnownDifferences {
  /**
   * VS Code's TypeScript (tsserver) answers go-to-definition on an overload signature with that
   * signature only, so the signatures are not merged into one symbol's `declarations` (tsgo
   * answers all of them).
   */
  readonly overloadsNotMerged?: boolean;
}

/** The monorepo questions, asked through `open`'s backend. */
export function typeScriptMonorepoConformance(open: OpenSession, known: KnownDifferences = {}): void {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await open('ts-monorepo');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  // First in the file: the first query of a fresh session must already see every project.
  it('the cold first query finds the class in packages/core, not the app import bindings', async () => {
    const defs = (await f.value('findDefinitions("Subject")')) as SymbolDefinition[];
    expect(defs.map((d) => [d.kind, d.definedAt.path])).toEqual([['class', 'packages/core/src/subject.ts']]);
    expect(defs[0]?.definedAt.start).toEqual(await f.nameIn('packages/core/src/subject.ts', 'class Subject', 'Subject'));
    // The class and the namespace merged with it are one symbol.
    expect(defs[0]?.declarations?.map((d) => d.kind)).toEqual(['class', 'namespace']);
  });

  it('loads every project, at depth two and three, so the index knows their symbols', async () => {
    const backend = f.session.backend;
    const deep = await backend.workspaceSymbols('LinkedMap');
    expect(deep.filter((s) => s.name === 'LinkedMap').map((s) => s.location.path)).toEqual(['packages/group/lib/src/linkedMap.ts']);
    const shallow = await backend.workspaceSymbols('Disposable');
    expect(shallow.some((s) => s.name === 'Disposable' && s.location.path === 'packages/core/src/disposable.ts')).toBe(true);
  });

  it('an interface merged with a namespace is one symbol with two declarations', async () => {
    const defs = (await f.value('findDefinitions("Position")')) as SymbolDefinition[];
    expect(defs).toHaveLength(1);
    expect(defs[0]?.kind).toBe('interface');
    expect(defs[0]?.definedAt.start).toEqual(await f.nameIn('packages/core/src/position.ts', 'interface Position', 'Position'));
    expect(defs[0]?.declarations?.map((d) => [d.kind, d.definedAt.start])).toEqual([
      ['interface', await f.nameIn('packages/core/src/position.ts', 'interface Position', 'Position')],
      ['namespace', await f.nameIn('packages/core/src/position.ts', 'namespace Position', 'Position')],
    ]);
    expect((await f.outcome('findDefinition("Position")')).kind).toBe('value');
    // Either declaration's kind selects the one symbol.
    expect(((await f.value('findDefinitions("Position", kind: "namespace")')) as SymbolDefinition[]).length).toBe(1);
    // An enum merged with a namespace, likewise.
    const style = (await f.value('findDefinition("Style")')) as SymbolDefinition;
    expect(style.declarations?.map((d) => [d.kind, d.definedAt.start])).toEqual([
      ['enum', await f.nameIn('packages/core/src/format.ts', 'enum Style', 'Style')],
      ['namespace', await f.nameIn('packages/core/src/format.ts', 'namespace Style', 'Style')],
    ]);
  });

  it.runIf(known.overloadsNotMerged === true)('overloads where the server does not merge them: still one function, found at one of its signatures, never an ambiguity', async () => {
    const o = await f.outcome('findDefinition("format")');
    if (o.kind !== 'value') throw new Error(`expected one definition, got ${o.kind}`);
    const def = o.value as SymbolDefinition;
    const text = await f.text('packages/core/src/format.ts');
    const signatureLines = text.split('\n').flatMap((l, i) => (l.startsWith('export function format(') ? [i + 1] : []));
    expect(def.kind).toBe('function');
    expect(signatureLines).toContain(def.definedAt.start.line);
  });

  it.skipIf(known.overloadsNotMerged === true)('three overload signatures and the implementation are one function', async () => {
    const o = await f.outcome('findDefinition("format")');
    if (o.kind !== 'value') throw new Error(`expected one definition, got ${o.kind}`);
    const def = o.value as SymbolDefinition;
    const text = await f.text('packages/core/src/format.ts');
    const signatureLines = text.split('\n').flatMap((l, i) => (l.startsWith('export function format(') ? [i + 1] : []));
    expect(signatureLines).toHaveLength(4);
    expect(def.declarations?.map((d) => d.definedAt.start.line)).toEqual(signatureLines);
    expect(def.definedAt.start.line).toBe(signatureLines[3]); // the implementation
    expect(presentOutcome(o)).toContain(`declared 4 times: lines ${signatureLines.join(', ')}`);
    // Method overloads too.
    const tick = (await f.value('findDefinition("Ticker.tick")')) as SymbolDefinition;
    const tickLines = (await f.text('packages/group/lib/src/ticker.ts')).split('\n').flatMap((l, i) => (l.trimStart().startsWith('tick(') ? [i + 1] : []));
    expect(tick.declarations?.map((d) => d.definedAt.start.line)).toEqual(tickLines);
    expect(tick.kind).toBe('method');
  });

  it('implementations of a merged interface are its implementing classes, not an ambiguity', async () => {
    const o = await f.outcome('implementations("Disposable")');
    if (o.kind !== 'value') throw new Error(`expected implementations, got ${o.kind}`);
    const names = (o.value as SymbolDefinition[]).map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['CallbackDisposable', 'FileHandle', 'DisposableStore']));
    expect(names).not.toContain('Ticker'); // implements its own Stoppable
  });

  it('import bindings are never definitions, even unresolved ones', async () => {
    // The app imports Subject from a package that does not resolve: its outline lists the binding.
    const o = await f.outcome('findDefinitions("Subject", file: "app/src/main.ts")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect(o.value).toEqual([]);
    expect(o.notes.join('\n')).toContain('packages/core/src/subject.ts');
    // Re-export bindings neither: packages/core/src/index.ts has `export { Subject, map } from './subject.js'`.
    const reexport = await f.outcome('findDefinitions("map", file: "packages/core/src/index.ts")');
    expect(reexport.kind === 'value' && reexport.value).toEqual([]);
    const maps = (await f.value('findDefinitions("map")')) as SymbolDefinition[];
    expect(maps.map((d) => d.definedAt.path)).toEqual(['packages/core/src/subject.ts']);
  });

  it('Type.method matches the class, never the file name', async () => {
    const linked = (await f.value('findDefinitions("LinkedMap.get")')) as SymbolDefinition[];
    expect(linked.map((d) => [d.container, d.definedAt.start])).toEqual([['LinkedMap', await f.nameIn('packages/group/lib/src/linkedMap.ts', 'get(key: K)', 'get')]]);
    const lru = (await f.value('findDefinitions("LRUCache.get")')) as SymbolDefinition[];
    expect(lru.map((d) => [d.container, d.definedAt.start])).toEqual([['LRUCache', await f.nameIn('packages/group/lib/src/linkedMap.ts', 'override get(', 'get')]]);
    const create = (await f.value('findDefinitions("Position.create")')) as SymbolDefinition[];
    expect(create.map((d) => d.definedAt.path)).toEqual(['packages/core/src/position.ts']);
  });

  it('kinds in TypeScript words: type alias, namespace, enum member', async () => {
    const alias = (await f.value('findDefinitions("Formattable")')) as SymbolDefinition[];
    expect(alias.map((d) => d.kind)).toEqual(['type alias']);
    expect(((await f.value('findDefinitions("Formattable", kind: "type alias")')) as unknown[]).length).toBe(1);
    const member = (await f.value('findDefinitions("Style.Short")')) as SymbolDefinition[];
    expect(member.map((d) => d.kind)).toEqual(['enum member']);
    const o = await f.outcome('findDefinitions("Formattable", kind: "class")');
    expect(o.kind === 'value' && o.notes.join('\n')).toContain('type alias Formattable at packages/core/src/format.ts');
  });
}
