/**
 * `Derived.member` names the member a base class defines when `Derived` does not (seen on
 * psf/requests: `findDefinitions("Session.resolve_redirects")` answered "no definition is named
 * exactly" though `Session` inherits it from a mixin). pyright and tsgo have no type hierarchy:
 * the bases come from the declaration header. Real servers on fixtures/py-inherited and
 * fixtures/ts-inherited: a chain of two bases, one named through a module (`middle.Polygon`), a
 * metaclass and a type argument's constraint that are no bases, and an override in the middle.
 * The subtypes of a class are its direct subclasses (seen on tkem/cachetools: pyright has no type
 * hierarchy, and `subtypes("Cache")` listed the tests' `Cache = cachetools.Cache` attributes).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import { pythonServer } from '../languages/python/index.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

interface Def {
  name: string;
  definedAt: { path: string; start: { line: number; column: number } };
}

const places = (defs: unknown): string[] => (defs as Def[]).map((d) => `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`);

const cases = [
  {
    language: 'Python',
    server: pythonServer,
    fixture: 'py-inherited',
    root: 'src/figures/root.py',
    middle: 'src/figures/middle.py',
    leaf: 'src/figures/leaf.py',
    outline: 'def outline(self)',
    size: 'def size',
    // `middle.Polygon`, not the metaclass.
    bases: [{ file: 'src/figures/middle.py', declaration: 'class Polygon', name: 'Polygon' }],
  },
  {
    language: 'TypeScript',
    server: typeScriptServer,
    fixture: 'ts-inherited',
    root: 'src/root.ts',
    middle: 'src/middle.ts',
    leaf: 'src/leaf.ts',
    outline: '  outline(): string {',
    size: 'size(): number',
    // The class it extends and the interface it implements, not its type argument's constraint.
    bases: [
      { file: 'src/middle.ts', declaration: 'export class Polygon', name: 'Polygon' },
      { file: 'src/leaf.ts', declaration: 'export interface Labelled', name: 'Labelled' },
    ],
  },
] as const;

for (const c of cases) {
  const available = (await requireServer(c.server)) !== undefined;
  describe.runIf(available)(`inherited members (real ${c.language} server, fixtures/${c.fixture})`, () => {
    let f: FixtureSession;
    beforeAll(async () => {
      f = await openFixtureSession(c.fixture);
    });
    afterAll(async () => {
      await f?.dispose();
    });

    it('finds a member two bases up, and only the base class’s (not the metaclass’s or a constraint’s)', async () => {
      const at = await f.nameIn(c.root, c.outline, 'outline');
      expect(places(await f.value('findDefinitions("Triangle.outline")'))).toEqual([`${c.root}:${at.line}:${at.column}`]);
    });

    it('finds the nearest override, not the member it overrides', async () => {
      const at = await f.nameIn(c.middle, c.size, 'size');
      expect(places(await f.value('findDefinitions("Triangle.size")'))).toEqual([`${c.middle}:${at.line}:${at.column}`]);
    });

    it('supertypes, without a type hierarchy in the server, are the bases the class header writes', async () => {
      const expected = await Promise.all(c.bases.map(async (b) => {
        const at = await f.nameIn(b.file, b.declaration, b.name);
        return `${b.file}:${at.line}:${at.column}`;
      }));
      expect(places(await f.value('supertypes("Triangle")')).sort()).toEqual(expected.sort());
    });

    it('subtypes, without a type hierarchy in the server, are the classes whose header writes the type: the direct ones only', async () => {
      const polygon = await f.nameIn(c.middle, 'class Polygon', 'Polygon');
      // Python's tests also name a class attribute `Figure`: subtypes means the class.
      expect(places(await f.value('subtypes("Figure")'))).toEqual([`${c.middle}:${polygon.line}:${polygon.column}`]);
      expect(places(await f.value('subtypes("Polygon")')).map((p) => p.split(':')[0])).toEqual([c.leaf]);
    });

    // pyright ties `x.member` to a member only through x's inferred type (cachetools: `cache.maxsize` on an unannotated parameter).
    if (c.language === 'Python') it('references of a member: the `.member` uses on values the server could not type are counted in one note, with the search that lists them', async () => {
      const lines = (await readFile(join(f.root, 'tests/test_figures.py'), 'utf8')).split('\n');
      const untyped = lines.findIndex((l) => l.includes('return figure.outline()')) + 1;
      const o = await f.outcome('findReferences("Figure.outline")');
      const refs = (o.kind === 'value' ? o.value : []) as { referencedAt: { path: string; start: { line: number } } }[];
      expect(refs.map((r) => r.referencedAt.path)).not.toContain(undefined);
      expect(refs.some((r) => r.referencedAt.path === 'tests/test_figures.py' && r.referencedAt.start.line === untyped)).toBe(false);
      const notes = o.notes.filter((n) => n.includes('.outline'));
      expect(notes, o.notes.join('\n')).toHaveLength(1);
      expect(notes[0]).toContain(`1 more in 1 file (tests/test_figures.py:${untyped})`);
      expect(notes[0]).toContain('search(".", "\\\\.outline\\\\b")');
    });

    // A package's `.pyi` beside its `.py` (more-itertools): importers' uses resolve to the stub.
    if (c.language === 'Python') it('a function a stub beside its source declares too: one definition at the source, and the uses that resolve to the stub are its references', async () => {
      const source = await f.nameIn('src/figures/measure.py', 'def perimeter', 'perimeter');
      const stub = await f.nameIn('src/figures/measure.pyi', 'def perimeter', 'perimeter');
      const defs = (await f.value('findDefinitions("perimeter")')) as (Def & { declarations?: Def[] })[];
      expect(places(defs)).toEqual([`src/figures/measure.py:${source.line}:${source.column}`]);
      expect(places(defs[0]?.declarations ?? [])).toEqual([`src/figures/measure.py:${source.line}:${source.column}`, `src/figures/measure.pyi:${stub.line}:${stub.column}`]);
      const imported = await f.nameIn('tests/test_figures.py', 'measure.perimeter(3', 'perimeter');
      const inSource = await f.nameIn('src/figures/measure.py', 'perimeter(sides, length)\n', 'perimeter');
      const refs = (await f.value('findReferences("perimeter")')) as { referencedAt: { path: string; start: { line: number; column: number } } }[];
      expect(refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`)).toEqual([
        `src/figures/measure.py:${inSource.line}:${inSource.column}`,
        `tests/test_figures.py:${imported.line}:${imported.column}`,
      ]);
    });

    // A package's `__init__.pyi` declaring what its `__init__.py` re-exports from a private module
    // (attrs: `attr/__init__.pyi`'s `evolve`, written in `attr/_make.py`): importers' uses resolve to the stub.
    if (c.language === 'Python') it('a function and a method a package stub declares, written in a module the package re-exports: the uses that resolve to the stub are their references', async () => {
      const source = await f.nameIn('src/tally/_core.py', 'def bump', 'bump');
      const stub = await f.nameIn('src/tally/__init__.pyi', 'def bump', 'bump');
      const defs = (await f.value('findDefinitions("bump")')) as (Def & { declarations?: Def[] })[];
      expect(places(defs)).toEqual([`src/tally/_core.py:${source.line}:${source.column}`]);
      expect(places(defs[0]?.declarations ?? []).sort()).toEqual([`src/tally/__init__.pyi:${stub.line}:${stub.column}`, `src/tally/_core.py:${source.line}:${source.column}`]);
      const at = (refs: unknown): string[] => (refs as { referencedAt: { path: string; start: { line: number; column: number } } }[]).map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`);
      const imported = await f.nameIn('tests/test_tally.py', 'from tally import Counter, bump', 'bump');
      const called = await f.nameIn('tests/test_tally.py', 'assert bump(1)', 'bump');
      expect(at(await f.value('findReferences("bump")'))).toEqual(expect.arrayContaining([`tests/test_tally.py:${imported.line}:${imported.column}`, `tests/test_tally.py:${called.line}:${called.column}`]));
      const member = await f.nameIn('tests/test_tally.py', 'Counter().bumped(2)', 'bumped');
      const o = await f.outcome('findReferences("Counter.bumped")');
      expect(at(o.kind === 'value' ? o.value : [])).toEqual([`tests/test_tally.py:${member.line}:${member.column}`]);
      // The use is typed (through the stub): no note says pyright could not type it.
      expect(o.notes.filter((n) => n.includes('.bumped'))).toEqual([]);
    });

    // The zod shape is TypeScript's: registered for its row only.
    if (c.language === 'TypeScript') it('finds a member inherited through an interface where another type of the owner’s name defines it (zod’s v3 and v4 ZodString.min)', async () => {
      const inherited = await f.nameIn('src/schemas.ts', '  min(length: number): this;', 'min');
      const own = await f.nameIn('src/legacy.ts', '  min(length: number): this {', 'min');
      expect(places(await f.value('findDefinitions("Text.min")')).sort()).toEqual([`src/legacy.ts:${own.line}:${own.column}`, `src/schemas.ts:${inherited.line}:${inherited.column}`].sort());
    });

    it('still answers nothing, with its note, for a member no base has', async () => {
      const outcome = await f.outcome('findDefinitions("Triangle.nothing")');
      expect(outcome.kind === 'value' && outcome.value).toEqual([]);
      expect(outcome.notes.join('\n')).toContain('no definition is named exactly "Triangle.nothing"');
    });
  });
}

/**
 * Go has no classes: a struct gets the fields and methods of the types it embeds (seen on
 * spf13/cobra-like code: `findDefinitions("Outer.Method")` answered nothing for a method of an
 * embedded struct). fixtures/go-embedded: Triangle embeds shape.Polygon, which embeds
 * `*base.Root` from another package; Triangle also embeds the interface Namer; Polygon
 * overrides Root's Size; each method is declared outside its struct's body.
 */
