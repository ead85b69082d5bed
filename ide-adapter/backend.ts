/**
 * The IDE backend port: the language intelligence the IDE functions ask for, shaped like LSP but
 * in Dialect's coordinates (workspace-relative paths, 1-based lines, 1-based code-point columns),
 * plus the lifecycle (start, readiness, shutdown), the servers' structured status, and a request
 * hook (middleware) for whoever wants to observe or wrap every request.
 *
 * `LspBackend` (language servers we spawn) implements it; a remote daemon or the editor's own LSP
 * inside VS Code can implement it too, without touching the functions, the CLI or MCP. Errors
 * that cross it are `DialectError`s with their own code and hint (e.g. `server-not-found`,
 * `request-timeout`, `server-unresponsive`), so they reach the outcome as they are.
 */
import { DialectError } from '../dialect/index.js';
import type { Diagnostic, Location, Position } from './model.js';
import type { ServerStatus } from './status.js';
import type { Workspace } from './workspace.js';
import type { UnlistedMentions } from './unlisted-mentions.js';

export type { ServerHealth, ServerProgress, ServerState, ServerStatus } from './status.js';

/** Error codes of backend capabilities. */
export const CapabilityCode = {
  /** The language server of a file does not offer the request a function needs. */
  UnsupportedByServer: 'unsupported-by-server',
  /** No language server handles the file's language. */
  NoLanguageServer: 'no-language-server',
} as const;

/** Error codes of the editor's selection ({@link IdeBackend.selection}). */
export const SelectionCode = {
  /** No editor answers this workspace (Dialect uses its own servers), so there is no selection to read. */
  NoEditor: 'no-editor',
  /** The editor answers, but no editor tab of a workspace file is active. */
  NoActiveEditor: 'no-active-editor',
} as const;

/** The `no-editor` error: `why` says what answers instead (e.g. Dialect's own language servers). */
export function noEditor(why: string): DialectError {
  return new DialectError({
    code: SelectionCode.NoEditor,
    message: `no editor is connected, so there is no selection: ${why}`,
    hint: 'open the folder in VS Code with the Dialect extension (see the README, "In VS Code") and run dialect from there, or pass a place: symbolAt(path, line, column)',
  });
}

/** The requests a server may lack, with what to use instead. */
const ALTERNATIVES: Readonly<Record<string, string>> = {
  'type definition': 'getSymbolInfo(…) shows the type in the signature; findDefinition("TypeName") then finds it',
  'type hierarchy': 'implementations(…) lists the implementations of a trait or interface; getSymbolInfo(…) shows what a type extends',
  'outgoing calls': 'lines(symbol) shows the body; callers(…) answers the other direction (who calls whom)',
};

/**
 * The typed error for a request a server does not offer: it names the server and the feature,
 * and suggests an alternative function.
 */
export function unsupportedByServer(server: string, feature: string, path: string): DialectError {
  return new DialectError({
    code: CapabilityCode.UnsupportedByServer,
    message: `${server} (the language server of ${path}) does not support ${feature}`,
    hint: ALTERNATIVES[feature] ?? 'use another function: help() lists them',
  });
}

/** Per-call options. */
export interface BackendCallOptions {
  readonly signal?: AbortSignal;
}

/** Answers their backend vouches for while it returns them again (see {@link keptAnswer}). */
const keptAnswers = new WeakSet<object>();

/**
 * Marks an answer a backend keeps and returns again, the same object, only while nothing it was
 * made from changed: the servers' own answers and processes, and the workspace's files as the
 * watchers that tell the servers see them. What a caller derives from such an answer and from
 * those files (a lookup's final definitions) may be kept by the answer's identity.
 */
export function keptAnswer<T extends object>(answer: T): T {
  keptAnswers.add(answer);
  return answer;
}

/** Whether a backend marked an answer with {@link keptAnswer}. */
export function isKeptAnswer(answer: object): boolean {
  return keptAnswers.has(answer);
}

/** Options of a workspace symbol search. */
export interface WorkspaceSymbolOptions extends BackendCallOptions {
  /**
   * Only the symbols named exactly `query`, as their language names them (gopls's `Mux.Get` is
   * `Get`): a backend may then leave the server's fuzzy matches out before converting them. A
   * backend that ignores it returns them all; callers keep only exact names either way.
   */
  readonly exact?: boolean;
}

