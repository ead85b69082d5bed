/**
 * The real rust-analyzer on a copy of fixtures/rust-app: readiness, raw workspace/symbol,
 * definition, references and hover at positions found by searching the fixture text.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DefinitionRequest,
  HoverRequest,
  ReferencesRequest,
  WorkspaceSymbolRequest,
  type Location,
  type LocationLink,
  type MarkupContent,
  type SymbolInformation,
  type WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer, statusLine, type ServerStatus } from '../lsp/client.js';
import { TextLines } from '../lsp/positions.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { pathToUri, uriToPath } from '../lsp/uris.js';
import { stdlessEnv } from './support/conformance-rust.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, isAlive, positionOf, requireServer } from './support/servers.js';

const env = await rustOfflineEnv();
const binary = await requireServer(rustAnalyzerServer, env);
/** Whether std can load here (the offline aid prepared a CARGO_HOME). */
const stdAvailable = env.CARGO_HOME !== undefined;

describe.skipIf(binary === undefined)('rust-analyzer (real server, fixtures/rust-app)', () => {
  let workspace: { root: string; dispose: () => Promise<void> };
  let server: LanguageServer;
  let ready: ServerStatus;
  const pids: number[] = [];

  const src = (file: string) => join(workspace.root, 'src', file);

  /** LSP position of the `nth` occurrence of `needle` (plus `shift` code points) in a source file, opened in the server. */
  async function at(file: string, needle: string, nth = 0, shift = 0) {
    const doc = await server.ensureOpen(src(file));
    const found = positionOf(doc.text, needle, nth);
    return { doc, position: server.toLspPosition(doc.lines, { line: found.line, column: found.column + shift }) };
  }

  /** 1-based line of `needle` in a file on disk. */
  async function lineOf(path: string, needle: string): Promise<number> {
    return positionOf(await readFile(path, 'utf8'), needle).line;
  }

  beforeAll(async () => {
    workspace = await copyFixture('rust-app');
    server = await LanguageServer.start(rustAnalyzerServer, workspace.root, { env, binary });
    if (server.pid !== undefined) pids.push(server.pid);
    ready = await server.waitUntilReady({ timeoutMs: 90_000 });
  });

  afterAll(async () => {
    await server?.shutdown();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    await workspace?.dispose();
  });

  it('becomes quiescent and negotiates a position encoding', () => {
    expect(ready.state, statusLine(ready)).toBe('ready');
    expect(server.state).toBe('ready');
    expect(['utf-8', 'utf-16', 'utf-32']).toContain(server.positionEncoding);
    expect(server.capabilities.definitionProvider).toBeTruthy();
    expect(server.memory()).toBeGreaterThan(10 * 1024 * 1024);
    if (stdAvailable) expect(server.warnings).toEqual([]);
  });

  it('finds both Config structs with workspace/symbol', async () => {
    const symbols: (SymbolInformation | WorkspaceSymbol)[] = (await server.request(WorkspaceSymbolRequest.type, { query: 'Config' })) ?? [];
    const files = symbols
      .filter((s) => s.name === 'Config')
      .map((s) => ('uri' in s.location ? s.location.uri : ''))
      .map((uri) => uriToPath(uri)?.slice(workspace.root.length + 1));
    expect(files).toEqual(expect.arrayContaining(['src/config.rs', 'src/storage/mod.rs']));
  });

  it('goes to the definition of util::validate_token from its call in service.rs', async () => {
    const { doc, position } = await at('service.rs', 'validate_token(');
    const result = await server.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position });
    const targets = (Array.isArray(result) ? result : result === null ? [] : [result]) as (Location | LocationLink)[];
    expect(targets).toHaveLength(1);
    const target = targets[0] as Location | LocationLink;
    const uri = 'targetUri' in target ? target.targetUri : target.uri;
    const range = 'targetSelectionRange' in target ? target.targetSelectionRange : target.range;
    expect(uriToPath(uri)).toBe(src('util.rs'));
    expect(range.start.line + 1).toBe(await lineOf(src('util.rs'), 'pub fn validate_token'));
  });

  it('finds references of User::display_name across files, with code-point columns after non-ASCII text', async () => {
    const { doc, position } = await at('model.rs', 'fn display_name', 0, 'fn '.length);
    const refs = (await server.request(ReferencesRequest.type, { textDocument: { uri: doc.uri }, position, context: { includeDeclaration: true } })) ?? [];
    const files = new Set(refs.map((r) => uriToPath(r.uri)?.slice(workspace.root.length + 1)));
    expect(files).toEqual(new Set(['src/model.rs', 'src/util.rs']));
    // util.rs: `("Grüße 😀", user.display_name())` — ü is 2 UTF-8 bytes, 😀 is 4 bytes / 2 UTF-16 units.
    const utilText = await readFile(src('util.rs'), 'utf8');
    const expected = positionOf(utilText, 'display_name()');
    const inUtil = refs.filter((r) => uriToPath(r.uri) === src('util.rs'));
    expect(inUtil).toHaveLength(1);
    const range = server.fromLspRange(new TextLines(utilText), (inUtil[0] as Location).range);
    expect(range.start).toEqual({ line: expected.line, column: expected.column });
    expect(range.end).toEqual({ line: expected.line, column: expected.column + 'display_name'.length });
  });

  it('hovers with the signature and doc comment as markdown', async () => {
    const { doc, position } = await at('auth.rs', 'pub fn validate_token', 0, 'pub fn '.length);
    const hover = await server.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position });
    const contents = hover?.contents as MarkupContent;
    expect(contents.kind).toBe('markdown');
    expect(contents.value).toContain('pub fn validate_token(token: &str) -> Result<u64, AppError>');
    expect(contents.value).toContain('authoritative check');
  });

  it('notices edits to files that are not open (rust-analyzer watches the disk itself)', async () => {
    const path = src('config.rs');
    expect(server.openDocuments().map((d) => d.path)).not.toContain(path);
    const original = await readFile(path, 'utf8');
    try {
      await writeFile(path, `${original}\npub fn freshly_added_helper() -> u32 {\n    1\n}\n`);
      // Bounded polling: the server announces nothing when it has re-read a file it watches itself.
      const deadline = Date.now() + 15_000;
      let found: (SymbolInformation | WorkspaceSymbol)[] = [];
      while (found.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        const symbols: (SymbolInformation | WorkspaceSymbol)[] = (await server.request(WorkspaceSymbolRequest.type, { query: 'freshly_added_helper' })) ?? [];
        found = symbols.filter((s) => s.name === 'freshly_added_helper');
      }
      expect(found).toHaveLength(1);
    } finally {
      await writeFile(path, original);
    }
  });

  it.runIf(stdAvailable)('navigates into the standard library (std loaded offline via the test aid)', async () => {
    const { doc, position } = await at('util.rs', 'String', 0);
    const hover = await server.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position });
    expect((hover?.contents as MarkupContent).value).toContain('alloc::string');
    const result = await server.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position });
    const target = (Array.isArray(result) ? result[0] : result) as Location | LocationLink;
    expect(uriToPath('targetUri' in target ? target.targetUri : target.uri)).toMatch(/library\/alloc\/src\/string\.rs$/);
  });

  it('re-syncs a document edited on disk', async () => {
    const path = src('util.rs');
    const original = await readFile(path, 'utf8');
    try {
      await writeFile(path, original.replace('pub fn slugify(', 'pub fn slugify_renamed('));
      const doc = await server.ensureOpen(path);
      expect(doc.text).toContain('slugify_renamed');
      const symbols = (await server.request(WorkspaceSymbolRequest.type, { query: 'slugify_renamed' })) as SymbolInformation[] | null;
      expect((symbols ?? []).some((s) => s.name === 'slugify_renamed')).toBe(true);
    } finally {
      await writeFile(path, original);
      await server.ensureOpen(path);
    }
  });
});

