/**
 * The client side of the remote protocol: an `IdeBackend` whose answers come from another process
 * (the background server) over one socket. Functions, the CLI and MCP use it like any backend.
 * What must be synchronous (`handles`, `relativeQualifiers`, `mergesOverloads`, `isStub`, `servers`) is answered locally from
 * the handshake and the `ide/status` notifications; middleware wraps calls here, in the client.
 * Aborting a call sends `$/cancelRequest`; when the connection goes, every pending and later call
 * fails with `background-server-lost`, whose hint says the call can be answered in-process.
 */
import { connect, type Socket } from 'node:net';
import { extname } from 'node:path';
import { CancellationTokenSource, ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { DialectError } from '../../dialect/outcome.js';
import type {
  BackendCallOptions,
  DiagnosticsOptions,
  WorkspaceSymbolOptions,
  BackendMiddleware,
  BackendRequest,
  BackendSymbol,
  CallEdge,
  CallItem,
  Completeness,
  DiagnosticReport,
  HoverInfo,
  IdeBackend,
  ImportedName,
  OutlineSymbol,
  ReadyOptions,
  ReferenceList,
  ReferenceOptions,
  ServerStatus,
  TypeItem,
  UnbuiltDeclaration,
} from '../backend.js';
import { onAbort } from '../lsp/abort.js';
import { asDialectError, LspClientError } from '../lsp/errors.js';
import type { Location, Position } from '../model.js';
import { TIMEOUTS } from '../timeouts.js';
import { Workspace } from '../workspace.js';
import { isInside } from '../confine.js';
import { fromResponseError, protocolMismatch, serverLost } from './errors.js';
import { StatusBook } from './status-book.js';
import { PROTOCOL_VERSION, RemoteMethod, RemoteNotification, type RemoteMethodName } from './methods.js';
import type { HelloInfo, ParamsOf, ResultOf } from './protocol.js';
import { socketConnection } from './transport.js';
import { announcedVersion, checkHello, isServerStatus } from './wire-checks.js';

/** Options of {@link connectRemoteBackend}. */
export interface RemoteConnectOptions {
  /** Aborts connecting (and the handshake). */
  readonly signal?: AbortSignal;
  /** Deadline of connecting and the handshake; default `TIMEOUTS.remote.connectMs`. */
  readonly timeoutMs?: number;
  /**
   * Also accept a server whose root contains the workspace (an editor window on a parent folder);
   * the backend is then in the server's root, for `SubfolderBackend` to translate.
   */
  readonly containing?: boolean;
}

/** Called once when the connection closes: with the error when it was lost, without when `shutdown()` closed it. */
export type RemoteCloseListener = (lost: DialectError | undefined) => void;

/**
 * Connects to the background server listening on `socketPath`, checks its handshake (the same
 * protocol version, the same workspace root as `workspace`) and returns the backend. Fails with
 * `background-server-lost` when nothing answers there (its `cause` is the socket error, e.g.
 * `ENOENT`, `ECONNREFUSED`), `remote-protocol-mismatch` for a server of another protocol or
 * workspace, `request-cancelled` when `signal` aborts.
 */
export async function connectRemoteBackend(socketPath: string, workspace: Workspace, options: RemoteConnectOptions = {}): Promise<RemoteBackend> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? TIMEOUTS.remote.connectMs);
  const signal = options.signal !== undefined ? AbortSignal.any([options.signal, deadline]) : deadline;
  const socket = await openSocket(socketPath, signal, () => options.signal?.aborted === true);
  const connection = socketConnection(socket);
  const book = new StatusBook();
  connection.onNotification(RemoteNotification.Status, (raw: unknown) => {
    if (isServerStatus(raw)) book.update(raw);
  });
  connection.listen();
  try {
    const raw = await handshake(connection, socket, signal, () => connectFailure(options.signal?.aborted === true, socketPath, 'waiting for its handshake'));
    // The version first: the rest of the handshake's shape is that version's.
    const version = announcedVersion(raw);
    if (version !== PROTOCOL_VERSION) {
      throw protocolMismatch(`the background server at ${socketPath} speaks protocol ${version ?? '(none)'}, this client ${PROTOCOL_VERSION}`);
    }
    const hello = checkHello(raw);
    if (typeof hello === 'string') throw protocolMismatch(`the background server at ${socketPath} sent an invalid handshake: ${hello}`);
    const served = hello.workspaceRoot;
    if (served !== workspace.root && !(options.containing === true && isInside(served, workspace.root))) {
      throw protocolMismatch(`the background server at ${socketPath} serves ${served}, not ${options.containing === true ? 'a folder containing ' : ''}${workspace.root}`);
    }
    // The hello's snapshot is newer than any notification before it on the wire.
    book.seed(hello.servers);
    return new RemoteBackend(served === workspace.root ? workspace : new Workspace(served), hello, connection, socket, book);
  } catch (error) {
    connection.dispose();
    socket.destroy();
    if (error instanceof DialectError) throw error;
    throw error instanceof ResponseError ? fromResponseError(error, RemoteMethod.Hello) : serverLost(`the handshake at ${socketPath}`, error instanceof Error ? error.message : String(error));
  }
}

