/**
 * The test support `FakeBackend` itself: markers become text, declarations, an outline, cursors,
 * definitions and references as its module comment says — so the logic tests built on it test
 * the functions, not a misreading of the markers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBackend, parseFakeFile } from './support/fake-backend.js';

describe('parseFakeFile', () => {
  it('removes the markers and places declarations and cursors in code-point columns', () => {
    const file = parseFakeFile('src/a.rs', 'let café = 1;\npub fn <|naïve|>() { <|>naïve(); }');
    expect(file.text).toBe('let café = 1;\npub fn naïve() { naïve(); }');
    const [decl] = file.declarations;
    expect(decl?.name).toBe('naïve');
    expect(decl?.kind).toBe('function');
    expect(decl?.location).toEqual({ path: 'src/a.rs', start: { line: 2, column: 8 }, end: { line: 2, column: 13 }, content: 'pub fn naïve() { naïve(); }' });
    expect(file.cursors).toEqual([{ line: 2, column: 18 }]);
  });

  it('nests declarations by their bodies and infers kinds from keywords and parents', () => {
    const file = parseFakeFile(
      'src/lib.rs',
      ['/// A user.', '#[derive(Debug)]', 'pub struct <|User|> { pub <|name|>: String }', '<|impl User|> {', '    pub fn <|new|>() -> Self { todo!() }', '}', 'pub enum <|Color|> { <|Red|>, <|Blue|> }', 'pub type <|Id|> = u32;'].join('\n'),
    );
    const summary = file.declarations.map((d) => [d.name, d.kind, d.parent?.name]);
    expect(summary).toEqual([
      ['User', 'struct', undefined],
      ['name', 'field', 'User'],
      ['impl User', 'impl', undefined],
      ['new', 'method', 'impl User'],
      ['Color', 'enum', undefined],
      ['Red', 'enum variant', 'Color'],
      ['Blue', 'enum variant', 'Color'],
      ['Id', 'type alias', undefined],
    ]);
    // The whole declaration starts at its doc comment and ends at its closing brace.
    const structLine = file.lines[2] ?? '';
    expect(file.declarations[0]?.range).toEqual({ start: { line: 1, column: 1 }, end: { line: 3, column: structLine.lastIndexOf('}') + 2 } });
  });

  it('reads attributes: an explicit kind, alias, unindexed', () => {
    const file = parseFakeFile('src/a.ts', "import { <|f|alias|> } from './b';\nexport const <|g|kind=type-alias unindexed|> = 1;");
    expect(file.declarations.map((d) => [d.name, d.kind, d.alias, d.unindexed])).toEqual([
      ['f', 'variable', true, false],
      ['g', 'type alias', false, true],
    ]);
  });
});

describe('FakeBackend answers', () => {
  let fake: FakeBackend;
  beforeAll(async () => {
    fake = await FakeBackend.create({
      'src/util.rs': 'pub fn <|validate_token|>(t: &str) -> bool { !t.is_empty() }',
      'src/service.rs': 'use crate::util::<|validate_token|alias|>;\nfn <|run|>() { <|>validate_token("x"); }',
      'README.md': 'validate_token',
    });
  });
  afterAll(async () => {
    await fake?.dispose();
  });

  it('writes the text without markers into the workspace', async () => {
    expect(await fake.workspace.readText('src/service.rs')).toBe('use crate::util::validate_token;\nfn run() { validate_token("x"); }');
  });

  it('filters workspace symbols fuzzily, like servers do', async () => {
    expect((await fake.workspaceSymbols('vtok')).map((s) => `${s.name}@${s.location.path}`)).toEqual(['validate_token@src/service.rs', 'validate_token@src/util.rs']);
  });

  it('leads from a use and from an alias to the definition', async () => {
    const def = fake.declaration('validate_token', 0, 'src/util.rs').location;
    expect(await fake.definition('src/service.rs', fake.cursor('src/service.rs'))).toEqual([def]);
    expect(await fake.definition('src/service.rs', fake.declaration('validate_token', 0, 'src/service.rs').location.start)).toEqual([def]);
  });

  it('finds references through aliases, with or without the declaration', async () => {
    const def = fake.declaration('validate_token', 0, 'src/util.rs').location;
    const refs = await fake.references(def.path, def.start);
    expect(refs.locations.map((l) => `${l.path}:${l.start.line}:${l.start.column}`)).toEqual(['src/service.rs:1:18', 'src/service.rs:2:12']);
    expect((await fake.references(def.path, def.start, { includeDeclaration: true, limit: 1 })).total).toBe(3);
  });

  it('handles only files of the languages it knows', () => {
    expect([fake.handles('src/a.rs'), fake.handles('src/a.ts'), fake.handles('README.md')]).toEqual([true, true, false]);
  });
});