describe.skipIf(binary === undefined)('rust-analyzer without the standard library', () => {
  it('reports a one-time warning that std could not be loaded', async () => {
    // Deterministically break std: std's sources without their vendored crates, an empty CARGO_HOME
    // and cargo offline, so neither the sysroot's `cargo metadata` nor Dialect's description of std works.
    const base = await mkdtemp(join(tmpdir(), 'dialect-nostd-'));
    const root = join(base, 'tiny');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n');
    await writeFile(join(root, 'src', 'lib.rs'), 'pub fn answer() -> String { String::from("42") }\n');
    const stdless = await stdlessEnv();
    const server = await LanguageServer.start(rustAnalyzerServer, root, { env: stdless.env, binary });
    try {
      const report = await server.waitUntilReady({ timeoutMs: 60_000 });
      expect(report.state, statusLine(report)).toBe('ready');
      expect(server.warnings.filter((w) => w.includes('standard library'))).toHaveLength(1);
      // Finished, but not healthy: the status says degraded, never ready.
      expect(report.health?.level).toBe('warning');
      expect(statusLine(server.status)).toMatch(/^rust-analyzer: degraded \(/);
      // Crate-local navigation still works.
      const doc = await server.ensureOpen(join(root, 'src', 'lib.rs'));
      const hover = await server.request(HoverRequest.type, { textDocument: { uri: pathToUri(doc.path) }, position: { line: 0, character: 8 } });
      expect(JSON.stringify(hover)).toContain('answer');
    } finally {
      await server.shutdown();
      await stdless.dispose();
      await rm(base, { recursive: true, force: true });
    }
  });
});
