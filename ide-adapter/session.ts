/**
 * An IDE session: one workspace, its language servers, and an interpreter whose registry holds
 * every IDE function. This is what the REPL, the MCP server and walkthroughs use.
 */
import { Interpreter, type Outcome, type Registry } from '../dialect/index.js';
import type { Completeness, IdeBackend } from './backend.js';
import { explainProgram } from './explain.js';
import { prewarmFileWorker } from './file-jobs.js';
import { sharedIdeRegistry, type IdeHost } from './functions/index.js';
import { NotesLedger } from './notes-ledger.js';
import type { LspBackendOptions } from './lsp-backend.js';
import type { ServerDefinition } from './lsp/servers.js';
import { TIMEOUTS } from './timeouts.js';
import { loadWorkspaceConfig } from './config.js';
import { isTrusted } from './trust.js';
import { Workspace } from './workspace.js';

/** How an {@link IdeSession} opens. */
export interface IdeSessionOptions extends LspBackendOptions {
  readonly workspaceRoot: string;
  /** How long a query waits for indexing before answering with a note. Default 60 s. */
  readonly readyTimeoutMs?: number;
  /**
   * Use this backend instead of spawning language servers (e.g. the background server, the
   * editor's own LSP). Without one, {@link IdeSession.open} makes an `LspBackend`.
   */
  readonly backend?: IdeBackend;
  /** Start the servers the workspace needs right away (default), or on first use. */
  readonly eager?: boolean;
}

/** Options of {@link IdeSession.openConfigured}. */
export interface ConfiguredSessionOptions extends Omit<IdeSessionOptions, 'skippedServers'> {
  /**
   * Whether the workspace is trusted. Default: what the user's trust store says (`dialect trust`).
   * Untrusted, the servers of `dialect.json` are not started and rust-analyzer runs restricted.
   */
  readonly trusted?: boolean;
}

/** A workspace's trust and the configured servers that may run in it. */
export interface ConfiguredServers {
  readonly trusted: boolean;
  /** The servers of `dialect.json` (none when untrusted). */
  readonly definitions: readonly ServerDefinition[];
  /** Display names of the configured servers left out because the workspace is untrusted. */
  readonly skippedServers: readonly string[];
}

/**
 * Decides trust (`trusted`, else the user's trust store) and which `dialect.json` servers run: all
 * when trusted, none when not — they are not even probed. The one place both are decided.
 */
export async function configuredServers(root: string, trusted?: boolean, env: Readonly<Record<string, string | undefined>> = process.env): Promise<ConfiguredServers> {
  const isTrustedHere = trusted ?? (await isTrusted(root, env));
  const config = await loadWorkspaceConfig(root);
  return isTrustedHere
    ? { trusted: true, definitions: config.servers, skippedServers: [] }
    : { trusted: false, definitions: [], skippedServers: config.servers.map((s) => s.displayName) };
}

/** Options of one evaluation in a session. */
export interface SessionEvaluateOptions {
  readonly signal?: AbortSignal;
  readonly deadlineMs?: number;
  /** How the user raises `deadlineMs`, named by a deadline's error (see `EvaluateOptions.moreTime`). */
  readonly moreTime?: string;
  /** How a deadline's error names the deadline (see `EvaluateOptions.deadlineText`). */
  readonly deadlineText?: string;
  readonly bindings?: Readonly<Record<string, unknown>>;
}

/** An outcome and how complete it is. */
export interface SessionAnswer {
  readonly outcome: Outcome;
  /** Every wait for the index the evaluation made: empty when it asked no language server. */
  readonly completeness: readonly Completeness[];
}

/** A workspace with its language servers and the IDE functions. */
export class IdeSession {
  readonly workspace: Workspace;
  readonly backend: IdeBackend;
  readonly registry: Registry<IdeHost>;
  readonly interpreter: Interpreter<IdeHost>;
  readonly host: IdeHost;
  /** Resolves when the servers have been started (not necessarily indexed). */
  readonly started: Promise<void>;