/** Sends `dialect/hello`; rejects when `signal` aborts (cancelling it) or the socket closes first. */
function handshake(connection: MessageConnection, socket: Socket, signal: AbortSignal, aborted: () => DialectError): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const source = new CancellationTokenSource();
    let done = false;
    let unsubscribe = (): void => undefined;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      unsubscribe();
      socket.off('close', onSocketClose);
      source.dispose();
      settle();
    };
    const onSocketClose = (): void => finish(() => reject(serverLost('the handshake', 'the connection closed')));
    const failed = (error: unknown): void => finish(() => reject(error instanceof Error ? error : new Error(String(error))));
    socket.once('close', onSocketClose);
    try {
      const params: ParamsOf<typeof RemoteMethod.Hello> = { protocolVersion: PROTOCOL_VERSION };
      connection.sendRequest(RemoteMethod.Hello, params, source.token).then((raw: unknown) => finish(() => resolve(raw)), failed);
    } catch (error) {
      failed(error);
    }
    // Last: an already aborted signal calls back at once.
    unsubscribe = onAbort(signal, () => {
      source.cancel();
      finish(() => reject(aborted()));
    });
  });
}

/** Language intelligence from a background server, over one connection. */
export class RemoteBackend implements IdeBackend {
  /** What the server said in the handshake (its build, workspace, trust, languages, pid). */
  readonly hello: HelloInfo;
  readonly #connection: MessageConnection;
  readonly #socket: Socket;
  readonly #book: StatusBook;
  readonly #pending = new Set<(error: DialectError) => void>();
  readonly #closeListeners = new Set<RemoteCloseListener>();
  #middleware: readonly BackendMiddleware[] = [];
  /** Why calls can no longer be answered, once the connection is gone. */
  #closed: (() => DialectError) | undefined;

  /** Use {@link connectRemoteBackend}: it makes the connection and checks the handshake. */
  constructor(
    readonly workspace: Workspace,
    hello: HelloInfo,
    connection: MessageConnection,
    socket: Socket,
    book: StatusBook,
  ) {
    this.hello = hello;
    this.#connection = connection;
    this.#socket = socket;
    this.#book = book;
    connection.onClose(() => this.#close(serverLost('the connection closed')));
    connection.onError(([error]) => this.#close(serverLost('the connection failed', error.message)));
    socket.once('close', () => this.#close(serverLost('the connection closed')));
    // A socket error is followed by its close, which is what fails the calls; never an uncaught 'error'.
    socket.on('error', () => undefined);
  }

  workspaceSymbols(query: string, options: WorkspaceSymbolOptions = {}): Promise<BackendSymbol[]> {
    return this.#request(RemoteMethod.WorkspaceSymbols, JSON.stringify(query), { query, ...(options.exact === true ? { exact: true } : {}) }, options);
  }

  documentSymbols(path: string, options: BackendCallOptions = {}): Promise<OutlineSymbol[]> {
    return this.#request(RemoteMethod.DocumentSymbols, path, { path }, options);
  }

  definition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(RemoteMethod.Definition, at(path, position), { path, position }, options);
  }

  references(path: string, position: Position, options: ReferenceOptions = {}): Promise<ReferenceList> {
    const { includeDeclaration, limit, name } = options;
    return this.#request(RemoteMethod.References, at(path, position), { path, position, includeDeclaration, limit, name }, options);
  }

  async hover(path: string, position: Position, options: BackendCallOptions = {}): Promise<HoverInfo | undefined> {
    return (await this.#request(RemoteMethod.Hover, at(path, position), { path, position }, options)) ?? undefined;
  }

  implementation(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(RemoteMethod.Implementation, at(path, position), { path, position }, options);
  }

  prepareCallHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<CallItem[]> {
    return this.#request(RemoteMethod.PrepareCallHierarchy, at(path, position), { path, position }, options);
  }

  incomingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request(RemoteMethod.IncomingCalls, item.symbol.name, { item: wire(item) }, options);
  }

  outgoingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request(RemoteMethod.OutgoingCalls, item.symbol.name, { item: wire(item) }, options);
  }

  typeDefinition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(RemoteMethod.TypeDefinition, at(path, position), { path, position }, options);
  }

  prepareTypeHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<TypeItem[]> {
    return this.#request(RemoteMethod.PrepareTypeHierarchy, at(path, position), { path, position }, options);
  }

  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options: BackendCallOptions = {}): Promise<TypeItem[]> {
    return this.#request(RemoteMethod.TypeHierarchy, item.symbol.name, { item: wire(item), direction }, options);
  }

  diagnostics(path: string | undefined, options: DiagnosticsOptions = {}): Promise<DiagnosticReport> {
    return this.#request(RemoteMethod.Diagnostics, path ?? '(every analysed file)', { path, ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}) }, options);
  }

  /** The serving editor's selection; a server that is no editor answers `no-editor`. */
  async selection(options: BackendCallOptions = {}): Promise<Location | undefined> {
    return (await this.#request(RemoteMethod.Selection, '', {}, options)) ?? undefined;
  }

  modulePath(path: string): Promise<string[][]> {
    return this.#request(RemoteMethod.ModulePath, path, { path }, {});
  }

  unbuiltDeclarations(name: string, qualifiers: readonly string[], options: BackendCallOptions = {}): Promise<UnbuiltDeclaration[]> {
    return this.#request(RemoteMethod.UnbuiltDeclarations, name, { name, qualifiers: [...qualifiers] }, options);
  }

  importOf(name: string, options: BackendCallOptions = {}): Promise<ImportedName | undefined> {
    return this.#request(RemoteMethod.ImportOf, JSON.stringify(name), { name }, options).then((found) => found ?? undefined);
  }

  relativeQualifiers(path: string): readonly string[] {
    return this.#language(path)?.relativeQualifiers ?? [];
  }

  mergesOverloads(path: string): boolean {
    return this.#language(path)?.mergesOverloads === true;
  }

  isStub(path: string): boolean {
    return (this.#language(path)?.stubExtensions ?? []).some((e) => path.endsWith(e));
  }

  handles(path: string): boolean {
    return this.#language(path) !== undefined;
  }

  async start(): Promise<void> {
    await this.#send(RemoteMethod.Start, {}, undefined);
  }

  waitUntilReady(options: ReadyOptions = {}): Promise<Completeness> {
    const { timeoutMs, paths, onlyPaths } = options;
    return this.#request(RemoteMethod.WaitUntilReady, '', { timeoutMs, paths: paths !== undefined ? [...paths] : undefined, onlyPaths }, options);
  }

  /** Closes this client's connection only: the background server keeps its language servers warm for the next call. */
  async shutdown(): Promise<void> {
    this.#close(undefined);
  }

  servers(): ServerStatus[] {
    return this.#book.list();
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    return this.#book.subscribe(listener);
  }

  use(middleware: BackendMiddleware): () => void {
    // A copy per change: a call in flight keeps the chain it started with.
    this.#middleware = [...this.#middleware, middleware];
    return () => {
      this.#middleware = this.#middleware.filter((m) => m !== middleware);
    };
  }

  /** Calls `listener` once when the connection closes (see {@link RemoteCloseListener}); returns the unsubscribe function. */
  onClose(listener: RemoteCloseListener): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** One call of the port through the local middleware (outermost first). */
  #request<M extends RemoteMethodName>(method: M, target: string, params: ParamsOf<M>, options: BackendCallOptions): Promise<ResultOf<M>> {
    const request: BackendRequest = { method, target };
    const run = (): Promise<ResultOf<M>> => this.#send(method, params, options.signal);
    const chain = this.#middleware.reduceRight<() => Promise<ResultOf<M>>>((next, middleware) => () => middleware(request, next), run);
    return chain();
  }

  /**
   * Sends one request and resolves with its answer. Aborting `signal` sends `$/cancelRequest` and
   * rejects at once; a lost connection rejects every pending call with `background-server-lost`.
   */
  #send<M extends RemoteMethodName>(method: M, params: ParamsOf<M>, signal: AbortSignal | undefined): Promise<ResultOf<M>> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed());
    if (signal?.aborted === true) return Promise.reject(cancelled(method));
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const source = new CancellationTokenSource();
      let settled = false;
      let unsubscribe = (): void => undefined;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        this.#pending.delete(fail);
        unsubscribe();
        source.dispose();
        finish();
      };
      const fail = (error: DialectError): void => settle(() => reject(error));
      this.#pending.add(fail);
      unsubscribe = onAbort(signal, () => {
        source.cancel();
        fail(cancelled(method));
      });
      let sent: Promise<unknown>;
      try {
        sent = this.#connection.sendRequest(method, stripUndefined(params), source.token);
      } catch (error) {
        // A connection that closed a moment ago throws at once, before its close event.
        fail(this.#callError(method, error));
        return;
      }
      sent.then(
        // Not validated: the handshake established the protocol (wire-checks.ts says why).
        (raw: unknown) => settle(() => resolve(raw as ResultOf<M>)),
        (error: unknown) => fail(this.#callError(method, error)),
      );
    });
  }

  /** The `DialectError` a failed send stands for. */
  #callError(method: string, error: unknown): DialectError {
    if (this.#closed !== undefined) return this.#closed();
    if (error instanceof ResponseError && error.code !== ErrorCodes.PendingResponseRejected && error.code !== ErrorCodes.ConnectionInactive) return fromResponseError(error, method);
    return serverLost(method, error instanceof Error ? error.message : String(error));
  }

  /** Ends the connection once: pending calls fail, later calls fail at once, close listeners hear why. */
  #close(lost: DialectError | undefined): void {
    if (this.#closed !== undefined) return;
    this.#closed = lost !== undefined ? () => serverLost('the connection is gone', lost.message) : () => closedByClient();
    for (const fail of [...this.#pending]) fail(lost ?? closedByClient());
    this.#pending.clear();
    this.#connection.dispose();
    this.#socket.destroy();
    for (const listener of [...this.#closeListeners]) {
      try {
        listener(lost);
      } catch {
        // A faulty listener must not keep the others from hearing.
      }
    }
    this.#closeListeners.clear();
  }

  /** The language of a file by extension, first match wins (as the server matches them). */
  #language(path: string): HelloInfo['languages'][number] | undefined {
    const ext = extname(path).toLowerCase();
    if (ext === '') return undefined;
    return this.hello.languages.find((l) => l.extensions.includes(ext));
  }
}

/** Connects a socket, failing on `signal` (the caller's or the deadline). */
function openSocket(socketPath: string, signal: AbortSignal, byCaller: () => boolean): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect(socketPath);
    const unsubscribe = onAbort(signal, () => {
      socket.destroy();
      reject(connectFailure(byCaller(), socketPath, 'connecting'));
    });
    socket.once('connect', () => {
      unsubscribe();
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      unsubscribe();
      reject(new DialectError({ code: serverLost(socketPath).code, message: `no background server answers at ${socketPath} (${error.code ?? error.message})`, hint: serverLost(socketPath).hint, cause: error }));
    });
  });
}

