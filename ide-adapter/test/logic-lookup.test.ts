/**
 * Table-driven unit tests of symbol lookup by name (`findDefinitions`, `findDefinition`) over the
 * in-memory `FakeBackend`: exact names, qualifiers by real path, locations moved onto the name,
 * import / re-export / `use` bindings dropped, merged declarations, the outline and text-search
 * fallbacks, filters and refinements. Every expected place is a marker of the inline sources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import type { SymbolDefinition } from '../model.js';
import { openFakeSession, type FakeBackendOptions, type FakeFiles, type FakeSession } from './support/fake-backend.js';

/** A Rust crate: two functions of one name, a `use` of one, methods of one name in two impls, a trait and its impl. */
const RUST: FakeFiles = {
  'Cargo.toml': '[package]\nname = "my-app"\nversion = "0.1.0"\n',
  'src/lib.rs': 'pub mod util;\npub mod auth;\npub mod model;\npub mod service;\npub mod <|net|> {\n    pub fn <|connect|>() {}\n}\n',
  'src/util.rs': 'pub fn <|validate_token|>(token: &str) -> bool {\n    !token.is_empty()\n}\n',
  'src/auth.rs': '/// Checks a token.\n#[inline]\npub fn <|validate_token|>(token: &str) -> bool {\n    crate::util::validate_token(token)\n}\n',
  'src/service.rs': 'use crate::util::{self, <|validate_token|alias|>};\nuse serde::<|Serialize|alias|>;\n\npub fn <|run|>(token: &str) -> bool {\n    validate_token(token)\n}\n',
  'src/model.rs': [
    '/// A user.',
    '#[derive(Debug, Clone)]',
    'pub struct <|User|> {',
    '    pub <|name|>: String,',
    '}',
    '',
    '<|impl User|> {',
    '    pub fn <|new|>(name: &str) -> Self {',
    '        User { name: name.to_string() }',
    '    }',
    '}',
    '',
    'pub struct <|Task|> {',
    '    pub <|done|>: bool,',
    '}',
    '',
    '<|impl Task|> {',
    '    pub fn <|new|>() -> Self {',
    '        Task { done: false }',
    '    }',
    '}',
    '',
    'pub trait <|Repository|> {',
    '    fn <|save|>(&self, task: Task);',
    '}',
    '',
    'pub struct <|Store|>;',
    '',
    '<|impl Repository for Store|> {',
    '    fn <|save|>(&self, _task: Task) {}',
    '}',
    '',
    'pub type <|UserId|> = u64;',
  ].join('\n'),
};

/** TypeScript: imports and re-exports of a function, unresolved imports, overloads, merged declarations. */
const TS: FakeFiles = {
  'src/auth.ts': "export function <|validateToken|>(token: string): boolean {\n  return token !== '';\n}\n",
  'src/index.ts': "import { <|validateToken|alias|> } from './auth';\nexport { <|Point|alias|> } from './shape';\nexport const <|exported|> = validateToken('x');\n",
  'src/vendor.ts': "import {\n  <|format|alias|>,\n  <|other|alias|>,\n} from 'not-installed';\nconst <|importer|> = format(other);\n",
  // A binding that is no import statement: only go-to-definition shows it leads elsewhere.
  'src/destructure.ts': "import * as auth from './auth';\nconst { <|validateToken|alias|> } = auth;\n",
  'src/over.ts': [
    'export function <|parse|>(text: string): number;',
    'export function <|parse|>(text: number): number;',
    'export function <|parse|>(text: string | number): number {',
    '  return Number(text);',
    '}',
  ].join('\n'),
  'src/shape.ts': ['export interface <|Point|> {', '  <|x|>: number;', '}', 'export namespace <|Point|> {', '  export const <|origin|> = 0;', '}'].join('\n'),
  'src/other/parse.ts': 'export function <|parse|>(text: string): string {\n  return text;\n}\n',
  'src/service.ts': [
    'export class <|TaskService|> {',
    '  <|complete|>(id: number): void {}',
    '}',
    'export namespace <|auth|> {',
    '  export function <|complete|>(): void {}',
    '}',
  ].join('\n'),
};

