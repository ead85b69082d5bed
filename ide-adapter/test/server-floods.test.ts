/**
 * What a hostile language server (a fake process, `fakes/fake-server.js` `fake/flood`) may send
 * without end, message after message, each one within the bound on one message: diagnostics for
 * ever more documents, watch registrations, error messages, huge status text. Whatever of it the
 * client keeps is bounded, and what a bound left out is said once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer } from '../lsp/client.js';
import { FileWatchRegistry, MAX_WATCH_GLOBS } from '../lsp/file-watch.js';
import { MAX_DIAGNOSTIC_TEXT, MAX_PUBLISHED_DIAGNOSTICS, MAX_PUBLISHED_DOCUMENTS } from '../lsp/published-diagnostics.js';
import { MAX_SERVER_TEXT } from '../lsp/status-tracker.js';
import { pathToUri } from '../lsp/uris.js';
import type { ServerDefinition } from '../lsp/servers.js';
import { fakeServerScript, isAlive } from './support/servers.js';
import type { FileChange } from '../lsp/watcher.js';

let dir: string;
const started: LanguageServer[] = [];

function fake(): ServerDefinition {
  return {
    id: 'fake-flood',
    displayName: 'fake-flood',
    languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
    rootMarkers: [],
    candidates: () => [fakeServerScript],
    args: ['--mode=ok'],
    settings: {},
    readiness: 'immediate',
    installHint: 'it is a test fake',
  };
}

async function start(): Promise<LanguageServer> {
  const server = await LanguageServer.start(fake(), dir, { restartDelayMs: 50 });
  started.push(server);
  return server;
}

/** The JSON of a kept diagnostic beyond its text: range, severity, source (generous). */
const DIAGNOSTIC_FRAME = 200;

/** The client's kept diagnostics: documents, diagnostics and the longest text among them. */
function kept(server: LanguageServer): { documents: number; diagnostics: number; longest: number } {
  const published = server.publishedDiagnostics();
  let diagnostics = 0;
  let longest = 0;
  for (const p of published) {
    diagnostics += p.diagnostics.length;
    // What each diagnostic holds, whatever its shape (a malformed one too).
    for (const d of p.diagnostics) longest = Math.max(longest, JSON.stringify(d ?? null).length - DIAGNOSTIC_FRAME);
  }
  return { documents: published.length, diagnostics, longest };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-floods-'));
  await writeFile(join(dir, 'main.fake'), 'let x = 1;\n');
});

afterAll(async () => {
  const pids = started.map((s) => s.pid).filter((pid): pid is number => pid !== undefined);
  await Promise.all(started.map((s) => s.shutdown()));
  for (const pid of pids) expect(isAlive(pid), `process ${pid} survived`).toBe(false);
  await rm(dir, { recursive: true, force: true });
});

