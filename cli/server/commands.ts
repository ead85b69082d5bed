/**
 * `dialect server status|stop|run`: list this user's background servers, stop them, and the
 * server process itself (internal: clients start it).
 */
import { realpathSync } from 'node:fs';
import { showFieldControls } from '../../dialect/index.js';
import { statusLine, type ServerInfo } from '../../ide-adapter/index.js';
import { styles, useColor, type Io } from '../terminal.js';
import { ExitCode } from '../usage.js';
import { cleanUp } from './connect.js';
import { requestInfo, requestStop } from './control.js';
import { SERVER_TIMEOUTS } from './defaults.js';
import { terminateServer, waitForExit } from './process.js';
import { runningServers, type RunningServer } from './registry.js';
import { ensureRuntimeDir } from './runtime-dir.js';
import { runServer } from './run.js';

const MB = 1024 * 1024;

/** `dialect server status [--json]`: every running server of this user. */
export async function runServerStatus(options: { readonly json: boolean; readonly io: Io }): Promise<number> {
  const { io } = options;
  const servers = runningServers(ensureRuntimeDir(io.env));
  const infos = await Promise.all(servers.map(async (server) => ({ server, info: await requestInfo(server.files.socketPath, SERVER_TIMEOUTS.infoMs).catch((error: unknown) => error as Error) })));
  const now = Date.now();
  if (options.json) {
    const json = infos.map(({ server, info }) =>
      info instanceof Error
        ? { pid: server.record.pid, workspace: server.record.workspace, trusted: server.record.trusted, startedAt: server.record.startedAt, uptimeMs: now - server.record.startedAt, error: info.message }
        : { ...info, workspace: info.workspaceRoot, uptimeMs: now - info.startedAt },
    );
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return ExitCode.Value;
  }
  const s = styles(useColor(io.stdout, io.env));
  if (infos.length === 0) {
    io.stdout.write('no background server is running\n');
    return ExitCode.Value;
  }
  for (const { server, info } of infos) io.stdout.write(`${describe(server, info, now, s)}\n`);
  return ExitCode.Value;
}

function describe(server: RunningServer, info: ServerInfo | Error, now: number, s: ReturnType<typeof styles>): string {
  const { record } = server;
  const head = `${s.bold(showFieldControls(record.workspace))}  pid ${record.pid}  up ${duration(now - record.startedAt)}  ${record.trusted ? 'trusted' : 'untrusted'}`;
  if (info instanceof Error) return `${head}\n  ${s.yellow('not answering:')} ${showFieldControls(info.message)} (log: ${server.files.logPath})`;
  const lines = [`${head}  ${(info.memoryBytes / MB).toFixed(1)} MB  ${info.connections} connected`];
  if (info.servers.length === 0) lines.push(s.dim('  no language server'));
  for (const status of info.servers) lines.push(`  ${statusLine(status, { memory: true })}${status.pid !== undefined ? ` (pid ${status.pid})` : ''}`);
  return lines.join('\n');
}

function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * `dialect server stop [--workspace DIR] [--all]`: stops the servers of a workspace (trusted or
 * not, any environment) or all of them, and waits until each process is gone.
 */
export async function runServerStop(options: { readonly workspace: string | undefined; readonly all: boolean; readonly io: Io }): Promise<number> {
  const { io } = options;
  const servers = runningServers(ensureRuntimeDir(io.env));
  const root = options.all ? undefined : realpathSync(options.workspace ?? process.cwd());
  const chosen = servers.filter((server) => root === undefined || server.record.workspace === root);
  if (chosen.length === 0) {
    io.stdout.write(root === undefined ? 'no background server is running\n' : `no background server is running for ${root}\n`);
    return ExitCode.Value;
  }
  await Promise.all(chosen.map((server) => stopServer(server)));
  for (const server of chosen) io.stdout.write(`stopped the background server of ${server.record.workspace} (pid ${server.record.pid}, ${server.record.trusted ? 'trusted' : 'untrusted'})\n`);
  return ExitCode.Value;
}

/** Asks a server to stop, waits for its exit (bounded), and terminates it if it does not go. */
async function stopServer(server: RunningServer): Promise<void> {
  await requestStop(server.files.socketPath, SERVER_TIMEOUTS.infoMs);
  if (!(await waitForExit(server.record.pid, SERVER_TIMEOUTS.stopMs))) await terminateServer(server.record.pid, SERVER_TIMEOUTS.stopMs);
  cleanUp(server.files);
}

/** `dialect server run`: the background server process; returns when it has stopped. */
export async function runServerProcess(options: { readonly workspace: string; readonly trust: boolean; readonly idleMs: number; readonly io: Io }): Promise<number> {
  const { io } = options;
  process.on('uncaughtException', (error) => io.stderr.write(`dialect server: uncaught exception: ${error.stack ?? error.message}\n`));
  process.on('unhandledRejection', (reason) => io.stderr.write(`dialect server: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`));
  await runServer({
    workspace: options.workspace,
    trusted: options.trust,
    idleMs: options.idleMs,
    env: io.env,
    log: (line) => io.stderr.write(`${new Date().toISOString()} dialect server: ${line}\n`),
  });
  // Everything is shut down (bounded) and cleaned up by now; a timer of an abandoned request (a
  // hung language server's deadline) must not keep a stopped server alive — `server stop` waits
  // for this exit. The log is a file: its writes are synchronous, nothing is lost.
  process.exit(ExitCode.Value);
}
