/**
 * One spawned language server, as a façade: `LanguageServer` owns the server's lifecycle (the
 * current process, recovery after a crash, shutdown) and delegates each job to a module: launching
 * a process (`launch.ts`: prepare, spawn, wiring, `initialize`), the request path (`requests.ts`:
 * retries, the liveness probe, `request-timeout` vs `server-unresponsive`), status and warnings
 * (`status-tracker.ts`), the process and its kill ladder (`session.ts`, `private-temp.ts`),
 * documents (`documents.ts`), readiness (`readiness.ts`), server→client handlers (`handlers.ts`),
 * restarts (`restart-policy.ts`); its defaults are `TIMEOUTS.lsp` (`../timeouts.ts`).
 *
 * Invariants:
 * - Every request and every child process has a timeout; nothing here can hang forever.
 * - Server stderr goes to a bounded ring buffer, never to our stdout/stderr.
 * - Each server runs in its own process group, which shutdown kills as a whole, and has its own
 *   temp folder (TMPDIR/TEMP/TMP), deleted once the process is gone.
 * - A server that stops answering (a request timed out and a liveness probe got no answer) is
 *   killed and restarted like a crashed one; the caller gets `server-unresponsive`.
 */
import { resolve } from 'node:path';
import type { RequestType, ServerCapabilities } from 'vscode-languageserver-protocol/node';
import { onAbort } from './abort.js';
import { findServerBinary, type ResolvedBinary } from './discovery.js';
import { isLspClientError, LspClientError } from './errors.js';
import {
  fromLspPosition,
  fromLspRange,
  negotiatedEncoding,
  toLspPosition,
  type TextLines,
  type LspPosition,
  type LspRange,
  type PositionEncoding,
  type TextPosition,
  type TextRange,
} from './positions.js';
import { RingLog } from './ring-log.js';
import type { ProjectAnchors, ServerDefinition } from './servers.js';
import { clampDelay, sleep, type Session } from './session.js';
import { statusLine, type Disposable, type ServerHealth, type ServerProgress, type ServerState, type ServerStatus } from './status.js';
import { StatusTracker } from './status-tracker.js';
import { pathToUri } from './uris.js';
import { TIMEOUTS } from '../timeouts.js';
import { FileWatchRegistry } from './file-watch.js';
import { readinessStrategy, type ReadinessStrategy } from './readiness.js';
import { startChecks, type StartChecks } from './start-checks.js';
import { WarmUpRun } from './warm-up.js';
import { Documents, type OpenDocument } from './documents.js';
import { backoffRestartPolicy, CloseAction, type RestartPolicy } from './restart-policy.js';
import type { HandlerHost, PublishedDiagnostics } from './handlers.js';
import { launchSession, prepareDefinition, serverEnvironment, type LaunchHost } from './launch.js';
import { LIVENESS_PROBE_METHOD, Requests, type RequestOptions } from './requests.js';
import { memoryReason, serverMemoryBound, treeResidentBytes, watchMemory } from './memory-bound.js';
import { killGroup } from './discovery.js';

export { statusLine, type Disposable, type ServerHealth, type ServerProgress, type ServerState, type ServerStatus } from './status.js';

export { LIVENESS_PROBE_METHOD, type RequestOptions } from './requests.js';

