/**
 * An in-process backend made when first asked: a command whose program asks no language server
 * (`dialect eval '1'`, `search`, `lines`) evaluates without loading the LSP client's side — the
 * `LspBackend` module, the LSP protocol package and vscode-jsonrpc, most of such a command's
 * start-up — and loads it the moment a call needs a server after all. Which files its languages
 * handle is answered from the server definitions (`languageFor`, as `LspBackend` answers it), so
 * asking it makes nothing; middleware and status listeners added before are handed over, in order.
 */
import type {
  BackendCallOptions,
  BackendMiddleware,
  BackendSymbol,
  CallEdge,
  CallItem,
  Completeness,
  DiagnosticReport,
  HoverInfo,
  IdeBackend,
  ImportedName,
  UnbuiltDeclaration,
  OutlineSymbol,
  ReadyOptions,
  ReferenceList,
  ReferenceOptions,
  ServerStatus,
  TypeItem,
  WorkspaceSymbolOptions,
} from './backend.js';
import { languageFor, type ServerDefinition } from './lsp/servers.js';
import type { Location, Position } from './model.js';
import type { Workspace } from './workspace.js';

/** A hook added before the backend was made, and its removal once it is. */
interface Pending<T> {
  readonly hook: T;
  remove?: () => void;
}

/** An `IdeBackend` that makes the real one (`make`) on the first call that needs it. */
export class DeferredBackend implements IdeBackend {
  readonly #definitionsOf: () => readonly ServerDefinition[];
  #definitions: readonly ServerDefinition[] | undefined;
  readonly #make: () => Promise<IdeBackend>;
  #made: Promise<IdeBackend> | undefined;
  #backend: IdeBackend | undefined;
  readonly #middleware: Pending<BackendMiddleware>[] = [];
  readonly #listeners: Pending<(status: ServerStatus) => void>[] = [];

  /** `definitions` gives the servers the made backend runs (`serverDefinitions`), asked once when first needed. */
  constructor(
    readonly workspace: Workspace,
    definitions: () => readonly ServerDefinition[],
    make: () => Promise<IdeBackend>,
  ) {
    this.#definitionsOf = definitions;
    this.#make = make;
  }

  /** The language of `path` among the servers' (the rule `LspBackend` answers by). */
  #languageOf(path: string): ReturnType<typeof languageFor> {
    this.#definitions ??= this.#definitionsOf();
    return languageFor(this.#definitions, path);
  }

  /** The real backend, made once. */
  #real(): Promise<IdeBackend> {
    this.#made ??= this.#make().then((backend) => {
      for (const m of this.#middleware) m.remove = backend.use(m.hook);
      for (const l of this.#listeners) l.remove = backend.onStatus(l.hook);
      this.#backend = backend;
      return backend;
    });
    return this.#made;
  }

  async #with<T>(call: (backend: IdeBackend) => Promise<T>): Promise<T> {
    return call(await this.#real());
  }

  workspaceSymbols(query: string, options?: WorkspaceSymbolOptions): Promise<BackendSymbol[]> {
    return this.#with((b) => b.workspaceSymbols(query, options));
  }

  documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]> {
    return this.#with((b) => b.documentSymbols(path, options));
  }

  definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#with((b) => b.definition(path, position, options));
  }

  references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList> {
    return this.#with((b) => b.references(path, position, options));
  }

  hover(path: string, position: Position, options?: BackendCallOptions): Promise<HoverInfo | undefined> {
    return this.#with((b) => b.hover(path, position, options));
  }

  implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#with((b) => b.implementation(path, position, options));
  }

  prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]> {
    return this.#with((b) => b.prepareCallHierarchy(path, position, options));
  }

  incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#with((b) => b.incomingCalls(item, options));
  }

  outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#with((b) => b.outgoingCalls(item, options));
  }

  typeDefinition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#with((b) => b.typeDefinition(path, position, options));
  }

  prepareTypeHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#with((b) => b.prepareTypeHierarchy(path, position, options));
  }

  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#with((b) => b.typeHierarchy(item, direction, options));
  }

  diagnostics(path: string | undefined, options?: BackendCallOptions): Promise<DiagnosticReport> {
    return this.#with((b) => b.diagnostics(path, options));
  }

  modulePath(path: string): Promise<string[][]> {
    return this.#with((b) => b.modulePath(path));
  }

  importOf(name: string, options?: BackendCallOptions): Promise<ImportedName | undefined> {
    return this.#with(async (b) => b.importOf?.(name, options));
  }

  unbuiltDeclarations(name: string, qualifiers: readonly string[], options?: BackendCallOptions): Promise<UnbuiltDeclaration[]> {
    return this.#with(async (b) => (await b.unbuiltDeclarations?.(name, qualifiers, options)) ?? []);
  }

  relativeQualifiers(path: string): readonly string[] {
    return this.#languageOf(path)?.definition.relativeQualifiers ?? [];
  }

  mergesOverloads(path: string): boolean {
    return this.#languageOf(path)?.definition.overloadsAreOneDefinition === true;
  }

  isStub(path: string): boolean {
    return (this.#languageOf(path)?.definition.stubExtensions ?? []).some((e) => path.endsWith(e));
  }

  handles(path: string): boolean {
    return this.#languageOf(path) !== undefined;
  }

  start(): Promise<void> {
    return this.#with((b) => b.start());
  }

  waitUntilReady(options?: ReadyOptions): Promise<Completeness> {
    return this.#with((b) => b.waitUntilReady(options));
  }

  async shutdown(): Promise<void> {
    // Nothing was made, nothing runs.
    if (this.#made !== undefined) await (await this.#made).shutdown();
  }

  servers(): ServerStatus[] {
    // Before it is made no server was detected or started: what a new `LspBackend` lists too.
    return this.#backend?.servers() ?? [];
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    return this.#hook(this.#listeners, listener, (b) => b.onStatus(listener));
  }

  use(middleware: BackendMiddleware): () => void {
    return this.#hook(this.#middleware, middleware, (b) => b.use(middleware));
  }

  /** Adds a hook now (made) or when made; the removal works either way. */
  #hook<T>(pending: Pending<T>[], hook: T, add: (backend: IdeBackend) => () => void): () => void {
    const entry: Pending<T> = { hook };
    if (this.#backend !== undefined) entry.remove = add(this.#backend);
    pending.push(entry);
    return () => {
      const at = pending.indexOf(entry);
      if (at !== -1) pending.splice(at, 1);
      entry.remove?.();
    };
  }
}
