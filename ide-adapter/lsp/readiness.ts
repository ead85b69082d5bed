/**
 * Readiness strategies, one per `Readiness` of a server definition: when a freshly initialized
 * server counts as `ready` and when it goes back to `indexing`. The client feeds each strategy the
 * events it may care about (initialized, progress changed, rust-analyzer's serverStatus) and the
 * strategy moves the client's state through {@link ReadinessHost}.
 */
import { TIMEOUTS } from '../timeouts.js';
import type { Readiness } from './servers.js';
import type { ServerState } from './status.js';

/** What a strategy reads from and changes in the client. */
export interface ReadinessHost {
  /** The client's lifecycle state. */
  state(): ServerState;
  /** Moves the client's state (`detail` kept when undefined). */
  setState(state: ServerState, detail?: string): void;
  /** How many `$/progress` tokens are active. */
  activeProgress(): number;
  /** Whether the client is shutting down. */
  stopping(): boolean;
  /** Says why the server is indexing when no progress of its own says it (`undefined` clears). */
  setReason(reason: string | undefined): void;
  /**
   * Sends the current process a request it answers only after every message sent before it
   * (`in-order` servers); resolves on its answer, an error answer included, and rejects when the
   * process dies or the client stops first.
   */
  barrier(): Promise<void>;
}

/** Why a server that was ready is indexing again while files it watches change on disk. */
export const REREADING_REASON = 're-reading changed files';
/** Why a server stays indexing after its workspace folder was replaced on disk (a restart reloads it). */
export const FOLDER_REPLACED_REASON = 'the workspace folder was replaced on disk; it must be reloaded';

/** rust-analyzer without serverStatus reports progress in bursts: it gets this many settle times. */
const BURSTY_SETTLE_FACTOR = 4;

/**
 * The shared behaviour: a server that reports `experimental/serverStatus` is ready while
 * quiescent, whatever its strategy (only rust-analyzer sends it).
 */
export abstract class ReadinessStrategy {
  protected readonly host: ReadinessHost;
  /**
   * Files the server watches changed on disk and it has not been told yet (or not had time to
   * take them in): its answers may describe the old files, so it is not ready.
   */
  protected rereading = false;
  /** The server's last `experimental/serverStatus` quiescence, if it sends any. */
  protected quiescent: boolean | undefined;
  /** Why the server is held back from `ready` while work it defers is done at start (`warm-up.ts`), if it is. */
  #held: string | undefined;
  readonly #settleMs: number;
  #rereadTimer: NodeJS.Timeout | undefined;

  constructor(host: ReadinessHost, settleMs: number = TIMEOUTS.lsp.settleMs) {
    this.host = host;
    this.#settleMs = settleMs;
  }

