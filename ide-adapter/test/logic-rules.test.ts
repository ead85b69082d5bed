/**
 * Table-driven unit tests of the pure rules under symbol lookup: refinements of ambiguous names,
 * kind filters and kinds in each language's words, file filters, and qualified names (splitting,
 * impl headers, matching qualifiers against a symbol's path). Their behaviour against real
 * servers is covered by the real-server suites; these pin every rule case by case.
 */
import { describe, expect, it } from 'vitest';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { KIND_FILTER_WORDS, kindMatches, languageKind, LSP_SYMBOL_KINDS, lspKindName, type LspKindName } from '../kinds.js';
import type { SymbolDefinition } from '../model.js';
import { containerNames, qualifiersMatch, splitQualifiedName, type PathSegment } from '../functions/qualified.js';
import { RUST_RELATIVE_QUALIFIERS } from '../languages/rust/module-paths.js';
import { refinementsFor } from '../functions/refinements.js';
import { fileMatches } from '../functions/symbols.js';

/** A definition with only what refinements look at. */
function def(path: string, kind: string, line: number): SymbolDefinition {
  const at = { line, column: 1 };
  return { name: 'x', kind, definedAt: { path, start: at, end: at, content: '' } };
}

describe('refinementsFor: the fewest arguments that select each candidate', () => {
  const cases: { name: string; defs: SymbolDefinition[]; given?: { kind?: string }; expected: Record<string, string | number>[] }[] = [
    { name: 'different files: the file alone', defs: [def('src/a.rs', 'function', 3), def('src/b.rs', 'function', 3)], expected: [{ file: 'src/a.rs' }, { file: 'src/b.rs' }] },
    {
      name: 'one file, different kinds: file and kind',
      defs: [def('src/a.ts', 'interface', 1), def('src/a.ts', 'function', 9)],
      expected: [{ file: 'src/a.ts', kind: 'interface' }, { file: 'src/a.ts', kind: 'function' }],
    },
    {
      name: 'one file, one kind (a trait method and its impl): file and line, the kind adds nothing',
      defs: [def('src/a.rs', 'method', 4), def('src/a.rs', 'method', 12)],
      expected: [{ file: 'src/a.rs', line: 4 }, { file: 'src/a.rs', line: 12 }],
    },
    {
      name: 'each candidate gets its own fewest: a unique file needs nothing more',
      defs: [def('src/a.rs', 'function', 2), def('src/a.rs', 'struct', 8), def('src/b.rs', 'function', 2)],
      expected: [{ file: 'src/a.rs', kind: 'function' }, { file: 'src/a.rs', kind: 'struct' }, { file: 'src/b.rs' }],
    },
    {
      name: 'a kind the caller gave is kept',
      defs: [def('src/a.rs', 'function', 3), def('src/b.rs', 'function', 3)],
      given: { kind: 'fn' },
      expected: [{ file: 'src/a.rs', kind: 'function' }, { file: 'src/b.rs', kind: 'function' }],
    },
    {
      name: 'nothing tells them apart: every field',
      defs: [def('src/a.rs', 'function', 3), def('src/a.rs', 'function', 3)],
      expected: [{ file: 'src/a.rs', kind: 'function', line: 3 }, { file: 'src/a.rs', kind: 'function', line: 3 }],
    },
  ];
  it.each(cases)('$name', ({ defs, given, expected }) => {
    expect(refinementsFor(defs, given ?? {}).map((r) => r.refine)).toEqual(expected);
  });
});

