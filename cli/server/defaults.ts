/**
 * The background server's named defaults: how long it lives without work, and the bound of every
 * wait of a client that connects to it or starts it. Imports nothing, so the CLI reads it cheaply.
 */
const SECOND = 1_000;

/** Every time budget of the background server and its clients. */
export const SERVER_TIMEOUTS = {
  /** A server with no connection and no request for this long stops itself (`DIALECT_SERVER_IDLE_MS`, `--idle-timeout`). */
  idleMs: 15 * 60 * SECOND,
  /** How long a client waits for a server it spawned to announce that it listens. */
  startMs: 20 * SECOND,
  /** How long a client that lost the start lock waits for the winner's socket. */
  lockWaitMs: 25 * SECOND,
  /** First delay between connect attempts while another caller starts the server; doubled each time. */
  connectRetryFirstMs: 20,
  /** Longest delay between two connect attempts. */
  connectRetryMaxMs: 500,
  /** Deadline of one connect plus handshake (`dialect/hello`). */
  connectMs: 5 * SECOND,
  /** How long stopping a server (replaced, `server stop`) may take before it is killed. */
  stopMs: 10 * SECOND,
  /** How long a stopping server gives its language servers to shut down. */
  shutdownMs: 8 * SECOND,
  /** How long `server status` waits for one server's `dialect/info`. */
  infoMs: 3 * SECOND,
  /**
   * How often a server checks that its workspace folder is still there and still the same folder
   * (`DIALECT_SERVER_WORKSPACE_CHECK_MS`): one `stat`, so a deleted workspace's server is gone
   * within this time, well within a minute.
   */
  workspaceCheckMs: 10 * SECOND,
} as const;

/** `DIALECT_NO_SERVER=1` runs every command in-process (like `--no-server`). */
export const NO_SERVER_ENV = 'DIALECT_NO_SERVER';

/** Whether the environment asks for in-process mode (`DIALECT_NO_SERVER=1`, or any value but `0`/empty). */
export function noServerRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[NO_SERVER_ENV];
  return value !== undefined && value !== '' && value !== '0';
}

/** The idle time in milliseconds (overrides the default). */
export const IDLE_ENV = 'DIALECT_SERVER_IDLE_MS';

/** The interval of the workspace-folder check in milliseconds (overrides the default; tests shorten it). */
export const WORKSPACE_CHECK_ENV = 'DIALECT_SERVER_WORKSPACE_CHECK_MS';

/** Set by the client for the server it spawns: the file descriptor on which the server announces that it listens. */
export const ANNOUNCE_FD_ENV = 'DIALECT_SERVER_ANNOUNCE_FD';

/** The file descriptor of the announcement pipe (stdin, stdout, stderr, then this). */
export const ANNOUNCE_FD = 3;

/** The line a server writes on the announcement pipe once it listens. */
export const LISTENING = 'listening';
