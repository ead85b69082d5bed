/**
 * The remote protocol's faults and plumbing against the scriptable fake server, served over a real
 * Unix socket: cancellation reaches the language server, a client that vanishes mid-call leaves
 * the server healthy, a lost connection fails calls promptly with `background-server-lost`,
 * status notifications, error codes, the handshake's checks and local middleware.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DialectError } from '../../dialect/index.js';
import type { BackendRequest, ServerStatus } from '../backend.js';
import { LspBackend } from '../lsp-backend.js';
import { defineServer, type ServerDefinition } from '../lsp/servers.js';
import { RemoteCode } from '../remote/errors.js';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { DIALECT_ERROR_CODE, PROTOCOL_VERSION, RemoteMethod, ServerInfoSchema } from '../remote/protocol.js';
import { connectRemoteBackend, type RemoteBackend } from '../remote/remote-backend.js';
import { socketConnection } from '../remote/transport.js';
import { Workspace } from '../workspace.js';
import { helloOf, serveOnSocket, type ServedBackend } from './support/remote.js';
import { fakeServerScript, positionOf } from './support/servers.js';

/** The fake server for `*.fake` files with extra arguments. */
function fake(...args: string[]): ServerDefinition {
  return defineServer({ id: 'fake', displayName: 'fake', command: fakeServerScript, args, languages: [{ languageId: 'fakelang', extensions: ['.fake'] }], filePatterns: ['*.fake'] });
}

/** What the fake server saw. */
interface FakeStats {
  readonly cancelled: number;
  readonly hovers: number;
}

const TEXT = 'class Shape\nclass Circle extends Shape\n';

let root: string;
let workspace: Workspace;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-remote-faults-'));
  await writeFile(join(root, 'main.fake'), TEXT);
  workspace = new Workspace(root);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A backend on the fake server, served on a socket; everything is stopped after the test. */
async function served(...args: string[]): Promise<{ backend: LspBackend; served: ServedBackend; stats: () => Promise<FakeStats> }> {
  const backend = new LspBackend(workspace, { definitions: [fake(...args)], trusted: true, restartDelayMs: 10, maxRestarts: 1 });
  const s = await serveOnSocket(backend);
  cleanups.push(() => backend.shutdown(), () => s.close());
  const stats = async (): Promise<FakeStats> => (await backend.pool.server('fake')).request('fake/stats', {});
  return { backend, served: s, stats };
}

/** A client; closed after the test. */
async function client(socketPath: string): Promise<RemoteBackend> {
  const remote = await connectRemoteBackend(socketPath, workspace);
  cleanups.push(() => remote.shutdown());
  return remote;
}