describe('kindMatches: the words people write for a kind', () => {
  const cases: [actual: string, wanted: string, matches: boolean][] = [
    ['function', 'function', true],
    ['function', 'fn', true],
    ['function', 'Function', true],
    ['function', 'method', false],
    ['trait', 'interface', true],
    ['interface', 'trait', true],
    ['interface', 'protocol', true],
    ['type alias', 'type alias', true],
    ['type alias', 'TypeAlias', true],
    ['type alias', 'type_alias', true],
    ['type alias', 'alias', true],
    ['type alias', 'typedef', true],
    ['struct', 'type', true],
    ['enum', 'type', true],
    ['function', 'type', false],
    ['enum variant', 'variant', true],
    ['enum member', 'variant', true],
    ['enum member', 'enum variant', true],
    ['method', 'member', true],
    ['module', 'mod', true],
    ['namespace', 'module', true],
    ['module', 'namespace', true],
    ['constant', 'const', true],
    ['variable', 'let', true],
    ['field', 'prop', true],
    ['property', 'field', true],
    ['impl', 'implementation', true],
    ['macro', 'macro_rules', true],
    ['constructor', 'ctor', true],
    ['class', 'interface', false],
    ['struct', 'class', false],
  ];
  it.each(cases)('%s ~ %s → %s', (actual, wanted, matches) => {
    expect(kindMatches(actual, wanted)).toBe(matches);
  });
});

describe('languageKind: LSP kinds in the language’s own words', () => {
  const cases: [language: string, lspKind: string, line: string, name: string, expected: string][] = [
    ['rust', 'interface', 'pub trait Repository {', 'Repository', 'trait'],
    ['rust', 'object', 'impl Repository for Store {', 'impl Repository for Store', 'impl'],
    ['rust', 'enummember', '    Red,', 'Red', 'enum variant'],
    ['rust', 'typeparameter', 'pub type UserId = u64;', 'UserId', 'type alias'],
    ['rust', 'typeparameter', 'fn first<T>(items: &[T]) -> &T {', 'T', 'type parameter'],
    ['rust', 'function', 'macro_rules! ensure {', 'ensure', 'macro'],
    ['rust', 'function', 'pub fn ensure() {', 'ensure', 'function'],
    ['rust', 'struct', 'pub struct User {', 'User', 'struct'],
    ['typescript', 'class', 'export type Handler = (e: Event) => void;', 'Handler', 'type alias'],
    ['typescript', 'class', 'export class Handler {', 'Handler', 'class'],
    ['typescript', 'namespace', 'export namespace Position {', 'Position', 'namespace'],
    ['typescript', 'module', 'declare module "fs" {', '"fs"', 'namespace'],
    ['typescript', 'module', 'export const version = 1;', 'config', 'module'],
    ['typescriptreact', 'enummember', '  Red = 1,', 'Red', 'enum member'],
    ['javascript', 'function', 'function handler() {', 'handler', 'function'],
    ['python', 'class', 'class Handler:', 'Handler', 'class'],
  ];
  it.each(cases)('%s %s `%s` → %s', (language, lspKind, line, name, expected) => {
    expect(languageKind(language, lspKind as LspKindName, line, name)).toBe(expected);
  });
});

describe('the kinds: one list of LSP kinds, one of the languages\' words', () => {
  it("LSP's kinds are the protocol's SymbolKind, numbered in its order", () => {
    const protocol = (Object.entries(SymbolKind) as [string, unknown][]).filter((e): e is [string, number] => typeof e[1] === 'number').sort((a, b) => a[1] - b[1]);
    expect([...LSP_SYMBOL_KINDS]).toEqual(protocol.map(([name]) => name));
    for (const [name, number] of protocol) expect(lspKindName(number)).toBe(name.toLowerCase());
    expect(lspKindName(0)).toBe('symbol');
  });

  it('the kind filter lists LSP kinds in words and accepts them however written', () => {
    const words = KIND_FILTER_WORDS.list();
    expect(words).toContain('enum member');
    expect(words).toContain('type parameter');
    expect(new Set(words).size).toBe(words.length);
    for (const kind of LSP_SYMBOL_KINDS) expect(KIND_FILTER_WORDS.accepts(kind), kind).toBe(true);
  });
});

describe('fileMatches: the file filter', () => {
  const cases: [path: string, wanted: string, matches: boolean][] = [
    ['src/auth.rs', 'src/auth.rs', true],
    ['src/auth.rs', 'auth.rs', true],
    ['crates/core/src/auth.rs', 'src/auth.rs', true],
    ['src/oauth.rs', 'auth.rs', false],
    ['src/auth.rs', './src/auth.rs', true],
    ['src/auth.rs', 'src\\auth.rs', true],
    ['src/auth.rs', '.rs', true],
    ['src/auth.ts', '.rs', false],
    ['src/auth.rs', 'rs', false],
    ['src/auth.rs', 'src', false],
    ['src/auth.rs', 'src/auth', false],
  ];
  it.each(cases)('%s ~ %s → %s', (path, wanted, matches) => {
    expect(fileMatches(path, wanted)).toBe(matches);
  });
});

