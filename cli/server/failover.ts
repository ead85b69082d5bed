/**
 * `FailoverBackend`: the background server's backend with a way out. Calls go to the remote
 * backend; when it is lost (`background-server-lost`: the server died or its connection broke,
 * mid-call or between calls) the backend switches for good to an in-process backend, created
 * (and its LSP client loaded) only then, lets it index, and answers the failed call there — once. Every command gets the
 * fault handling from this one mechanism, and says so: the notice goes to `onFailover` listeners
 * and into the warnings of every later readiness wait (so answers carry it as a note).
 */
import type {
  BackendCallOptions,
  BackendMiddleware,
  BackendSymbol,
  CallEdge,
  CallItem,
  Completeness,
  HoverInfo,
  IdeBackend,
  ImportedName,
  UnbuiltDeclaration,
  OutlineSymbol,
  ReadyOptions,
  ReferenceList,
  ReferenceOptions,
  ServerStatus,
  DiagnosticReport,
  TypeItem,
  BackendKind,
} from '../../ide-adapter/backend.js';
import type { Location, Position } from '../../ide-adapter/model.js';
import type { Workspace } from '../../ide-adapter/workspace.js';
import { RemoteCode } from '../../ide-adapter/remote/codes.js';
import { noEditor } from '../../ide-adapter/backend.js';

/** How the in-process backend is made and how long a failed-over call lets it index. */
export interface FailoverOptions {
  /** Makes the in-process backend (the same servers, trust and environment the server had); it loads the LSP client. */
  readonly local: () => Promise<IdeBackend>;
  /** How long the first failed-over call waits for the in-process servers to index. */
  readonly readyTimeoutMs: number;
  /** Who answers through the remote backend (default `spawned`: the background server's language servers). */
  readonly answeredBy?: BackendKind;
}

/** Whether an error says the background server is gone. */
export function isServerLost(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === RemoteCode.ServerLost;
}

/** An `IdeBackend` over a remote one that falls back to an in-process backend when the remote's server is lost. */
export class FailoverBackend implements IdeBackend {
  readonly workspace: Workspace;
  readonly #remote: IdeBackend;
  readonly #options: FailoverOptions;
  /** The in-process backend, once made (calls before that still see the remote's last state). */
  #local: IdeBackend | undefined;
  /** Resolves with the in-process backend once it is made (its LSP client loaded). */
  #localMade: Promise<IdeBackend> | undefined;
  /** Resolves with the in-process backend once it has also started and waited for its index (first failed-over call). */
  #localReady: Promise<IdeBackend> | undefined;
  #notice: string | undefined;
  readonly #statusListeners = new Set<(status: ServerStatus) => void>();
  readonly #failoverListeners = new Set<(notice: string) => void>();
  /** Middleware added through {@link use}, with the functions that remove it from each backend it was added to. */
  readonly #middleware = new Map<BackendMiddleware, (() => void)[]>();
  #unsubscribe: () => void;

  constructor(remote: IdeBackend, options: FailoverOptions) {
    this.workspace = remote.workspace;
    this.#remote = remote;
    this.#options = options;
    this.#unsubscribe = remote.onStatus((s) => this.#emit(s));
  }

  /** True once calls go to the in-process backend. */
  get failedOver(): boolean {
    return this.#notice !== undefined;
  }

  /** Who answers: the remote's kind until the failover, then our own spawned servers. */
  get answeredBy(): BackendKind {
    return this.#notice !== undefined ? 'spawned' : (this.#options.answeredBy ?? 'spawned');
  }

  /** What the user is told about the failover (undefined before it). */
  get notice(): string | undefined {
    return this.#notice;
  }

  /** Calls `listener` once, when the backend fails over, with the notice; returns the unsubscribe function. */
  onFailover(listener: (notice: string) => void): () => void {
    this.#failoverListeners.add(listener);
    return () => this.#failoverListeners.delete(listener);
  }

