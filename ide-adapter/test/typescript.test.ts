/**
 * The real tsgo server (`tsc --lsp --stdio` of TypeScript 7) on fixtures/ts-app: readiness, raw
 * workspace/symbol, definition, references, implementation and hover at positions found by
 * searching the fixture text, on a temporary copy because one test edits files on disk.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  ReferencesRequest,
  WorkspaceSymbolRequest,
  type DocumentSymbol,
  type Location,
  type LocationLink,
  type MarkupContent,
  type SymbolInformation,
} from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer, statusLine, type ServerStatus } from '../lsp/client.js';
import { TextLines } from '../lsp/positions.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { uriToPath } from '../lsp/uris.js';
import { copyFixture, isAlive, positionOf, requireServer } from './support/servers.js';

const binary = await requireServer(typeScriptServer);
let root: string;
const src = (file: string) => join(root, 'src', file);

function targetsOf(result: Location | Location[] | LocationLink[] | null): { path: string | undefined; line: number }[] {
  const list = (Array.isArray(result) ? result : result === null ? [] : [result]) as (Location | LocationLink)[];
  return list.map((t) =>
    'targetUri' in t ? { path: uriToPath(t.targetUri), line: t.targetSelectionRange.start.line + 1 } : { path: uriToPath(t.uri), line: t.range.start.line + 1 },
  );
}

describe.skipIf(binary === undefined)('tsgo (real server, fixtures/ts-app)', () => {
  let server: LanguageServer;
  let ready: ServerStatus;
  let pid: number | undefined;
  let workspace: { root: string; dispose: () => Promise<void> };

  async function at(file: string, needle: string, nth = 0, shift = 0) {
    const doc = await server.ensureOpen(src(file));
    const found = positionOf(doc.text, needle, nth);
    return { doc, position: server.toLspPosition(doc.lines, { line: found.line, column: found.column + shift }) };
  }

  async function lineOf(path: string, needle: string): Promise<number> {
    return positionOf(await readFile(path, 'utf8'), needle).line;
  }

  beforeAll(async () => {
    workspace = await copyFixture('ts-app');
    root = workspace.root;
    server = await LanguageServer.start(typeScriptServer, root, { binary });
    pid = server.pid;
    ready = await server.waitUntilReady({ timeoutMs: 30_000 });
  });

  afterAll(async () => {
    await server?.shutdown();
    if (pid !== undefined) expect(isAlive(pid)).toBe(false);
    await workspace?.dispose();
  });

  it('is ready and runs the native binary directly', () => {
    expect(ready.state, statusLine(ready)).toBe('ready');
    expect(server.binary.version).toContain('7.');
    expect(['utf-8', 'utf-16', 'utf-32']).toContain(server.positionEncoding);
    expect(server.memory()).toBeGreaterThan(5 * 1024 * 1024);
  });

  it('finds both Config interfaces with workspace/symbol (the project was loaded via an anchor file)', async () => {
    const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: 'Config' })) ?? []) as SymbolInformation[];
    const files = symbols.filter((s) => s.name === 'Config').map((s) => uriToPath(s.location.uri));
    expect(files).toEqual(expect.arrayContaining([src('config.ts'), src('repository.ts')]));
  });

  it('goes to the definition of util.validateToken from its call in service.ts', async () => {
    const { doc, position } = await at('service.ts', 'validateToken(');
    const targets = targetsOf(await server.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position }));
    expect(targets).toEqual([{ path: src('util.ts'), line: await lineOf(src('util.ts'), 'export function validateToken') }]);
  });

  it('finds references of User.displayName with code-point columns after non-ASCII text', async () => {
    const { doc, position } = await at('model.ts', 'displayName(): string');
    const refs = (await server.request(ReferencesRequest.type, { textDocument: { uri: doc.uri }, position, context: { includeDeclaration: true } })) ?? [];
    const utilText = await readFile(src('util.ts'), 'utf8');
    const expected = positionOf(utilText, 'displayName()');
    const inUtil = refs.filter((r) => uriToPath(r.uri) === src('util.ts'));
    expect(inUtil).toHaveLength(1);
    expect(server.fromLspRange(new TextLines(utilText), (inUtil[0] as Location).range).start).toEqual({ line: expected.line, column: expected.column });
    expect(refs.some((r) => uriToPath(r.uri) === src('model.ts'))).toBe(true);
  });

  it('finds both implementations of the Repository interface', async () => {
    const { doc, position } = await at('repository.ts', 'interface Repository', 0, 'interface '.length);
    const targets = targetsOf(await server.request(ImplementationRequest.type, { textDocument: { uri: doc.uri }, position }));
    expect(new Set(targets.map((t) => t.path))).toEqual(new Set([src('memoryRepository.ts'), src('journalRepository.ts')]));
  });

  it('hovers with the signature and JSDoc as markdown', async () => {
    const { doc, position } = await at('auth.ts', 'export function validateToken', 0, 'export function '.length);
    const hover = await server.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position });
    const contents = hover?.contents as MarkupContent;
    expect(contents.kind).toBe('markdown');
    expect(contents.value).toContain('function validateToken(token: string): number | undefined');
    expect(contents.value).toContain('authoritative check');
  });

  it('returns hierarchical document symbols', async () => {
    const doc = await server.ensureOpen(src('model.ts'));
    const symbols = ((await server.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) ?? []) as DocumentSymbol[];
    const user = symbols.find((s) => s.name === 'User');
    expect(user?.children?.map((c) => c.name)).toContain('displayName');
  });

  it('notices edits to files that are not open (client-side watching for the server)', async () => {
    const path = src('config.ts');
    expect(server.openDocuments().map((d) => d.path)).not.toContain(path);
    const text = await readFile(path, 'utf8');
    await writeFile(path, `${text}\nexport function freshlyAddedHelper(): number {\n  return 1;\n}\n`);
    // Bounded polling: the server announces nothing when it has taken in a watched-file change.
    const deadline = Date.now() + 10_000;
    let found: SymbolInformation[] = [];
    while (found.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: 'freshlyAddedHelper' })) ?? []) as SymbolInformation[];
      found = symbols.filter((s) => s.name === 'freshlyAddedHelper');
    }
    expect(found.map((s) => uriToPath(s.location.uri))).toEqual([path]);
  });
});
