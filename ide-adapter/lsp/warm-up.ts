/**
 * A server's warm-up (`ServerDefinition.warmUp`) for one process: the work it defers to its first
 * question, done at start. It holds readiness from `initialized` on, waits (bounded) for the log
 * saying the workspace's files are listed, sends the request, and releases readiness when it
 * answers; a request that fails or times out releases it too, with a warning when the server was
 * still at work, so a missing warm-up never leaves a server indexing forever.
 */
import type { WarmUp } from './servers.js';

/** What a warm-up needs from its client. */
export interface WarmUpHost {
  /** Keeps the server from `ready`, saying why. */
  hold(reason: string): void;
  /** Lets the server be `ready` again. */
  release(): void;
  /** Sends the warm-up request to this process; settles on its answer, its deadline or the process's end. */
  send(method: string, params: unknown, deadline: number): Promise<unknown>;
  /** Adds a one-time warning. */
  warn(key: string, text: string): void;
}

/** One process's warm-up: created before `initialized`, fed the server's log lines. */
export class WarmUpRun {
  readonly #warmUp: WarmUp;
  readonly #host: WarmUpHost;
  readonly #listWaitMs: number;
  readonly #requestMs: number;
  #listTimer: NodeJS.Timeout | undefined;
  #initialized = false;
  /** The files counted when the listing was seen before `initialized`; `null` when seen uncounted. */
  #listed: number | undefined | null;
  #sent = false;
  #disposed = false;

  constructor(warmUp: WarmUp, host: WarmUpHost, listWaitMs: number, requestMs: number) {
    this.#warmUp = warmUp;
    this.#host = host;
    this.#listWaitMs = listWaitMs;
    this.#requestMs = requestMs;
  }

  /** The process finished `initialize`: hold readiness until the warm-up is done. */
  initialized(): void {
    if (this.#disposed || this.#initialized) return;
    this.#initialized = true;
    this.#host.hold(this.#warmUp.reason(undefined));
    if (this.#listed !== undefined) this.#send(this.#listed ?? undefined);
    else this.#listTimer = setTimeout(() => this.#send(undefined), this.#listWaitMs);
  }

  /** A `window/logMessage` of this process. */
  log(message: string): void {
    if (this.#disposed || this.#sent || this.#listed !== undefined) return;
    const match = this.#warmUp.listed.exec(message);
    if (match === null) return;
    const count = match[1] !== undefined ? Number.parseInt(match[1], 10) : Number.NaN;
    this.#listed = Number.isFinite(count) ? count : null;
    if (this.#initialized) this.#send(this.#listed ?? undefined);
  }

  /** The process is gone or replaced: nothing more happens. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#listTimer);
  }

  #send(files: number | undefined): void {
    if (this.#disposed || this.#sent) return;
    this.#sent = true;
    clearTimeout(this.#listTimer);
    const reason = this.#warmUp.reason(files);
    this.#host.hold(reason);
    const started = Date.now();
    this.#host.send(this.#warmUp.method, this.#warmUp.params, started + this.#requestMs).then(
      () => this.#done(),
      () => {
        // Past the deadline the server is still at work: say the first answers may be slow.
        if (!this.#disposed && Date.now() - started >= this.#requestMs) {
          this.#host.warn('warm-up', `${reason}: not done after ${Math.round(this.#requestMs / 1000)} s; the first answers may be slow`);
        }
        this.#done();
      },
    );
  }

  #done(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#host.release();
  }
}