/** Options of {@link LanguageServer.start}. */
export interface StartOptions {
  /** Environment for the server process, merged over `process.env`; `undefined` values remove variables. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Use this binary instead of probing the definition's candidates. */
  readonly binary?: ResolvedBinary;
  /** Default deadline of requests; {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /** Deadline of the `initialize` handshake; {@link DEFAULT_INITIALIZE_TIMEOUT_MS}. */
  readonly initializeTimeoutMs?: number;
  /**
   * How long a server may take to answer the liveness probe sent after a request timed out before
   * it counts as hung and is killed and restarted; {@link LIVENESS_PROBE_TIMEOUT_MS}.
   */
  readonly livenessProbeTimeoutMs?: number;
  /** Restarts allowed after crashes or hangs (the count resets after `TIMEOUTS.lsp.healthyUptimeMs` of uptime); 3. */
  readonly maxRestarts?: number;
  /** First restart delay, doubled per consecutive crash; {@link DEFAULT_RESTART_DELAY_MS}. */
  readonly restartDelayMs?: number;
  /**
   * What to do when the process ends on its own (crash, exit, or killed as hung); replaces the
   * backoff policy built from `maxRestarts` and `restartDelayMs`.
   */
  readonly restartPolicy?: RestartPolicy;
  /** Characters of stderr kept; 64 KiB. */
  readonly stderrLimit?: number;
  /** Quiet time after the last progress ends before a `progress` server counts as ready; `TIMEOUTS.lsp.settleMs`. */
  readonly settleMs?: number;
  /** Deadline of the server's warm-up request (`ServerDefinition.warmUp`; `TIMEOUTS.lsp.warmUpMs`). */
  readonly warmUpMs?: number;
  /**
   * Reads a document's text. The backend passes the workspace's confined reader, so a server is
   * never sent a file outside the workspace, a FIFO or a device. Default: the file on disk.
   */
  readonly readText?: (absPath: string) => Promise<string>;
  /**
   * Resident bytes the server (with the processes it starts) may use before it is killed and
   * restarted (`memory-bound.ts`); default `DIALECT_SERVER_MEMORY_MB` of `env`, else
   * `DEFAULT_SERVER_MEMORY_BYTES`.
   */
  readonly maxMemoryBytes?: number;
  /**
   * Called once the first start's process is up and initialized (its documents may still wait
   * for the start's checks): work that does not need the server (a program's parse) runs then,
   * while the project scan finishes on the file worker, instead of before the spawn and the
   * `initialize`, or beside the server's loading of its projects (which it would slow).
   */
  readonly onLaunched?: () => void;
}

export type { PublishedDiagnostics } from './handlers.js';
export type { OpenDocument } from './documents.js';
export { backoffRestartPolicy, CloseAction, type BackoffOptions, type CloseDecision, type RestartPolicy } from './restart-policy.js';

const noop = (): void => undefined;
/** Characters of one stderr chunk matched against the definition's known problems. */
const KNOWN_PROBLEM_SCAN_CHARS = 4096;
/** Default number of restarts before giving up. */
const DEFAULT_MAX_RESTARTS = 3;
/** Default deadline of a request, retries included (`TIMEOUTS.lsp.requestMs`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = TIMEOUTS.lsp.requestMs;
/** Default deadline of the `initialize` handshake (`TIMEOUTS.lsp.initializeMs`). */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = TIMEOUTS.lsp.initializeMs;
/** Default deadline of {@link LanguageServer.waitUntilReady} (`TIMEOUTS.lsp.readyMs`). */
export const DEFAULT_READY_TIMEOUT_MS = TIMEOUTS.lsp.readyMs;
/** Default first delay before restarting a crashed or hung server (`TIMEOUTS.lsp.restartDelayMs`). */
export const DEFAULT_RESTART_DELAY_MS = TIMEOUTS.lsp.restartDelayMs;
/** Default deadline of the liveness probe (`TIMEOUTS.lsp.livenessProbeMs`, which says why 5 s). */
export const LIVENESS_PROBE_TIMEOUT_MS = TIMEOUTS.lsp.livenessProbeMs;
/**
 * A client for one language server process serving one workspace root. Create it with
 * {@link LanguageServer.start}; share one instance among concurrent callers.
 */
export class LanguageServer {
  readonly definition: ServerDefinition;
  readonly workspaceRoot: string;
  readonly binary: ResolvedBinary;
  readonly #options: StartOptions;
  readonly #stderr: RingLog;
  readonly #messages = new RingLog(32 * 1024);
  /** The latest reading of the server's memory, for the process it was read from (see {@link LanguageServer.memory}). */
  #memorySample: { readonly pid: number; readonly bytes: number } | undefined;
  readonly #documents: Documents;
  /** Wakes backoff sleeps when shutting down. */
  readonly #stopController = new AbortController();
  #session: Session | undefined;
  #starting: Promise<Session> | undefined;
  #generation = 0;
  readonly #restartPolicy: RestartPolicy;
  #gaveUp = false;
  #stopping = false;
  #shutdown: Promise<void> | undefined;
  #capabilities: ServerCapabilities = {};
  #encoding: PositionEncoding = 'utf-16';
  readonly #readiness: ReadinessStrategy;
  /** The current process's warm-up (`ServerDefinition.warmUp`), if the server has one. */
  #warmUp: WarmUpRun | undefined;
  readonly #sessions = new Set<Session>();
  readonly #fileWatch: FileWatchRegistry;
  readonly #requests: Requests;
  readonly #status: StatusTracker;

