/**
 * `dialect server run` (internal: clients start it): the background server of one (workspace,
 * trust, environment). It opens the workspace's `LspBackend` exactly as an in-process command
 * does (same trust, configured servers, environment), starts the servers, serves the backend on
 * its Unix socket, and stops — language servers shut down, socket, record and lock removed — on
 * `dialect/stop`, SIGTERM/SIGINT, after an idle time with no connection, or when its workspace
 * folder is deleted or replaced (workspace-watch.ts).
 */
import { chmodSync, closeSync, realpathSync, writeSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { configuredServers, LspBackend, type ConfiguredServers, PROTOCOL_VERSION, serveBackend, socketConnection, Workspace, type HelloInfo, type ServerInfo } from '../../ide-adapter/index.js';
import { ANNOUNCE_FD_ENV, LISTENING, SERVER_TIMEOUTS, WORKSPACE_CHECK_ENV } from './defaults.js';
import { serveEval } from './eval-service.js';
import { serverIdentity, type ServerIdentity } from './identity.js';
import { releaseLock, takeOverLock } from './lock.js';
import { currentProduct, PRIVATE_FILE_MODE, removeFile, writeRecord } from './record.js';
import { ensureRuntimeDir } from './runtime-dir.js';
import { watchWorkspaceFolder, type WorkspaceChange } from './workspace-watch.js';

/** The options of `dialect server run`. */
export interface RunServerOptions {
  readonly workspace: string;
  /** Decided by the client that starts the server (`--trust`); never read from the trust store here. */
  readonly trusted: boolean;
  /** Stop after this long with no connection and no request. */
  readonly idleMs: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the server logs (its stderr: `<id>.log` when a client started it). */
  readonly log: (line: string) => void;
}

/** Why a server stopped. */
export type ServerStopReason = 'stop-request' | 'idle' | 'SIGTERM' | 'SIGINT' | WorkspaceChange;

/** umask while the socket is created: it is born 0600, before anyone could connect. */
const SOCKET_UMASK = 0o177;

/** Runs the server until it stops; resolves with why. Throws (after announcing the failure) when it cannot serve. */
export async function runServer(options: RunServerOptions): Promise<ServerStopReason> {
  const { log } = options;
  const announce = announcer(options.env);
  let identity: ServerIdentity;
  let configured: ConfiguredServers;
  try {
    const root = realpathSync(options.workspace);
    identity = serverIdentity(ensureRuntimeDir(options.env), { workspaceRoot: root, trusted: options.trusted, env: options.env });
    await refuseIfServing(identity.socketPath);
    configured = await configuredServers(root, options.trusted, options.env); // an invalid dialect.json fails here
  } catch (error) {
    announce(`failed: ${(error as Error).message}`);
    throw error;
  }
  const startedAt = Date.now();
  const workspace = new Workspace(identity.workspaceRoot);
  const backend = new LspBackend(workspace, configured);

  const product = currentProduct();
  let lastActivityAt = Date.now();
  const onActivity = (): void => {
    lastActivityAt = Date.now();
  };
  let serversStarted = false;
  const sockets = new Set<Socket>();
  const hello = (): HelloInfo => ({
    protocolVersion: PROTOCOL_VERSION,
    product,
    workspaceRoot: workspace.root,
    trusted: options.trusted,
    pid: process.pid,
    startedAt,
    languages: backend.languages(),
    servers: backend.servers(),
  });
  // `connections` counts the clients besides the one asking (`server status` is not a client).
  const info = (): ServerInfo => ({ ...hello(), memoryBytes: process.memoryUsage().rss, connections: Math.max(0, sockets.size - 1), lastActivityAt });

  let stop!: (reason: ServerStopReason) => void;
  const stopped = new Promise<ServerStopReason>((resolve) => (stop = resolve));

  // Idle: counted only while nobody is connected (an open MCP session is not idle).
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    if (sockets.size === 0) idleTimer = setTimeout(() => stop('idle'), options.idleMs);
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    clearTimeout(idleTimer);
    lastActivityAt = Date.now();
    // serveBackend listens, and on close aborts this client's requests and disposes the connection.
    const served = serveBackend(backend, socketConnection(socket), {
      hello,
      info,
      onStop: () => stop('stop-request'),
      onActivity,
      // A client's whole `dialect eval`, answered here (eval-service.ts).
      extend: (connection) => serveEval(connection, { backend, identity, started: () => serversStarted, onActivity }),
    });
    socket.on('error', (error) => log(`connection error: ${error.message}`));
    socket.on('close', () => {
      sockets.delete(socket);
      served.dispose();
      lastActivityAt = Date.now();
      armIdle();
    });
  });
  server.on('error', (error) => log(`socket error: ${error.message}`));
  try {
    await listen(server, identity.socketPath);
  } catch (error) {
    announce(`failed: cannot listen on ${identity.socketPath}: ${(error as Error).message}`);
    throw error;
  }
  // Warm from the start: the point of the server is that the next call finds the index built.
  void backend
    .start()
    .catch((error: unknown) => log(`starting the language servers failed: ${String(error)}`))
    .finally(() => (serversStarted = true));
  writeRecord(identity.recordPath, { pid: process.pid, workspace: workspace.root, trusted: options.trusted, product, startedAt });
  takeOverLock(identity.lockPath);
  armIdle();
  // A replaced folder is another workspace: this server stops, and the next call starts one on it.
  const stopWatching = watchWorkspaceFolder(workspace.root, workspaceCheckMs(options.env, log), stop);

  const onTerm = (): void => stop('SIGTERM');
  const onInt = (): void => stop('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  process.on('SIGHUP', ignore); // detached; a hang-up of whoever started it is not ours
  log(`serving ${workspace.root} (${options.trusted ? 'trusted' : 'untrusted'}) on ${identity.socketPath}, pid ${process.pid}`);
  announce(LISTENING);

  const reason = await stopped;
  log(`stopping (${reason})`);
  clearTimeout(idleTimer);
  stopWatching();
  process.off('SIGTERM', onTerm);
  process.off('SIGINT', onInt);
  // New callers must not reach a server that is going away: the socket and record go first.
  removeFile(identity.socketPath);
  removeFile(identity.recordPath);
  server.close();
  for (const socket of sockets) socket.destroy();
  await withTimeout(backend.shutdown(), SERVER_TIMEOUTS.shutdownMs, () => log('the language servers did not shut down in time'));
  releaseLock(identity.lockPath);
  log('stopped');
  return reason;
}

