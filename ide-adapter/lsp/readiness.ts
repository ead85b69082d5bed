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
}

/** rust-analyzer without serverStatus reports progress in bursts: it gets this many settle times. */
const BURSTY_SETTLE_FACTOR = 4;

/**
 * The shared behaviour: a server that reports `experimental/serverStatus` is ready while
 * quiescent, whatever its strategy (only rust-analyzer sends it).
 */
export abstract class ReadinessStrategy {
  protected readonly host: ReadinessHost;

  constructor(host: ReadinessHost) {
    this.host = host;
  }

  /** A new process starts: forget what the previous one reported. */
  reset(): void {
    // Nothing kept by default.
  }

  /** The process finished `initialize`: it is indexing until the strategy says otherwise. */
  initialized(): void {
    this.host.setState('indexing');
    this.progressChanged();
  }

  /** A `$/progress` token began, reported or ended. */
  progressChanged(): void {
    // Ignored by default.
  }

  /** An `experimental/serverStatus` notification: quiescence is readiness. */
  serverStatus(quiescent: boolean, message: string | undefined): void {
    if (this.host.state() === 'indexing' || this.host.state() === 'ready') this.host.setState(quiescent ? 'ready' : 'indexing', message);
  }

  /** The client shuts down: drop timers. */
  dispose(): void {
    // Nothing held by default.
  }
}

/** `immediate`: ready as soon as `initialize` completed. */
class ImmediateReadiness extends ReadinessStrategy {
  override initialized(): void {
    this.host.setState('ready');
  }
}

/** `progress`: ready once every `$/progress` token ended and none began during a settle delay. */
class ProgressReadiness extends ReadinessStrategy {
  readonly #settleMs: number;
  #settleTimer: NodeJS.Timeout | undefined;

  constructor(host: ReadinessHost, settleMs: number) {
    super(host);
    this.#settleMs = settleMs;
  }

  /** Whether progress decides readiness right now. */
  protected byProgress(): boolean {
    return true;
  }

  override reset(): void {
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
      if (this.host.activeProgress() === 0 && this.host.state() === 'indexing' && !this.host.stopping() && this.byProgress()) this.host.setState('ready');
    }, this.#settleMs);
  }

  override dispose(): void {
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

/** The strategy a definition's `readiness` selects. */
export function readinessStrategy(readiness: Readiness, host: ReadinessHost, settleMs: number = TIMEOUTS.lsp.settleMs): ReadinessStrategy {
  switch (readiness) {
    case 'immediate':
      return new ImmediateReadiness(host);
    case 'progress':
      return new ProgressReadiness(host, settleMs);
    case 'rust-analyzer-status':
      return new RustAnalyzerStatusReadiness(host, settleMs);
  }
}