  private constructor(definition: ServerDefinition, workspaceRoot: string, binary: ResolvedBinary, options: StartOptions) {
    this.definition = definition;
    this.workspaceRoot = resolve(workspaceRoot);
    this.binary = binary;
    this.#options = options;
    this.#stderr = new RingLog(options.stderrLimit ?? 64 * 1024);
    this.#status = new StatusTracker(definition, () => this.pid);
    this.#readiness = readinessStrategy(
      definition.readiness,
      {
        state: () => this.#status.state,
        setState: (state, detail) => this.#status.setState(state, detail),
        activeProgress: () => this.#status.activeProgress,
        stopping: () => this.#stopping,
        setReason: (reason) => this.#status.setReason(reason),
        barrier: () => this.#barrier(),
      },
      options.settleMs,
    );
    this.#restartPolicy =
      options.restartPolicy ??
      backoffRestartPolicy({
        maxRestarts: options.maxRestarts ?? DEFAULT_MAX_RESTARTS,
        firstDelayMs: options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS,
        healthyUptimeMs: TIMEOUTS.lsp.healthyUptimeMs,
      });
    this.#requests = new Requests({
      definition,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      livenessProbeTimeoutMs: options.livenessProbeTimeoutMs ?? LIVENESS_PROBE_TIMEOUT_MS,
      currentSession: () => this.#session,
      starting: () => this.#starting,
      stopping: () => this.#stopping,
      gaveUp: () => this.#gaveUp,
      detail: () => this.#status.detail,
      statusText: () => statusLine(this.#status.snapshot()),
      indexing: () => {
        const { state } = this.#status.snapshot();
        return state === 'starting' || state === 'indexing' || state === 'idle';
      },
      stderrHint: () => this.#stderrHint(),
      killingUnresponsive: (session, reason) => {
        if (session === this.#session) this.#status.setState('crashed', reason);
      },
    });
    this.#documents = new Documents({
      definition,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      ...(options.readText !== undefined ? { readText: options.readText } : {}),
      usableSession: (method, deadline, timeoutMs, signal) => this.#requests.usableSession(method, deadline, timeoutMs, signal),
      currentSession: () => this.#session,
      warn: (key, warning) => this.#status.addWarning(key, warning),
    });
    this.#fileWatch = new FileWatchRegistry(this.workspaceRoot, (changes) => {
      const session = this.#session;
      if (session?.initialized !== true) return;
      session.notify('workspace/didChangeWatchedFiles', { changes: changes.map((c) => ({ uri: pathToUri(c.path), type: c.type })) });
    }, {
      // Files changing under the server make it re-read: not ready until it has them.
      changing: () => this.#readiness.filesChanging(),
      settled: (rootReplaced) => this.#readiness.filesSettled(rootReplaced),
    });
  }

  /**
   * Runs the definition's preflight (a refusal throws `server-refused` before anything of the
   * server runs), finds a working binary (unless `options.binary` is given), spawns it in
   * `workspaceRoot`, completes the `initialize` handshake and opens the project anchors. Throws
   * `server-refused`, `server-not-found`, `spawn-failed` or `initialize-failed`; a failed start
   * leaves no process behind. Indexing continues in the background: use {@link waitUntilReady}.
   * `checks` are the ones `startChecks` began ahead for this definition and root (default: begun here).
   */
  static async start(given: ServerDefinition, workspaceRoot: string, options: StartOptions = {}, checks?: StartChecks): Promise<LanguageServer> {
    const root = resolve(workspaceRoot);
    // Independent start-up work runs at once. The search for project anchors (our own confined
    // reads, nothing runs) goes on while the preflight checks the project files; nothing of the
    // server runs before the preflight passed, except a server that reads nothing of the
    // workspace before its first document (`readsNothingBeforeOpen`): it launches meanwhile.
    // The binary's probe (`--version`, from a neutral folder; usually a kept answer) runs while
    // `prepare` works (rust-analyzer: the toolchain and `cargo metadata`); it is redone only if
    // `prepare` changed where it would look.
    const { anchors, verdict } = checks ?? startChecks(given, root);
    const passChecks = async (): Promise<readonly string[]> => {
      const { refusal, notes } = await verdict;
      if (refusal !== undefined) throw new LspClientError('server-refused', refusal, { serverId: given.id });
      return notes;
    };
    // A server that reads nothing before its first document launches at once; its documents wait for the checks.
    const launchFirst = given.readsNothingBeforeOpen === true;
    const checked = launchFirst ? undefined : await passChecks();
    const givenEnv = serverEnvironment(given, options.env);
    const early = options.binary !== undefined ? undefined : findServerBinary(given, { env: givenEnv });
    early?.catch(() => undefined);
    const { definition, warnings, laterWarnings } = await prepareDefinition(given, root, options.env);
    const env = serverEnvironment(definition, options.env);
    const sameSearch = early !== undefined && env['PATH'] === givenEnv['PATH'] && (given.overrideVar === undefined || env[given.overrideVar] === givenEnv[given.overrideVar]);
    const binary = options.binary ?? (await (sameSearch ? early : findServerBinary(definition, { env })));
    const server = new LanguageServer(definition, workspaceRoot, binary, options);
    for (const warning of warnings) server.#status.addWarning(warning.key, warning.text);
    const launching = server.#launch();
    server.#starting = launching;
    try {
      await launching;
      // The process is up and initialized: work that needs no server (a program's parse, the file
      // watcher's first walk) runs now, while the checks and the project scan finish on the
      // worker, not while it loads.
      server.#fileWatch.start();
      options.onLaunched?.();
      const notes = checked ?? (await passChecks());
      for (const note of notes) server.#status.addWarning(`projects:${note}`, note);
      for (const warning of (await laterWarnings) ?? []) server.#status.addWarning(warning.key, warning.text);
      await server.#openAnchors(await anchors);
      // The start's documents are sent: an `in-order` server is ready once it answers after them.
      server.#readiness.documentsOpened();
      return server;
    } catch (error) {
      await server.shutdown();
      throw error;
    } finally {
      if (server.#starting === launching) server.#starting = undefined;
    }
  }

  /** Opens the definition's project anchors; a missing anchor only costs workspace-wide answers. */
  async #openAnchors(anchors: ProjectAnchors | undefined): Promise<void> {
    for (const warning of anchors?.warnings ?? []) this.#status.addWarning(`projects:${warning}`, warning);
    // Projects left unloaded make the server's answers incomplete: it shows as degraded (`ready`
    // with a warning), which completeness and MCP's `indexing.complete` already read.
    if (anchors?.complete === false) this.#status.setLimited(anchors.warnings.join('; ') || 'some projects of the workspace were not loaded');
    // All at once (the server loads the projects as they come), pinned: they keep their projects loaded.
    const open = (files: readonly string[]): Promise<unknown> => Promise.all(files.map((file) => this.#documents.ensureOpen(file, { pinned: true }).catch(() => undefined)));
    await open(anchors?.files ?? []);
    // What a longer look finds opens once it is found, while the server loads the projects above.
    const later = await anchors?.later?.().catch(() => undefined);
    for (const warning of later?.warnings ?? []) this.#status.addWarning(`projects:${warning}`, warning);
    await open(later?.files ?? []);
  }

  /** Current lifecycle state. */
  get state(): ServerState {
    return this.#status.state;
  }

  /** The most recent active progress, or the last one seen if none is active. */
  get progress(): ServerProgress | undefined {
    return this.#status.progress;
  }

  /** The position encoding negotiated in `initialize` (UTF-16 unless the server chose otherwise). */
  get positionEncoding(): PositionEncoding {
    return this.#encoding;
  }

  /** The server's capabilities from its `initialize` result (refreshed on restart). */
  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  /** One-time warnings (e.g. rust-analyzer could not load std); each distinct warning appears once. */
  get warnings(): readonly string[] {
    return this.#status.warnings;
  }

  /** Adds a one-time warning about the server's answers (a bound an answer reached); a key already warned about is not repeated. */
  warn(key: string, text: string): void {
    this.#status.addWarning(key, text);
  }

  /** The server's own report that it runs degraded (rust-analyzer health), `undefined` while healthy. */
  get health(): ServerHealth | undefined {
    return this.#status.health;
  }

  /** When the current server process was started (`Date.now()`), if running: it read no file as it was before. */
  get startedAt(): number | undefined {
    return this.#session?.startedAt;
  }

  /** PID of the current server process, if running. */
  get pid(): number | undefined {
    return this.#session?.child.pid;
  }

  /** How many times the server was restarted after crashes. */
  get restartCount(): number {
    return this.#generation > 0 ? this.#generation - 1 : 0;
  }

  /** Snapshot of the current status. */
  get status(): ServerStatus {
    return this.#status.snapshot();
  }

  /** Subscribes to state, progress and warning changes. */
  onStatus(listener: (status: ServerStatus) => void): Disposable {
    return this.#status.onStatus(listener);
  }

  /** The last `maxChars` characters of the server's stderr (bounded; never printed). */
  stderrTail(maxChars = 4000): string {
    return this.#stderr.tail(maxChars);
  }

  /** The last `maxChars` characters of `window/logMessage`/`showMessage` traffic. */
  logTail(maxChars = 4000): string {
    return this.#messages.tail(maxChars);
  }

  /**
   * Resident memory of the server process and its helpers in bytes, `undefined` where unavailable:
   * the memory bound's latest reading (at most `MEMORY_POLL_MS` old), else read from /proc
   * once. Listings of the servers ask for it often (every status event a background server
   * forwards): each must not walk /proc again.
   */
  memory(): number | undefined {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    if (this.#memorySample?.pid === pid) return this.#memorySample.bytes;
    const bytes = treeResidentBytes(pid);
    if (bytes !== undefined) this.#memorySample = { pid, bytes };
    return bytes;
  }

  /**
   * Waits until the server finished its start-up work: for rust-analyzer `experimental/serverStatus`
   * with `quiescent: true`; for others, all `$/progress` tokens ended plus a settle delay. Never
   * throws on the deadline (default 120 s): it resolves with the status at that moment (state
   * `indexing` or `starting`, with the progress), so callers can still query (results may be
   * partial) and tell the user why. Also resolves when the server stopped or crashed for good.
   * Ready means `state === 'ready'` (then `health` says whether it runs degraded). Throws
   * `request-cancelled` only when `signal` aborts.
   */
  async waitUntilReady(options: RequestOptions = {}): Promise<ServerStatus> {
    // Changes already made on disk reach the file watcher in the event loop's poll phase: let it
    // run once, so a question asked right after a write sees the server re-reading.
    await new Promise((resolveTurn) => setImmediate(resolveTurn));
    return this.#waitForState(options);
  }

  /** {@link waitUntilReady} without the turn of the event loop. */
  #waitForState(options: RequestOptions): Promise<ServerStatus> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    const finished = () => this.#status.state === 'stopped' || this.#gaveUp;
    if (this.#status.state === 'ready' || finished()) return Promise.resolve(this.#status.snapshot());
    return new Promise((resolvePromise, reject) => {
      const { signal } = options;
      let unsubscribe: () => void = noop;
      const cleanup = () => {
        clearTimeout(timer);
        subscription.dispose();
        unsubscribe();
      };
      const cancelled = () => {
        cleanup();
        reject(new LspClientError('request-cancelled', `waiting for ${this.definition.displayName} was cancelled`, { serverId: this.definition.id }));
      };
      const subscription = this.onStatus(() => {
        if (this.#status.state === 'ready' || finished()) {
          cleanup();
          resolvePromise(this.#status.snapshot());
        }
      });
      const timer = setTimeout(() => {
        cleanup();
        resolvePromise(this.#status.snapshot());
      }, clampDelay(timeoutMs));
      unsubscribe = onAbort(signal, cancelled);
    });
  }

  /**
   * Sends a request and returns its result. Retries `ContentModified`/`ServerCancelled` answers
   * up to 3 times with a small backoff; when the server crashes mid-request it is restarted and
   * the request retried once. When the deadline passes, the server is probed
   * ({@link LIVENESS_PROBE_METHOD}); one that does not answer within the probe deadline is hung: it
   * is killed and restarted, and the call fails with `server-unresponsive` after at most
   * `timeoutMs` + the probe deadline. Errors: `request-timeout` (names the method and what the
   * server was doing), `server-unresponsive`, `request-cancelled`, `request-failed` (server
   * error; `lspCode`), `server-crashed`, `server-stopped`.
   */
  request<P, R, E>(type: RequestType<P, R, E>, params: P, options?: RequestOptions): Promise<R>;
  request<R = unknown>(method: string, params?: unknown, options?: RequestOptions): Promise<R>;
  request(typeOrMethod: string | { readonly method: string }, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.#requests.send(typeof typeOrMethod === 'string' ? typeOrMethod : typeOrMethod.method, params, options);
  }

  /** The diagnostics the server published, per URI, that are not empty. */
  publishedDiagnostics(): PublishedDiagnostics[] {
    return this.#documents.publishedDiagnostics();
  }

  /** The diagnostics the server last published for one document (a lookup, not a list), if kept. */
  publishedDiagnosticsOf(uri: string): PublishedDiagnostics | undefined {
    return this.#documents.publishedDiagnosticsOf(uri);
  }

  /**
   * The diagnostics published for one document (for `minVersion` or later, when the server says
   * which version), waiting (up to `timeoutMs`) when none were published yet; undefined when none
   * came in time. Servers publish after they
   * analysed an opened file, which can take a moment. Throws `request-cancelled` only if `signal` aborts.
   */
  waitForDiagnostics(uri: string, options: RequestOptions & { readonly timeoutMs: number; readonly minVersion?: number }): Promise<PublishedDiagnostics | undefined> {
    return this.#documents.waitForDiagnostics(uri, options);
  }

  /** Sends a notification to the running server (dropped while no server runs). */
  notify(method: string, params?: unknown): void {
    this.#session?.notify(method, params);
  }

  /**
   * Opens a file in the server if it is not open yet (`didOpen` with the right languageId and the
   * text on disk). Re-syncs with `didChange` when the file changed on disk since; documents are
   * re-opened automatically after a restart. Concurrent calls for one file share one open.
   */
  ensureOpen(absPath: string, options: RequestOptions = {}): Promise<OpenDocument> {
    return this.#documents.ensureOpen(absPath, options);
  }

  /**
   * A number that stays the same while no file of the workspace changed, as the watcher that tells
   * the server about changes sees them (`DirectoryWatcher.stamp`): what the server's index can
   * know. The first call starts the watcher of a server that registered no globs. `undefined`
   * while the watcher cannot vouch for the disk (still placing its watches, changes pending).
   */
  diskStamp(): number | undefined {
    return this.#fileWatch.stamp();
  }

  /** Closes a document opened with {@link ensureOpen}. */
  closeDocument(absPath: string): void {
    this.#documents.close(absPath);
  }

  /** Documents currently open in the server. */
  openDocuments(): OpenDocument[] {
    return this.#documents.open();
  }

  /** Lines of a file as the server sees it: the open document's text, else the file on disk. */
  lines(absPath: string): Promise<TextLines> {
    return this.#documents.lines(absPath);
  }

  /** Dialect position → LSP position in this server's encoding. */
  toLspPosition(lines: TextLines, position: TextPosition): LspPosition {
    return toLspPosition(lines.lineText(position.line), position, this.#encoding);
  }

  /** LSP position in this server's encoding → Dialect position. */
  fromLspPosition(lines: TextLines, position: LspPosition): TextPosition {
    return fromLspPosition(lines.lineText(position.line + 1), position, this.#encoding);
  }

  /** LSP range in this server's encoding → Dialect range. */
  fromLspRange(lines: TextLines, range: LspRange): TextRange {
    return fromLspRange(lines, range, this.#encoding);
  }

  /**
   * Stops the server: LSP `shutdown` + `exit` (bounded by `timeoutMs`, default 3000), then SIGTERM,
   * then SIGKILL to its whole process group, and deletes its private temp folder. Idempotent;
   * never leaves a process or a temp file behind.
   */
  shutdown(options: { timeoutMs?: number } = {}): Promise<void> {
    this.#shutdown ??= this.#doShutdown(options.timeoutMs ?? TIMEOUTS.lsp.shutdownMs);
    return this.#shutdown;
  }

  // ---------------------------------------------------------------------------------------------

  async #doShutdown(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    this.#stopController.abort();
    this.#fileWatch.close();
    this.#readiness.dispose();
    this.#warmUp?.dispose();
    if (this.#starting !== undefined) {
      // Let a launch in flight finish (bounded), so its process is known and stopped below.
      await Promise.race([this.#starting.then(() => undefined, () => undefined), sleep(timeoutMs)]);
    }
    await Promise.all([...this.#sessions].map((session) => this.#stopSession(session, timeoutMs)));
    this.#session = undefined;
    this.#status.setState('stopped', 'shut down');
  }

  async #stopSession(session: Session, timeoutMs: number): Promise<void> {
    if (session.alive && session.initialized) {
      try {
        await session.send('shutdown', undefined, Date.now() + Math.min(timeoutMs, TIMEOUTS.lsp.shutdownRequestMs), undefined, this.#requests.errors('shutdown', timeoutMs));
        session.notify('exit', undefined);
      } catch {
        // Unresponsive or dead: signals below.
      }
    }
    await session.terminate('the server was shut down', TIMEOUTS.lsp);
    this.#sessions.delete(session);
  }

  #stderrHint(): string {
    const tail = this.#stderr.tail(600).trim();
    return tail === '' ? '' : `; stderr ends with:\n${tail}`;
  }

  /**
   * The liveness probe's request ({@link LIVENESS_PROBE_METHOD}, which no server acts on) sent to
   * the current process without a deadline: any answer, MethodNotFound included, resolves; the
   * process's death or our shutdown rejects.
   */
  async #barrier(): Promise<void> {
    const session = this.#session;
    if (session === undefined) throw new LspClientError('server-stopped', `${this.definition.displayName} is not running`, { serverId: this.definition.id });
    try {
      await session.send(LIVENESS_PROBE_METHOD, undefined, Number.POSITIVE_INFINITY, this.#stopController.signal, this.#requests.errors(LIVENESS_PROBE_METHOD, Number.POSITIVE_INFINITY));
    } catch (error) {
      if (!isLspClientError(error, 'request-failed')) throw error;
    }
  }

  /** Spawns and initializes a new session (`launch.ts`); throws `spawn-failed`/`initialize-failed`. */
  async #launch(): Promise<Session> {
    const generation = ++this.#generation;
    this.#fileWatch.reset(); // a new process registers its watchers anew
    this.#documents.clearPublished(); // and publishes its own diagnostics
    this.#status.reset();
    this.#readiness.reset();
    this.#warmUp?.dispose();
    this.#warmUp = this.#newWarmUp();
    this.#status.setState('starting');
    const { session, result } = await launchSession(generation, this.#launchHost());
    this.#capabilities = result.capabilities;
    this.#encoding = negotiatedEncoding(result.capabilities.positionEncoding);
    session.initialized = true;
    session.notify('initialized', {});
    this.#documents.reopenIn(session);
    this.#session = session;
    this.#warmUp?.initialized();
    this.#readiness.initialized();
    // A restart re-opened the documents above; a first start opens its anchors after this.
    if (generation > 1) this.#readiness.documentsOpened();
    return session;
  }

  /** A warm-up for the process being launched (it holds readiness on the process it first sends to). */
  #newWarmUp(): WarmUpRun | undefined {
    const warmUp = this.definition.warmUp;
    if (warmUp === undefined) return undefined;
    const requestMs = this.#options.warmUpMs ?? TIMEOUTS.lsp.warmUpMs;
    return new WarmUpRun(
      warmUp,
      {
        hold: (reason) => this.#readiness.hold(reason),
        release: () => this.#readiness.release(),
        send: (method, params, deadline) => {
          const session = this.#session;
          if (session === undefined) return Promise.reject(new Error('no process'));
          return session.send(method, params, deadline, undefined, this.#requests.errors(method, requestMs));
        },
        warn: (key, text) => this.#status.addWarning(`warm-up:${key}`, text),
      },
      TIMEOUTS.lsp.warmUpListMs,
      requestMs,
    );
  }

  /** The owner side of a launch (launch.ts). */
  #launchHost(): LaunchHost {
    return {
      definition: this.definition,
      workspaceRoot: this.workspaceRoot,
      binary: this.binary,
      env: serverEnvironment(this.definition, this.#options.env),
      initializeTimeoutMs: this.#options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
      stopSignal: this.#stopController.signal,
      handlers: this.#handlerHost(),
      stopping: () => this.#stopping,
      errors: (method, timeoutMs) => this.#requests.errors(method, timeoutMs),
      stderrHint: () => this.#stderrHint(),
      log: (line) => this.#messages.append(line),
      stderr: (chunk) => {
        this.#stderr.append(chunk);
        this.#status.checkKnownProblems(chunk.length > KNOWN_PROBLEM_SCAN_CHARS ? chunk.slice(0, KNOWN_PROBLEM_SCAN_CHARS) : chunk);
      },
      track: (session) => {
        this.#sessions.add(session);
        const bound = serverMemoryBound(this.#options.maxMemoryBytes, { ...process.env, ...this.#options.env });
        const pid = session.child.pid;
        const stop = watchMemory(pid, bound, (used) => this.#overMemory(session, memoryReason(used, bound)), (bytes) => {
          if (pid !== undefined) this.#memorySample = { pid, bytes };
        });
        session.child.once('exit', stop);
      },
      overMemory: (session, reason) => this.#overMemory(session, reason),
      exited: (session, reason) => this.#onSessionExit(session, reason),
      stopSession: (session, timeoutMs) => this.#stopSession(session, timeoutMs),
    };
  }

  /** The owner side of the server→client handlers (handlers.ts). */
  #handlerHost(): HandlerHost {
    return {
      definition: this.definition,
      workspaceRoot: this.workspaceRoot,
      fileWatch: this.#fileWatch,
      isCurrent: (session) => session === this.#session,
      isLatestLaunch: (session) => session.generation === this.#generation,
      log: (line) => this.#messages.append(line),
      checkKnownProblems: (text) => this.#status.checkKnownProblems(text),
      addWarning: (key, warning) => this.#status.addWarning(key, warning),
      onProgress: (token, value) => {
        if (!this.#status.progressNotification(token, value)) return;
        this.#readiness.progressChanged();
        this.#status.emit();
      },
      onServerStatus: (params) => {
        // rust-analyzer's `experimental/serverStatus`: quiescence is readiness.
        this.#status.serverStatus(params);
        this.#readiness.serverStatus(params.quiescent === true, params.message ?? undefined);
        this.#status.emit(); // a health change alone changes the text; unchanged text is not repeated
      },
      onDiagnostics: (published) => this.#documents.published(published),
      onLog: (message) => this.#warmUp?.log(message),
    };
  }

  /** Kills a session past its memory bound; its exit restarts it like a crash. */
  #overMemory(session: Session, reason: string): void {
    if (session.exited || this.#stopping) return;
    session.overMemory = reason;
    session.unresponsive = reason;
    if (session === this.#session) this.#status.setState('crashed', reason);
    session.kill(reason);
    killGroup(session.child.pid, 'SIGKILL');
  }

  #onSessionExit(session: Session, reason: string): void {
    // Initialization failures are reported by #launch; superseded sessions need nothing.
    if (session !== this.#session) return;
    this.#session = undefined;
    session.dispose();
    this.#sessions.delete(session);
    if (this.#stopping) return;
    this.#restartPolicy.closed(Date.now() - session.startedAt);
    this.#status.setState('crashed', reason);
    if (this.#starting !== undefined) return;
    const recovery = this.#recover();
    this.#starting = recovery;
    recovery.then(
      () => {
        if (this.#starting === recovery) this.#starting = undefined;
      },
      () => {
        if (this.#starting === recovery) this.#starting = undefined;
      },
    );
  }

  /** Restarts after a crash or hang as the restart policy says (by default: backoff, then give up). */
  async #recover(): Promise<Session> {
    for (;;) {
      if (this.#stopping) throw new LspClientError('server-stopped', `${this.definition.displayName} was shut down`, { serverId: this.definition.id });
      const decision = this.#restartPolicy.next();
      if (decision.action === CloseAction.DoNotRestart) {
        this.#gaveUp = true;
        this.#status.setState('crashed', `${this.#status.detail ?? 'crashed'}; ${decision.message}`);
        throw new LspClientError('server-crashed', `${this.definition.displayName} keeps crashing (${this.#status.detail ?? ''})${this.#stderrHint()}`, {
          serverId: this.definition.id,
        });
      }
      await sleep(decision.delayMs, this.#stopController.signal);
      if (this.#stopping) continue;
      try {
        return await this.#launch();
      } catch (error) {
        this.#status.setState('crashed', (error as Error).message.split('\n')[0]);
      }
    }
  }
}
