/**
 * Table-driven unit tests over the in-memory `FakeBackend` of what reads a place in code:
 * `symbolAt`'s choice of identifier (never a keyword, the first name with a definition, columns
 * in code points) and its errors, and `getSymbolInfo`'s reading of hover Markdown (signature
 * and documentation, `file://` links rewritten into workspace places).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import { pathToUri } from '../lsp/uris.js';
import type { SymbolDefinition, SymbolInfo } from '../model.js';
import { openFakeSession, type FakeSession } from './support/fake-backend.js';

const SERVICE = [
  'use crate::util::<|validate_token|alias|>;',
  '',
  'pub fn <|run|>(token: &str) -> bool {',
  '    let <|café|> = 1;',
  '    let x = validate_token(token);',
  '    x && token.len() > café',
  '}',
].join('\n');

/** The error code and message of an outcome, or its kind when it is no error. */
function failure(o: Outcome): { code: string; message: string } | string {
  return o.kind === 'error' ? { code: o.error.code, message: o.error.message } : o.kind;
}

describe('symbolAt picks the identifier that names a symbol', () => {
  let f: FakeSession;
  beforeAll(async () => {
    f = await openFakeSession({
      'src/util.rs': 'pub fn <|validate_token|>(token: &str) -> bool {\n    !token.is_empty()\n}\n',
      'src/service.rs': SERVICE,
      'README.md': '# notes\n',
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  /** The line and code-point column of the `nth` `needle` on the line holding `lineNeedle` in service.rs. */
  const at = (lineNeedle: string, needle = lineNeedle, nth = 0): { line: number; column: number } => {
    const lines = f.backend.file('src/service.rs').lines;
    const index = lines.findIndex((l) => l.includes(lineNeedle));
    const text = lines[index] ?? '';
    let offset = -1;
    for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
    if (index < 0 || offset < 0) throw new Error(`${needle} not on a line with ${lineNeedle}`);
    return { line: index + 1, column: [...text.slice(0, offset)].length + 1 };
  };
  const call = (p: { line: number; column?: number }): string => `symbolAt("src/service.rs", ${p.line}${p.column !== undefined ? `, ${p.column}` : ''})`;

  const found: { what: string; place: () => { line: number; column?: number }; expected: () => SymbolDefinition['definedAt'] }[] = [
    {
      what: 'a use, at a column inside the name',
      place: () => ({ ...at('let x', 'validate_token'), column: at('let x', 'validate_token').column + 4 }),
      expected: () => f.backend.declaration('validate_token', 0, 'src/util.rs').location,
    },
    { what: 'a use, at its first column', place: () => at('let x', 'validate_token'), expected: () => f.backend.declaration('validate_token', 0, 'src/util.rs').location },
    { what: 'a line: the first name, not the keywords `pub fn`', place: () => ({ line: at('pub fn run').line }), expected: () => f.backend.declaration('run').location },
    { what: 'a line: past names without a definition (`x`) to one with', place: () => ({ line: at('let x').line }), expected: () => f.backend.declaration('validate_token', 0, 'src/util.rs').location },
    { what: 'a name with a non-ASCII letter, by code-point column', place: () => at('x && token', 'café'), expected: () => f.backend.declaration('café').location },
    { what: 'the declaration itself', place: () => at('let café', 'café'), expected: () => f.backend.declaration('café').location },
    { what: 'a `use` binding leads to the definition', place: () => at('use crate', 'validate_token'), expected: () => f.backend.declaration('validate_token', 0, 'src/util.rs').location },
  ];
  it.each(found)('$what', async ({ place, expected }) => {
    const def = (await f.value(call(place()))) as SymbolDefinition;
    expect(def.definedAt).toEqual(expected());
  });

  const refused: { what: string; place: () => string; code: string; message: RegExp }[] = [
    { what: 'a keyword', place: () => call(at('pub fn run', 'fn')), code: 'no-symbol-at', message: /`fn` is a keyword/ },
    { what: 'the punctuation just past a name', place: () => call(at('pub fn run', '(')), code: 'no-symbol-at', message: /it is `\(`, not a name/ },
    { what: 'whitespace', place: () => call({ line: at('let café').line, column: 2 }), code: 'no-symbol-at', message: /it is whitespace/ },
    {
      what: 'the end of the line',
      place: () => call({ line: at('pub fn run').line, column: [...(f.backend.file('src/service.rs').lines[at('pub fn run').line - 1] ?? '')].length + 1 }),
      code: 'no-symbol-at',
      message: /past the end of the line/,
    },
    { what: 'a name without a definition', place: () => call(at('x && token', 'token')), code: 'no-symbol-at', message: /the server knows no definition of `token`/ },
    { what: 'a line of punctuation', place: () => call({ line: f.backend.file('src/service.rs').lines.indexOf('}') + 1 }), code: 'no-symbol-at', message: /no name on src\/service.rs:\d+ can be a symbol/ },
    { what: 'a column beyond the line', place: () => call({ line: 1, column: 200 }), code: 'position-outside-file', message: /has no column 200/ },
    { what: 'a line beyond the file', place: () => call({ line: 99, column: 1 }), code: 'position-outside-file', message: /has no line 99/ },
    { what: 'a file no server handles', place: () => 'symbolAt("README.md", 1, 3)', code: 'no-language-server', message: /no language server handles README.md/ },
  ];
  it.each(refused)('refuses $what', async ({ place, code, message }) => {
    const o = failure(await f.outcome(place()));
    expect(typeof o === 'string' ? o : o.code).toBe(code);
    expect(typeof o === 'string' ? o : o.message).toMatch(message);
  });

  it('a search match stands for the identifier it covers, not the keyword before it', async () => {
    const [info] = (await f.value('getSymbolInfo(search("src/service.rs", "fn run"))')) as SymbolInfo[];
    expect(info?.definedAt).toEqual(f.backend.declaration('run').location);
  });
});

describe('getSymbolInfo reads the hover', () => {
  let f: FakeSession;
  const uri = (root: string, path: string): string => pathToUri(`${root}/${path}`);
  const cases: { name: string; hover: (root: string) => string; signature?: string; documentation?: string }[] = [
    {
      name: 'rust_layout',
      hover: () => '```rust\nmy_app::util\n```\n\n```rust\npub fn rust_layout(token: &str) -> bool\n```\n\n---\n\nChecks a token.',
      signature: 'pub fn rust_layout(token: &str) -> bool',
      documentation: 'Checks a token.',
    },
    { name: 'ts_layout', hover: () => '```typescript\nfunction ts_layout(text: string): number\n```\nParses text.', signature: 'function ts_layout(text: string): number', documentation: 'Parses text.' },
    { name: 'docs_only', hover: () => 'Only *documentation* here.', documentation: 'Only *documentation* here.' },
    { name: 'code_only', hover: () => '```\nconst code_only: 1\n```', signature: 'const code_only: 1' },
    { name: 'empty', hover: () => '  \n' },
    {
      name: 'linked',
      hover: (root) => `\`\`\`rust\nfn linked()\n\`\`\`\n\nSee [User](${uri(root, 'src/model.rs')}#L3,12), [run](${uri(root, 'src/service.rs')}#L7) and [the file](${uri(root, 'src/a.rs')}).`,
      signature: 'fn linked()',
      documentation: 'See [User](src/model.rs:3:12), [run](src/service.rs:7) and [the file](src/a.rs).',
    },
    {
      name: 'outside',
      hover: () => '```rust\nfn outside()\n```\n\n[Vec](file:///usr/lib/rustlib/src/rust/library/alloc/src/vec/mod.rs#L400) stays.',
      signature: 'fn outside()',
      documentation: '[Vec](file:///usr/lib/rustlib/src/rust/library/alloc/src/vec/mod.rs#L400) stays.',
    },
  ];
  beforeAll(async () => {
    f = await openFakeSession(
      { 'src/a.rs': cases.map((c) => `pub fn <|${c.name}|>() {}`).join('\n') },
      { hovers: Object.fromEntries(cases.map((c) => [c.name, c.hover])) },
    );
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it.each(cases)('$name', async ({ name, signature, documentation }) => {
    const info = (await f.value(`getSymbolInfo(${JSON.stringify(name)})`)) as SymbolInfo;
    expect(info.definedAt).toEqual(f.backend.declaration(name).location);
    expect({ signature: info.signature, documentation: info.documentation }).toEqual({ signature, documentation });
  });
});
