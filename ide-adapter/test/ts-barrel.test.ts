/**
 * A TypeScript barrel of the shape of sindresorhus/p-queue (seen there): `index.ts` has its own
 * default export (`Pool`) and re-exports another module's default export by name (`export
 * {default as Heap} from './heap.js'`). tsgo lists the uses of `Pool` among the references of
 * `Heap`; the heap implements an object type alias (`type Queue = {…}`), which `supertypes` left
 * out, and the pool extends a class of an uninstalled package, which it left out silently. Real
 * tsgo on fixtures/ts-barrel, one session for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference, SymbolDefinition } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe.runIf(available)('a barrel re-exporting a default export by name (real tsgo, fixtures/ts-barrel)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-barrel');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  const places = (list: readonly Reference[]): string[] => list.map(({ referencedAt: l }) => `${l.path}:${l.start.line}:${l.start.column}`);
  const place = async (path: string, needle: string, nth = 0): Promise<string> => {
    const p = await f.at(path, needle, nth);
    return `${path}:${p.line}:${p.column}`;
  };

  it("the references of the re-exported default are its own, a renamed import's included, not the barrel's default's", async () => {
    const refs = (await f.value('findReferences(findDefinition("Heap"))')) as Reference[];
    const expected = [
      await place('bench.ts', 'Heap from'),
      await place('bench.ts', 'MinHeap from'),
      await place('bench.ts', 'Heap();'),
      await place('bench.ts', 'MinHeap();'),
      await place('source/index.ts', 'Heap from'),
      await place('source/index.ts', 'Heap();'),
      await place('source/index.ts', 'default as'),
      await place('source/index.ts', 'Heap} from'),
    ].sort();
    expect(places(refs).sort()).toEqual(expected);
    // The barrel's own default is still found where it is used.
    const pool = (await f.value('findReferences(findDefinition("Pool"))')) as Reference[];
    expect(places(pool).sort()).toEqual([await place('bench.ts', 'Pool from'), await place('bench.ts', 'Pool();')].sort());
  });

  it("an interface's implementations leave out an `import type` of it in a declaration file", async () => {
    const impls = (await f.value('implementations("Shape")')) as SymbolDefinition[];
    expect(impls.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`)).toEqual([`source/shape.ts:${(await f.at('source/shape.ts', 'class Square')).line}`]);
  });

  it('supertypes lists an implemented type alias, and names a base declared outside the workspace', async () => {
    const heap = (await f.value('supertypes("Heap")')) as SymbolDefinition[];
    expect(heap.map((d) => `${d.kind} ${d.name} ${d.definedAt.path}:${d.definedAt.start.line}`)).toEqual([`type alias Queue source/queue.ts:${(await f.at('source/queue.ts', 'Queue<')).line}`]);
    const pool = await f.outcome('supertypes("Pool")');
    expect(pool.kind).toBe('value');
    expect(pool.kind === 'value' ? pool.value : undefined).toEqual([]);
    expect(pool.notes.filter((n) => n.includes('EventEmitter'))).toEqual(['not listed: `EventEmitter` (written as a base, declared outside the workspace or unresolved)']);
  });
});