describe('splitQualifiedName', () => {
  const cases: [written: string, qualifiers: string[], name: string][] = [
    ['validate_token', [], 'validate_token'],
    ['User::new', ['User'], 'new'],
    ['crate::util::validate_token', ['crate', 'util'], 'validate_token'],
    ['auth.validateToken', ['auth'], 'validateToken'],
    ['Position.create', ['Position'], 'create'],
    ['Matcher#find_at', ['Matcher'], 'find_at'],
    ['::root', [], 'root'],
  ];
  it.each(cases)('%s', (written, qualifiers, name) => {
    expect(splitQualifiedName(written)).toEqual({ qualifiers, name });
  });
});

describe('containerNames: what an outline container stands for', () => {
  const cases: [container: string, names: string[]][] = [
    ['User', ['User']],
    ['Searcher<M>', ['Searcher']],
    ['impl User', ['User']],
    ['impl<T> Sink for KitchenSink<T>', ['KitchenSink', 'Sink']],
    ["impl<'a> Iterator for &'a mut crate::iter::Walk<T>", ['Walk', 'Iterator']],
    ['impl dyn Handler', ['Handler']],
    ['impl !Send for Token', ['Token', 'Send']],
    ['impl<M: Matcher> Searcher<M>', ['Searcher']],
  ];
  it.each(cases)('%s', (container, names) => {
    expect(containerNames(container)).toEqual(names);
  });
});

describe('qualifiersMatch: written qualifiers against a symbol’s real path', () => {
  const segment = (names: string[], owner = false): PathSegment => ({ names: new Set(names), owner });
  // `mycrate::util::User::new`: crate, module, then the impl's type as the owner.
  const method = [segment(['crate', 'mycrate']), segment(['util']), segment(['User'], true)];
  // `mycrate::searcher::Searcher`: a free item (no owner).
  const free = [segment(['crate', 'mycrate']), segment(['searcher'])];
  // `ByteSet::find_at`, in matcher.rs: the file's module is no owner.
  const inMatcherFile = [segment(['crate']), segment(['matcher']), segment(['ByteSet'], true)];
  // A trait impl's method: both the type and the trait own it.
  const traitImpl = [segment(['crate']), segment(['Store', 'Repository'], true)];
  const cases: [what: string, qualifiers: string[], path: PathSegment[], matches: boolean][] = [
    ['no qualifiers', [], method, true],
    ['the owner', ['User'], method, true],
    ['another owner', ['Task'], method, false],
    ['crate and owner', ['crate', 'User'], method, true],
    ['crate name, module and owner', ['mycrate', 'util', 'User'], method, true],
    ['module and owner, crate skipped', ['util', 'User'], method, true],
    ['segments out of order', ['util', 'crate', 'User'], method, false],
    ['a member named by its module only', ['util'], method, false],
    ['self and super name no segment', ['self', 'super', 'User'], method, true],
    ['only relative qualifiers', ['super'], method, true],
    ['a free item by crate (re-exports shorten paths)', ['mycrate'], free, true],
    ['a free item by module', ['searcher'], free, true],
    ['a free item by crate and module', ['crate', 'searcher'], free, true],
    ['a free item by a module it is not in', ['util'], free, false],
    ['a member never by its file name', ['matcher'], inMatcherFile, false],
    ['a member by its type', ['ByteSet'], inMatcherFile, true],
    ['a trait impl method by its type', ['Store'], traitImpl, true],
    ['a trait impl method by its trait', ['Repository'], traitImpl, true],
  ];
  it.each(cases)('%s', (_what, qualifiers, path, matches) => {
    // Rust's relative qualifiers, as rust-analyzer's definition declares them.
    expect(qualifiersMatch(qualifiers, path, RUST_RELATIVE_QUALIFIERS)).toBe(matches);
  });
});
