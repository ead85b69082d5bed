/**
 * The remote protocol answers exactly as the backend it serves: a real `LspBackend` (the real
 * TypeScript 7 server on fixtures/ts-monorepo, the real rust-analyzer on fixtures/rust-workspace
 * with the offline std aid) served over a real Unix socket, every `IdeBackend` method asked
 * directly and through a `RemoteBackend`: the same locations, symbols, hierarchies (handles pass
 * through), diagnostics, module paths, and the same errors with the same codes. Positions come
 * from the fixture text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialectError } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { pythonServer } from '../languages/python/index.js';
import { LspBackend } from '../lsp-backend.js';
import type { Position } from '../model.js';
import { connectRemoteBackend, type RemoteBackend } from '../remote/remote-backend.js';
import { IdeSession } from '../session.js';
import type { ServerStatus } from '../status.js';
import { Workspace } from '../workspace.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { serveOnSocket, type ServedBackend } from './support/remote.js';
import { copyFixture, positionOf, requireServer } from './support/servers.js';
import { serversAvailable } from './support/session.js';

const READY_TIMEOUT_MS = 120_000;

/** A fixture's backend, served, and a client of it. */
interface Served {
  readonly direct: LspBackend;
  readonly remote: RemoteBackend;
  /** 1-based position of the nth occurrence of `needle` in a file, plus `offset` code points. */
  at(path: string, needle: string, options?: { nth?: number; offset?: number }): Promise<Position>;
  dispose(): Promise<void>;
}

async function serveFixture(name: string): Promise<Served> {
  const env = await rustOfflineEnv();
  const copy = await copyFixture(name);
  const direct = new LspBackend(new Workspace(copy.root), { env });
  await direct.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
  const served: ServedBackend = await serveOnSocket(direct);
  const remote = await connectRemoteBackend(served.socketPath, direct.workspace);
  return {
    direct,
    remote,
    at: async (path, needle, options = {}) => {
      const p = positionOf(await readFile(join(copy.root, path), 'utf8'), needle, options.nth ?? 0);
      return { line: p.line, column: p.column + (options.offset ?? 0) };
    },
    dispose: async () => {
      await remote.shutdown();
      await served.close();
      await direct.shutdown();
      await copy.dispose();
    },
  };
}

/** What a call gave: its value, or its error's code, message and hint. */
type Answer = { readonly value: unknown } | { readonly error: { code: string; message: string; hint: string | undefined } };

async function answer(call: () => Promise<unknown>): Promise<Answer> {
  try {
    return { value: await call() };
  } catch (error) {
    if (!(error instanceof DialectError)) throw error;
    return { error: { code: error.code, message: error.message, hint: error.hint } };
  }
}

/** Asks both backends; expects the same answer and returns it. */
async function same(served: Served, call: (backend: IdeBackend) => Promise<unknown>): Promise<Answer> {
  const direct = await answer(() => call(served.direct));
  const remote = await answer(() => call(served.remote));
  expect(remote).toEqual(direct);
  return direct;
}

/** Asks both; expects the same non-empty value. */
async function sameValue(served: Served, call: (backend: IdeBackend) => Promise<unknown>): Promise<unknown> {
  const a = await same(served, call);
  if (!('value' in a)) throw new Error(`expected a value, got ${JSON.stringify(a.error)}`);
  expect(a.value).not.toEqual([]);
  expect(a.value).toBeDefined();
  return a.value;
}

/** Asks both; expects the same error, with this code. */
async function sameError(served: Served, code: string, call: (backend: IdeBackend) => Promise<unknown>): Promise<void> {
  const a = await same(served, call);
  expect('error' in a ? a.error.code : a).toBe(code);
}

/** A status without what changes from one moment to the next (memory). */
function steady(status: ServerStatus): Omit<ServerStatus, 'memoryBytes'> {
  const { memoryBytes: _memory, ...rest } = status;
  return rest;
}

/**
 * Evaluates each program in a session on each backend (the IDE functions, unchanged, over the
 * port) and expects the same outcomes.
 */
async function sameOutcomes(served: Served, programs: readonly string[]): Promise<void> {
  const [direct, remote] = await Promise.all([served.direct, served.remote].map((backend) => IdeSession.open({ workspaceRoot: backend.workspace.root, backend, eager: false })));
  for (const program of programs) {
    const [a, b] = [await direct!.evaluate(program, { deadlineMs: READY_TIMEOUT_MS }), await remote!.evaluate(program, { deadlineMs: READY_TIMEOUT_MS })];
    expect(a.kind, program).toBe('value');
    expect(JSON.parse(JSON.stringify(b)), program).toEqual(JSON.parse(JSON.stringify(a)));
  }
}

/** Where an imported name comes from (`IdeBackend.importOf`), asked directly and through the port: the same, and found. */
async function sameImport(served: Served, name: string): Promise<void> {
  const direct = await served.direct.importOf(name);
  expect(direct).toBeDefined();
  expect(await served.remote.importOf(name)).toEqual(direct);
}