  private constructor(options: IdeSessionOptions, workspace: Workspace, backend: IdeBackend) {
    this.workspace = workspace;
    this.backend = backend;
    this.registry = sharedIdeRegistry();
    this.interpreter = new Interpreter(this.registry);
    this.host = {
      backend,
      workspace: this.workspace,
      readyTimeoutMs: options.readyTimeoutMs ?? TIMEOUTS.session.readyWaitMs,
      ledger: new NotesLedger(),
      explain: (program, signal) => explainProgram(this.interpreter, this.host, program, signal),
    };
    // Start failures are reported through servers() and on use, never thrown here.
    this.started = options.eager !== false ? backend.start().catch(() => undefined) : Promise.resolve();
    this.#launched = options.eager !== false && backend.launched !== undefined ? settledWithin(backend.launched(), TIMEOUTS.session.launchWaitMs) : Promise.resolve();
  }

  /** A start's first server up (bounded wait): the first program is parsed then, not before its spawn nor beside its loading. */
  readonly #launched: Promise<void>;

  /**
   * Opens a session on a workspace folder; servers start in the background. Without
   * `options.backend`, the language servers run in this process (`LspBackend`, imported only
   * then: a command answered by the background server never loads the LSP client).
   */
  static async open(options: IdeSessionOptions): Promise<IdeSession> {
    const workspace = new Workspace(options.workspaceRoot);
    // Servers about to start here: the file worker (their start's project scan) boots on its own
    // thread while this one loads the LSP side.
    if (options.backend === undefined && options.eager !== false) prewarmFileWorker();
    const backend = options.backend ?? new (await import('./lsp-backend.js')).LspBackend(workspace, options);
    return new IdeSession(options, workspace, backend);
  }

  /**
   * Opens a session with the workspace's `dialect.json` servers added (see `config.ts`) when the
   * workspace is trusted; untrusted, they are left out (answers say so). Throws a `DialectError`
   * for an unreadable or invalid configuration file.
   */
  static async openConfigured(options: ConfiguredSessionOptions): Promise<IdeSession> {
    const configured = await configuredServers(new Workspace(options.workspaceRoot).root, options.trusted);
    return IdeSession.open({ ...options, ...configured, definitions: [...configured.definitions, ...(options.definitions ?? [])] });
  }

  /**
   * Evaluates a Dialect program against the workspace. The outcome's notes are its own, then the
   * session's facts not told yet (each told once per session: `notes-ledger.ts`).
   */
  async evaluate(program: string, options: SessionEvaluateOptions = {}): Promise<Outcome> {
    return (await this.answer(program, options)).outcome;
  }

  /** Evaluates a program and says how complete its answer is (every wait for the index it made). */
  async answer(program: string, options: SessionEvaluateOptions = {}): Promise<SessionAnswer> {
    const completeness: Completeness[] = [];
    await this.#launched;
    const outcome = await this.interpreter.evaluate(program, { ...options, host: { ...this.host, answer: { completeness } } });
    // A fact the error states itself (why a name cannot be looked up) is not repeated as a note.
    const news = this.host.ledger.take(outcome.kind === 'error' ? `${outcome.error.message}\n${outcome.error.hint ?? ''}` : '');
    return { outcome: news.length > 0 ? { ...outcome, notes: [...outcome.notes, ...news] } : outcome, completeness };
  }

  /**
   * Waits until every server has finished indexing (or the timeout passes); with `onlyStarted`,
   * only the servers started so far (none is started for it).
   */
  async waitUntilReady(options: { signal?: AbortSignal; timeoutMs?: number; onlyStarted?: boolean } = {}): Promise<boolean> {
    if (options.onlyStarted === true) {
      const { onlyStarted: _, ...rest } = options;
      await this.started;
      return (await this.backend.waitUntilReady({ ...rest, onlyPaths: true })).complete;
    }
    await this.started;
    return (await this.backend.waitUntilReady(options)).complete;
  }

  async shutdown(): Promise<void> {
    await this.started;
    await this.backend.shutdown();
  }
}

/** `promise` settled (either way), or `ms` passed: what a wait that must not hold anything up awaits. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });
}
