/**
 * `SubfolderBackend`: a workspace answered by an editor window whose folder contains it (the
 * window has `~/src/mono` open, `dialect` runs on `~/src/mono/packages/app`). The window's backend
 * speaks paths relative to its own folder; this wrapper is the one place they are translated:
 * the workspace's paths gain the subfolder's prefix on the way in, and answers lose it on the way
 * out. What lies outside the subfolder is outside this workspace, so it is left out of answers,
 * as any backend leaves out places outside its workspace (libraries, other folders).
 */
import { posix } from 'node:path';
import { noEditor } from '../backend.js';
import type {
  BackendCallOptions,
  DiagnosticsOptions,
  BackendKind,
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
} from '../backend.js';
import type { Diagnostic, Location, Position } from '../model.js';
import type { Workspace } from '../workspace.js';

/** An `IdeBackend` for `workspace` over the backend of a folder that contains it. */
export class SubfolderBackend implements IdeBackend {
  readonly #inner: IdeBackend;
  /** The workspace's path inside the inner backend's folder (`packages/app`), `/`-separated. */
  readonly #prefix: string;

  /** `inner.workspace` must contain `workspace` (and not be it). */
  constructor(
    readonly workspace: Workspace,
    inner: IdeBackend,
  ) {
    this.#inner = inner;
    this.#prefix = inner.workspace.relative(workspace.root);
  }

  get answeredBy(): BackendKind | undefined {
    return this.#inner.answeredBy;
  }

  /** A workspace path as the inner backend's. */
  #in(path: string): string {
    return posix.join(this.#prefix, path);
  }

  /** An inner path as this workspace's; undefined outside it. */
  #out(path: string): string | undefined {
    if (path === this.#prefix) return '.';
    return path.startsWith(`${this.#prefix}/`) ? path.slice(this.#prefix.length + 1) : undefined;
  }

  #location<L extends Location>(location: L): L | undefined {
    const path = this.#out(location.path);
    return path === undefined ? undefined : { ...location, path };
  }

  #locations<L extends Location>(locations: readonly L[]): L[] {
    return locations.flatMap((l) => this.#location(l) ?? []);
  }