/** Options of a diagnostics request. */
export interface DiagnosticsOptions extends BackendCallOptions {
  /** How long to wait for a server that only publishes to publish a file's diagnostics (default `TIMEOUTS.lsp.diagnosticsWaitMs`). */
  readonly waitMs?: number;
}

/** Options of a references request. */
export interface ReferenceOptions extends BackendCallOptions {
  readonly includeDeclaration?: boolean;
  /** Convert and return at most this many (a popular type can have tens of thousands of uses). */
  readonly limit?: number;
  /**
   * The name the symbol's uses are written with, when the asker knows it (an identifier): what the
   * checks of uses the server leaves out search for. A Rust derive macro is asked at its function
   * (`from_string`) but written as its attribute names it (`EnumString`). Default: the word at the position.
   */
  readonly name?: string;
}

/** References in path order (path, then line, then column), deduplicated. */
export interface ReferenceList {
  readonly locations: readonly Location[];
  /** How many there are in the workspace, returned or not. */
  readonly total: number;
  /** What the answer may miss, in one line. */
  readonly gap?: string;
  /**
   * The mentions of the name this answer does not list where its server is known to leave uses
   * out (`unlisted-mentions.ts`: a `.member` on a value pyright could not type, a preprocessor
   * branch clangd skips): joined with the answers of every other place the symbol is asked at
   * before the note is made.
   */
  readonly unlisted?: readonly UnlistedMentions[];
}

/** A declaration in a file the workspace's build leaves out here (see `IdeBackend.unbuiltDeclarations`). */
export interface UnbuiltDeclaration {
  /** The declaring line. */
  readonly at: Location;
  /** Why the build leaves the file out: its constraint (`windows`, `darwin || freebsd`). */
  readonly why: string;
}

/** A name the workspace imports from a module (see `IdeBackend.importOf`). */
export interface ImportedName {
  /** The module, as the import writes it (`requests`, `os.path`). */
  readonly module: string;
  /** The import's line. */
  readonly at: Location;
  /** The server's message when it reports the import unresolved (`Import "requests" could not be resolved`). */
  readonly problem?: string;
  /** How to fix such an import, for people (when unresolved). */
  readonly fix?: string;
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
  /**
   * Set for an item a macro call writes as an import or re-export binding (a `pub use` in the
   * expansion of `crate_root!();`): never a definition, whatever its kind says.
   */
  readonly binding?: 'import' | 'reexport';
  /** The path that binding's `use` names, as written (`serde_core::Deserialize`), when read. */
  readonly boundPath?: string;
  /**
   * The server's language says a declaration of this kind never merges with another file's and,
   * at its own name, is never a binding to something else (`ServerDefinition.standaloneKinds`):
   * alone with its name in its file's code (comments aside) and outside an import statement, it needs no go-to-definition
   * to confirm it. Unset: confirm it.
   */
  readonly standalone?: boolean;
  /**
   * Owners written in the declaration's own name, outermost first (`Circle` of C++'s
   * `double Circle::area() const {…}`): its qualified path continues through them after its
   * outline ancestors.
   */
  readonly owners?: readonly string[];
}

/**
 * What a hover says about a symbol, already in the common layout: the server's own layout
 * (which block is the signature) and its `file://` links are the backend's business.
 */
export interface HoverInfo {
  /** The declaration or type, as code (`pub fn validate_token(token: &str) -> bool`). */
  readonly signature?: string;
  /** The documentation, as Markdown; links into the workspace read `path:line:column`. */
  readonly documentation?: string;
  /** Set (to a one-line note) instead of the text when it comes from where it may not be shown (`lsp/outside-sources.ts`). */
  readonly withheld?: string;
}

/** A document symbol with its place in the outline. */
export interface OutlineSymbol extends BackendSymbol {
  readonly children: readonly OutlineSymbol[];
  /** A field whose type's members its owner gets (Go's embedded `Base`): the type is a base of its owner. */
  readonly embedded?: boolean;
}

/** An item of a call hierarchy. */
export interface CallItem {
  readonly symbol: BackendSymbol;
  /** Opaque server data needed to continue the hierarchy from this item; plain JSON, so it can cross a process boundary. */
  readonly handle: unknown;
}

/** A caller or callee with the places the call happens. */
export interface CallEdge {
  readonly item: CallItem;
  readonly callSites: readonly Location[];
}