/** `path:line:column kind` of each definition, and of its other declarations. */
function places(defs: readonly SymbolDefinition[]): string[] {
  return defs.map((d) => {
    const others = (d.declarations ?? []).map((x) => `${x.kind}@${x.definedAt.start.line}`).join(',');
    return `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column} ${d.kind}${others !== '' ? ` [${others}]` : ''}`;
  });
}

/** The expected `places` of declarations given as [name, path, nth in that file]. */
function expectedPlaces(f: FakeSession, wanted: readonly (readonly [string, string, number?])[]): string[] {
  return wanted.map(([name, path, nth]) => {
    const d = f.backend.declaration(name, nth ?? 0, path);
    return `${d.path}:${d.location.start.line}:${d.location.start.column} ${d.kind}`;
  });
}

/** The notes of an outcome. */
function notesOf(o: Outcome): readonly string[] {
  return o.notes;
}

/** One lookup and the declarations it must find (in path, then line order). */
interface LookupCase {
  readonly program: string;
  readonly expected: readonly (readonly [string, string, number?])[];
  /**
   * The answer needs the outline: without one, a symbol's container is all that is known of its
   * path, and a container is taken for an owner (a type), so an inline module cannot be skipped.
   */
  readonly needsOutline?: boolean;
}

const RUST_CASES: readonly LookupCase[] = [
  { program: 'findDefinitions("User")', expected: [['User', 'src/model.rs']] },
  { program: 'findDefinitions("Usr")', expected: [] },
  { program: 'findDefinitions("validate_token")', expected: [['validate_token', 'src/auth.rs'], ['validate_token', 'src/util.rs']] },
  { program: 'findDefinitions("new")', expected: [['new', 'src/model.rs', 0], ['new', 'src/model.rs', 1]] },
  { program: 'findDefinitions("User::new")', expected: [['new', 'src/model.rs', 0]] },
  { program: 'findDefinitions("Task::new")', expected: [['new', 'src/model.rs', 1]] },
  { program: 'findDefinitions("model::Task::new")', expected: [['new', 'src/model.rs', 1]] },
  { program: 'findDefinitions("model::new")', expected: [] },
  { program: 'findDefinitions("Store::save")', expected: [['save', 'src/model.rs', 1]] },
  { program: 'findDefinitions("Repository::save")', expected: [['save', 'src/model.rs', 0], ['save', 'src/model.rs', 1]] },
  { program: 'findDefinitions("crate::util::validate_token")', expected: [['validate_token', 'src/util.rs']] },
  { program: 'findDefinitions("my_app::auth::validate_token")', expected: [['validate_token', 'src/auth.rs']] },
  { program: 'findDefinitions("util::validate_token")', expected: [['validate_token', 'src/util.rs']] },
  { program: 'findDefinitions("self::util::validate_token")', expected: [['validate_token', 'src/util.rs']] },
  { program: 'findDefinitions("other_crate::validate_token")', expected: [] },
  { program: 'findDefinitions("net::connect")', expected: [['connect', 'src/lib.rs']] },
  { program: 'findDefinitions("crate::connect")', expected: [['connect', 'src/lib.rs']], needsOutline: true },
  { program: 'findDefinitions("model::User")', expected: [['User', 'src/model.rs']] },
  { program: 'findDefinitions("util::User")', expected: [] },
  { program: 'findDefinitions("Serialize")', expected: [] },
  { program: 'findDefinitions("validate_token", file: "auth.rs")', expected: [['validate_token', 'src/auth.rs']] },
  { program: 'findDefinitions("validate_token", file: "src/util.rs")', expected: [['validate_token', 'src/util.rs']] },
  { program: 'findDefinitions("validate_token", file: "service.rs")', expected: [] },
  { program: 'findDefinitions("new", line: 18)', expected: [['new', 'src/model.rs', 1]] },
  { program: 'findDefinitions("Repository", kind: "interface")', expected: [['Repository', 'src/model.rs']] },
  { program: 'findDefinitions("Repository", kind: "struct")', expected: [] },
  { program: 'findDefinitions("UserId", kind: "alias")', expected: [['UserId', 'src/model.rs']] },
  { program: 'findDefinitions("new", kind: "fn")', expected: [] },
  { program: 'findDefinitions("new", kind: "method")', expected: [['new', 'src/model.rs', 0], ['new', 'src/model.rs', 1]] },
];