/** Waits until `check` holds, re-checking on each status or stats poll of the fake (it has no events to wait on). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setImmediate(resolve));
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<DialectError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DialectError)) throw new Error(`expected a DialectError, got ${String(error)}`);
  return error;
}

const at = positionOf(TEXT, 'Shape', 1);
const position = { line: at.line, column: at.column };

describe('the remote protocol (fake server over a Unix socket)', () => {
  it('aborting a call on the client sends $/cancelRequest to the language server', async () => {
    const { served: s, stats } = await served('--slow-hover');
    const remote = await client(s.socketPath);
    const controller = new AbortController();
    const pending = remote.hover('main.fake', position, { signal: controller.signal });
    await until(async () => (await stats()).hovers === 1);
    controller.abort();
    expect((await rejection(pending)).code).toBe('request-cancelled');
    await until(async () => (await stats()).cancelled === 1);
  });

  it('a client that disappears mid-call has its request cancelled, and the server answers the next client', async () => {
    const { served: s, stats } = await served('--slow-hover', '--types');
    const socket = connect(s.socketPath);
    const connection = socketConnection(socket);
    connection.listen();
    await connection.sendRequest(RemoteMethod.Hello, { protocolVersion: PROTOCOL_VERSION });
    void connection.sendRequest(RemoteMethod.Hover, { path: 'main.fake', position }).catch(() => undefined);
    await until(async () => (await stats()).hovers === 1);
    socket.destroy();
    await until(async () => (await stats()).cancelled === 1);
    const next = await client(s.socketPath);
    const [definition] = await next.definition('main.fake', position);
    const declared = positionOf(TEXT, 'Shape');
    expect(definition?.start).toEqual({ line: declared.line, column: declared.column });
  });

  it('a server that goes away mid-call fails the call with background-server-lost, and every later one', async () => {
    const { served: s, stats } = await served('--slow-hover');
    const remote = await client(s.socketPath);
    const closed = new Promise<DialectError | undefined>((resolve) => remote.onClose(resolve));
    const pending = rejection(remote.hover('main.fake', position));
    await until(async () => (await stats()).hovers === 1);
    await s.close();
    const error = await pending;
    expect(error.code).toBe(RemoteCode.ServerLost);
    expect(error.hint).toContain('--no-server');
    expect((await closed)?.code).toBe(RemoteCode.ServerLost);
    expect((await rejection(remote.definition('main.fake', position))).code).toBe(RemoteCode.ServerLost);
  });

  it('status notifications reach onStatus and servers(): indexing, then ready', async () => {
    const { backend, served: s } = await served('--mode=progress', '--hold-progress');
    const remote = await client(s.socketPath);
    const seen: ServerStatus[] = [];
    const stateSeen = (state: string): Promise<void> =>
      new Promise((resolve) => {
        const check = (status: ServerStatus): void => {
          seen.push(status);
          if (status.state === state) resolve();
        };
        remote.onStatus(check);
      });
    const indexing = stateSeen('indexing');
    const ready = stateSeen('ready');
    await remote.start();
    await indexing;
    expect(remote.servers().map((x) => [x.id, x.state])).toEqual([['fake', 'indexing']]);
    await (await backend.pool.server('fake')).request('fake/finish-progress', {});
    await ready;
    expect(remote.servers()).toEqual(backend.servers().map(({ memoryBytes: _memory, ...rest }) => expect.objectContaining(rest) as unknown));
    expect(seen.some((x) => x.state === 'indexing' && x.progress?.title === 'Indexing')).toBe(true);
  });

  it('error codes, hints and messages cross unchanged', async () => {
    const { backend, served: s } = await served();
    const remote = await client(s.socketPath);
    for (const call of [
      (b: typeof remote | typeof backend) => b.prepareTypeHierarchy('main.fake', position), // unsupported-by-server
      (b: typeof remote | typeof backend) => b.definition('missing.fake', position), // file-not-found
      (b: typeof remote | typeof backend) => b.hover('../outside.fake', position), // path-outside-workspace
      (b: typeof remote | typeof backend) => b.documentSymbols('notes.txt'), // no language server
    ]) {
      const direct = await rejection(call(backend));
      const across = await rejection(call(remote));
      expect({ code: across.code, message: across.message, hint: across.hint, notes: across.notes }).toEqual({ code: direct.code, message: direct.message, hint: direct.hint, notes: direct.notes });
    }
    const codes = await Promise.all([rejection(remote.prepareTypeHierarchy('main.fake', position)), rejection(remote.definition('missing.fake', position))]);
    expect(codes.map((e) => e.code)).toEqual(['unsupported-by-server', 'file-not-found']);
  });

  it('answers handles and relativeQualifiers from the handshake, and runs middleware locally', async () => {
    const { served: s } = await served();
    const remote = await client(s.socketPath);
    expect([remote.handles('main.fake'), remote.handles('a/b.FAKE'), remote.handles('notes.txt'), remote.handles('Makefile')]).toEqual([true, true, false, false]);
    expect(remote.handles('src/lib.rs')).toBe(true); // the built-in servers are known too
    expect(remote.relativeQualifiers('src/lib.rs')).toEqual(['self', 'super']);
    expect(remote.relativeQualifiers('main.fake')).toEqual([]);
    const requests: string[] = [];
    const remove = remote.use(async <T,>(request: BackendRequest, next: () => Promise<T>) => {
      requests.push(`${request.method} ${request.target}`);
      return next();
    });
    await remote.definition('main.fake', position);
    remove();
    await remote.definition('main.fake', position);
    expect(requests).toEqual([`${RemoteMethod.Definition} main.fake:${position.line}:${position.column}`]);
  });

  it('refuses a server of another protocol version or workspace, and says when nothing listens', async () => {
    const backend = new LspBackend(workspace, { definitions: [fake()], trusted: true });
    cleanups.push(() => backend.shutdown());
    const other = await mkdtemp(join(tmpdir(), 'dialect-remote-other-'));
    cleanups.push(() => rm(other, { recursive: true, force: true }));
    const newer = await serveOnSocket(backend, { hello: () => helloOf(backend, { protocolVersion: PROTOCOL_VERSION + 1 }) });
    const elsewhere = await serveOnSocket(backend, { hello: () => helloOf(backend, { workspaceRoot: other }) });
    cleanups.push(() => newer.close(), () => elsewhere.close());
    const version = await rejection(connectRemoteBackend(newer.socketPath, workspace));
    expect([version.code, version.message]).toEqual([RemoteCode.ProtocolMismatch, expect.stringContaining(`protocol ${PROTOCOL_VERSION + 1}`)]);
    const root = await rejection(connectRemoteBackend(elsewhere.socketPath, workspace));
    expect([root.code, root.message]).toEqual([RemoteCode.ProtocolMismatch, expect.stringContaining(other)]);
    const nothing = await rejection(connectRemoteBackend(join(other, 'none.sock'), workspace));
    expect(nothing.code).toBe(RemoteCode.ServerLost);
    expect((nothing.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('shutdown() closes only the connection: the served backend keeps its servers', async () => {
    const { backend, served: s } = await served('--types');
    const remote = await client(s.socketPath);
    await remote.definition('main.fake', position);
    const pid = backend.servers()[0]?.pid;
    await remote.shutdown();
    expect((await rejection(remote.definition('main.fake', position))).code).toBe('server-stopped');
    const again = await client(s.socketPath);
    expect(await again.definition('main.fake', position)).toHaveLength(1);
    expect(backend.servers()[0]?.pid).toBe(pid);
    expect(['crashed', 'stopped']).not.toContain(backend.servers()[0]?.state);
  });

  it('serves dialect/info and dialect/stop, reports activity, refuses invalid params and never serves shutdown', async () => {
    const backend = new LspBackend(workspace, { definitions: [fake()], trusted: true });
    cleanups.push(() => backend.shutdown());
    let activity = 0;
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const s = await serveOnSocket(backend, { onStop: () => stop(), onActivity: () => activity++ });
    cleanups.push(() => s.close());
    const socket = connect(s.socketPath);
    cleanups.push(async () => void socket.destroy());
    const connection = socketConnection(socket);
    connection.listen();
    const info = ServerInfoSchema.parse(await connection.sendRequest(RemoteMethod.Info, {}));
    expect(info).toMatchObject({ protocolVersion: PROTOCOL_VERSION, workspaceRoot: workspace.root, pid: process.pid, connections: 1 });
    expect(info.memoryBytes).toBeGreaterThan(0);
    const invalid = await connection.sendRequest(RemoteMethod.Definition, { path: 3, position }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(invalid).toBeInstanceOf(ResponseError);
    expect([(invalid as ResponseError<{ code: string }>).code, (invalid as ResponseError<{ code: string }>).data?.code]).toEqual([DIALECT_ERROR_CODE, RemoteCode.ProtocolMismatch]);
    const shutdown = await connection.sendRequest('ide/shutdown', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((shutdown as ResponseError).code).toBe(ErrorCodes.MethodNotFound); // clients never stop the shared servers
    expect(await connection.sendRequest(RemoteMethod.Stop, {})).toBeNull();
    await stopped;
    expect(activity).toBeGreaterThanOrEqual(4); // info and stop, each at start and end
  });

  it('type hierarchies continue from an item that came over the wire (handles pass through)', async () => {
    const { backend, served: s } = await served('--types');
    const remote = await client(s.socketPath);
    const circle = positionOf(TEXT, 'Circle');
    const [direct] = await backend.prepareTypeHierarchy('main.fake', circle);
    const [across] = await remote.prepareTypeHierarchy('main.fake', circle);
    expect(across).toEqual(direct);
    if (direct === undefined || across === undefined) throw new Error('no type hierarchy item');
    const supertypes = await remote.typeHierarchy(across, 'super');
    expect(supertypes.map((t) => t.symbol.name)).toEqual(['Shape']);
    expect(supertypes).toEqual(await backend.typeHierarchy(direct, 'super'));
    const [shape] = supertypes;
    if (shape === undefined) throw new Error('no supertype');
    expect((await remote.typeHierarchy(shape, 'sub')).map((t) => t.symbol.name)).toEqual(['Circle']);
  });

  it('a server that accepts but never answers the handshake fails the connection at its deadline; the caller can abort it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-remote-mute-'));
    const accepted: Socket[] = [];
    const mute = createServer((socket) => void accepted.push(socket));
    const socketPath = join(dir, 'mute.sock');
    await new Promise<void>((resolve) => mute.listen(socketPath, resolve));
    cleanups.push(async () => {
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => mute.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    });
    const late = await rejection(connectRemoteBackend(socketPath, workspace, { timeoutMs: 100 }));
    expect([late.code, late.message]).toEqual([RemoteCode.ServerLost, expect.stringContaining('deadline')]);
    const controller = new AbortController();
    const pending = rejection(connectRemoteBackend(socketPath, workspace, { signal: controller.signal }));
    controller.abort();
    expect((await pending).code).toBe('request-cancelled');
  });
});
