/**
 * One spawned server process and its JSON-RPC connection: requests that settle on the answer, a
 * deadline, an abort or the process's death; exit tracking; process-group bookkeeping and the
 * process's private temp folder.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CancellationTokenSource, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { onAbort } from './abort.js';
import { killGroup } from './discovery.js';
import { LspClientError } from './errors.js';
import { removePrivateTemp, removePrivateTempSync } from './private-temp.js';

/**
 * Process groups of live servers and their private temp folders, killed and deleted if our process
 * exits without shutting them down.
 */
const liveGroups = new Map<number, string | undefined>();
let exitHookInstalled = false;
function trackGroup(pid: number, tempDir: string | undefined): void {
  liveGroups.set(pid, tempDir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const [group, dir] of liveGroups) {
        killGroup(group, 'SIGKILL');
        if (dir !== undefined) removePrivateTempSync(dir);
      }
    });
  }
}

/** The typed errors one request settles with when it does not get its answer. */
export interface RequestErrors {
  /** The deadline passed. */
  timeout(): LspClientError;
  /** The session died (`reason`: how) before the answer came. */
  dead(reason: string): LspClientError;
  /** The server answered with an error, or the connection failed. */
  failed(error: unknown): LspClientError;
}

/** One spawned server process and its connection. */
export class Session {
  readonly generation: number;
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  /** The process's own temp folder (its TMPDIR/TEMP/TMP), deleted by {@link release}. */
  readonly tempDir: string | undefined;
  readonly startedAt = Date.now();
  initialized = false;
  /** Why the session is unusable, once it is. */
  deadReason: string | undefined;
  /** Set when the client killed the process for not answering: why, for the crash report. */
  unresponsive: string | undefined;
  /** Set when the client killed the process for passing its memory bound: why (`memory-bound.ts`). */
  overMemory: string | undefined;
  /** The liveness probe in flight (resolves `true` when the server answered it), shared by all callers. */
  probe: Promise<boolean> | undefined;
  #pending = new Set<(reason: string) => void>();
  #exited = false;
  #exitWaiters: (() => void)[] = [];
  #released: Promise<void> | undefined;

  constructor(generation: number, child: ChildProcess, connection: ProtocolConnection, tempDir?: string) {
    this.generation = generation;
    this.child = child;
    this.connection = connection;
    this.tempDir = tempDir;
    if (child.pid !== undefined) trackGroup(child.pid, tempDir);
  }