  /** A new process starts: forget what the previous one reported (it reads the files anew). */
  reset(): void {
    clearTimeout(this.#rereadTimer);
    this.rereading = false;
    this.quiescent = undefined;
    this.#held = undefined;
  }

  /** Whether something of ours keeps the server from `ready` (files re-read, a warm-up running). */
  protected busy(): boolean {
    return this.rereading || this.#held !== undefined;
  }

  /**
   * Work the server defers is being done at start (a warm-up): it is not ready until
   * {@link release}, and `reason` says why meanwhile.
   */
  hold(reason: string): void {
    this.#held = reason;
    const state = this.host.state();
    if (state !== 'ready' && state !== 'indexing') return;
    if (!this.rereading) this.host.setReason(reason);
    if (state === 'ready') this.host.setState('indexing');
  }

  /** The held work is done: the server counts as ready again by the strategy's own rule. */
  release(): void {
    if (this.#held === undefined) return;
    this.#held = undefined;
    if (this.rereading) return;
    this.host.setReason(undefined);
    this.settleAfterChanges();
  }

  /**
   * Watched files are changing on disk (a `git checkout`, a rewritten or replaced folder): until
   * {@link filesSettled}, the server is indexing again, so no empty answer reads as "not found".
   */
  filesChanging(): void {
    const state = this.host.state();
    if (state !== 'ready' && state !== 'indexing') return;
    clearTimeout(this.#rereadTimer);
    this.rereading = true;
    this.host.setReason(REREADING_REASON);
    if (state === 'ready') this.host.setState('indexing');
  }

  /**
   * The changes were sent to the server (or concerned none of its files). It counts as ready again
   * once it settled, by the strategy's own rule; a replaced workspace folder keeps it indexing,
   * since its watches and loaded projects belong to the old folder.
   */
  filesSettled(folderReplaced: boolean): void {
    if (!this.rereading) return;
    if (folderReplaced) {
      this.host.setReason(FOLDER_REPLACED_REASON);
      return;
    }
    this.rereading = false;
    if (this.#held !== undefined) {
      this.host.setReason(this.#held);
      return;
    }
    this.settleAfterChanges();
  }

  /** After changes were sent: ready after a settle delay unless the server reported work meanwhile. */
  protected settleAfterChanges(): void {
    clearTimeout(this.#rereadTimer);
    this.#rereadTimer = setTimeout(() => {
      if (this.busy() || this.host.stopping() || this.host.state() !== 'indexing') return;
      if (this.host.activeProgress() === 0 && this.quiescent !== false) this.host.setState('ready');
    }, this.#settleMs);
  }

  /** The process finished `initialize`: it is indexing until the strategy says otherwise. */
  initialized(): void {
    this.host.setState('indexing');
    if (this.#held !== undefined) this.host.setReason(this.#held);
    this.progressChanged();
  }

  /**
   * The documents a start opens (the project anchors, or after a restart the documents re-opened)
   * were sent. Only `in-order` readiness waits for this.
   */
  documentsOpened(): void {
    // Ignored by default.
  }

  /** A `$/progress` token began, reported or ended. */
  progressChanged(): void {
    // Ignored by default.
  }

  /** An `experimental/serverStatus` notification: quiescence is readiness. */
  serverStatus(quiescent: boolean, message: string | undefined): void {
    this.quiescent = quiescent;
    if (this.host.state() === 'indexing' || this.host.state() === 'ready') this.host.setState(quiescent && !this.busy() ? 'ready' : 'indexing', message);
  }

  /** The client shuts down: drop timers. */
  dispose(): void {
    clearTimeout(this.#rereadTimer);
  }
}

/** `immediate`: ready as soon as `initialize` completed. */
class ImmediateReadiness extends ReadinessStrategy {
  override initialized(): void {
    if (this.busy()) super.initialized();
    else this.host.setState('ready');
  }

  protected override settleAfterChanges(): void {
    if (this.host.state() === 'indexing' && !this.busy()) this.host.setState('ready');
  }
}

/** `progress`: ready once every `$/progress` token ended and none began during a settle delay. */
class ProgressReadiness extends ReadinessStrategy {
  readonly #settleMs: number;
  #settleTimer: NodeJS.Timeout | undefined;

  constructor(host: ReadinessHost, settleMs: number) {
    super(host, settleMs);
    this.#settleMs = settleMs;
  }

  protected override settleAfterChanges(): void {
    if (this.byProgress()) this.progressChanged();
    else super.settleAfterChanges();
  }

  /** Whether progress decides readiness right now. */
  protected byProgress(): boolean {
    return true;
  }

  override reset(): void {
    super.reset();
    clearTimeout(this.#settleTimer);
  }

  override progressChanged(): void {
    if (!this.byProgress() || (this.host.state() !== 'indexing' && this.host.state() !== 'ready')) return;
    clearTimeout(this.#settleTimer);
    if (this.host.activeProgress() > 0) {
      if (this.host.state() === 'ready') this.host.setState('indexing');
      return;
    }
    this.#settleTimer = setTimeout(() => {
      if (this.host.activeProgress() === 0 && this.host.state() === 'indexing' && !this.host.stopping() && this.byProgress() && !this.busy()) this.host.setState('ready');
    }, this.#settleMs);
  }

  override dispose(): void {
    super.dispose();
    clearTimeout(this.#settleTimer);
  }
}

/**
 * `rust-analyzer-status`: `experimental/serverStatus` with `quiescent: true`; progress (with a
 * longer settle delay) until a build shows it sends serverStatus at all.
 */
class RustAnalyzerStatusReadiness extends ProgressReadiness {
  #sawServerStatus = false;

  constructor(host: ReadinessHost, settleMs: number) {
    super(host, settleMs * BURSTY_SETTLE_FACTOR);
  }

  protected override byProgress(): boolean {
    return !this.#sawServerStatus;
  }

  override reset(): void {
    super.reset();
    this.#sawServerStatus = false;
  }

  override serverStatus(quiescent: boolean, message: string | undefined): void {
    this.#sawServerStatus = true;
    super.serverStatus(quiescent, message);
  }
}

/**
 * `in-order`: a server that takes its messages one after another — a request is answered only
 * after the documents opened before it were loaded (tsgo: each `didOpen` loads the document's
 * project before the next message). It is ready once it answered a request sent after the
 * start's documents ({@link ReadinessStrategy.documentsOpened}): its projects are loaded then,
 * with no settle delay to wait. Progress it reports after that (tsgo's `Loading`) makes it
 * indexing until the progress ends — its end is the event, and later requests queue behind any
 * work anyway; re-reading changed files settles as for every server.
 */
class InOrderReadiness extends ReadinessStrategy {
  /** The server answered the request sent after the start's documents. */
  #loaded = false;
  /** Counts starts, so a late answer of a previous process changes nothing. */
  #start = 0;

  override reset(): void {
    super.reset();
    this.#loaded = false;
    this.#start++;
  }

  override documentsOpened(): void {
    const start = this.#start;
    this.host.barrier().then(
      () => {
        if (start !== this.#start || this.host.stopping()) return;
        this.#loaded = true;
        this.progressChanged();
      },
      () => undefined, // the process died (a restart opens the documents again) or we stopped
    );
  }

  override progressChanged(): void {
    if (!this.#loaded || this.busy() || this.host.stopping()) return;
    const state = this.host.state();
    if (state !== 'indexing' && state !== 'ready') return;
    if (this.host.activeProgress() > 0) {
      if (state === 'ready') this.host.setState('indexing');
      return;
    }
    if (state === 'indexing') this.host.setState('ready');
  }

  protected override settleAfterChanges(): void {
    // Before the barrier's answer, that answer decides (it checks for re-reading itself).
    if (this.#loaded) super.settleAfterChanges();
  }
}

/** The strategy a definition's `readiness` selects. */
export function readinessStrategy(readiness: Readiness, host: ReadinessHost, settleMs: number = TIMEOUTS.lsp.settleMs): ReadinessStrategy {
  switch (readiness) {
    case 'immediate':
      return new ImmediateReadiness(host);
    case 'progress':
      return new ProgressReadiness(host, settleMs);
    case 'in-order':
      return new InOrderReadiness(host, settleMs);
    case 'rust-analyzer-status':
      return new RustAnalyzerStatusReadiness(host, settleMs);
  }
}
