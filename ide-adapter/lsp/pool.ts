/**
 * The language servers of one workspace root: which ones it needs, starting them (lazily on first
 * use or eagerly), routing files to them, and one status stream for a UI. Every caller shares the
 * same server instance per language.
 */
import { resolve } from 'node:path';
import type { Disposable, LanguageServer, ServerStatus, StartOptions } from './client.js';
import { isLspClientError, LspClientError } from './errors.js';
import { detectServers, languageFor, type DetectedServer, type ServerDefinition } from './servers.js';
import { startChecks, type StartChecks } from './start-checks.js';
import { prewarmFileWorker } from '../file-jobs.js';

/** Options of a {@link ServerPool}. */
export interface PoolOptions extends Omit<StartOptions, 'binary'> {
  /**
   * Every server the workspace may use, in priority order (custom servers before built-ins:
   * `withBuiltinServers` of `languages/index.ts`); the pool knows no others.
   */
  readonly definitions: readonly ServerDefinition[];
  /** Per-server overrides of the start options, by server id. */
  readonly perServer?: Readonly<Record<string, Omit<StartOptions, 'binary'>>>;
}

interface Entry {
  readonly definition: ServerDefinition;
  detected: boolean;
  starting?: Promise<LanguageServer>;
  server?: LanguageServer;
  error?: LspClientError;
  /** Checks begun ahead for the next start (`startSole`), taken by it. */
  checks?: StartChecks;
  /** A start begun ahead while detection still looks deeper (`startSole`), taken by the next start. */
  early?: EarlyStart;
}

/** A server launched before detection said it is the one to start (`readsNothingBeforeOpen`). */
interface EarlyStart {
  readonly server: Promise<LanguageServer>;
  /** Detection's verdict: `true` lets the start open its documents; `false` stops it (it is shut down). */
  readonly decide: (start: boolean) => void;
}

/** Why an early start stopped: detection found more than one server, or the pool was shut down. */
const NOT_STARTED_EARLY = 'not started: detection found other servers, or the servers were shut down';

/** The language servers for one workspace root. */
export class ServerPool {
  readonly workspaceRoot: string;
  readonly #options: PoolOptions;
  readonly #definitions: ServerDefinition[];
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<(status: ServerStatus) => void>();
  #detection: Promise<DetectedServer[]> | undefined;
  /** Early starts detection dropped, until their servers have stopped. */
  readonly #dropped = new Set<Promise<void>>();
  /** See {@link launched}. */
  #launched: Promise<void> | undefined;
  #closed = false;

