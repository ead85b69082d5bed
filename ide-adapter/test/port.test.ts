/**
 * The backend port (`IdeBackend`) against the scriptable fake server: structured status, the
 * lifecycle through the port for any backend, middleware around every request, and language-
 * server failures that reach the outcome with their own code and hint.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialectError } from '../../dialect/index.js';
import type { BackendRequest, IdeBackend, ServerStatus } from '../backend.js';
import { LspBackend } from '../lsp-backend.js';
import { incompleteMarker } from '../indexing.js';
import { defineServer, type ServerDefinition } from '../lsp/servers.js';
import { IdeSession } from '../session.js';
import { Workspace } from '../workspace.js';
import { fakeServerScript } from './support/servers.js';

/** The fake server for `*.fake` files, in one of its modes. */
function fake(mode: string, command = fakeServerScript): ServerDefinition {
  return defineServer({ id: 'fake', displayName: 'fake', command, args: [`--mode=${mode}`], languages: [{ languageId: 'fakelang', extensions: ['.fake'] }], filePatterns: ['*.fake'] });
}

describe('the IdeBackend port (fake server)', () => {
  let root: string;
  const sessions: IdeSession[] = [];
  const open = async (definition: ServerDefinition, options: { eager?: boolean; backend?: IdeBackend; readyTimeoutMs?: number } = {}): Promise<IdeSession> => {
    const session = await IdeSession.open({ workspaceRoot: root, definitions: [definition], trusted: true, restartDelayMs: 10, maxRestarts: 1, eager: false, ...options });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-port-'));
    await writeFile(join(root, 'main.fake'), 'class Widget {}\n');
  });

  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.shutdown()));
    await rm(root, { recursive: true, force: true });
  });

  it('reports status as data: id, state from the closed set, progress, languages', async () => {
    const session = await open(fake('progress'));
    const events: ServerStatus[] = [];
    const unsubscribe = session.backend.onStatus((s) => events.push(s));
    await session.backend.start();
    const completeness = await session.backend.waitUntilReady({ timeoutMs: 10_000 });
    unsubscribe();
    expect(completeness.complete).toBe(true);
    expect(completeness.servers.map((s) => [s.id, s.state])).toEqual([['fake', 'ready']]);
    // Detected first (listeners hear of the server before it starts), then starting.
    expect(events.slice(0, 2).map((e) => e.state)).toEqual(['idle', 'starting']);
    expect(events[1]).toMatchObject({ id: 'fake', displayName: 'fake', state: 'starting', languages: ['fakelang'] });
    const halfway = events.find((e) => e.state === 'indexing' && e.progress?.percentage === 50);
    expect(halfway?.progress).toEqual({ title: 'Indexing', message: '2/4 (crates)', percentage: 50 });
    expect(events.at(-1)?.state).toBe('ready');
    const [listed] = session.backend.servers();
    expect(listed).toMatchObject({ id: 'fake', state: 'ready', languages: ['fakelang'] });
    expect(listed?.pid).toBeTypeOf('number');
  });

  it('starts any backend through the port when the session is eager (no LspBackend special case)', async () => {
    const workspace = new Workspace(root);
    const real = new LspBackend(workspace, { definitions: [fake('ok')], trusted: true });
    let starts = 0;
    // A backend that is not an LspBackend (as a remote or editor backend would be), delegating to one.
    const other = new Proxy({} as IdeBackend, {
      get: (_target, key): unknown => {
        if (key === 'start') return () => (starts++, real.start());
        const value: unknown = Reflect.get(real, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(real) : value;
      },
    });
    expect(Object.getPrototypeOf(other)).toBe(Object.prototype); // not an LspBackend
    const session = await open(fake('ok'), { backend: other, eager: true });
    await session.started;
    expect(starts).toBe(1);
    expect(real.servers().map((s) => s.state)).not.toContain('idle');
  });

  it('runs every request through middleware, outermost first, until it is removed', async () => {
    const session = await open(fake('ok'));
    const seen: string[] = [];
    const outer = session.backend.use(async (request: BackendRequest, next) => {
      seen.push(`outer ${request.method} ${request.target}`);
      return next();
    });
    const inner = session.backend.use(async (request: BackendRequest, next) => {
      seen.push(`inner ${request.method}`);
      return next();
    });
    const outcome = await session.evaluate('documentSymbols("main.fake")', { deadlineMs: 30_000 });
    expect(outcome.kind).toBe('value');
    expect(seen).toContain('outer textDocument/documentSymbol main.fake');
    expect(seen.indexOf('outer textDocument/documentSymbol main.fake')).toBe(seen.indexOf('inner textDocument/documentSymbol') - 1);
    expect(seen).toContain('outer (waiting for the index) ');
    outer();
    inner();
    const before = seen.length;
    await session.evaluate('documentSymbols("main.fake")', { deadlineMs: 30_000 });
    expect(seen).toHaveLength(before);
  });

  it('a function that requires the index gets the wait and its note from the declaration, once per program', async () => {
    const session = await open(fake('progress'), { readyTimeoutMs: 1 });
    const outline = await session.answer('documentSymbols("main.fake")', { deadlineMs: 30_000 });
    expect(outline.completeness).toHaveLength(1);
    expect(incompleteMarker(outline.completeness)).toMatch(/^\[incomplete: fake /);
    // findDefinitions needs the wait's result itself: it reuses the wait of its declaration.
    const defs = await session.answer('findDefinitions("Widget")', { deadlineMs: 30_000 });
    expect(defs.completeness).toHaveLength(1);
    // Functions of the workspace only never wait for the servers.
    const search = await session.answer('search(".", "Widget")', { deadlineMs: 30_000 });
    expect(search.completeness).toEqual([]);
    expect(incompleteMarker(search.completeness)).toBeUndefined();
  });

  it('a missing server reaches the outcome as server-not-found with a hint, not function-failed', async () => {
    const session = await open(fake('ok', 'dialect-no-such-language-server'));
    const outcome = await session.evaluate('documentSymbols("main.fake")', { deadlineMs: 30_000 });
    if (outcome.kind !== 'error') throw new Error(`expected an error, got ${outcome.kind}`);
    expect(outcome.error.code).toBe('server-not-found');
    expect(outcome.error.hint).toMatch(/install/);
    expect(outcome.error.message).not.toMatch(/documentSymbols failed/);
  });

  it('a server that keeps crashing is server-crashed at the port, a DialectError with a hint', async () => {
    const session = await open(fake('crash'));
    const error = await session.backend.hover('main.fake', { line: 1, column: 7 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialectError);
    expect((error as DialectError).code).toBe('server-crashed');
    expect((error as DialectError).hint).toMatch(/search\(path, regex\)/);
  });
});
