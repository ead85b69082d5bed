/**
 * The CLI's view of an IDE session: the servers' progress as one line, whether a program needs
 * the servers (and so has to wait for the index), waiting for readiness with live progress, and
 * timing of every backend request for `.timing on`.
 */
import { performance } from 'node:perf_hooks';
import { type Expr } from '../dialect/index.js';
import {
  configuredServers,
  IdeSession,
  LspBackend,
  Workspace,
  type BackendCallOptions,
  type BackendSymbol,
  type CallEdge,
  type CallItem,
  type Completeness,
  type DiagnosticReport,
  type TypeItem,
  type Location,
  type LspBackendOptions,
  type OutlineSymbol,
  type ReferenceList,
  type ReferenceOptions,
  type Position,
} from '../ide-adapter/index.js';

/** One request to the language servers, as `.timing on` shows it. */
export interface RequestTiming {
  /** E.g. `textDocument/references src/model.rs:25:12`. */
  readonly what: string;
  readonly ms: number;
  readonly ok: boolean;
}

/**
 * The LSP backend with every request timed. Each backend call is one LSP request to one server
 * (plus, the first time a file is used, its `didOpen`), so this is the per-request timing.
 */
export class TimedLspBackend extends LspBackend {
  #log: RequestTiming[] | undefined;

  /** Starts collecting timings; returns what was collected since the previous call. */
  record(on: boolean): RequestTiming[] {
    const previous = this.#log ?? [];
    this.#log = on ? [] : undefined;
    return previous;
  }

  async #time<T>(what: string, run: () => Promise<T>): Promise<T> {
    const log = this.#log;
    if (log === undefined) return run();
    const start = performance.now();
    let ok = false;
    try {
      const result = await run();
      ok = true;
      return result;
    } finally {
      log.push({ what, ms: performance.now() - start, ok });
    }
  }

  override workspaceSymbols(query: string, options?: BackendCallOptions): Promise<BackendSymbol[]> {
    return this.#time(`workspace/symbol ${JSON.stringify(query)}`, () => super.workspaceSymbols(query, options));
  }
  override documentSymbols(path: string, options?: BackendCallOptions): Promise<OutlineSymbol[]> {
    return this.#time(`textDocument/documentSymbol ${path}`, () => super.documentSymbols(path, options));
  }
  override definition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#time(`textDocument/definition ${at(path, position)}`, () => super.definition(path, position, options));
  }
  override references(path: string, position: Position, options?: ReferenceOptions): Promise<ReferenceList> {
    return this.#time(`textDocument/references ${at(path, position)}`, () => super.references(path, position, options));
  }
  override hover(path: string, position: Position, options?: BackendCallOptions): Promise<string | undefined> {
    return this.#time(`textDocument/hover ${at(path, position)}`, () => super.hover(path, position, options));
  }
  override implementation(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#time(`textDocument/implementation ${at(path, position)}`, () => super.implementation(path, position, options));
  }
  override prepareCallHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<CallItem[]> {
    return this.#time(`textDocument/prepareCallHierarchy ${at(path, position)}`, () => super.prepareCallHierarchy(path, position, options));
  }
  override incomingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#time(`callHierarchy/incomingCalls ${item.symbol.name}`, () => super.incomingCalls(item, options));
  }
  override outgoingCalls(item: CallItem, options?: BackendCallOptions): Promise<CallEdge[]> {
    return this.#time(`callHierarchy/outgoingCalls ${item.symbol.name}`, () => super.outgoingCalls(item, options));
  }
  override typeDefinition(path: string, position: Position, options?: BackendCallOptions): Promise<Location[]> {
    return this.#time(`textDocument/typeDefinition ${at(path, position)}`, () => super.typeDefinition(path, position, options));
  }
  override prepareTypeHierarchy(path: string, position: Position, options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#time(`textDocument/prepareTypeHierarchy ${at(path, position)}`, () => super.prepareTypeHierarchy(path, position, options));
  }
  override typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options?: BackendCallOptions): Promise<TypeItem[]> {
    return this.#time(`typeHierarchy/${direction}types ${item.symbol.name}`, () => super.typeHierarchy(item, direction, options));
  }
  override diagnostics(path: string | undefined, options?: BackendCallOptions): Promise<DiagnosticReport> {
    return this.#time(`textDocument/diagnostic ${path ?? '(every analysed file)'}`, () => super.diagnostics(path, options));
  }
  override waitUntilReady(options?: BackendCallOptions & { timeoutMs?: number; paths?: readonly string[] }): Promise<Completeness> {
    return this.#time('(waiting for the index)', () => super.waitUntilReady(options));
  }
}