function ignore(): void {}

/** The workspace-check interval: `DIALECT_SERVER_WORKSPACE_CHECK_MS` when it is a positive number, else the default. */
function workspaceCheckMs(env: Readonly<Record<string, string | undefined>>, log: (line: string) => void): number {
  const value = env[WORKSPACE_CHECK_ENV];
  if (value === undefined || value === '') return SERVER_TIMEOUTS.workspaceCheckMs;
  const ms = Number(value);
  if (Number.isFinite(ms) && ms > 0) return ms;
  log(`${WORKSPACE_CHECK_ENV}=${value} is not a positive number of milliseconds; checking every ${SERVER_TIMEOUTS.workspaceCheckMs} ms`);
  return SERVER_TIMEOUTS.workspaceCheckMs;
}

/** Writes one line on the announcement pipe, once, and closes it (a no-op when nobody listens). */
function announcer(env: Readonly<Record<string, string | undefined>>): (line: string) => void {
  const fd = Number(env[ANNOUNCE_FD_ENV]);
  let open = Number.isInteger(fd) && fd > 2;
  return (line) => {
    if (!open) return;
    open = false;
    try {
      writeSync(fd, `${line}\n`);
      closeSync(fd);
    } catch {
      // the client gave up waiting
    }
  };
}

/** Throws when a live server answers on the socket; removes a stale socket file. */
async function refuseIfServing(socketPath: string): Promise<void> {
  const live = await new Promise<boolean>((resolve) => {
    const probe = createConnection(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`another background server already listens on ${socketPath}`);
  removeFile(socketPath);
}

/** Listens on the socket, created with mode 0600 (umask) inside the 0700 folder. */
async function listen(server: ReturnType<typeof createServer>, socketPath: string): Promise<void> {
  const previous = process.umask(SOCKET_UMASK);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previous);
  }
  chmodSync(socketPath, PRIVATE_FILE_MODE); // belt and braces where umask does not apply to sockets
}

async function withTimeout(work: Promise<void>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
  });
  try {
    await Promise.race([work.catch(() => undefined), limit]);
  } finally {
    clearTimeout(timer);
  }
}
