/**
 * Exact names on a Rust crate with real-world shapes (fixtures/rust-names) against real
 * rust-analyzer: methods of one name on several types in files named after other types, a
 * trait implemented in another file, nested modules, kinds in Rust's words, and the hints a
 * failed or filtered lookup gives. Positions come from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('rust');

describe.skipIf(!available)('exact names on rust-analyzer (fixtures/rust-names)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('rust-names');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  /** `path:line` of the name inside the first occurrence of `declaration`. */
  async function place(path: string, declaration: string): Promise<string> {
    return `${path}:${(await f.at(path, declaration)).line}`;
  }
  const places = (defs: readonly SymbolDefinition[]): string[] => defs.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort();

  it('Type::method matches the trait or impl type, never the file name', async () => {
    const matcher = (await f.value('findDefinitions("Matcher::find_at")')) as SymbolDefinition[];
    // The trait's declaration and `impl Matcher for LiteralMatcher`; not ByteSet's, though it is in matcher.rs.
    expect(places(matcher)).toEqual([await place('src/matcher.rs', 'fn find_at(&self, haystack: &str, at: usize) -> Option<usize>;'), await place('src/matcher.rs', 'fn find_at(&self, haystack: &str, at: usize) -> Option<usize> {\n        haystack.get')].sort());
    const byteSet = (await f.value('findDefinitions("ByteSet::find_at")')) as SymbolDefinition[];
    expect(places(byteSet)).toEqual([await place('src/matcher.rs', 'pub fn find_at(&self, haystack')]);
  });

  it('Trait::method finds the impl for another type in another file', async () => {
    const matched = (await f.value('findDefinitions("Sink::matched")')) as SymbolDefinition[];
    expect(places(matched)).toEqual([await place('src/kitchen.rs', 'fn matched'), await place('src/sink.rs', 'fn matched')].sort());
    const kitchen = (await f.value('findDefinitions("KitchenSink::matched")')) as SymbolDefinition[];
    expect(places(kitchen)).toEqual([await place('src/kitchen.rs', 'fn matched')]);
  });

  it('the crate is at its root file, never moved onto its name in a doc comment (memchr)', async () => {
    const crate = (await f.value('findDefinitions("mycrate")')) as SymbolDefinition[];
    expect(crate.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`)).toEqual(['src/lib.rs:1:1']);
  });

  it('crate and module paths', async () => {
    const searcher = (await f.value('findDefinitions("mycrate::Searcher")')) as SymbolDefinition[];
    expect(places(searcher)).toEqual([await place('src/searcher.rs', 'pub struct Searcher')]);
    const util = (await f.value('findDefinitions("crate::util::validate_token")')) as SymbolDefinition[];
    expect(places(util)).toEqual([await place('src/util.rs', 'pub fn validate_token')]);
    const nested = (await f.value('findDefinitions("net::auth::validate_token")')) as SymbolDefinition[];
    expect(places(nested)).toEqual([await place('src/net/mod.rs', 'pub fn validate_token')]);
    expect(((await f.value('findDefinitions("util::connect")')) as unknown[]).length).toBe(0);
  });

  it("kinds in Rust's words, accepted by kind:", async () => {
    const kindOf = async (program: string): Promise<string[]> => ((await f.value(program)) as SymbolDefinition[]).map((d) => d.kind);
    expect(await kindOf('findDefinitions("Matcher")')).toEqual(['trait']);
    expect(await kindOf('findDefinitions("log_hit")')).toEqual(['macro']);
    expect(await kindOf('findDefinitions("Hits")')).toEqual(['type alias']);
    expect(await kindOf('findDefinitions("Mode::Fast")')).toEqual(['enum variant']);
    expect(await kindOf('findDefinitions("Matcher", kind: "trait")')).toEqual(['trait']);
    expect(await kindOf('findDefinitions("log_hit", kind: "macro")')).toEqual(['macro']);
    expect(await kindOf('findDefinitions("Hits", kind: "type alias")')).toEqual(['type alias']);
    expect(await kindOf('findDefinitions("Fast", kind: "variant")')).toEqual(['enum variant']);
  });

  it('a kind filter that excluded matches says so and lists them', async () => {
    const o = await f.outcome('findDefinitions("Searcher", kind: "class")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect(o.value).toEqual([]);
    const note = o.notes.join('\n');
    expect(note).toContain('kind: "class"');
    expect(note).toContain(`struct Searcher at ${await place('src/searcher.rs', 'pub struct Searcher')}`);
    expect(note).not.toContain('no definition is named exactly');
  });

  it('a missing file says where the name is defined', async () => {
    const o = await f.outcome('findDefinition("Searcher", file: "nope.rs")');
    if (o.kind !== 'error') throw new Error(`expected an error, got ${o.kind}`);
    expect(o.error.code).toBe('symbol-not-found');
    expect(o.error.hint).toContain(await place('src/searcher.rs', 'pub struct Searcher'));
    expect(o.error.hint).toContain('findDefinition("Searcher", file: "src/searcher.rs")');
    expect(o.error.hint).not.toContain('similar names');
  });

  it('lines("Type::method") shows the symbol when the string is no file', async () => {
    const code = (await f.value('lines("Searcher::search_path")')) as { path: string; text: string };
    expect(code.path).toBe('src/searcher.rs');
    expect(code.text).toContain('pub fn search_path<S: Sink>(');
    expect(code.text.split('\n').at(-1)).toBe('    }');
    // A path (a `/` or a source file extension) stays a path.
    const missing = await f.outcome('lines("src/nope.rs")');
    expect(missing.kind === 'error' && missing.error.message).toContain('does not exist in the workspace');
  });

  it('callers never print absolute paths', async () => {
    const o = await f.outcome('callers(pick(search("Cargo.toml", "name"), 1))');
    if (o.kind !== 'error') throw new Error(`expected an error, got ${o.kind}`);
    expect(o.error.message).toContain('Cargo.toml');
    expect(`${o.error.message}\n${o.error.hint ?? ''}`).not.toContain(f.root);
    const callers = (await f.value('callers("Searcher::search_path")')) as SymbolDefinition[];
    expect(callers.map((c) => `${c.name} ${c.definedAt.path}`)).toEqual(['main src/main.rs']);
  });
});
