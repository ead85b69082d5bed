/**
 * The status of language servers as data: the one `ServerStatus` every backend reports (through
 * `IdeBackend.servers()` and `IdeBackend.onStatus`), and its one-line text for the edges (the
 * REPL's progress line, MCP text, the tour). Consumers read the fields; only `statusLine` turns
 * a status into text, so nobody parses text back.
 *
 * Two other types carry readiness, each with its own job: `Completeness` (backend.ts: how
 * complete one answer is, the result of waiting for the index) and MCP's `IndexingState` (the wire
 * form of the same facts for agents).
 */
import { showFieldControls } from '../dialect/display.js';

/**
 * Lifecycle state of a server, a closed set:
 * - `idle`: needed by the workspace but not started yet (servers start on first use);
 * - `starting`: spawned, `initialize` in flight;
 * - `indexing`: running, still loading the workspace (answers may be incomplete);
 * - `ready`: finished loading (check `health`: a degraded server is ready but incomplete);
 * - `crashed`: the process died or hung and was killed (`detail` says which); followed by
 *   `starting` while restarts remain;
 * - `stopped`: shut down by us;
 * - `unavailable`: could not be started (`detail` says why, e.g. the install command).
 */
export type ServerState = 'idle' | 'starting' | 'indexing' | 'ready' | 'crashed' | 'stopped' | 'unavailable';

/** A server's current (or last) work-done progress. */
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

/** One language server's status right now. */
export interface ServerStatus {
  /** The server definition's id (`rust-analyzer`, `typescript`, a `dialect.json` id). */
  readonly id: string;
  /** The name people see (`rust-analyzer`, `TypeScript (tsgo)`). */
  readonly displayName: string;
  /** The language ids it serves (`rust`, `typescript`, …). */
  readonly languages: readonly string[];
  readonly state: ServerState;
  /** Present while `starting` or `indexing` and the server reports progress. */
  readonly progress?: ServerProgress;
  /** Present while `ready` and the server reports itself degraded: answers are then incomplete. */
  readonly health?: ServerHealth;
  /** Why the server is `crashed`, `stopped` or `unavailable`; the server's own status message otherwise. */
  readonly detail?: string;
  /** Resident memory of the server process in bytes, where the system tells. */
  readonly memoryBytes?: number;
  /** The process id, while a process runs. */
  readonly pid?: number;
}

/**
 * The state people and agents read, the one vocabulary of the REPL, `.servers`, `server status`,
 * MCP and the README: a server's {@link ServerState}, except that a ready server reporting itself
 * unhealthy is `degraded` — never `ready`.
 */
export type DisplayState = ServerState | 'degraded';

/** A status's {@link DisplayState}. */
export function displayState(status: Pick<ServerStatus, 'state' | 'health'>): DisplayState {
  return status.state === 'ready' && status.health !== undefined ? 'degraded' : status.state;
}

/** Cargo's progress lines (`    Updating crates.io index`, `Downloading`, `Locking`, …): never the reason. */
const CARGO_PROGRESS = /^\s*(Updating|Downloading|Downloaded|Locking|Blocking|Fetching|Compiling|Checking|Adding|Unpacking)\b/;

/**
 * Why a server is degraded, in one line: its message's error, not the progress around it.
 * rust-analyzer quotes cargo's stderr after "exited with an error:", whose first line is often a
 * progress line (`Updating crates.io index`); the reason is cargo's `error:` line.
 */
export function degradedReason(message: string): string {
  const lines = message.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const head = (lines[0] ?? message).replace(/(exited with an error:)\s*(Updating|Downloading|Locking|Blocking|Fetching)\b.*$/, '$1').trim();
  const error = lines.slice(1).find((l) => /^error(\[|:)/i.test(l) && !CARGO_PROGRESS.test(l));
  if (error === undefined) return head.replace(/:$/, '');
  return head.endsWith(':') ? `${head} ${error.replace(/^error:\s*/i, '')}` : `${head}: ${error.replace(/^error:\s*/i, '')}`;
}

/**
 * The shortest useful reason: the error a command reported (`cargo metadata failed: failed to get
 * \`cfg-if\` …`) when the message quotes one, else {@link degradedReason}.
 */
export function degradedSummary(message: string): string {
  const reason = degradedReason(message);
  const quoted = /`([^`]+)` exited with an error: (.+)$/.exec(reason);
  return quoted !== null ? `\`${quoted[1] ?? ''}\` failed: ${quoted[2] ?? ''}` : reason;
}

/** States after which waiting longer changes nothing. */
export const SETTLED_STATES: ReadonlySet<ServerState> = new Set<ServerState>(['ready', 'unavailable', 'stopped']);

/** Whether a server is busy (answers may be incomplete and waiting may help), or ready but degraded. */
export function isIncomplete(status: ServerStatus): boolean {
  return status.state === 'idle' || status.state === 'starting' || status.state === 'indexing' || status.health !== undefined;
}

/**
 * The one text of a status: `rust-analyzer: indexing 45% (Indexing 12/40 (core))`; a finished
 * server that reports itself unhealthy is `rust-analyzer: degraded (Failed to load workspaces.)`,
 * never `ready`; an unavailable one says why in its first sentence. Memory is left out unless asked.
 * One line, its control characters shown as pictures (`showFieldControls`): progress titles,
 * health messages and details are the server's text, which quotes the workspace's names and
 * manifests, and this line is printed to terminals (the REPL, `dialect server status`, the tour).
 */
export function statusLine(status: ServerStatus, options: { memory?: boolean } = {}): string {
  return showFieldControls(statusText(status, options));
}

function statusText(status: ServerStatus, options: { memory?: boolean }): string {
  const { displayName, state, progress, detail, health } = status;
  let text: string;
  if (state === 'ready' && health !== undefined) {
    text = `${displayName}: degraded (${degradedReason(health.message)})`;
  } else {
    // Never a state word that could read as running: a detected server waits for its language's first question.
    text = state === 'idle' ? `${displayName}: not started` : `${displayName}: ${state}`;
    if (progress !== undefined && (state === 'indexing' || state === 'starting')) {
      if (progress.percentage !== undefined) text += ` ${Math.round(progress.percentage)}%`;
      const what = [progress.title, progress.message].filter((s) => s !== undefined && s !== '').join(' ');
      if (what !== '') text += ` (${what})`;
    } else if (detail !== undefined && (state === 'crashed' || state === 'stopped')) {
      text += ` (${detail})`;
    } else if (detail !== undefined && state === 'unavailable') {
      text += ` (${detail.split('. ')[0] ?? ''})`;
    }
  }
  if (options.memory === true && status.memoryBytes !== undefined) text += `, ${Math.round(status.memoryBytes / BYTES_PER_MB)} MB`;
  return text;
}

const BYTES_PER_MB = 1024 * 1024;