/** The checks every fixture shares: lifecycle, status, the handshake's local answers. */
async function lifecycleParity(served: Served, paths: readonly string[]): Promise<void> {
  const { direct, remote } = served;
  await remote.start();
  const [a, b] = [await direct.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS, paths }), await remote.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS, paths })];
  expect({ ...b, waitedMs: 0, servers: b.servers.map(steady) }).toEqual({ ...a, waitedMs: 0, servers: a.servers.map(steady) });
  expect(remote.servers().map(steady)).toEqual(direct.servers().map(steady));
  for (const path of [...paths, 'README.md', 'Makefile', 'x.RS', 'x.tsx', 'x.pyi', 'x.py', 'x.cpp', 'x.h']) {
    const local = (b: IdeBackend): unknown[] => [b.handles(path), b.relativeQualifiers(path), b.mergesOverloads?.(path) === true, b.isStub?.(path) === true];
    expect(local(remote), path).toEqual(local(direct));
  }
}

describe.skipIf(!(await serversAvailable('typescript')))('remote parity on fixtures/ts-monorepo (real TypeScript server)', () => {
  let s: Served;
  const SUBJECT = 'packages/core/src/subject.ts';
  const DISPOSABLE = 'packages/core/src/disposable.ts';
  beforeAll(async () => {
    s = await serveFixture('ts-monorepo');
  }, READY_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await s?.dispose();
  });

  it('lifecycle, status, handles and relativeQualifiers', async () => {
    await lifecycleParity(s, [SUBJECT, DISPOSABLE]);
  });

  it('symbols, definitions, references, hover, implementations, type definitions', async () => {
    await sameValue(s, (b) => b.workspaceSymbols('Subject'));
    await sameValue(s, (b) => b.documentSymbols(SUBJECT));
    const use = await s.at(SUBJECT, 'Subject<T>, fn');
    await sameValue(s, (b) => b.definition(SUBJECT, use));
    const declared = await s.at(SUBJECT, 'class Subject', { offset: 'class '.length });
    await sameValue(s, (b) => b.references(SUBJECT, declared));
    await sameValue(s, (b) => b.references(SUBJECT, declared, { includeDeclaration: true, limit: 2 }));
    await sameValue(s, (b) => b.hover(SUBJECT, declared));
    const iface = await s.at(DISPOSABLE, 'interface Disposable', { offset: 'interface '.length });
    await sameValue(s, (b) => b.implementation(DISPOSABLE, iface));
    const out = await s.at(SUBJECT, 'out = new');
    await sameValue(s, (b) => b.typeDefinition(SUBJECT, out));
    await sameValue(s, (b) => b.modulePath(SUBJECT));
    await sameValue(s, (b) => b.diagnostics(SUBJECT));
    await sameValue(s, (b) => b.diagnostics(undefined));
  });

  it('call hierarchies: the remote handle continues the hierarchy like the direct one', async () => {
    const subscribe = await s.at(SUBJECT, 'subscribe(observer');
    const [item] = (await sameValue(s, (b) => b.prepareCallHierarchy(SUBJECT, subscribe))) as Awaited<ReturnType<IdeBackend['prepareCallHierarchy']>>;
    if (item === undefined) throw new Error('no call hierarchy item');
    // Each backend continues from its own item (the remote one came over the wire).
    const [viaRemote] = await s.remote.prepareCallHierarchy(SUBJECT, subscribe);
    if (viaRemote === undefined) throw new Error('no remote call hierarchy item');
    const incoming = await s.direct.incomingCalls(item);
    expect(incoming.length).toBeGreaterThan(0);
    expect(await s.remote.incomingCalls(viaRemote)).toEqual(incoming);
    const map = await s.at(SUBJECT, 'function map', { offset: 'function '.length });
    const [mapItem] = await s.remote.prepareCallHierarchy(SUBJECT, map);
    if (mapItem === undefined) throw new Error('no call hierarchy item for map');
    const outgoing = await s.direct.outgoingCalls(mapItem);
    expect(outgoing.length).toBeGreaterThan(0);
    expect(await s.remote.outgoingCalls(mapItem)).toEqual(outgoing);
  });

  it('Dialect programs give the same outcomes through the remote backend', async () => {
    await sameOutcomes(s, [
      'findDefinitions("Subject")',
      'findReferences(findDefinition("Subject"))',
      'getSymbolInfo(findDefinition("Disposable"))',
      'implementations(findDefinition("Disposable"))',
      'callers(findDefinition("subscribe"))',
      `documentSymbols("${SUBJECT}")`,
    ]);
  });

  it('errors cross with their codes', async () => {
    const declared = await s.at(SUBJECT, 'class Subject', { offset: 'class '.length });
    await sameError(s, 'unsupported-by-server', (b) => b.prepareTypeHierarchy(SUBJECT, declared));
    await sameError(s, 'file-not-found', (b) => b.definition('packages/core/src/missing.ts', declared));
    await sameError(s, 'path-outside-workspace', (b) => b.hover('../outside.ts', declared));
  });
});