  /**
   * The editor's selection, never failed over: Dialect's own servers have no editor, so after a
   * failover (or when the connection is lost now) it is `no-editor`.
   */
  async selection(options?: BackendCallOptions): Promise<Location | undefined> {
    const remote = this.#remote;
    if (this.#local !== undefined || remote.selection === undefined) throw noEditor(this.#notice ?? 'Dialect answers with its own language servers');
    try {
      return await remote.selection(options);
    } catch (error) {
      if (isServerLost(error)) throw noEditor(`the editor stopped answering (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : ''})`);
      throw error;
    }
  }

  workspaceSymbols(query: string, options?: BackendCallOptions): Promise<BackendSymbol[]> {
    return this.#call((b) => b.workspaceSymbols(query, options), options);
  }
  documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]> {
    return this.#call((b) => b.documentSymbols(path, options), options);
  }
  definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#call((b) => b.definition(path, position, options), options);
  }
  references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList> {
    return this.#call((b) => b.references(path, position, options), options);
  }
  hover(path: string, position: Position, options?: BackendCallOptions): Promise<HoverInfo | undefined> {
    return this.#call((b) => b.hover(path, position, options), options);
  }
  implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#call((b) => b.implementation(path, position, options), options);
  }
  prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]> {
    return this.#call((b) => b.prepareCallHierarchy(path, position, options), options);
  }
  incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#call((b) => b.incomingCalls(item, options), options);
  }
  outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#call((b) => b.outgoingCalls(item, options), options);
  }
  typeDefinition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#call((b) => b.typeDefinition(path, position, options), options);
  }
  prepareTypeHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#call((b) => b.prepareTypeHierarchy(path, position, options), options);
  }
  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#call((b) => b.typeHierarchy(item, direction, options), options);
  }
  diagnostics(path: string | undefined, options?: BackendCallOptions): Promise<DiagnosticReport> {
    return this.#call((b) => b.diagnostics(path, options), options);
  }
  unbuiltDeclarations(name: string, qualifiers: readonly string[], options?: BackendCallOptions): Promise<UnbuiltDeclaration[]> {
    return this.#call(async (b) => (await b.unbuiltDeclarations?.(name, qualifiers, options)) ?? [], options);
  }
  modulePath(path: string): Promise<string[][]> {
    return this.#call((b) => b.modulePath(path), {});
  }
  importOf(name: string, options?: BackendCallOptions): Promise<ImportedName | undefined> {
    return this.#call(async (b) => b.importOf?.(name, options), options);
  }
  relativeQualifiers(path: string): readonly string[] {
    return this.#active().relativeQualifiers(path);
  }
  mergesOverloads(path: string): boolean {
    return this.#active().mergesOverloads?.(path) === true;
  }
  isStub(path: string): boolean {
    return this.#active().isStub?.(path) === true;
  }
  handles(path: string): boolean {
    return this.#active().handles(path);
  }

  async start(): Promise<void> {
    try {
      await this.#call((b) => b.start(), {});
    } catch {
      // start never throws (the port's contract); a lost server shows on the next call
    }
  }

  async waitUntilReady(options?: ReadyOptions): Promise<Completeness> {
    const completeness = await this.#call((b) => b.waitUntilReady(options), options ?? {});
    const notice = this.#notice;
    return notice === undefined ? completeness : { ...completeness, warnings: [notice, ...completeness.warnings] };
  }

  /** Closes the connection (the background server keeps its servers warm) and stops the in-process servers, if any. */
  async shutdown(): Promise<void> {
    this.#unsubscribe();
    await Promise.all([this.#remote.shutdown().catch(() => undefined), this.#localMade?.then((local) => local.shutdown())]);
  }

  servers(): ServerStatus[] {
    return this.#active().servers();
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  use(middleware: BackendMiddleware): () => void {
    // Each backend times its own requests in its own words; the in-process one gets it when made.
    this.#middleware.set(middleware, [this.#remote.use(middleware), ...(this.#local !== undefined ? [this.#local.use(middleware)] : [])]);
    return () => {
      for (const remove of this.#middleware.get(middleware) ?? []) remove();
      this.#middleware.delete(middleware);
    };
  }

  #active(): IdeBackend {
    return this.#local ?? this.#remote;
  }

  #emit(status: ServerStatus): void {
    for (const listener of this.#statusListeners) listener(status);
  }

  /** Runs a call on the remote backend; when its server is lost, on the in-process one (once ready). */
  async #call<T>(run: (backend: IdeBackend) => Promise<T>, options: BackendCallOptions | undefined): Promise<T> {
    if (this.#notice === undefined) {
      try {
        return await run(this.#remote);
      } catch (error) {
        if (!isServerLost(error)) throw error;
        this.#failover(error as Error);
      }
    }
    return run(await this.#readyLocally(options?.signal));
  }

  #failover(error: Error): void {
    if (this.#notice !== undefined) return;
    this.#unsubscribe();
    this.#unsubscribe = () => undefined;
    const lost = this.#options.answeredBy === 'vscode' ? 'VS Code stopped answering (its window closed or the Dialect extension stopped)' : (error.message.split('\n')[0] ?? 'the background server stopped answering');
    this.#notice = `${lost}; answered in-process instead (slower: the language servers started again here)`;
    for (const listener of this.#failoverListeners) listener(this.#notice);
  }

  /** The in-process backend is made, started and indexed once; a cold server answers "nothing" while it indexes. */
  #readyLocally(signal: AbortSignal | undefined): Promise<IdeBackend> {
    this.#localMade ??= this.#options.local().then((local) => {
      this.#local = local;
      for (const [middleware, removers] of this.#middleware) removers.push(local.use(middleware));
      this.#unsubscribe = local.onStatus((s) => this.#emit(s));
      return local;
    });
    const made = this.#localMade;
    this.#localReady ??= (async () => {
      const local = await made;
      await local.start();
      await local.waitUntilReady({ timeoutMs: this.#options.readyTimeoutMs, ...(signal !== undefined ? { signal } : {}) }).catch(() => undefined);
      return local;
    })();
    return this.#localReady;
  }
}
