/**
 * The IDE backend: the language intelligence the IDE functions ask for, shaped like LSP but in
 * Dialect's coordinates (workspace-relative paths, 1-based lines, 1-based code-point columns).
 *
 * Two implementations fit it: `LspBackend` (language servers we spawn) and, later, the editor's
 * own LSP inside VS Code. The IDE functions only ever talk to this interface.
 */
import type { Location, Position } from './model.js';
import type { Workspace } from './workspace.js';

/** Per-call options. */
export interface BackendCallOptions {
  readonly signal?: AbortSignal;
}

export interface ReferenceOptions extends BackendCallOptions {
  readonly includeDeclaration?: boolean;
  /** Convert and return at most this many (a popular type can have tens of thousands of uses). */
  readonly limit?: number;
}

/** References in path order (path, then line, then column), deduplicated. */
export interface ReferenceList {
  readonly locations: readonly Location[];
  /** How many there are in the workspace, returned or not. */
  readonly total: number;
}

/** A symbol as a server reports it, with the name's location (selection range) when known. */
export interface BackendSymbol {
  readonly name: string;
  /** Lower-case LSP symbol kind: `function`, `struct`, `class`, `method`, … */
  readonly kind: string;
  readonly container?: string;
  readonly language: string;
  /** Where the symbol is declared: its name if the server says so, else the declaration's start. */
  readonly location: Location;
  /** The whole declaration, when known (document symbols have it). */
  readonly range?: { readonly start: Position; readonly end: Position };
  /** True when `location` is the name itself (a selection range), not the declaration's start. */
  readonly precise: boolean;
}

/** A document symbol with its place in the outline. */
export interface OutlineSymbol extends BackendSymbol {
  readonly children: readonly OutlineSymbol[];
}

/** An item of a call hierarchy. */
export interface CallItem {
  readonly symbol: BackendSymbol;
  /** Opaque server data needed to continue the hierarchy from this item. */
  readonly handle: unknown;
}

/** A caller or callee with the places the call happens. */
export interface CallEdge {
  readonly item: CallItem;
  readonly callSites: readonly Location[];
}

/** Whether the answers are complete: a server that is still indexing may miss things. */
export interface Completeness {
  /** True when every server that was asked had finished indexing. */
  readonly complete: boolean;
  /** One line per server that was not ready, e.g. `rust-analyzer: indexing 45% (crates)`. */
  readonly pending: readonly string[];
  /** One-time warnings the user should see (e.g. the standard library could not be loaded). */
  readonly warnings: readonly string[];
  /**
   * Notes every answer that used these servers carries, not just once (e.g. what an untrusted
   * workspace has turned off, and the command that trusts it).
   */
  readonly notes?: readonly string[];
}

/** The status of one language server, for `.servers` and progress displays. */
export interface ServerInfo {
  readonly id: string;
  readonly name: string;
  readonly state: string;
  readonly text: string;
  readonly languages: readonly string[];
  readonly memoryBytes?: number;
  readonly pid?: number;
}

/** Language intelligence over one workspace. */
export interface IdeBackend {
  readonly workspace: Workspace;

  /** Symbols whose names match `query` in every language of the workspace (servers filter fuzzily). */
  workspaceSymbols(query: string, options?: BackendCallOptions): Promise<BackendSymbol[]>;
  /** The outline of a file. */
  documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]>;
  /** Where the symbol at a position is defined. */
  definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]>;
  /**
   * The uses of the symbol at a position (without its declaration unless asked), in path order,
   * at most `limit` of them; `total` counts them all.
   */
  references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList>;
  /** Hover text at a position, as Markdown; undefined when the server has none. */
  hover(path: string, position: Position, options?: BackendCallOptions): Promise<string | undefined>;
  /** Implementations of the interface/trait/abstract member at a position. */
  implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]>;
  /** Call hierarchy items at a position; empty when the server has no call hierarchy. */
  prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]>;
  incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]>;
  outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]>;

  /** Whether a file's language has a server. */
  handles(path: string): boolean;
  /** Waits (up to `timeoutMs`) for the servers to finish indexing, and says how complete answers are. */
  waitUntilReady(options?: BackendCallOptions & { timeoutMs?: number; paths?: readonly string[] }): Promise<Completeness>;
  /** The servers and their state. */
  servers(): ServerInfo[];
  /** Subscribes to status lines (`rust-analyzer: indexing 45%`); returns an unsubscribe function. */
  onStatus(listener: (text: string) => void): () => void;
  shutdown(): Promise<void>;
}