  #symbol<S extends BackendSymbol>(symbol: S): S | undefined {
    const location = this.#location(symbol.location);
    return location === undefined ? undefined : { ...symbol, location };
  }

  #outline(symbols: readonly OutlineSymbol[]): OutlineSymbol[] {
    return symbols.flatMap((s) => {
      const mapped = this.#symbol(s);
      return mapped === undefined ? [] : [{ ...mapped, children: this.#outline(s.children) }];
    });
  }

  #item<I extends CallItem | TypeItem>(item: I): I | undefined {
    const symbol = this.#symbol(item.symbol);
    return symbol === undefined ? undefined : { ...item, symbol };
  }

  /** An item of this workspace back in the inner backend's paths. */
  #itemIn<I extends CallItem | TypeItem>(item: I): I {
    return { ...item, symbol: { ...item.symbol, location: { ...item.symbol.location, path: this.#in(item.symbol.location.path) } } };
  }

  #edges(edges: readonly CallEdge[]): CallEdge[] {
    return edges.flatMap((e) => {
      const item = this.#item(e.item);
      return item === undefined ? [] : [{ item, callSites: this.#locations(e.callSites) }];
    });
  }

  async workspaceSymbols(query: string, options?: BackendCallOptions): Promise<BackendSymbol[]> {
    return (await this.#inner.workspaceSymbols(query, options)).flatMap((s) => this.#symbol(s) ?? []);
  }
  async documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]> {
    return this.#outline(await this.#inner.documentSymbols(this.#in(path), options));
  }
  async definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#locations(await this.#inner.definition(this.#in(path), position, options));
  }
  async references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList> {
    const list = await this.#inner.references(this.#in(path), position, options);
    const locations = this.#locations(list.locations);
    // Uses outside the workspace are not counted; those beyond the limit cannot be told apart.
    const total = list.total - (list.locations.length - locations.length);
    const unlisted = (list.unlisted ?? []).flatMap((u) => {
      const mentions = u.mentions.flatMap((m) => {
        const path = this.#out(m.path);
        return path !== undefined ? [{ ...m, path }] : [];
      });
      return mentions.length > 0 ? [{ ...u, mentions }] : [];
    });
    return unlisted.length > 0 ? { locations, total, unlisted } : { locations, total };
  }
  hover(path: string, position: Position, options?: BackendCallOptions): Promise<HoverInfo | undefined> {
    return this.#inner.hover(this.#in(path), position, options);
  }
  async implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#locations(await this.#inner.implementation(this.#in(path), position, options));
  }
  async prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]> {
    return (await this.#inner.prepareCallHierarchy(this.#in(path), position, options)).flatMap((i) => this.#item(i) ?? []);
  }
  async incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#edges(await this.#inner.incomingCalls(this.#itemIn(item), options));
  }
  async outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#edges(await this.#inner.outgoingCalls(this.#itemIn(item), options));
  }
  async typeDefinition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#locations(await this.#inner.typeDefinition(this.#in(path), position, options));
  }
  async prepareTypeHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<TypeItem[]> {
    return (await this.#inner.prepareTypeHierarchy(this.#in(path), position, options)).flatMap((i) => this.#item(i) ?? []);
  }
  async typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options?: BackendCallOptions): Promise<TypeItem[]> {
    return (await this.#inner.typeHierarchy(this.#itemIn(item), direction, options)).flatMap((i) => this.#item(i) ?? []);
  }
  async diagnostics(path: string | undefined, options?: DiagnosticsOptions): Promise<DiagnosticReport> {
    const report = await this.#inner.diagnostics(path !== undefined ? this.#in(path) : undefined, options);
    const diagnostics: Diagnostic[] = this.#locations(report.diagnostics);
    return { ...report, diagnostics, files: path !== undefined ? report.files : new Set(diagnostics.map((d) => d.path)).size };
  }
  async unbuiltDeclarations(name: string, qualifiers: readonly string[], options?: BackendCallOptions): Promise<UnbuiltDeclaration[]> {
    const found = (await this.#inner.unbuiltDeclarations?.(name, qualifiers, options)) ?? [];
    return found.flatMap((d) => {
      const at = this.#location(d.at);
      return at !== undefined ? [{ ...d, at }] : [];
    });
  }

  async modulePath(path: string): Promise<string[][]> {
    const steps = await this.#inner.modulePath(this.#in(path));
    // Folder-based module paths start with the subfolder's own folders: this workspace's start after them.
    const folders = this.#prefix.split('/');
    const leading = folders.every((folder, i) => steps[i]?.length === 1 && steps[i]?.[0] === folder);
    return leading ? steps.slice(folders.length) : steps;
  }
  /** The import of a name, when its line is in this workspace. */
  async importOf(name: string, options?: BackendCallOptions): Promise<ImportedName | undefined> {
    const found = await this.#inner.importOf?.(name, options);
    const at = found !== undefined ? this.#location(found.at) : undefined;
    return found !== undefined && at !== undefined ? { ...found, at } : undefined;
  }
  relativeQualifiers(path: string): readonly string[] {
    return this.#inner.relativeQualifiers(this.#in(path));
  }
  mergesOverloads(path: string): boolean {
    return this.#inner.mergesOverloads?.(this.#in(path)) === true;
  }
  isStub(path: string): boolean {
    return this.#inner.isStub?.(this.#in(path)) === true;
  }
  handles(path: string): boolean {
    return this.#inner.handles(this.#in(path));
  }
  /** The window's selection when it is in this workspace (a file elsewhere in the window is no active editor of it). */
  async selection(options?: BackendCallOptions): Promise<Location | undefined> {
    if (this.#inner.selection === undefined) throw noEditor('the backend of the containing folder is no editor');
    const selection = await this.#inner.selection(options);
    return selection !== undefined ? this.#location(selection) : undefined;
  }
  start(): Promise<void> {
    return this.#inner.start();
  }
  waitUntilReady(options: ReadyOptions = {}): Promise<Completeness> {
    return this.#inner.waitUntilReady({ ...options, ...(options.paths !== undefined ? { paths: options.paths.map((p) => this.#in(p)) } : {}) });
  }
  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }
  servers(): ServerStatus[] {
    return this.#inner.servers();
  }
  onStatus(listener: (status: ServerStatus) => void): () => void {
    return this.#inner.onStatus(listener);
  }
  use(middleware: BackendMiddleware): () => void {
    return this.#inner.use(middleware);
  }
}