/** The error of a connection attempt that was aborted (by the caller) or ran out of time. */
function connectFailure(byCaller: boolean, socketPath: string, what: string): DialectError {
  return byCaller ? cancelled(`connecting to ${socketPath}`) : serverLost(`${what} at ${socketPath}`, `no answer within the connection deadline`);
}

/** The error of a call its caller aborted (the interpreter reports the abort's own reason). */
function cancelled(method: string): DialectError {
  return asDialectError(new LspClientError('request-cancelled', `${method} was cancelled`));
}

/** The error of a call made after `shutdown()`. */
function closedByClient(): DialectError {
  return asDialectError(new LspClientError('server-stopped', 'this client closed its connection to the background server', { hint: 'connect again for a new backend' }));
}

/** `src/a.rs:3:7`: a call's target for middleware (as `LspBackend` writes it). */
function at(path: string, p: Position): string {
  return `${path}:${p.line}:${p.column}`;
}

/** A hierarchy item as the protocol sends it (its handle is the backend's JSON). */
function wire<T extends CallItem | TypeItem>(item: T): ParamsOf<typeof RemoteMethod.IncomingCalls>['item'] {
  return item as ParamsOf<typeof RemoteMethod.IncomingCalls>['item'];
}

/** Params without the absent options (JSON would drop them anyway; this keeps the message minimal). */
function stripUndefined<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as T;
}
