/**
 * The CLI's view of an IDE session: the servers' progress as one line, whether a program needs
 * the servers (and so has to wait for the index), waiting for readiness with live progress, and
 * timing of every backend request for `.timing on`.
 */
import { performance } from 'node:perf_hooks';
import { showFieldControls, type Expr, type Requirement } from '../dialect/index.js';
// Modules, not the ide-adapter barrel: it would load the LSP client and zod (cli/test/bundle.test.ts).
import type { BackendMiddleware, IdeBackend } from '../ide-adapter/backend.js';
import { sharedIdeRegistry, type createIdeRegistry } from '../ide-adapter/functions/index.js';
import { configuredServers, IdeSession } from '../ide-adapter/session.js';
import { displayState, SETTLED_STATES, statusLine, type ServerStatus } from '../ide-adapter/status.js';
import { Workspace } from '../ide-adapter/workspace.js';
import { openBackend, serverFreeBackend, type OpenedBackend } from './server/backend.js';
import { FailoverBackend } from './server/failover.js';

/** One request to the language servers, as `.timing on` shows it. */
export interface RequestTiming {
  /** E.g. `textDocument/references src/model.rs:25:12`. */
  readonly what: string;
  readonly ms: number;
  readonly ok: boolean;
}

/**
 * `.timing on`: middleware that times every backend request while recording. Each backend call
 * is one request to one server (plus, the first time a file is used, its `didOpen`), so this is
 * the per-request timing.
 */
export class RequestTimings {
  #log: RequestTiming[] | undefined;

  /** Starts (or stops) collecting timings; returns what was collected since the previous call. */
  record(on: boolean): RequestTiming[] {
    const previous = this.#log ?? [];
    this.#log = on ? [] : undefined;
    return previous;
  }

  /** The middleware to add to a backend (`backend.use(timings.middleware)`). */
  readonly middleware: BackendMiddleware = async (request, next) => {
    const log = this.#log;
    if (log === undefined) return next();
    const start = performance.now();
    let ok = false;
    try {
      const result = await next();
      ok = true;
      return result;
    } finally {
      log.push({ what: request.target === '' ? request.method : `${request.method} ${request.target}`, ms: performance.now() - start, ok });
    }
  };
}

/** How long a query inside the interpreter waits for the index by default. */
const DEFAULT_READY_TIMEOUT_MS = 60_000;

/** How a CLI command opens its workspace session. */
export interface CliSessionOptions {
  readonly workspaceRoot: string;
  /** Start the servers now (REPL, tour) or on first use (eval of a program that may not need them). */
  readonly eager: boolean;
  /** How long a query inside the interpreter waits for the index before answering with a note. */
  readonly readyTimeoutMs?: number;
  /** `--trust`: trust the workspace for this run; otherwise the user's trust store decides. */
  readonly trust?: boolean;
  /**
   * Environment that locates the trust store (`XDG_CONFIG_HOME`), asks for in-process mode
   * (`DIALECT_NO_SERVER`), and is part of the background server's identity; default the process's.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Use the workspace's background server (default true; `--no-server` and `DIALECT_NO_SERVER=1`
   * turn it off). False: the language servers run in this process, as for `dialect tour`.
   */
  readonly server?: boolean;
}

/** An {@link IdeSession} plus what the command line shows about it. */
export class CliSession {
  readonly session: IdeSession;
  readonly backend: IdeBackend;
  /** `.timing on`: every backend request, timed. */
  readonly timings = new RequestTimings();
  readonly openedAt = performance.now();
  /** When every server had settled, in ms after opening. */
  settledAfterMs: number | undefined;
  readonly #listeners = new Set<() => void>();
  #started = false;
  readonly #eager: boolean;
  #shutdown: Promise<void> | undefined;
  readonly #unsubscribe: () => void;
  readonly #removeTimings: () => void;
  readonly #notices: string[] = [];
  readonly #noticeListeners = new Set<(notice: string) => void>();
  /** Whether {@link shutdown} stops the backend (false for a backend lent by the background server). */
  readonly #ownsBackend: boolean;

  private constructor(options: CliSessionOptions, session: IdeSession, trusted: boolean, opened: OpenedBackend, ownsBackend = true) {
    this.#eager = options.eager;
    this.#ownsBackend = ownsBackend;
    this.trusted = trusted;
    this.mode = opened.mode;
    this.session = session;
    this.backend = this.session.backend;
    if (opened.notice !== undefined) this.#notices.push(opened.notice);
    if (opened.backend instanceof FailoverBackend) {
      opened.backend.onFailover((notice) => {
        this.#notices.push(notice);
        for (const listener of this.#noticeListeners) listener(notice);
      });
    }
    this.#removeTimings = this.backend.use(this.timings.middleware);
    this.#unsubscribe = this.backend.onStatus(() => this.#changed());
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
    const env = options.env ?? process.env;
    const configured = await configuredServers(workspace.root, options.trust === true ? true : undefined, env);
    const opened: OpenedBackend =
      options.server === false
        ? { backend: await serverFreeBackend(workspace.root, configured), mode: 'in-process' }
        : await openBackend({ workspaceRoot: workspace.root, configured, env, ...(options.readyTimeoutMs !== undefined ? { readyTimeoutMs: options.readyTimeoutMs } : {}) });
    const session = await IdeSession.open({
      workspaceRoot: workspace.root,
      backend: opened.backend,
      eager: options.eager,
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    });
    return new CliSession(options, session, configured.trusted, opened);
  }

  /**
   * A session on a backend this process serves to others (the background server answering a
   * client's `dialect/eval`): evaluations run as the command's would, and {@link shutdown} leaves
   * the backend running.
   */
  static async borrow(options: { readonly workspaceRoot: string; readonly backend: IdeBackend; readonly trusted: boolean; readonly readyTimeoutMs: number }): Promise<CliSession> {
    const session = await IdeSession.open({ workspaceRoot: options.workspaceRoot, backend: options.backend, eager: false, readyTimeoutMs: options.readyTimeoutMs });
    const cli = new CliSession({ workspaceRoot: options.workspaceRoot, eager: false }, session, options.trusted, { backend: options.backend, mode: 'server' }, false);
    await session.started; // after the constructor's own reaction to it, so `started` is set
    return cli;
  }

  /** Whether the workspace is trusted for this session. */
  readonly trusted: boolean;

  /** Whether the background server answers (`server`) or this process's own servers (`in-process`). */
  readonly mode: OpenedBackend['mode'];

  /**
   * What the user should be told about where answers come from: why the background server could
   * not be used, or that it was lost and answers are computed in-process. Every notice so far.
   */
  get notices(): readonly string[] {
    return this.#notices;
  }

  /** Calls `listener` with each later notice (see {@link notices}); returns the unsubscribe function. */
  onNotice(listener: (notice: string) => void): () => void {
    this.#noticeListeners.add(listener);
    return () => this.#noticeListeners.delete(listener);
  }

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
    return this.#started && this.backend.servers().every((s) => SETTLED_STATES.has(s.state) || this.#startsWhenNeeded(s));
  }

