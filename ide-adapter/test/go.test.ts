/**
 * Go beyond the conformance table, against the spawned gopls on fixtures/go-app: names as Go
 * writes them (`Type.Method` for pointer and value receivers, `pkg.Type.Method`), implicit
 * interface satisfaction in both directions, the one note about modules missing from the module
 * cache (the rest of the workspace still answers, go.mod untouched), and the type hierarchy this
 * gopls lacks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOutcome } from '../../dialect/index.js';
import type { SymbolDefinition } from '../model.js';
import { goplsServer } from '../languages/go/index.js';
import { genericImplementationsGap } from '../languages/go/generics.js';
import { fixture, requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(goplsServer)) !== undefined;

describe.skipIf(!available)('Go through the spawned gopls (fixtures/go-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('go-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('names a missing module once, with the fix, and the rest of the workspace still answers', async () => {
    const first = await f.session.evaluate('findDefinition("Mux.Get")');
    expect(first.kind).toBe('value');
    const missing = first.notes.filter((n) => n.includes('github.com/google/uuid'));
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('go mod download');
    // Workspace-wide requests work although a requirement of go.mod cannot be loaded.
    const refs = await f.value('findReferences("MemStore.Put")');
    expect(JSON.stringify(refs)).toContain('cmd/goapp/main.go');
    const again = await f.session.evaluate('implementations("Store")');
    expect(again.kind).toBe('value');
    expect(again.notes.filter((n) => n.includes('github.com/google/uuid'))).toEqual([]);
    // The import itself is the one unresolved thing, and go.mod was never rewritten.
    const diagnostics = JSON.stringify(await f.value('diagnostics("ext/ext.go")'));
    expect(diagnostics).toContain('github.com/google/uuid');
    expect(await f.text('go.mod')).toBe(await readFile(join(fixture('go-app'), 'go.mod'), 'utf8'));
  });

  it('finds methods by Type.Method and pkg.Type.Method on pointer and value receivers', async () => {
    const get = (await f.value('findDefinition("Mux.Get")')) as SymbolDefinition;
    expect([get.name, get.kind, get.container, get.definedAt.start]).toEqual(['Get', 'method', 'Mux', await f.at('server/server.go', 'Get(path string)')]);
    for (const [name, needle, nth] of [
      ['Circle.Area', 'Area() float64 {', 0],
      ['shapes.Square.Area', 'Area() float64 {', 1],
      ['Rect.Area', 'Area() float64 {', 2],
      ['Shape.Area', 'Area() float64\n', 0],
    ] as const) {
      const defs = (await f.value(`findDefinitions(${JSON.stringify(name)})`)) as SymbolDefinition[];
      expect(defs.map((d) => d.definedAt.start), name).toEqual([await f.at('shapes/shapes.go', needle, nth)]);
    }
    // A call hierarchy names the caller `Get`: its receiver comes from its declaration.
    const callers = (await f.value('callers("Store.Get")')) as SymbolDefinition[];
    expect(callers.map((c) => [c.name, c.container])).toContainEqual(['Get', 'Mux']);
    const kinds = (await f.value('documentSymbols("store/store.go")')) as SymbolDefinition[];
    expect(Object.fromEntries(kinds.filter((s) => ['Store', 'MemStore', 'Copy'].includes(s.name)).map((s) => [s.name, s.kind]))).toEqual({ Store: 'interface', MemStore: 'struct', Copy: 'function' });
  });

  it('implementations go both ways: the types satisfying an interface, the interfaces a type satisfies', async () => {
    for (const type of ['MemStore', 'Fixed']) {
      const impls = (await f.value(`implementations(${JSON.stringify(type)})`)) as SymbolDefinition[];
      expect(impls.map((i) => [i.name, i.definedAt.path]), type).toEqual([['Store', 'store/store.go']]);
    }
  });

  it('implementations of a generic interface: this gopls finds none, so they are matched in the text by method sets, said once', async () => {
    const o = await f.outcome('implementations("Queue")');
    if (o.kind !== 'value') throw new Error(renderOutcome(o));
    // Ring[T] implements Queue[T], Counter Queue[int]; Pair has the method names with other signatures.
    expect((o.value as SymbolDefinition[]).map((s) => [s.name, s.definedAt.start])).toEqual([
      ['Ring', await f.at('store/queue.go', 'Ring[T any] struct')],
      ['Counter', await f.at('store/queue.go', 'Counter struct')],
    ]);
    expect(o.notes.filter((n) => n.includes('generic'))).toEqual([expect.stringMatching(/^gopls: finds no implementations of generic interfaces \(golang\/go#59224\): they are matched by method names and signatures in the text/)]);
    // The fact is told once per session; the interface's method leads to each type's method.
    const method = await f.outcome('implementations("Queue.Push")');
    if (method.kind !== 'value') throw new Error(renderOutcome(method));
    expect((method.value as SymbolDefinition[]).map((s) => s.definedAt.start)).toEqual([await f.at('store/queue.go', 'Push(item T) error {'), await f.at('store/queue.go', 'Push(item int) error')]);
    expect(method.notes.filter((n) => n.includes('generic'))).toEqual([]);
    // A generic type's own interfaces are not matched in the text: its empty answer says the gopls gap.
    const ring = await f.outcome('implementations("Ring")');
    expect(ring.kind === 'value' && ring.value).toEqual([]);
    expect(ring.notes.filter((n) => n.includes('generic'))).toEqual([expect.stringMatching(/^gopls: finds no implementations of generic types and interfaces/)]);
    const queue = (await f.text('store/queue.go')).split('\n');
    const store = (await f.text('store/store.go')).split('\n');
    const gapAt = async (lines: readonly string[], path: string, needle: string): Promise<string | undefined> => genericImplementationsGap(lines, (await f.at(path, needle)).line);
    for (const needle of ['Push(item T) error', 'Size() int\n', 'func (r *Ring[T]) Push', 'type Ring[T any]']) expect(await gapAt(queue, 'store/queue.go', needle), needle).toBeDefined();
    for (const needle of ['Get(key string) (string, bool)\n', 'type Store interface', 'func (m *MemStore) Get']) expect(await gapAt(store, 'store/store.go', needle), needle).toBeUndefined();
  });

  it('supertypes: this gopls has no type hierarchy, and says what to use instead', async () => {
    const o = await f.outcome('supertypes("MemStore")');
    expect(o.kind).toBe('error');
    const text = renderOutcome(o);
    expect(text).toContain('unsupported-by-server');
    expect(text).toContain('type hierarchy');
    expect(text).toContain('implementations');
  });
});
