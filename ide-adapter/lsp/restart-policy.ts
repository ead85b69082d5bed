/**
 * What the client does when its server process ends on its own — a crash, an exit, or a kill
 * after it stopped answering the liveness probe (a hang counts as a crash): restart after a backoff
 * or give up. Shaped like vscode-languageclient's `ErrorHandler.closed()` returning a
 * `CloseAction`, as a small typed object the client consults instead of counters of its own.
 */

/** What to do after the server process ended (vscode-languageclient's `CloseAction`). */
export const CloseAction = {
  /** Start a new process after `delayMs`. */
  Restart: 'restart',
  /** Stay down: the server keeps crashing. */
  DoNotRestart: 'do-not-restart',
} as const;

/** The decision of a {@link RestartPolicy}. */
export type CloseDecision =
  | { readonly action: typeof CloseAction.Restart; readonly delayMs: number }
  | { readonly action: typeof CloseAction.DoNotRestart; readonly message: string };

/** Decides about restarts of one server across its processes. */
export interface RestartPolicy {
  /** A process ended on its own after running `uptimeMs`; a long healthy run earns a fresh budget. */
  closed(uptimeMs: number): void;
  /** Whether (and after which delay) to start again; asked once per attempt, failed starts included. */
  next(): CloseDecision;
}

/** The knobs of {@link backoffRestartPolicy}. */
export interface BackoffOptions {
  /** Restarts allowed before giving up. */
  readonly maxRestarts: number;
  /** First delay, doubled per consecutive restart. */
  readonly firstDelayMs: number;
  /** A process that ran this long before ending gets a fresh restart budget. */
  readonly healthyUptimeMs: number;
}

/** Restarts with exponential backoff (`firstDelayMs`, doubling) up to `maxRestarts` in a row. */
export function backoffRestartPolicy(options: BackoffOptions): RestartPolicy {
  let restarts = 0;
  return {
    closed(uptimeMs) {
      if (uptimeMs > options.healthyUptimeMs) restarts = 0;
    },
    next() {
      if (restarts >= options.maxRestarts) return { action: CloseAction.DoNotRestart, message: `gave up after ${options.maxRestarts} restarts` };
      const delayMs = options.firstDelayMs * 2 ** restarts;
      restarts++;
      return { action: CloseAction.Restart, delayMs };
    },
  };
}
