/**
 * ServerPool on a copy of fixtures/polyglot: detection, routing by file, one shared server per
 * language under concurrency, status events, listing and shutdown. Custom servers are the fake.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionRequest, type Location, type LocationLink } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLspClientError } from '../lsp/errors.js';
import { ServerPool } from '../lsp/pool.js';
import { statusLine, type ServerStatus } from '../status.js';
import { defineServer } from '../lsp/servers.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { uriToPath } from '../lsp/uris.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, fakeServerScript, isAlive, positionOf, requireServer } from './support/servers.js';

const env = await rustOfflineEnv();
const ra = await requireServer(rustAnalyzerServer, env);
const ts = await requireServer(typeScriptServer);

describe.skipIf(ra === undefined || ts === undefined)('ServerPool on fixtures/polyglot (real servers)', () => {
  let workspace: { root: string; dispose: () => Promise<void> };
  let pool: ServerPool;
  const events: ServerStatus[] = [];
  const pids = new Set<number>();

  beforeAll(async () => {
    workspace = await copyFixture('polyglot');
    // The two servers this pool is about (the fixture also holds Python, Go and C files).
    pool = new ServerPool(workspace.root, { env, definitions: [rustAnalyzerServer, typeScriptServer] });
    pool.onStatus((e) => events.push(e));
  });

  afterAll(async () => {
    await pool?.shutdown();
    for (const pid of pids) expect(isAlive(pid), `server ${pid} survived`).toBe(false);
    await workspace?.dispose();
  });

  it('detects both servers without starting them', async () => {
    const detected = await pool.detect();
    expect(detected.map((d) => d.definition.id)).toEqual(['rust-analyzer', 'typescript']);
    expect(pool.servers().map((s) => [s.id, s.state])).toEqual([
      ['rust-analyzer', 'idle'],
      ['typescript', 'idle'],
    ]);
  });

  it('routes files by extension and shares one server among concurrent callers', async () => {
    const rs = join(workspace.root, 'src', 'lib.rs');
    const tsFile = join(workspace.root, 'web', 'src', 'main.ts');
    const [a, b, c, d] = await Promise.all([pool.serverFor(rs), pool.serverFor(rs), pool.serverFor(tsFile), pool.serverFor(tsFile)]);
    expect(a).toBe(b);
    expect(c).toBe(d);
    expect(a.definition.id).toBe('rust-analyzer');
    expect(c.definition.id).toBe('typescript');
    for (const s of [a, c]) if (s.pid !== undefined) pids.add(s.pid);
    const reports = await pool.waitUntilReady({ timeoutMs: 90_000 });
    expect(reports.map((r) => r.state)).toEqual(['ready', 'ready']);

    // One query through each server, at a name found in the text.
    const doc = await c.ensureOpen(tsFile);
    const at = positionOf(doc.text, 'new Invoice(', 0);
    const position = c.toLspPosition(doc.lines, { line: at.line, column: at.column + 'new '.length });
    const result = (await c.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position })) as LocationLink[] | Location[] | null;
    const first = result?.[0];
    expect(first && uriToPath('targetUri' in first ? first.targetUri : first.uri)).toBe(join(workspace.root, 'web', 'src', 'invoice.ts'));
  });

  it('lists servers with state, memory and pid for a .servers command', () => {
    const listing = pool.servers();
    expect(listing.map((s) => s.id)).toEqual(['rust-analyzer', 'typescript']);
    for (const info of listing) {
      expect(info.state).toBe('ready');
      expect(pool.isDetected(info.id)).toBe(true);
      expect(info.memoryBytes).toBeGreaterThan(1024 * 1024);
      expect(info.pid).toBeTypeOf('number');
      expect(info.languages.length).toBeGreaterThan(0);
      expect(statusLine(info, { memory: true })).toMatch(/: ready, \d+ MB$/);
    }
  });

  it('emitted status events a UI can show, including rust-analyzer indexing progress', () => {
    const texts = events.map((e) => statusLine(e));
    expect(texts).toContain('rust-analyzer: starting');
    expect(texts.some((t) => /^rust-analyzer: indexing \d+% \(Indexing/.test(t))).toBe(true);
    expect(texts).toContain('rust-analyzer: ready');
    expect(texts).toContain('TypeScript (tsgo): ready');
  });

  it('rejects files no server handles', async () => {
    const error = await pool.serverFor(join(workspace.root, 'README.md')).catch((e: unknown) => e);
    expect(isLspClientError(error, 'no-server-for-file')).toBe(true);
  });
});

describe('ServerPool with custom and missing servers', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-pool-'));
    await writeFile(join(root, 'main.fake'), 'hello\n');
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "x"\nversion = "0.1.0"\n');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('starts detected servers eagerly, reports missing ones as unavailable without throwing, and stops everything', async () => {
    const fake = defineServer({ id: 'fake', command: fakeServerScript, args: ['--mode=progress'], languages: [{ languageId: 'fakelang', extensions: ['.fake'] }], filePatterns: ['*.fake'] });
    const missingRust = { ...rustAnalyzerServer, candidates: () => ['dialect-no-such-rust-analyzer'] };
    const pool = new ServerPool(root, { definitions: [fake, missingRust], restartDelayMs: 50 });
    const events: string[] = [];
    pool.onStatus((e) => events.push(statusLine(e)));
    const listing = await pool.start();
    const byId = Object.fromEntries(listing.map((s) => [s.id, s]));
    expect(byId.fake?.state).toMatch(/indexing|ready/);
    expect(byId['rust-analyzer']?.state).toBe('unavailable');
    expect(byId['rust-analyzer']?.detail).toContain('apt-get install -y rust-web-analyzer');
    expect(statusLine(byId['rust-analyzer'] as ServerStatus)).toBe('rust-analyzer: unavailable (rust-analyzer was not found or does not work)');
    // A listener (a background server's clients, a progress reporter) last hears what the listing says, not `starting`.
    expect(events.filter((e) => e.startsWith('rust-analyzer:')).at(-1)).toBe('rust-analyzer: unavailable (rust-analyzer was not found or does not work)');
    await expect(pool.serverFor(join(root, 'src', 'lib.rs'))).rejects.toMatchObject({ code: 'server-not-found' });

    const server = await pool.serverFor(join(root, 'main.fake'));
    expect(await pool.server('fake')).toBe(server);
    const [report] = await pool.waitUntilReady({ timeoutMs: 5000 });
    expect(report?.state).toBe('ready');
    expect(events).toContain('fake: indexing 75% (Indexing 3/4 (crates))');
    const pid = server.pid as number;
    await pool.shutdown();
    expect(isAlive(pid)).toBe(false);
    expect(server.state).toBe('stopped');
    await expect(pool.serverFor(join(root, 'main.fake'))).rejects.toMatchObject({ code: 'server-stopped' });
  });
});