function at(path: string, p: Position): string {
  return `${path}:${p.line}:${p.column}`;
}

/** Server states after which waiting longer changes nothing. */
const SETTLED = new Set(['ready', 'unavailable', 'stopped']);

/** Function categories that never talk to a language server. */
const SERVERLESS_CATEGORIES = new Set(['language', 'selection', 'search', 'git']);

/** How a CLI command opens its workspace session. */
export interface CliSessionOptions {
  readonly workspaceRoot: string;
  /** Start the servers now (REPL, tour) or on first use (eval of a program that may not need them). */
  readonly eager: boolean;
  /** How long a query inside the interpreter waits for the index before answering with a note. */
  readonly readyTimeoutMs?: number;
  /** `--trust`: trust the workspace for this run; otherwise the user's trust store decides. */
  readonly trust?: boolean;
  /** Environment that locates the trust store (`XDG_CONFIG_HOME`); default the process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** An {@link IdeSession} plus what the command line shows about it. */
export class CliSession {
  readonly session: IdeSession;
  readonly backend: TimedLspBackend;
  readonly openedAt = performance.now();
  /** When every server had settled, in ms after opening. */
  settledAfterMs: number | undefined;
  readonly #statusByServer = new Map<string, string>();
  readonly #listeners = new Set<() => void>();
  #started = false;
  readonly #eager: boolean;
  #shutdown: Promise<void> | undefined;
  readonly #unsubscribe: () => void;