/** An item of a type hierarchy (a class, interface, struct, trait, …). */
export interface TypeItem {
  readonly symbol: BackendSymbol;
  /** Opaque server data needed to continue the hierarchy from this item; plain JSON, so it can cross a process boundary. */
  readonly handle: unknown;
}

/** Diagnostics, and whether they cover everything that was asked for. */
export interface DiagnosticReport {
  /** In path order (path, line, column), without duplicates. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * For one file: whether the servers answered (false when a server that only publishes said
   * nothing in time). Without a path: false when the list covers only the files the servers
   * have analysed so far, not the whole workspace.
   */
  readonly complete: boolean;
  /** For one file that is not complete: the wait that ran out, in milliseconds. */
  readonly waitedMs?: number;
  /** How many files the list covers. */
  readonly files: number;
  /**
   * Why the list may not be what the compiler would say although the server answered (clangd:
   * `#include`s not found, so the build setup is missing or guessed), with the fix; one line.
   */
  readonly gap?: string;
}

/**
 * How complete answers are: the result of waiting for the index (`IdeBackend.waitUntilReady`).
 * The IDE functions turn it into notes; nothing here is display text except the warnings and
 * notes, which are meant to be shown as they are.
 */
export interface Completeness {
  /** True when every server that was asked had finished indexing and none reports itself degraded. */
  readonly complete: boolean;
  /** The status, when the wait ended, of every server the answer depends on. */
  readonly servers: readonly ServerStatus[];
  /** How long the wait took. */
  readonly waitedMs: number;
  /** One-time warnings the user should see (e.g. the standard library could not be loaded). */
  readonly warnings: readonly string[];
  /**
   * Notes every answer that used these servers carries, not just once (e.g. what an untrusted
   * workspace has turned off, and the command that trusts it).
   */
  readonly notes: readonly string[];
  /**
   * Whether the backend runs the workspace as trusted; absent where the backend does not decide
   * trust (the VS Code window: the editor's own workspace trust).
   */
  readonly trusted?: boolean;
}

/** Options of {@link IdeBackend.waitUntilReady}. */
export interface ReadyOptions extends BackendCallOptions {
  /** The longest wait; a server not ready by then is reported as it is. */
  readonly timeoutMs?: number;
  /** Files the answer will read: the servers of their languages are started and waited for too. */
  readonly paths?: readonly string[];
  /**
   * The answer reads only {@link paths}: start no server but theirs, so a question about one
   * language's files starts no other language's server (the servers already running are waited
   * for as usual; with no paths, only they: `status()`). Without it, every server the workspace
   * needs is started and waited for. A backend may start more.
   */
  readonly onlyPaths?: boolean;
}

/** One request through the backend, as middleware sees it. */
export interface BackendRequest {
  /** What is asked, in the backend's words (an LSP method such as `textDocument/references`). */
  readonly method: string;
  /** What it is asked about: `src/model.rs:25:12`, a query, a symbol name; empty when nothing. */
  readonly target: string;
}

/**
 * Wraps every request of a backend (the way vscode-languageclient's middleware wraps each
 * provider call): call `next()` to run it, observe or time it around that. Middleware runs
 * outermost-first in the order it was added.
 */
export type BackendMiddleware = <T>(request: BackendRequest, next: () => Promise<T>) => Promise<T>;

/** Who answers a backend's requests: an editor's own language features, or language servers Dialect spawned. */
export type BackendKind = 'vscode' | 'spawned';

/** Language intelligence over one workspace. */
export interface IdeBackend {
  readonly workspace: Workspace;
  /** Who answers right now (it may change: a lost editor fails over to spawned servers); absent means `spawned`. */
  readonly answeredBy?: BackendKind;

