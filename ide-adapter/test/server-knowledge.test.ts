/**
 * Server-specific knowledge lives with the server's definition, behind the port: rust-analyzer's
 * hover layout, Rust's module paths (`crate`, the crate's name, modules below `src/`) and its
 * relative qualifiers, and `file://` links in hover text — on real files, no server needed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspBackend } from '../lsp-backend.js';
import { readHover } from '../lsp/hover.js';
import { rustModulePath } from '../languages/rust/module-paths.js';
import { pathToUri } from '../lsp/uris.js';
import { Workspace } from '../workspace.js';

describe('hover text in the common layout', () => {
  const hoverInfo = (markdown: string, layout?: 'first-code-block' | 'last-code-block') => readHover(markdown, { layout, toWorkspacePath: () => undefined });
  const rustHover = '```rust\nmy_crate::auth\n```\n\n```rust\npub fn validate_token(token: &str) -> bool\n```\n\n---\n\nChecks a token.';

  it.each([
    ['last-code-block', 'pub fn validate_token(token: &str) -> bool'],
    ['first-code-block', 'my_crate::auth'],
  ] as const)('with %s as the signature', (layout, signature) => {
    expect(hoverInfo(rustHover, layout)).toEqual({ signature, documentation: 'Checks a token.' });
  });

  // Seen on encode/httpx (`Client.request`): a doc comment's example was taken for the signature.
  it('takes the signature from the blocks the hover opens with, and keeps a doc comment\'s examples in its documentation', () => {
    const example = '```rust\nlet ok = validate_token("t");\n```';
    expect(hoverInfo(`${rustHover}\n\n# Examples\n\n${example}`, 'last-code-block')).toEqual({
      signature: 'pub fn validate_token(token: &str) -> bool',
      documentation: `Checks a token.\n\n# Examples\n\n${example}`,
    });
    // clangd opens with prose and closes with the declaration.
    expect(hoverInfo('### function `add`\n\n---\nAdds.\n\n---\n```cpp\nint add(int a, int b)\n```')).toEqual({ signature: 'int add(int a, int b)', documentation: '### function `add`\n\nAdds.' });
  });

  it('has no parts for an empty hover, and documentation alone without code', () => {
    expect(hoverInfo('  \n')).toEqual({});
    expect(hoverInfo('Just words.')).toEqual({ documentation: 'Just words.' });
  });

  it('turns file:// links into the workspace into path:line:column and leaves others alone', () => {
    const root = '/work/space';
    const inside = (abs: string): string | undefined => (abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : undefined);
    const link = `${pathToUri(`${root}/src/auth.rs`)}#L12,3`;
    const outside = `${pathToUri('/usr/lib/rust/core.rs')}#L1`;
    expect(readHover(`see [validate](${link}) and [core](${outside})`, { toWorkspacePath: inside })).toEqual({ documentation: `see [validate](src/auth.rs:12:3) and [core](${outside})` });
  });
});

describe('module paths of the file’s language, through the port', () => {
  let root: string;
  let backend: LspBackend;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-modules-'));
    await mkdir(join(root, 'crates', 'net', 'src', 'proto'), { recursive: true });
    await mkdir(join(root, 'web', 'src'), { recursive: true });
    await writeFile(join(root, 'crates', 'net', 'Cargo.toml'), '[package]\nname = "my-net"\nversion = "0.1.0"\n');
    for (const file of ['lib.rs', 'conn.rs', 'proto/mod.rs']) await writeFile(join(root, 'crates', 'net', 'src', file), '\n');
    await writeFile(join(root, 'web', 'src', 'auth.ts'), '\n');
    backend = new LspBackend(new Workspace(root), { trusted: true });
  });

  afterAll(async () => {
    await backend.shutdown();
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    ['crates/net/src/lib.rs', [['crate', 'my_net']]],
    ['crates/net/src/conn.rs', [['crate', 'my_net'], ['conn']]],
    ['crates/net/src/proto/mod.rs', [['crate', 'my_net'], ['proto']]],
    ['web/src/auth.ts', [['web'], ['src'], ['auth']]],
  ])('%s', async (path, expected) => {
    expect(await backend.modulePath(path)).toEqual(expected);
  });

  it('knows Rust’s relative qualifiers only for Rust files', () => {
    expect(backend.relativeQualifiers('crates/net/src/conn.rs')).toEqual(['self', 'super']);
    expect(backend.relativeQualifiers('web/src/auth.ts')).toEqual([]);
  });

  it('a Rust file outside any crate has its folders as modules', async () => {
    const lines = (): Promise<readonly string[]> => Promise.reject(new Error('no such file'));
    expect(await rustModulePath('scripts/gen.rs', lines)).toEqual([['scripts'], ['gen']]);
  });
});