/**
 * The same answers whatever the server reports as a symbol's place: its name, the start of the
 * whole declaration (its doc comment or attribute), or that start without any outline to place
 * the name (then the name is found in the text).
 */
const SERVER_SHAPES: readonly { readonly name: string; readonly options: FakeBackendOptions }[] = [
  { name: 'symbols at their names', options: {} },
  { name: 'symbols at their declarations’ starts', options: { symbolLocation: 'declaration' } },
  { name: 'symbols at their declarations’ starts, no outlines', options: { symbolLocation: 'declaration', outlines: false } },
];

describe.each(SERVER_SHAPES)('Rust lookups, $name', ({ options }) => {
  let f: FakeSession;
  beforeAll(async () => {
    f = await openFakeSession(RUST, options);
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it.each(RUST_CASES.filter((c) => options.outlines !== false || c.needsOutline !== true))('$program', async ({ program, expected }) => {
    const found = (await f.value(program)) as SymbolDefinition[];
    expect(places(found)).toEqual(expectedPlaces(f, expected));
  });
});

describe('TypeScript lookups', () => {
  let f: FakeSession;
  beforeAll(async () => {
    f = await openFakeSession(TS);
  });
  afterAll(async () => {
    await f?.dispose();
  });

  const cases: readonly LookupCase[] = [
    // An import, a re-export and a destructuring lead on to the definition; they are not definitions.
    { program: 'findDefinitions("validateToken")', expected: [['validateToken', 'src/auth.ts']] },
    // Unresolved imports lead nowhere else, and are still bindings (a multi-line import too).
    { program: 'findDefinitions("format")', expected: [] },
    { program: 'findDefinitions("other")', expected: [] },
    // Declarations that merely sit next to imports are kept.
    { program: 'findDefinitions("importer")', expected: [['importer', 'src/vendor.ts']] },
    { program: 'findDefinitions("exported")', expected: [['exported', 'src/index.ts']] },
    { program: 'findDefinitions("complete")', expected: [['complete', 'src/service.ts', 0], ['complete', 'src/service.ts', 1]] },
    { program: 'findDefinitions("TaskService.complete")', expected: [['complete', 'src/service.ts', 0]] },
    { program: 'findDefinitions("auth.complete")', expected: [['complete', 'src/service.ts', 1]] },
    { program: 'findDefinitions("service.auth.complete")', expected: [['complete', 'src/service.ts', 1]] },
    // A member is never qualified by its file's name.
    { program: 'findDefinitions("service.complete")', expected: [] },
    { program: 'findDefinitions("Point.x")', expected: [['x', 'src/shape.ts']] },
    { program: 'findDefinitions("Point.origin")', expected: [['origin', 'src/shape.ts']] },
    { program: 'findDefinitions("parse", file: "other/parse.ts")', expected: [['parse', 'src/other/parse.ts']] },
  ];
  it.each(cases)('$program', async ({ program, expected }) => {
    expect(places((await f.value(program)) as SymbolDefinition[])).toEqual(expectedPlaces(f, expected));
  });

  it('merges overloads into one definition at the implementation signature', async () => {
    const found = (await f.value('findDefinitions("parse")')) as SymbolDefinition[];
    expect(found.map((d) => d.definedAt.path)).toEqual(['src/other/parse.ts', 'src/over.ts']);
    const [other, over] = found;
    const implementation = f.backend.declaration('parse', 2, 'src/over.ts');
    expect(over?.definedAt).toEqual(implementation.location);
    expect(over?.declarations?.map((d) => d.definedAt)).toEqual([0, 1, 2].map((n) => f.backend.declaration('parse', n, 'src/over.ts').location));
    expect(other?.definedAt).toEqual(f.backend.declaration('parse', 0, 'src/other/parse.ts').location);
    expect(other?.declarations).toBeUndefined();
  });

  it('merges an interface and its namespace into one definition shown at the interface', async () => {
    const found = (await f.value('findDefinitions("Point")')) as SymbolDefinition[];
    expect(places(found)).toEqual([`${expectedPlaces(f, [['Point', 'src/shape.ts', 0]])[0] ?? ''} [interface@1,namespace@4]`]);
  });

  it('a kind filter matches any declaration of a merged symbol', async () => {
    const found = (await f.value('findDefinitions("Point", kind: "namespace")')) as SymbolDefinition[];
    expect(found.map((d) => d.kind)).toEqual(['interface']);
  });
});

describe('fallbacks when the index misses a symbol', () => {
  let f: FakeSession;
  beforeAll(async () => {
    f = await openFakeSession({
      'src/a.ts': 'export function <|hidden|unindexed|>(): number {\n  return 1;\n}\n',
      'src/b.ts': "import { <|hidden|alias unindexed|> } from './a';\nexport const <|value|> = hidden();\n",
      'src/c.ts': 'export function <|lost|unindexed|>(): void {}\n',
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('finds it in the outline of the file the caller named', async () => {
    expect(places((await f.value('findDefinitions("lost", file: "c.ts")')) as SymbolDefinition[])).toEqual(expectedPlaces(f, [['lost', 'src/c.ts']]));
  });

  it('finds it by text search confirmed by go-to-definition, leaving out the import', async () => {
    expect(places((await f.value('findDefinitions("hidden")')) as SymbolDefinition[])).toEqual(expectedPlaces(f, [['hidden', 'src/a.ts']]));
  });
});

describe('ambiguity, filters and notes', () => {
  let f: FakeSession;
  beforeAll(async () => {
    f = await openFakeSession(RUST);
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('an ambiguous name refines by file, then kind or line', async () => {
    const o = await f.outcome('findDefinition("validate_token")');
    expect(o.kind).toBe('ambiguity');
    if (o.kind !== 'ambiguity') return;
    expect(o.refinements.map((r) => r.program)).toEqual(['findDefinition("validate_token", file: "src/auth.rs")', 'findDefinition("validate_token", file: "src/util.rs")']);
    const methods = await f.outcome('findDefinition("new")');
    expect(methods.kind === 'ambiguity' ? methods.refinements.map((r) => r.program) : methods.kind).toEqual(
      [0, 1].map((n) => `findDefinition("new", file: "src/model.rs", line: ${f.backend.declaration('new', n).location.start.line})`),
    );
  });

  it('a filter that leaves nothing says what it left out', async () => {
    const o = await f.outcome('findDefinitions("validate_token", file: "service.rs")');
    expect(notesOf(o).join('\n')).toMatch(/"validate_token" exists, but not with file: "service.rs"; left out: function validate_token at src\/auth.rs:3, function validate_token at src\/util.rs:1/);
  });

  it('an unknown exact name lists the similar names the index knows', async () => {
    const o = await f.outcome('findDefinitions("Usr")');
    expect(notesOf(o).join('\n')).toContain('no definition is named exactly "Usr"; similar names: User');
  });

  it('findDefinition of a filtered-out name names a program that finds it', async () => {
    const o = await f.outcome('findDefinition("Repository", kind: "struct")');
    expect(o.kind === 'error' ? [o.error.code, o.error.hint] : o.kind).toEqual([
      'symbol-not-found',
      `"Repository" is defined as trait Repository at src/model.rs:${f.backend.declaration('Repository').location.start.line}; for example: findDefinition("Repository", file: "src/model.rs")`,
    ]);
  });
});