  /** Symbols whose names match `query` in every language of the workspace (servers filter fuzzily). */
  workspaceSymbols(query: string, options?: WorkspaceSymbolOptions): Promise<BackendSymbol[]>;
  /** The outline of a file. */
  documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]>;
  /** Where the symbol at a position is defined. */
  definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]>;
  /**
   * The uses of the symbol at a position (without its declaration unless asked), in path order,
   * at most `limit` of them; `total` counts them all.
   */
  references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList>;
  /** What the hover at a position says (signature and documentation); undefined when the server has none. */
  hover(path: string, position: Position, options?: BackendCallOptions): Promise<HoverInfo | undefined>;
  /** Implementations of the interface/trait/abstract member at a position. */
  implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]>;
  /** Call hierarchy items at a position; empty when the server has no call hierarchy. */
  prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]>;
  /** The callers of a call hierarchy item, with the places they call it. */
  incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]>;
  /** What a call hierarchy item calls, with the places it calls them. */
  outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]>;
  /** Where the type of the symbol at a position is defined. Throws `unsupported-by-server` when the server has no type definitions. */
  typeDefinition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]>;
  /** Type hierarchy items at a position. Throws `unsupported-by-server` when the server has no type hierarchy. */
  prepareTypeHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<TypeItem[]>;
  /** The direct supertypes (`direction: 'super'`) or subtypes of a type hierarchy item. */
  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options?: BackendCallOptions): Promise<TypeItem[]>;
  /**
   * Errors and warnings: of one file (asked of its server, or as the server published them), or,
   * without a path, of every file the servers have reported on.
   */
  diagnostics(path: string | undefined, options?: DiagnosticsOptions): Promise<DiagnosticReport>;
  /**
   * The module path of a file as its language's qualified names write it, outermost first; each
   * step lists the names that stand for it (Rust: `['crate', 'mycrate']`, then `['net']` for
   * `src/net.rs`; others: the folders and the file name).
   */
  modulePath(path: string): Promise<string[][]>;
  /** Qualifiers of a file's language that name no module of their own (Rust's `self`, `super`). */
  relativeQualifiers(path: string): readonly string[];
  /**
   * Whether, in the language of a file, the overloads of one name in one scope are one definition
   * listing its declarations (C++); absent or false: each overload the server lists apart is its own.
   */
  mergesOverloads?(path: string): boolean;
  /** Whether a file only declares what the source of its stem defines (a Python `.pyi` stub beside its `.py`). */
  isStub?(path: string): boolean;

  /** Whether a file's language has a server. */
  handles(path: string): boolean;

  /**
   * Where the workspace imports a name it does not define (`from requests import Session`), and
   * whether the server could resolve that import; `undefined` when no import of it is found or the
   * language has no import rules (`ServerDefinition.imports`). Lets a failed name lookup say why.
   */
  importOf?(name: string, options?: BackendCallOptions): Promise<ImportedName | undefined>;

  /**
   * Where `name` (a member of `qualifiers`, when given) is declared in files the workspace's build
   * leaves out on this machine (Go files for another system), which no server reads; empty when
   * there are none or it could not tell.
   */
  unbuiltDeclarations?(name: string, qualifiers: readonly string[], options?: BackendCallOptions): Promise<UnbuiltDeclaration[]>;

  /**
   * The active editor's selection (its text in `content`); undefined when the editor has no active
   * editor on a workspace file. Only an editor's backend has it; absent means there is no editor
   * (`no-editor`), and a backend that forwards may throw that too.
   */
  selection?(options?: BackendCallOptions): Promise<Location | undefined>;

  /**
   * Starts the servers the workspace needs, without waiting for indexing. Never throws for a
   * server that cannot start: it shows as `unavailable` in {@link servers}. Calling it is
   * optional (servers also start on first use) and idempotent.
   */
  start(): Promise<void>;
  /**
   * Resolves once a {@link start} under way has its first server up (spawned and initialized; its
   * documents may still wait for the start's checks), or has none about to launch (at once
   * without a start). Work that needs no server (a program's parse) waits for it, so that it runs
   * while the checks finish instead of delaying the spawn or slowing the server's loading. Optional: a backend whose servers run elsewhere has nothing to wait for.
   */
  launched?(): Promise<void>;
  /** Waits (up to `timeoutMs`) for the servers to finish indexing, and says how complete answers are. */
  waitUntilReady(options?: ReadyOptions): Promise<Completeness>;
  /** Stops every server; later requests fail with `server-stopped`. */
  shutdown(): Promise<void>;

  /** The status of every server of the workspace (needed, running, or failed to start). */
  servers(): ServerStatus[];
  /** Calls `listener` on every change of a server's status; returns the unsubscribe function. */
  onStatus(listener: (status: ServerStatus) => void): () => void;
  /** Adds middleware around every request (see {@link BackendMiddleware}); returns the function that removes it. */
  use(middleware: BackendMiddleware): () => void;
}