  get alive(): boolean {
    return this.deadReason === undefined;
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** Marks the session unusable and fails its pending requests. */
  kill(reason: string): void {
    if (this.deadReason !== undefined) return;
    this.deadReason = reason;
    for (const fail of this.#pending) fail(reason);
    this.#pending.clear();
  }

  /**
   * Kills whatever is left of the process group (helpers such as proc-macro servers) and deletes
   * the private temp folder. Call it once the process exited (or never started); idempotent.
   */
  release(): Promise<void> {
    this.#released ??= this.#release();
    return this.#released;
  }

  async #release(): Promise<void> {
    const pid = this.child.pid;
    if (pid !== undefined) {
      killGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
    }
    // SIGKILLed helpers never run again, so nothing refills the folder once it is gone.
    if (this.tempDir !== undefined) await removePrivateTemp(this.tempDir);
  }

  /** Records that the process exited (wakes {@link waitExit}). */
  markExited(): void {
    this.#exited = true;
    for (const wake of this.#exitWaiters) wake();
    this.#exitWaiters = [];
  }

  /** Resolves true when the process exits within `ms`. */
  waitExit(ms: number): Promise<boolean> {
    if (this.#exited) return Promise.resolve(true);
    return new Promise((resolvePromise) => {
      const wake = () => {
        clearTimeout(timer);
        resolvePromise(true);
      };
      const timer = setTimeout(() => {
        this.#exitWaiters = this.#exitWaiters.filter((w) => w !== wake);
        resolvePromise(false);
      }, ms);
      this.#exitWaiters.push(wake);
    });
  }

  /** Sends a request; settles on the answer, the deadline, the signal or the session's death, whichever comes first. */
  send(
    method: string,
    params: unknown,
    deadline: number,
    signal: AbortSignal | undefined,
    errors: RequestErrors,
    /**
     * Asked at the deadline: the time to wait on (the request stays in flight) or undefined to
     * give up (cancel and reject with the timeout). Without it the deadline gives up.
     */
    overdue?: () => Promise<number | undefined>,
  ): Promise<unknown> {
    return new Promise((resolvePromise, reject) => {
      if (this.deadReason !== undefined) {
        reject(errors.dead(this.deadReason));
        return;
      }
      if (signal?.aborted === true) {
        reject(new LspClientError('request-cancelled', `${method} was cancelled`, { method }));
        return;
      }
      const cts = new CancellationTokenSource();
      let settled = false;
      let unsubscribe: () => void = () => undefined;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        this.#pending.delete(onDead);
        settle();
      };
      const giveUp = (): void => {
        cts.cancel(); // sends $/cancelRequest
        finish(() => reject(errors.timeout()));
      };
      const onDeadline = (): void => {
        if (overdue === undefined) return giveUp();
        overdue().then(
          (more) => {
            if (settled) return;
            if (more === undefined) giveUp();
            else timer = setTimeout(onDeadline, clampDelay(more));
          },
          giveUp,
        );
      };
      let timer = setTimeout(onDeadline, clampDelay(deadline - Date.now()));
      const cancelled = () => {
        cts.cancel();
        finish(() => reject(new LspClientError('request-cancelled', `${method} was cancelled`, { method })));
      };
      const onDead = (reason: string) => finish(() => reject(errors.dead(reason)));
      unsubscribe = onAbort(signal, cancelled);
      this.#pending.add(onDead);
      let sent: Promise<unknown>;
      try {
        // No params must mean no `params` member (jsonrpc's default would send `[null]`).
        sent = params === undefined ? this.connection.sendRequest(method, cts.token) : this.connection.sendRequest(method, params, cts.token);
      } catch (error) {
        finish(() => reject(errors.failed(error)));
        return;
      }
      sent.then(
        (result) => finish(() => resolvePromise(result)),
        (error: unknown) => finish(() => reject(errors.failed(error))),
      );
    });
  }

  /** Sends a notification; a dead connection drops it (the restart re-sends what matters). */
  notify(method: string, params: unknown): void {
    if (!this.alive) return;
    try {
      const sent = params === undefined ? this.connection.sendNotification(method) : this.connection.sendNotification(method, params);
      sent.catch(() => undefined);
    } catch {
      // Connection already closed: the exit handler takes over.
    }
  }

  /**
   * The kill ladder, once the LSP `shutdown`/`exit` was tried: marks the session dead, SIGTERM to
   * the group (at once for a process that never completed `initialize`, else after `exitWaitMs`),
   * SIGKILL when it outlives a second wait, then {@link release} (helpers and temp folder) and
   * {@link dispose}. Never leaves a process behind.
   */
  async terminate(reason: string, waits: { readonly exitWaitMs: number; readonly killWaitMs: number }): Promise<void> {
    const pid = this.child.pid;
    this.kill(reason);
    // A server that never completed `initialize` gets no grace period.
    if (!this.initialized) killGroup(pid, 'SIGTERM');
    if (!(await this.waitExit(waits.exitWaitMs))) {
      killGroup(pid, 'SIGTERM');
      if (!(await this.waitExit(waits.exitWaitMs))) {
        killGroup(pid, 'SIGKILL');
        await this.waitExit(waits.killWaitMs);
      }
    }
    // Helpers the server started (proc-macro servers, launchers' children) share its group; its
    // temp folder goes with them.
    await this.release();
    this.dispose();
  }

  /** Closes the connection and the pipes and fails pending requests. */
  dispose(): void {
    this.kill('disposed');
    try {
      this.connection.dispose();
    } catch {
      // Already disposed.
    }
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

/**
 * Spawns a server as the leader of its own process group (`detached`), with piped stdio, so the
 * whole group — helpers included — can be signalled and killed as one.
 */
export function spawnInGroup(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
}

/** A timer delay Node accepts: 0 ≤ ms ≤ 2^31-1 (larger values, even Infinity, would fire at once). */
export function clampDelay(ms: number): number {
  return Math.min(Math.max(0, Number.isNaN(ms) ? 0 : ms), 2_147_483_647);
}

/** Resolves after `ms`, or early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolvePromise) => {
    if (signal?.aborted === true) {
      resolvePromise();
      return;
    }
    const timer = setTimeout(done, clampDelay(ms));
    const unsubscribe = onAbort(signal, done);
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolvePromise();
    }
  });
}

