/**
 * The request path of one language server: a request waits for a usable session (through a
 * (re)start), is sent with its deadline and cancellation, and is retried when the server threw the
 * work away (`ContentModified`, `ServerCancelled`) or crashed under it. When the deadline passes
 * the liveness probe decides the verdict: `request-timeout` when the server still answers (it is
 * only slow), `server-unresponsive` after the hung process was killed (the restart policy then
 * restarts it like a crashed one). It also makes the typed errors of every message the client
 * sends (`errors`), `initialize` and `shutdown` included.
 */
import { ConnectionError, ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';
import { onAbort } from './abort.js';
import { killGroup } from './discovery.js';
import { isLspClientError, LspClientError } from './errors.js';
import { SERVER_MEMORY_ENV } from './memory-bound.js';
import { withRequestToken } from './request-progress.js';
import type { ServerDefinition } from './servers.js';
import { sleep, type RequestErrors, type Session } from './session.js';
import { TIMEOUTS } from '../timeouts.js';

/** Per-call options of requests and waits. */
export interface RequestOptions {
  /** Aborting cancels the request (`$/cancelRequest` is sent) and rejects with `request-cancelled`. */
  readonly signal?: AbortSignal;
  /** Overall deadline of the call including retries; defaults to the server's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * The caller's `signal` is the budget (an evaluation's deadline: `dialect eval --timeout`, the
   * MCP call's deadline): past `timeoutMs` the request is not given up while the server answers the
   * liveness probe — it keeps working (probed again every `timeoutMs`) until it answers or the
   * signal aborts. A long `references` on a ready server then finishes instead of timing out.
   */
  readonly untilCancelled?: boolean;
}

/**
 * The probe: LSP reserves `$/` methods for implementation-specific messages and requires a server
 * that does not implement one to answer it with MethodNotFound, so every live server answers it
 * (cheaply, without touching its analysis) and none acts on it.
 */
export const LIVENESS_PROBE_METHOD = '$/dialect/alive';
/** Requests that answer errors we retry: the server had to throw away work, asking again is fine. */
const RETRYABLE_CODES = new Set<number>([LSPErrorCodes.ContentModified, LSPErrorCodes.ServerCancelled]);
/** Retries of a retryable error answer, with a backoff from `TIMEOUTS.lsp.retryDelayMs`. */
const MAX_RETRIES = 3;
/** Poll step while a dead process's exit has not been processed yet (it is, within a tick or two). */
const EXIT_PENDING_POLL_MS = 10;
const noop = (): void => undefined;

/** What the request path needs from the client that owns the server's lifecycle. */
export interface RequestHost {
  readonly definition: ServerDefinition;
  /** Default deadline of a request, retries included. */
  readonly requestTimeoutMs: number;
  /** Deadline of the liveness probe sent after a request timed out. */
  readonly livenessProbeTimeoutMs: number;
  /** The current session, if any (it may be dead or not yet initialized). */
  currentSession(): Session | undefined;
  /** The (re)start in flight, if any. */
  starting(): Promise<Session> | undefined;
  /** True once shutdown began. */
  stopping(): boolean;
  /** True once the restart policy gave up on the server. */
  gaveUp(): boolean;
  /** The last crash or status detail, for messages. */
  detail(): string | undefined;
  /** The status as one line, for timeout messages (what the server was doing). */
  statusText(): string;
  /** Whether the server is still starting or indexing (a timeout's hint depends on it). */
  indexing(): boolean;
  /** `; stderr ends with: …`, or empty. */
  stderrHint(): string;
  /** A hung `session` is being killed for `reason`: the client shows the server as crashed. */
  killingUnresponsive(session: Session, reason: string): void;
}

/** Sends requests to one server (across its restarts) and judges their failures. */
export class Requests {
  readonly #host: RequestHost;

  constructor(host: RequestHost) {
    this.#host = host;
  }

  /**
   * Sends a request and returns its result; see `LanguageServer.request` for the retries and the
   * errors.
   */
  async send(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    const host = this.#host;
    const timeoutMs = options.timeoutMs ?? host.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const { signal } = options;
    let crashRetried = false;
    let retries = 0;
    // Progress the server reports for this request is the request's, never indexing.
    const sent = withRequestToken(method, params);
    for (;;) {
      const session = await this.usableSession(method, deadline, timeoutMs, signal);
      // With the caller's budget, an overdue request on a live server is kept, not cancelled.
      const overdue = options.untilCancelled === true && signal !== undefined ? () => this.#stillWorking(session, timeoutMs) : undefined;
      try {
        return await session.send(method, sent, deadline, signal, this.errors(method, timeoutMs), overdue);
      } catch (error) {
        if (isLspClientError(error, 'request-timeout')) throw await this.#timeoutVerdict(session, error, timeoutMs, signal);
        // Not retried: what made it grow may well make the restarted server grow again.
        if (session.overMemory !== undefined) throw this.#overMemory(session, method, error);
        if (isLspClientError(error, 'server-crashed') && !crashRetried && !host.stopping() && !host.gaveUp()) {
          crashRetried = true;
          continue;
        }
        if (isLspClientError(error, 'request-failed') && error.lspCode !== undefined && RETRYABLE_CODES.has(error.lspCode) && retries < MAX_RETRIES) {
          retries++;
          await sleep(Math.min(TIMEOUTS.lsp.retryDelayMs * 2 ** (retries - 1), Math.max(0, deadline - Date.now())), signal);
          if (signal?.aborted === true) throw this.#cancelled(method);
          continue;
        }
        throw error;
      }
    }
  }

  /** The running, initialized session, waiting through a (re)start if one is in progress. */
  async usableSession(method: string, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Session> {
    const host = this.#host;
    const { definition } = host;
    for (;;) {
      if (signal?.aborted === true) throw this.#cancelled(method);
      if (host.stopping()) throw new LspClientError('server-stopped', `${definition.displayName} was shut down`, { method, serverId: definition.id });
      const session = host.currentSession();
      if (session?.alive === true && session.initialized) return session;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw this.errors(method, timeoutMs).timeout();
      const starting = host.starting();
      if (starting !== undefined) {
        const waker = new AbortController();
        const unsubscribe = onAbort(signal, () => waker.abort());
        try {
          // A failed (re)start is judged by the checks above on the next turn; never leave its
          // rejection unhandled once the race is decided.
          await Promise.race([starting.then(noop, noop), sleep(remaining, waker.signal)]);
        } finally {
          waker.abort();
          unsubscribe();
        }
        continue;
      }
      if (host.gaveUp()) {
        throw new LspClientError('server-crashed', `${definition.displayName} crashed and could not be restarted (${host.detail() ?? 'no detail'})${host.stderrHint()}`, {
          method,
          serverId: definition.id,
        });
      }
      // The process died but its exit was not processed yet; the exit handler starts recovery.
      await sleep(Math.min(EXIT_PENDING_POLL_MS, remaining), signal);
    }
  }

  /** The typed errors of one message (`method`, sent with a `timeoutMs` deadline). */
  errors(method: string, timeoutMs: number): RequestErrors {
    const host = this.#host;
    const serverId = host.definition.id;
    const name = host.definition.displayName;
    const stopped = (cause?: unknown) =>
      new LspClientError('server-stopped', `${name} was shut down before ${method} was answered`, { serverId, method, ...(cause !== undefined ? { cause } : {}) });
    return {
      timeout: () =>
        new LspClientError('request-timeout', `${method} to ${name} got no answer within ${timeoutMs} ms; ${host.statusText()}`, {
          serverId,
          method,
          // The truth about why: a ready server is slow on this request, asking again will not help.
          hint: host.indexing()
            ? 'the server is still indexing: ask again when it is ready (its progress shows in .servers), or ask about a narrower target'
            : 'the server is ready but this request takes longer: allow more time (dialect eval --timeout; for an agent, dialect mcp --timeout with its client\'s tool timeout) or ask about a narrower target',
        }),
      dead: (reason) =>
        host.stopping() ? stopped() : new LspClientError('server-crashed', `${name} ${reason} while handling ${method}${host.stderrHint()}`, { serverId, method }),
      failed: (error) => {
        if (error instanceof ResponseError && error.code !== ErrorCodes.PendingResponseRejected && error.code !== ErrorCodes.ConnectionInactive) {
          return new LspClientError('request-failed', `${method} failed in ${name}: ${error.message} (code ${error.code})`, {
            serverId,
            method,
            lspCode: error.code,
            cause: error,
          });
        }
        if (error instanceof ResponseError || error instanceof ConnectionError) {
          return host.stopping()
            ? stopped(error)
            : new LspClientError('server-crashed', `${name} lost its connection while handling ${method}${host.stderrHint()}`, { serverId, method, cause: error });
        }
        return new LspClientError('request-failed', `${method} failed in ${name}: ${String(error)}`, { serverId, method, cause: error });
      },
    };
  }

  #overMemory(session: Session, method: string, cause: unknown): LspClientError {
    const { definition } = this.#host;
    const hint = `ask again (the server is being restarted); if it grows again, the workspace is too large for the bound or holds a file that makes the server grow: raise ${SERVER_MEMORY_ENV} or narrow the workspace`;
    return new LspClientError('server-memory-exceeded', `${definition.displayName} ${session.overMemory ?? 'used too much memory'} while handling ${method}, so it was killed`, {
      serverId: definition.id,
      method,
      hint,
      cause,
    });
  }

  /**
   * Whether an overdue request should keep waiting: the server answered the liveness probe (a hung
   * one is killed by the probe, and the request then fails with the crash). Resolves with the time
   * until the next check, or undefined to give up.
   */
  async #stillWorking(session: Session, periodMs: number): Promise<number | undefined> {
    if (this.#host.stopping() || !session.alive) return undefined;
    return (await this.#probe(session, this.#host.livenessProbeTimeoutMs)) ? periodMs : undefined;
  }

  #cancelled(method: string): LspClientError {
    return new LspClientError('request-cancelled', `${method} was cancelled`, { method, serverId: this.#host.definition.id });
  }

  /**
   * What a timed-out request reports: the timeout itself when the server still answers the
   * liveness probe (it is only slow), else `server-unresponsive` after the hung process was
   * killed (recovery restarts it). Concurrent timeouts share one probe.
   */
  async #timeoutVerdict(session: Session, timeout: LspClientError, timeoutMs: number, signal: AbortSignal | undefined): Promise<LspClientError> {
    const host = this.#host;
    const method = timeout.method ?? 'a request';
    const probeMs = host.livenessProbeTimeoutMs;
    if (host.stopping()) return timeout;
    // An overdue request kept for its caller was probed already: a failed probe killed the server.
    const verdict = session.unresponsive !== undefined ? false : !session.alive ? true : await this.#verdict(session, signal);
    if (verdict === 'cancelled') return this.#cancelled(method);
    if (verdict) return timeout;
    const name = host.definition.displayName;
    const hint = 'ask again: the next request waits for the restarted server, which re-opens the open documents';
    return new LspClientError(
      'server-unresponsive',
      `${name} stopped answering: ${method} got no answer within ${timeoutMs} ms and a liveness probe none within ${probeMs} ms, ` +
        `so the server (pid ${session.child.pid ?? '?'}) was killed and is being restarted; ${hint}${host.stderrHint()}`,
      { serverId: host.definition.id, method, hint, cause: timeout },
    );
  }

  /** The liveness probe's verdict on `session`, or 'cancelled' when the caller gives up first. */
  async #verdict(session: Session, signal: AbortSignal | undefined): Promise<boolean | 'cancelled'> {
    const probeMs = this.#host.livenessProbeTimeoutMs;
    let unsubscribe: () => void = noop;
    const cancelled = new Promise<'cancelled'>((resolvePromise) => {
      unsubscribe = onAbort(signal, () => resolvePromise('cancelled'));
    });
    return Promise.race([this.#probe(session, probeMs), cancelled]).finally(() => unsubscribe());
  }

  /** Resolves whether `session` answered the liveness probe in time; a hung one is killed. */
  #probe(session: Session, probeMs: number): Promise<boolean> {
    session.probe ??= session
      .send(LIVENESS_PROBE_METHOD, undefined, Date.now() + probeMs, undefined, this.errors(LIVENESS_PROBE_METHOD, probeMs))
      // Any answer proves liveness, MethodNotFound included; a death is the crash path's business.
      .then(
        () => true,
        (error: unknown) => !isLspClientError(error, 'request-timeout'),
      )
      .then((alive) => {
        if (alive) session.probe = undefined; // a later timeout probes afresh
        else this.#killUnresponsive(session, `stopped answering: no reply to a liveness probe within ${probeMs} ms`);
        return alive;
      });
    return session.probe;
  }

  /**
   * Kills a hung process group. SIGKILL ends even a stopped (SIGSTOP) process; its exit then runs
   * the usual crash recovery, and requests still pending on it are retried on the new process.
   */
  #killUnresponsive(session: Session, reason: string): void {
    if (!session.alive || session.exited || this.#host.stopping()) return;
    session.unresponsive = reason;
    this.#host.killingUnresponsive(session, reason);
    session.kill(reason);
    killGroup(session.child.pid, 'SIGKILL');
  }
}