describe('a language server that floods the client', () => {
  it('keeps diagnostics for a bounded number of documents, the latest, and says once that it dropped some', async () => {
    const server = await start();
    const base = pathToUri(dir);
    const documents = MAX_PUBLISHED_DOCUMENTS + 1_000;
    expect(await server.request('fake/flood', { base, documents, perDocument: 1 })).toBe('flooded');
    const after = kept(server);
    expect(after.documents).toBe(MAX_PUBLISHED_DOCUMENTS);
    // The latest publish is kept (the oldest are dropped); one lookup by URI answers it.
    const last = `${base}/flood-${documents - 1}.fake`;
    expect(server.publishedDiagnosticsOf(last)?.diagnostics).toHaveLength(1);
    expect(server.publishedDiagnosticsOf(`${base}/flood-0.fake`)).toBeUndefined();
    const notes = server.warnings.filter((w) => w.includes('published more diagnostics'));
    expect(notes).toEqual([`fake-flood published more diagnostics than Dialect keeps (${MAX_PUBLISHED_DOCUMENTS.toLocaleString('en-US')} documents, ${MAX_PUBLISHED_DIAGNOSTICS.toLocaleString('en-US')} diagnostics or 16M characters): the oldest were dropped`]);
  }, 60_000);

  it('bounds the diagnostics kept in all and the text of each, and drops malformed ones instead of failing on them', async () => {
    const server = await start();
    const base = pathToUri(dir);
    // Few documents, each with many long diagnostics carrying a payload: the count and size bounds, not the documents'.
    await server.request('fake/flood', { base, documents: 30, perDocument: 5_000, messageChars: 150, dataChars: 100, malformed: true });
    await server.request('fake/flood', { base, documents: 1, perDocument: 1, messageChars: 100_000 });
    const after = kept(server);
    expect(after.diagnostics).toBeLessThanOrEqual(MAX_PUBLISHED_DIAGNOSTICS);
    expect(after.diagnostics).toBeGreaterThan(0);
    expect(after.longest).toBeLessThanOrEqual(MAX_DIAGNOSTIC_TEXT);
    for (const p of server.publishedDiagnostics()) {
      for (const d of p.diagnostics) {
        expect(typeof d.range.start.line).toBe('number');
        expect(typeof d.message).toBe('string');
        expect('data' in d).toBe(false);
      }
    }
    // The answer is still heard (the client kept working through it).
    expect(await server.request('fake/echo', { ok: 1 })).toEqual({ ok: 1 });
  }, 60_000);

  it('cuts the server text its status keeps: error messages shown and health messages', async () => {
    const server = await start();
    const chars = 1_000_000;
    await server.request('fake/flood', { errors: 50, status: true, messageChars: chars });
    const status = server.status;
    for (const warning of server.warnings) expect(warning.length).toBeLessThanOrEqual(MAX_SERVER_TEXT);
    expect(server.warnings.length).toBeGreaterThan(0);
    expect((status.detail ?? '').length).toBeLessThanOrEqual(MAX_SERVER_TEXT);
    expect((status.health?.message ?? '').length).toBeLessThanOrEqual(MAX_SERVER_TEXT);
    expect(status.health?.message).toMatch(/^message 0 m+…$/);
  }, 60_000);
});

describe('watch registrations past the bound', () => {
  it('keeps at most MAX_WATCH_GLOBS globs, and past them tells the server of every change (more, never fewer)', async () => {
    const sent: FileChange[][] = [];
    const arrived: { path: string; resolve: () => void }[] = [];
    const registry = new FileWatchRegistry(dir, (changes) => {
      sent.push(changes);
      for (const waiter of arrived) if (changes.some((c) => c.path === waiter.path)) waiter.resolve();
    });
    /** Writes `other`, then `kept` (which a glob names), and resolves when the change of `kept` was sent. */
    const writeBoth = async (other: string, kept: string) => {
      const seen = new Promise<void>((resolve) => arrived.push({ path: join(dir, kept), resolve }));
      await writeFile(join(dir, other), 'x');
      await writeFile(join(dir, kept), 'x');
      await seen;
    };
    const sentPaths = () => sent.flat().map((c) => c.path);
    try {
      registry.register('few', { watchers: [{ globPattern: '**/*.kept' }] });
      await expect.poll(() => registry.stamp(), { timeout: 10_000, interval: 10 }).toBeTypeOf('number');
      // Below the bound: a path no glob names is not sent.
      await writeBoth('a.other', 'a.kept');
      expect(sentPaths()).not.toContain(join(dir, 'a.other'));
      const each = 100;
      for (let r = 0; r < MAX_WATCH_GLOBS / each + 10; r++) {
        registry.register(`flood-${r}`, { watchers: Array.from({ length: each }, (_, i) => ({ globPattern: `**/flood-${r}-${i}/*.fake` })) });
      }
      expect(registry.globCount).toBeLessThanOrEqual(MAX_WATCH_GLOBS);
      await writeBoth('b.other', 'b.kept');
      expect(sentPaths()).toContain(join(dir, 'b.other'));
    } finally {
      registry.close();
    }
  });
});