const goAvailable = (await requireServer(goplsServer)) !== undefined;
describe.runIf(goAvailable)('promoted members (real gopls, fixtures/go-embedded)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('go-embedded');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('finds a method two embeddings up, through a pointer embedding in another package', async () => {
    const at = await f.nameIn('base/root.go', 'func (r Root) Outline()', 'Outline');
    expect(places(await f.value('findDefinitions("Triangle.Outline")'))).toEqual([`base/root.go:${at.line}:${at.column}`]);
  });

  it('finds the nearest override, not the method it overrides', async () => {
    const at = await f.nameIn('shape/polygon.go', 'func (p *Polygon) Size()', 'Size');
    expect(places(await f.value('findDefinitions("Triangle.Size")'))).toEqual([`shape/polygon.go:${at.line}:${at.column}`]);
  });

  it('finds a method of an embedded interface, and a field promoted from an embedded struct', async () => {
    const name = await f.nameIn('shape/polygon.go', '\tName() string', 'Name');
    expect(places(await f.value('findDefinitions("Triangle.Name")'))).toEqual([`shape/polygon.go:${name.line}:${name.column}`]);
    const label = await f.nameIn('base/root.go', '\tLabel string', 'Label');
    expect(places(await f.value('findDefinitions("Triangle.Label")'))).toEqual([`base/root.go:${label.line}:${label.column}`]);
  });

  it('still answers nothing, with its note, for a member no embedded type has', async () => {
    const outcome = await f.outcome('findDefinitions("Triangle.nothing")');
    expect(outcome.kind === 'value' && outcome.value).toEqual([]);
    expect(outcome.notes.join('\n')).toContain('no definition is named exactly "Triangle.nothing"');
  });
});