  constructor(workspaceRoot: string, options: PoolOptions) {
    this.workspaceRoot = resolve(workspaceRoot);
    this.#options = options;
    this.#definitions = [...options.definitions];
    for (const definition of this.#definitions) this.#entries.set(definition.id, { definition, detected: false });
  }

  /** The servers the workspace needs (detected once, from the top two directory levels). */
  detect(): Promise<DetectedServer[]> {
    return this.#detect();
  }

  /** {@link detect}; `nearRoot` hears what the top two levels show, if this call is the one that detects. */
  #detect(nearRoot?: (found: readonly DetectedServer[]) => void): Promise<DetectedServer[]> {
    this.#detection ??= detectServers(this.workspaceRoot, this.#definitions, nearRoot).then((found) => {
      for (const { definition } of found) {
        const entry = this.#entries.get(definition.id);
        if (entry === undefined || entry.detected) continue;
        entry.detected = true;
        // Listeners hear of a server the workspace needs before it starts (a background
        // server's clients list servers from what they hear: without this, none until one starts).
        if (entry.server === undefined && entry.starting === undefined && entry.error === undefined) this.#emit(this.#info(entry, false));
      }
      return found;
    });
    return this.#detection;
  }

  /**
   * Starts every detected server in parallel and returns the listing. Failures (e.g. a missing
   * binary) do not throw: the server shows as `unavailable` with its error. Does not wait for
   * indexing; see {@link waitUntilReady}.
   */
  async start(): Promise<ServerStatus[]> {
    // The LSP client loads while detection reads the tree: a start is about to need it.
    void import('./client.js').catch(() => undefined);
    const detected = await this.detect();
    await Promise.all(detected.map(({ definition }) => this.#serverById(definition.id).catch(() => undefined)));
    return this.servers();
  }

  /**
   * Starts the workspace's server ahead of the first question when it needs exactly one (a
   * polyglot workspace starts each when a question first needs it: `LspBackend.start`), as soon
   * as it may: when the top two levels show one server, its start checks (the preflight and the
   * anchor search, our own reads: `start-checks.ts`) and the LSP client's loading run while
   * detection still looks deeper, so the process spawns the moment detection says it is the only
   * one. A server that reads nothing of the workspace before its first document
   * (`readsNothingBeforeOpen`: tsgo) is launched then too, and opens its first document only once
   * detection said to start it and its checks passed; otherwise it is shut down. Checks begun for
   * a server that then does not start are dropped. Failures do not throw (see {@link start}).
   */
  async startSole(): Promise<void> {
    // The file worker boots while the top levels are read: the deeper look and the checks are its jobs.
    prewarmFileWorker();
    let started: string | undefined;
    let launched: () => void = () => undefined;
    this.#launched ??= new Promise<void>((resolve) => (launched = resolve));
    try {
      const detected = await this.#detect((near) => {
        const sole = near.length === 1 ? this.#entries.get(near[0]?.definition.id ?? '') : undefined;
        if (sole !== undefined && sole.server === undefined && sole.starting === undefined) {
          sole.checks = startChecks(sole.definition, this.workspaceRoot);
          // A server that reads nothing before its first document launches now; detection's verdict gates its documents.
          if (sole.definition.readsNothingBeforeOpen === true) sole.early = this.#startEarly(sole, sole.checks, launched);
        }
        // Nothing launches before detection is done: there is nothing to wait for.
        if (sole?.early === undefined) launched();
        // Compiled while the worker looks deeper, not while the top levels are read (the same thread).
        void import('./client.js').catch(() => undefined);
      });
      started = detected.length === 1 && !this.#closed ? detected[0]?.definition.id : undefined;
    } finally {
      for (const entry of this.#entries.values()) if (entry.definition.id !== started) this.#dropEarly(entry);
      // A server launched early goes on, and says itself when it loads; otherwise none is about to.
      if (started === undefined || this.#entries.get(started)?.early === undefined) launched();
    }
    if (started !== undefined) await this.#serverById(started).catch(() => undefined);
  }

  /**
   * Launches `entry`'s server with the checks begun for it, before detection is done: the start
   * opens no document until detection said to start it ({@link EarlyStart.decide}) and the
   * checks passed; otherwise it shuts the server down.
   */
  #startEarly(entry: Entry, checks: StartChecks, launched: () => void): EarlyStart {
    let decide: (start: boolean) => void = () => undefined;
    const decision = new Promise<boolean>((resolve) => (decide = resolve));
    const verdict = Promise.all([checks.verdict, decision]).then(([checked, start]) => ({ ...checked, refusal: checked.refusal ?? (start ? undefined : NOT_STARTED_EARLY) }));
    const { definition } = entry;
    const server = import('./client.js').then(({ LanguageServer }) => LanguageServer.start(definition, this.workspaceRoot, { ...this.#startOptions(definition), onLaunched: launched }, { anchors: checks.anchors, verdict }));
    // Taken by the start it is confirmed for, which reports its failure; dropped otherwise.
    server.catch(() => undefined).finally(launched);
    return { server, decide };
  }

  /**
   * Resolves once the server {@link startSole} launches early is up and initialized (or failed),
   * or once no such server is under way (at once without a start; with detection's near-root look
   * for a server that launches only after it): work that needs no server (a program's parse) runs
   * after it, while the start's checks finish, not before its spawn nor beside its loading.
   */
  launched(): Promise<void> {
    return this.#launched ?? Promise.resolve();
  }

  /** Drops the checks and the early start begun for `entry`: the start is told to stop, and {@link shutdown} waits for it. */
  #dropEarly(entry: Entry): void {
    entry.checks = undefined;
    const early = entry.early;
    if (early === undefined) return;
    entry.early = undefined;
    early.decide(false);
    const stopped = early.server.then(
      () => undefined,
      () => undefined,
    );
    this.#dropped.add(stopped);
    void stopped.then(() => this.#dropped.delete(stopped));
  }

  /** The start options of one server: the pool's, its own overrides, and their environments merged. */
  #startOptions(definition: ServerDefinition): Omit<StartOptions, 'binary'> {
    const perServer = this.#options.perServer?.[definition.id] ?? {};
    return { ...this.#options, ...perServer, env: { ...(this.#options.env ?? {}), ...(perServer.env ?? {}) } };
  }

  /**
   * The server for a file, chosen by extension among the detected servers first, then any known
   * definition; started on first use. Throws `no-server-for-file`, `server-not-found`,
   * `spawn-failed`, `initialize-failed` or `server-stopped`.
   */
  async serverFor(absPath: string): Promise<LanguageServer> {
    const detected = await this.detect();
    const match = languageFor(detected.map((d) => d.definition), absPath) ?? languageFor(this.#definitions, absPath);
    if (match === undefined) {
      throw new LspClientError('no-server-for-file', `no language server handles ${absPath} (known: ${this.#definitions.map((d) => d.displayName).join(', ')})`);
    }
    return this.#serverById(match.definition.id);
  }

  /** The server with this definition id, started on first use. */
  server(id: string): Promise<LanguageServer> {
    return this.#serverById(id);
  }

  /**
   * The status of every detected, started or failed server (a detected one not started yet is
   * `idle`; one that failed to start is `unavailable`, its `detail` the error message). With
   * `memory: false` without each server's memory (read from `/proc` for its process tree: a
   * question that only needs the states should not pay for it).
   */
  servers(options: { readonly memory?: boolean } = {}): ServerStatus[] {
    const infos: ServerStatus[] = [];
    for (const entry of this.#entries.values()) {
      if (!entry.detected && entry.server === undefined && entry.starting === undefined && entry.error === undefined) continue;
      infos.push(this.#info(entry, options.memory !== false));
    }
    return infos;
  }

  /** The servers started so far (running, or restarting after a crash), in definition order; starts none. */
  running(): LanguageServer[] {
    return [...this.#entries.values()].flatMap((e) => (e.server !== undefined ? [e.server] : []));
  }

  /** Whether detection found the server's markers (vs. started on demand for a file). */
  isDetected(id: string): boolean {
    return this.#entries.get(id)?.detected === true;
  }

  /** Subscribes to status changes of all servers (state, progress, warnings, start failures). */
  onStatus(listener: (status: ServerStatus) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /** Waits for all started (or starting) servers to become ready; see {@link LanguageServer.waitUntilReady}. */
  async waitUntilReady(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ServerStatus[]> {
    const servers = await Promise.all([...this.#entries.values()].map((e) => this.#settled(e)));
    return Promise.all(servers.filter((s): s is LanguageServer => s !== undefined).map((s) => s.waitUntilReady(options)));
  }

  /** Stops every server; later calls to `serverFor` throw `server-stopped`. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    // A server launched early and not taken stops itself once told: shut down means its process is gone.
    for (const entry of this.#entries.values()) this.#dropEarly(entry);
    await Promise.all([...this.#dropped]);
    const running = await Promise.all([...this.#entries.values()].map((e) => this.#settled(e)));
    await Promise.all(running.filter((s): s is LanguageServer => s !== undefined).map((s) => s.shutdown()));
  }

  /** The entry's server once any start in flight has settled; `undefined` if none runs. */
  async #settled(entry: Entry): Promise<LanguageServer | undefined> {
    if (entry.server !== undefined) return entry.server;
    if (entry.starting === undefined) return undefined;
    return entry.starting.catch(() => undefined);
  }

  #serverById(id: string): Promise<LanguageServer> {
    const entry = this.#entries.get(id);
    if (entry === undefined) return Promise.reject(new LspClientError('no-server-for-file', `unknown server ${id}`));
    if (this.#closed) return Promise.reject(new LspClientError('server-stopped', `the servers of ${this.workspaceRoot} were shut down`, { serverId: id }));
    if (entry.server !== undefined) return Promise.resolve(entry.server);
    entry.starting ??= this.#start(entry);
    return entry.starting;
  }

  async #start(entry: Entry): Promise<LanguageServer> {
    const { definition } = entry;
    entry.error = undefined;
    this.#emit({ ...this.#info(entry), state: 'starting' });
    const { checks, early } = entry;
    entry.checks = undefined;
    entry.early = undefined;
    try {
      early?.decide(true);
      // The definition's preflight runs in `LanguageServer.start`, beside the work it need not wait for.
      // The LSP client (vscode-jsonrpc and the protocol) loads when the first server starts, not
      // with the pool: a program that needs no server never pays for it.
      const server =
        early !== undefined ? await early.server : await (await import('./client.js')).LanguageServer.start(definition, this.workspaceRoot, this.#startOptions(definition), checks);
      if (this.#closed) {
        await server.shutdown();
        throw new LspClientError('server-stopped', `the servers of ${this.workspaceRoot} were shut down`, { serverId: definition.id });
      }
      entry.server = server;
      server.onStatus((status) => this.#emit(status));
      this.#emit(server.status);
      return server;
    } catch (error) {
      const typed = isLspClientError(error) ? error : new LspClientError('spawn-failed', String(error), { serverId: definition.id, cause: error });
      // Recorded for the listing; the next call tries again (discovery caches probe results).
      entry.error = typed;
      this.#emit(this.#info(entry));
      throw typed;
    } finally {
      entry.starting = undefined;
    }
  }

  #info(entry: Entry, memory = true): ServerStatus {
    const { definition, server } = entry;
    const base = { id: definition.id, displayName: definition.displayName, languages: definition.languages.map((l) => l.languageId) };
    if (server !== undefined) {
      const memoryBytes = memory ? server.memory() : undefined;
      return { ...server.status, ...(memoryBytes !== undefined ? { memoryBytes } : {}) };
    }
    // The error first: a failed start reports it while its promise (`starting`) is still being unwound,
    // and a new start clears it, so listeners never keep hearing `starting` of a start that failed.
    if (entry.error !== undefined) return { ...base, state: 'unavailable', detail: entry.error.message };
    if (entry.starting !== undefined) return { ...base, state: 'starting' };
    return { ...base, state: 'idle' };
  }

  #emit(status: ServerStatus): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch {
        // A faulty listener must not break the pool.
      }
    }
  }
}