  private constructor(options: CliSessionOptions, workspace: Workspace, backendOptions: LspBackendOptions) {
    this.#eager = options.eager;
    this.trusted = backendOptions.trusted === true;
    this.backend = new TimedLspBackend(workspace, backendOptions);
    this.session = IdeSession.open({
      workspaceRoot: workspace.root,
      backend: this.backend,
      eager: options.eager,
      readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
    });
    this.#unsubscribe = this.backend.onStatus((text) => {
      const colon = text.indexOf(': ');
      this.#statusByServer.set(colon > 0 ? text.slice(0, colon) : text, text);
      this.#changed();
    });
    this.session.started.then(
      () => {
        this.#started = true;
        this.#changed();
      },
      () => undefined, // IdeSession swallows start failures; they show in servers()
    );
  }

  /**
   * Opens the workspace with the servers of its `dialect.json`. Throws a DialectError for a folder
   * that does not exist (`file-not-found`, `not-a-file`) or a bad configuration (`invalid-config`).
   */
  static async open(options: CliSessionOptions): Promise<CliSession> {
    const workspace = new Workspace(options.workspaceRoot);
    // Untrusted, the configured servers are left out (not even probed); answers say so.
    const configured = await configuredServers(workspace.root, options.trust === true ? true : undefined, options.env ?? process.env);
    return new CliSession(options, workspace, configured);
  }

  /** Whether the workspace is trusted for this session. */
  readonly trusted: boolean;

  get root(): string {
    return this.session.workspace.root;
  }

  /** Called whenever a server's status changes (progress, ready, crashed). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    if (this.settledAfterMs === undefined && this.isSettled()) this.settledAfterMs = performance.now() - this.openedAt;
    for (const listener of this.#listeners) listener();
  }

  /** Whether the servers were started and every one is ready (or will never be: unavailable, stopped). */
  isSettled(): boolean {
    return this.#started && this.backend.servers().every((s) => SETTLED.has(s.state));
  }

  /** Whether the servers have been started at all (a lazy session starts them on first use). */
  get started(): boolean {
    return this.#started;
  }

  /** The servers that are not settled, one status each: `rust-analyzer: indexing 45% (Indexing 9/20 (core))`. */
  progressText(): string {
    if (!this.#started) return 'starting the language servers…';
    const servers = this.backend.servers();
    // A lazy session has "started" at once; its servers appear when the first query needs them.
    if (servers.length === 0 && !this.#eager) return 'starting the language servers…';
    const busy = servers.filter((s) => !SETTLED.has(s.state));
    if (busy.length === 0) return 'ready';
    return busy.map((s) => this.#statusByServer.get(s.name) ?? s.text).join(' · ');
  }

  /** One line for when everything settled: `rust-analyzer ready after 7.4 s` or why a server is unavailable. */
  settledText(): { ok: boolean; text: string } {
    const servers = this.backend.servers();
    if (servers.length === 0) return { ok: true, text: 'no language server needed for this workspace (text search and files still work)' };
    const bad = servers.filter((s) => s.state !== 'ready');
    if (bad.length > 0) return { ok: false, text: bad.map((s) => s.text).join(' · ') };
    // A server that finished but reports itself degraded is usable, but never "ready".
    const state = (s: (typeof servers)[number]): string => (s.degraded !== undefined ? `degraded (${s.degraded.split('\n')[0] ?? ''})` : 'ready');
    if (servers.some((s) => s.degraded !== undefined)) return { ok: true, text: servers.map((s) => `${s.name} ${state(s)}`).join(', ') };
    return { ok: true, text: `${servers.map((s) => s.name).join(', ')} ready` };
  }

  /** Whether evaluating this program asks a language server (and so should wait for the index). */
  needsServers(ast: Expr): boolean {
    for (const name of calledFunctions(ast)) {
      const fn = this.session.registry.lookup(name);
      if (fn !== undefined && !SERVERLESS_CATEGORIES.has(fn.category ?? '')) return true;
    }
    return false;
  }

  /**
   * Waits for every server to settle. Resolves true when ready, false on timeout; rejects when
   * `signal` aborts. `onProgress` is called with the progress text on every change.
   */
  async waitUntilSettled(options: { signal: AbortSignal; timeoutMs: number; onProgress?: (text: string) => void }): Promise<boolean> {
    const { signal, timeoutMs, onProgress } = options;
    const update = (): void => onProgress?.(this.progressText());
    const unsubscribe = this.onChange(update);
    update();
    try {
      return await this.session.waitUntilReady({ signal, timeoutMs });
    } finally {
      unsubscribe();
    }
  }

  /** Stops the servers (once; later calls share the first). Never takes longer than `timeoutMs`. */
  shutdown(timeoutMs = 10_000): Promise<void> {
    this.#shutdown ??= (async () => {
      this.#unsubscribe();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        await Promise.race([this.session.shutdown().catch(() => undefined), limit]);
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.#shutdown;
  }
}

/** The names of every function a program calls, outermost first. */
export function calledFunctions(ast: Expr): string[] {
  const out: string[] = [];
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'call':
        out.push(e.callee);
        e.args.forEach(visit);
        e.namedArgs.forEach((a) => visit(a.value));
        break;
      case 'array':
        e.elements.forEach(visit);
        break;
      case 'object':
        e.properties.forEach((p) => visit(p.value));
        break;
      case 'literal':
      case 'reference':
        break;
    }
  };
  visit(ast);
  return out;
}

/** Whether a program uses the bare name `name` (the REPL's `_`). */
export function usesName(ast: Expr, name: string): boolean {
  switch (ast.kind) {
    case 'reference':
      return ast.name === name;
    case 'call':
      return ast.args.some((a) => usesName(a, name)) || ast.namedArgs.some((a) => usesName(a.value, name));
    case 'array':
      return ast.elements.some((a) => usesName(a, name));
    case 'object':
      return ast.properties.some((p) => usesName(p.value, name));
    case 'literal':
      return false;
  }
}