  /**
   * A server of a polyglot workspace not started yet: it starts when a question needs its
   * language (`LspBackend.start`), so nothing waits for it, and it is not busy.
   */
  #startsWhenNeeded(status: ServerStatus): boolean {
    return this.#started && status.state === 'idle' && this.backend.servers().length > 1;
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
    const busy = servers.filter((s) => !SETTLED_STATES.has(s.state) && !this.#startsWhenNeeded(s));
    // Settled but degraded is not "ready" (the reason is told once, as a note).
    const degraded = servers.filter((s) => s.health !== undefined);
    if (busy.length === 0) return degraded.length > 0 ? showFieldControls(degraded.map((s) => `${s.displayName} ${displayState(s)}`).join(' · ')) : 'ready';
    return busy.map((s) => statusLine(s)).join(' · ');
  }

  /** One line for when everything settled: `rust-analyzer ready after 7.4 s` or why a server is unavailable. */
  settledText(): { ok: boolean; text: string } {
    const servers = this.backend.servers();
    if (servers.length === 0) return { ok: true, text: 'no language server needed for this workspace (text search and files still work)' };
    const later = servers.filter((s) => this.#startsWhenNeeded(s));
    const started = servers.filter((s) => !later.includes(s));
    const bad = started.filter((s) => s.state !== 'ready');
    if (bad.length > 0) return { ok: false, text: bad.map((s) => statusLine(s, { memory: true })).join(' · ') };
    const rest = later.length > 0 ? `${started.length > 0 ? '; ' : ''}${later.map((s) => s.displayName).join(', ')} start when a question needs their language` : '';
    // A server that finished but reports itself degraded is usable, but never "ready".
    // Names come from a dialect.json: one line, shown as statusLine shows a server's text.
    if (started.some((s) => s.health !== undefined)) return { ok: true, text: showFieldControls(`${started.map((s) => statusLine(s)).join(', ')}${rest}`) };
    return { ok: true, text: showFieldControls(`${started.length > 0 ? `${started.map((s) => s.displayName).join(', ')} ready` : ''}${rest}`) };
  }

  /** Whether evaluating this program asks a language server (a function it calls declares `requires: 'index'`), so the index is waited for. */
  needsServers(ast: Expr): boolean {
    return asksServers(this.session.registry, ast, INDEX);
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
      // In a polyglot workspace the question's own wait starts the servers its languages need.
      const lazy = this.backend.servers().some((s) => this.#startsWhenNeeded(s));
      return await this.session.waitUntilReady({ signal, timeoutMs, ...(lazy ? { onlyStarted: true } : {}) });
    } finally {
      unsubscribe();
    }
  }

  /** Stops the servers (once; later calls share the first). Never takes longer than `timeoutMs`. */
  shutdown(timeoutMs = 10_000): Promise<void> {
    this.#shutdown ??= (async () => {
      this.#unsubscribe();
      this.#removeTimings();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        if (this.#ownsBackend) await Promise.race([this.session.shutdown().catch(() => undefined), limit]);
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.#shutdown;
  }
}

type IdeRegistry = ReturnType<typeof createIdeRegistry>;

/** Requirements that need language servers' index. */
const INDEX: ReadonlySet<Requirement> = new Set(['index']);
/** Requirements that need the backend (an editor's, a background server's or our own servers). */
const BACKEND: ReadonlySet<Requirement> = new Set(['index', 'editor', 'servers']);

/** Whether a function the program calls declares one of `requirements` in `registry`. */
function asksServers(registry: IdeRegistry, ast: Expr, requirements: ReadonlySet<Requirement>): boolean {
  return calledFunctions(ast).some((name) => requirements.has(registry.lookup(name)?.requires ?? 'none'));
}

/**
 * Whether evaluating this program asks a language server or the editor, before any session is
 * open (so a program that asks neither neither starts nor needs the background server).
 */
export function programNeedsServers(ast: Expr): boolean {
  return asksServers(sharedIdeRegistry(), ast, BACKEND);
}

/** Whether a program calls one of the functions named `names` (by their names, not aliases: `diff` is `gitdiff`). */
export function programCalls(ast: Expr, names: ReadonlySet<string>): boolean {
  const known = sharedIdeRegistry();
  return calledFunctions(ast).some((name) => names.has(known.lookup(name)?.name ?? name));
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