// Seen on python-attrs/attrs: through the background server, a package stub's declarations
// (`attr/__init__.pyi`) were not joined to their source, and its importers' uses were missing.
describe.runIf((await requireServer(pythonServer)) !== undefined)('remote parity on fixtures/py-inherited (real pyright)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveFixture('py-inherited');
  }, READY_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await s?.dispose();
  });

  it('what the handshake answers locally: handles, relativeQualifiers, mergesOverloads, isStub', async () => {
    await lifecycleParity(s, ['src/tally/_core.py', 'src/tally/__init__.pyi']);
    expect(s.remote.isStub('src/tally/__init__.pyi')).toBe(true);
  });

  it('Dialect programs give the same outcomes through the remote backend: a stub’s declarations, a failed lookup’s import', async () => {
    await sameOutcomes(s, ['findDefinitions("bump")', 'findReferences("bump")', 'findReferences("Counter.bumped")']);
    await sameImport(s, 'root');
  });
});

describe.skipIf(!(await serversAvailable('rust')))('remote parity on fixtures/rust-workspace (real rust-analyzer)', () => {
  let s: Served;
  const CORE = 'crates/core/src/lib.rs';
  const STORAGE = 'crates/storage/src/lib.rs';
  const MAIN = 'apps/cli/src/main.rs';
  beforeAll(async () => {
    s = await serveFixture('rust-workspace');
  }, READY_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await s?.dispose();
  });

  it('lifecycle, status, handles and relativeQualifiers', async () => {
    await lifecycleParity(s, [CORE, STORAGE]);
    expect(s.remote.relativeQualifiers(CORE)).toEqual(['self', 'super']);
  });

  it('symbols, definitions, references, hover, implementations, type definitions', async () => {
    await sameValue(s, (b) => b.workspaceSymbols('Ledger'));
    await sameValue(s, (b) => b.documentSymbols(CORE));
    const ledger = await s.at(STORAGE, 'Ledger');
    await sameValue(s, (b) => b.definition(STORAGE, ledger));
    const total = await s.at(CORE, 'fn total_balance', { offset: 'fn '.length });
    await sameValue(s, (b) => b.references(CORE, total));
    await sameValue(s, (b) => b.hover(CORE, total));
    const struct = await s.at(CORE, 'struct Ledger', { offset: 'struct '.length });
    await sameValue(s, (b) => b.implementation(CORE, struct));
    const petty = await s.at(MAIN, 'petty = ');
    await sameValue(s, (b) => b.typeDefinition(MAIN, petty));
    await sameValue(s, (b) => b.modulePath(STORAGE));
    await sameValue(s, (b) => b.diagnostics(CORE));
  });

  it('call hierarchies: the remote handle continues the hierarchy like the direct one', async () => {
    const total = await s.at(CORE, 'fn total_balance', { offset: 'fn '.length });
    const [item] = (await sameValue(s, (b) => b.prepareCallHierarchy(CORE, total))) as Awaited<ReturnType<IdeBackend['prepareCallHierarchy']>>;
    const [viaRemote] = await s.remote.prepareCallHierarchy(CORE, total);
    if (item === undefined || viaRemote === undefined) throw new Error('no call hierarchy item');
    const incoming = await s.direct.incomingCalls(item);
    expect(incoming.map((e) => e.item.symbol.location.path).sort()).toEqual(expect.arrayContaining([MAIN, STORAGE]));
    expect(await s.remote.incomingCalls(viaRemote)).toEqual(incoming);
    const book = await s.at(STORAGE, 'fn book', { offset: 'fn '.length });
    const [bookItem] = await s.remote.prepareCallHierarchy(STORAGE, book);
    if (bookItem === undefined) throw new Error('no call hierarchy item for book');
    const outgoing = await s.direct.outgoingCalls(bookItem);
    expect(outgoing.length).toBeGreaterThan(0);
    expect(await s.remote.outgoingCalls(bookItem)).toEqual(outgoing);
  });

  it('Dialect programs give the same outcomes through the remote backend', async () => {
    await sameOutcomes(s, ['findDefinitions("Ledger")', 'findReferences(findDefinition("total_balance"))', 'callers(findDefinition("total_balance"))', 'getSymbolInfo(findDefinition("Store"))', 'findDefinition("ws_core::Ledger")']);
  });

  it('errors cross with their codes', async () => {
    const total = await s.at(CORE, 'fn total_balance', { offset: 'fn '.length });
    await sameError(s, 'unsupported-by-server', (b) => b.prepareTypeHierarchy(CORE, total));
    await sameError(s, 'file-not-found', (b) => b.hover('crates/core/src/missing.rs', total));
    // rust-analyzer's own error response for a line past the end crosses as it is.
    await sameError(s, 'request-failed', (b) => b.references(CORE, { line: 10_000, column: 1 }));
  });
});
