/**
 * Server lifecycle states, progress and status events, and their one-line rendering for UIs.
 */

/**
 * Lifecycle state of a server. `crashed` (the process died, or hung and was killed: `detail` says
 * which) is followed by `starting` while restarts remain.
 */
export type ServerState = 'starting' | 'indexing' | 'ready' | 'crashed' | 'stopped';

/** The server's current (or last) work-done progress. */
export interface ServerProgress {
  readonly title: string;
  readonly message?: string;
  readonly percentage?: number;
}

/**
 * A server's own report that it runs degraded (rust-analyzer's `experimental/serverStatus` health
 * `warning` or `error` with its message). `error` means the workspace could not be loaded.
 */
export interface ServerHealth {
  readonly level: 'warning' | 'error';
  readonly message: string;
}

/** A status event; `text` is a one-line rendering such as `rust-analyzer: indexing 45% (Indexing 12/40)`. */
export interface ServerStatus {
  readonly serverId: string;
  readonly displayName: string;
  readonly state: ServerState;
  readonly progress?: ServerProgress;
  /** Extra context: rust-analyzer's health message, why the server crashed, ... */
  readonly detail?: string;
  /** Present while the server reports itself degraded; the text then says `degraded`, never `ready`. */
  readonly health?: ServerHealth;
  /** Present on the one event that first reports a warning. */
  readonly warning?: string;
  readonly text: string;
}

/** Something to unsubscribe. */
export interface Disposable {
  dispose(): void;
}

/**
 * Outcome of {@link LanguageServer.waitUntilReady}. A deadline does not throw: it resolves with
 * `ready: false`, how long we waited and what the server was doing, so callers can still query
 * (results may be partial) and tell the user why.
 */
export interface ReadyReport {
  readonly ready: boolean;
  readonly state: ServerState;
  readonly waitedMs: number;
  readonly lastProgress?: ServerProgress;
  /** Present when the server finished but reports itself degraded: answers are not complete. */
  readonly health?: ServerHealth;
  /** E.g. `rust-analyzer ready after 3120 ms` or `rust-analyzer not ready after 500 ms: indexing 45% (...)`. */
  readonly summary: string;
}


/**
 * `rust-analyzer: indexing 45% (Indexing 12/40 (core))`; a finished server that reports itself
 * unhealthy is `rust-analyzer: degraded (Failed to load workspaces.)`, never `ready`.
 */
export function formatStatus(displayName: string, state: ServerState, progress?: ServerProgress, detail?: string, health?: ServerHealth): string {
  if (state === 'ready' && health !== undefined) return `${displayName}: degraded (${firstLine(health.message)})`;
  let text = `${displayName}: ${state}`;
  if (progress !== undefined && (state === 'indexing' || state === 'starting')) {
    if (progress.percentage !== undefined) text += ` ${Math.round(progress.percentage)}%`;
    const what = [progress.title, progress.message].filter((s) => s !== undefined && s !== '').join(' ');
    if (what !== '') text += ` (${what})`;
  } else if (detail !== undefined && (state === 'crashed' || state === 'stopped')) {
    text += ` (${detail})`;
  }
  return text;
}

/** The first non-empty line of a message. */
export function firstLine(message: string): string {
  return message.split('\n').find((l) => l.trim() !== '')?.trim() ?? message;
}
