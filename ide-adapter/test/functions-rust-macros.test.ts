/**
 * Exact names on a Cargo workspace with generated and re-exported items (fixtures/rust-macros)
 * against real rust-analyzer, offline and untrusted: trait impls a `macro_rules!` writes per tuple
 * arity, impls for a generic type, a blanket impl, a derive macro of a proc-macro crate, paths
 * through a re-export in another crate, a trait sharing its name with an enum variant, structs a
 * macro names at its calls, and a `pub use` a macro writes (serde's `crate_root!();`).
 * Positions come from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { presentValue } from '../present.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('rust');

const SHAPES = 'crates/shapes/src/lib.rs';
const CONVERT = 'crates/shapes/src/convert.rs';
const DERIVE = 'crates/shapes_derive/src/lib.rs';

describe.skipIf(!available)('generated and re-exported Rust items (fixtures/rust-macros)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('rust-macros');
  }, 180_000);
  afterAll(async () => {
    await f?.dispose();
  });

  /** `path:line` of the first line holding `text`. */
  const place = async (path: string, text: string): Promise<string> => `${path}:${(await f.at(path, text)).line}`;
  const places = (defs: readonly SymbolDefinition[]): string[] => defs.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort();
  const defs = async (program: string): Promise<SymbolDefinition[]> => (await f.value(program)) as SymbolDefinition[];

  it('Trait::method keeps the impls a macro writes, one per expansion, and impls for generic types', async () => {
    const render = await defs('findDefinitions("Render::render")');
    const expected = [
      await place(SHAPES, 'fn render(&self) -> String;'),
      await place(SHAPES, 'impl_render_for_tuple!(A);'),
      await place(SHAPES, 'impl_render_for_tuple!(A, B);'),
      await place(SHAPES, 'impl_render_for_tuple!(A, B, C);'),
      `${SHAPES}:${(await f.at(SHAPES, 'fn render', 2)).line}`, // Either's
      `${SHAPES}:${(await f.at(SHAPES, 'fn render', 3)).line}`, // Square's
      `crates/facade/src/lib.rs:${(await f.at('crates/facade/src/lib.rs', 'fn render')).line}`,
    ].sort();
    expect(places(render)).toEqual(expected);
    // Each expansion is its own item, told apart by its self type.
    expect(render.filter((d) => d.definedAt.start.line === Number((expected[1] as string).split(':')[1])).length).toBe(1);
  });

  it('Type::method matches a generic self type by its name', async () => {
    expect(places(await defs('findDefinitions("Either::flip")'))).toEqual([await place(SHAPES, 'pub fn flip')]);
    expect(places(await defs('findDefinitions("Either::render")'))).toEqual([`${SHAPES}:${(await f.at(SHAPES, 'fn render', 2)).line}`]);
  });

  it('a generated item is never moved onto a later word of its name', async () => {
    const tuples = (await defs('findDefinitions("render", file: "crates/shapes/src/lib.rs")')).filter((d) => d.definedAt.content.includes('impl_render_for_tuple!'));
    expect(tuples.map((d) => d.container)).toEqual(['(A,)', '(A, B)', '(A, B, C)']);
  });

  it('blanket impls belong to Trait::method, with the container the server gives', async () => {
    const convert = await defs('findDefinitions("Convert::convert")');
    expect(places(convert)).toEqual([await place(CONVERT, 'fn convert(&self, extra: X) -> S;'), await place(CONVERT, 'fn convert(&self, _extra: u8)'), await place(CONVERT, 'fn convert(&self, extra: i32)')].sort());
    const inFile = await defs('findDefinitions("convert", file: "convert.rs")');
    const blanket = inFile.find((d) => d.definedAt.content.includes('_extra: u8'));
    expect(blanket?.container).toBe('T');
  });

  it('a derive macro is a definition of its name, in Rust words, and part of an ambiguity', async () => {
    const all = await defs('findDefinitions("Describe")');
    expect(all.map((d) => `${d.kind} ${d.definedAt.path}:${d.definedAt.start.line}`).sort()).toEqual(
      [`derive macro ${await place(DERIVE, 'pub fn derive_describe')}`, `trait ${await place(SHAPES, 'pub trait Describe')}`].sort(),
    );
    const o = await f.outcome('findDefinition("Describe")');
    expect(o.kind).toBe('ambiguity');
    const macro = await defs('findDefinitions("Describe", kind: "macro")');
    expect(macro.map((d) => d.kind)).toEqual(['derive macro']);
    // Never the word in a string further down the file.
    expect(macro[0]?.definedAt.start).toEqual(await f.nameIn(DERIVE, 'pub fn derive_describe', 'derive_describe'));
  });

  it("a derive macro's use under a cfg that is off is named by the macro's name, not its function's", async () => {
    const facade = 'crates/facade/src/lib.rs';
    const badge = (await f.at(facade, 'pub struct Badge;')).line - 1;
    const o = await f.outcome('findReferences(findDefinitions("Describe", kind: "macro"))');
    expect(o.notes.filter((n) => n.includes('#[cfg]'))).toEqual([
      `rust-analyzer does not analyse code under a #[cfg] that is off here: "Describe" is also written at ${facade}:${badge}; search(".", "\\\\bDescribe\\\\b") finds every mention`,
    ]);
  });

  it('a path through a re-export in another crate resolves as the language does', async () => {
    expect(places(await defs('findDefinitions("facade::prelude::Either")'))).toEqual([await place(SHAPES, 'pub enum Either')]);
    expect(places(await defs('findDefinitions("prelude::Convert")'))).toEqual([await place(CONVERT, 'pub trait Convert')]);
    // Bare names never list the re-export itself.
    expect(places(await defs('findDefinitions("Either")'))).toEqual([await place(SHAPES, 'pub enum Either')]);
  });

  it('a path through a glob re-export names what the glob leads to (thiserror::Error)', async () => {
    // `facade::private::Area` (a `use … as Area`) fits the qualifier only loosely and is a binding: the glob decides.
    const area = await defs('findDefinitions("facade::Area")');
    expect(area.map((d) => `${d.kind} ${d.definedAt.path}:${d.definedAt.start.line}`)).toEqual([`derive macro ${await place(DERIVE, 'pub fn derive_area')}`]);
    // A path the glob does not make: nothing.
    expect(await defs('findDefinitions("shapes::Area")')).toEqual([]);
  });

  it('callers and callees print their call sites and the function each belongs to', async () => {
    const facade = 'crates/facade/src/lib.rs';
    const text = presentValue(await f.value('callers([findDefinition("Either::flip"), findDefinition("Square::render")])'));
    const call = await f.at(facade, 'flip().render()');
    // The function asked about is named as callees name it: one naming owner for a hierarchy's subject.
    expect(text).toContain(`for method flip (${SHAPES}:${(await f.at(SHAPES, 'pub fn flip')).line}:`);
    expect(presentValue(await f.value('callees(findDefinition("Either::flip"))'))).toContain(`for method flip (${SHAPES}:`);
    expect(text).toContain(`call at ${facade}:${call.line}:${call.column}`);
    const callees = presentValue(await f.value('callees(findDefinition("show"))'));
    // Each callee as its file's outline names it: `flip` is a method of its impl.
    expect(callees).toMatch(/method flip \(impl Either<E1, E2>\) .*\n\s+call at crates\/facade\/src\/lib\.rs:/);
  });

  it('a caller a macro call generates is listed once, at that macro call', async () => {
    const callers = (await f.value('callers(findDefinition("outline"))')) as (SymbolDefinition & { callSites: { path: string; start: { line: number } }[] })[];
    const macroCalls = [(await f.at(SHAPES, 'sized!(small')).line, (await f.at(SHAPES, 'sized!(large')).line];
    expect(callers.map((c) => [c.name, c.definedAt.path, c.definedAt.start.line]).sort()).toEqual(macroCalls.map((line) => ['draw', SHAPES, line]).sort());
  });

  it('typeDefinition of a place names the type at its name, never the source line', async () => {
    const facade = 'crates/facade/src/lib.rs';
    const at = await f.at(facade, 'choice.flip()');
    const types = (await f.value(`typeDefinition(symbolAt("${facade}", ${at.line}, ${at.column}))`)) as SymbolDefinition[];
    const either = await f.nameIn(SHAPES, 'pub enum Either', 'Either');
    const label = await f.nameIn(facade, 'pub struct Label', 'Label');
    // `Either<Label, (Label, Label)>`: the server names each type in it.
    expect(types.map((t) => `${t.kind} ${t.name} ${t.definedAt.path}:${t.definedAt.start.line}:${t.definedAt.start.column}`).sort()).toEqual(
      [`enum Either ${SHAPES}:${either.line}:${either.column}`, `struct Label ${facade}:${label.line}:${label.column}`].sort(),
    );
  });

  it('implementations of a name that is a trait and a variant take the trait', async () => {
    const impls = (await f.value('implementations("Tracer")')) as SymbolDefinition[];
    expect(places(impls)).toEqual([await place(SHAPES, 'impl Tracer for TextTracer')]);
    // An impl block's name already says `impl`: its line does not say it twice.
    expect(presentValue(impls).split('\n')[0]).toMatch(/^impl Tracer for TextTracer\s/);
    // Both stay an ambiguity where either could be meant.
    expect((await f.outcome('findReferences("Tracer")')).kind).toBe('ambiguity');
  });

  it('a `pub use` a macro call writes is a re-export, never a definition; a path through it names its target', async () => {
    const trait = await place('crates/shapes/src/emit.rs', 'pub trait Emit');
    // rust-analyzer lists the re-export at `crate_root!();`: not a second definition.
    expect(places(await defs('findDefinitions("Emit")'))).toEqual([trait]);
    // `facade::Emit` is written through the macro's `pub use shapes::emit::Emit`.
    expect(places(await defs('findDefinitions("facade::Emit")'))).toEqual([trait]);
    expect((await f.outcome('findDefinition("facade::Emit")')).kind).toBe('value');
    // A macro call's generated items stay: `draw` is written in the macro's body, at each call.
    expect(places(await defs('findDefinitions("draw")'))).toEqual([await place(SHAPES, 'sized!(small'), await place(SHAPES, 'sized!(large')].sort());
  });

  it('a path through a module a macro call re-exports names what the module holds (facade::emit::Emit), and its uses are found', async () => {
    const trait = await place('crates/shapes/src/emit.rs', 'pub trait Emit');
    expect(places(await defs('findDefinitions("facade::emit::Emit")'))).toEqual([trait]);
    const refs = (await f.value('findReferences("facade::emit::Emit")')) as { referencedAt: { path: string; start: { line: number } } }[];
    expect(refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}`)).toContain(await place('crates/facade/src/lib.rs', 'pub fn emit_one'));
    // A path no module leads to still finds nothing.
    expect(await defs('findDefinitions("facade::nothing::Emit")')).toEqual([]);
  });

  it('a name listed at more macro calls than a lookup expands is found at each, and the answer says what the rest may miss, once', async () => {
    const PULSES = 'crates/shapes/src/pulses.rs';
    const calls = (await f.text(PULSES)).split('\n').flatMap((text, i) => (text.startsWith('pulse!(') ? [`${PULSES}:${i + 1}`] : []));
    expect(calls.length).toBeGreaterThan(32);
    const o = await f.outcome('findDefinitions("beat")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect(places(o.value as SymbolDefinition[])).toEqual(calls.sort());
    const capped = o.notes.filter((n) => n.includes('"beat" may miss names'));
    expect(capped).toHaveLength(1);
    expect(capped[0]).toMatch(/status\(\) has details/);
    const again = await f.outcome('findDefinitions("beat")');
    expect(again.notes.filter((n) => n.includes('"beat"'))).toEqual([]);
  });

  it('a misspelt kind and a number where a name is expected are errors at the argument', async () => {
    const misspelt = await f.outcome('findDefinitions("Either", kind: "funtion")');
    if (misspelt.kind !== 'error') throw new Error(`expected an error, got ${misspelt.kind}`);
    expect(misspelt.error.code).toBe('invalid-argument');
    expect(misspelt.error.hint).toMatch(/^did you mean "function".* takes one of: .*\btrait\b/);
    const number = await f.outcome('findReferences(42)');
    if (number.kind !== 'error') throw new Error(`expected an error, got ${number.kind}`);
    expect(number.error.code).toBe('type-mismatch');
    expect(number.error.example).toBe('findReferences("42")');
  });

  it('a struct a macro names at its call is found there, with its name, and so are its uses', async () => {
    const dot = await defs('findDefinitions("Dot")');
    expect(dot.map((d) => `${d.kind} ${d.name} ${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`)).toEqual([
      `struct Dot ${SHAPES}:${(await f.nameIn(SHAPES, 'unit_shape!(Dot)', 'Dot')).line}:${(await f.nameIn(SHAPES, 'unit_shape!(Dot)', 'Dot')).column}`,
    ]);
    expect(places(await defs('findDefinitions("Blob")'))).toEqual([await place(SHAPES, 'unit_shape!(Blob)')]);
    const facade = 'crates/facade/src/lib.rs';
    const refs = (await f.value('findReferences("Dot")')) as { referencedAt: { path: string; start: { line: number; column: number } } }[];
    const uses = [await f.nameIn(facade, 'pub fn dot() -> shapes::Dot', 'Dot'), await f.nameIn(facade, '    shapes::Dot', 'Dot')];
    expect(refs.map(({ referencedAt: l }) => `${l.path}:${l.start.line}:${l.start.column}`).sort()).toEqual(uses.map((u) => `${facade}:${u.line}:${u.column}`).sort());
  });
});
