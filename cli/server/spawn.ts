/**
 * Starting a background server: `node bin/dialect.js server run --workspace DIR [--trust]`,
 * detached (its own session and process group, so a shell's Ctrl-C or the caller's exit does not
 * reach it), stdin ignored, stderr appended to `<id>.log`, and a pipe on which it announces that
 * it listens — the caller waits for that event, bounded, instead of polling the socket.
 */
import { spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { openFreshFileSync } from '../../ide-adapter/safe-write.js';
import type { Readable } from 'node:stream';
import { packageFile } from '../../ide-adapter/package-files.js';
import { ANNOUNCE_FD, ANNOUNCE_FD_ENV, LISTENING, SERVER_TIMEOUTS } from './defaults.js';
import { DialectError } from '../../dialect/outcome.js';
import { BackgroundServerCode } from '../../ide-adapter/server-codes.js';
import type { ServerIdentity } from './identity.js';
import { PRIVATE_FILE_MODE } from './record.js';

/** How much of the log's end a start failure quotes. */
const LOG_TAIL_CHARS = 2_000;

/** How a server is spawned. */
export interface SpawnOptions {
  readonly identity: ServerIdentity;
  /** The environment of the server (and so of its language servers): the caller's. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Default {@link SERVER_TIMEOUTS.startMs}. */
  readonly timeoutMs?: number;
}

/** The command line of a server for `identity` (arguments after `node`). */
export function serverArgs(identity: ServerIdentity): string[] {
  return [packageFile('bin', 'dialect.js'), 'server', 'run', '--workspace', identity.workspaceRoot, ...(identity.trusted ? ['--trust'] : [])];
}

/**
 * Spawns the server and resolves with its pid once it announces that it listens. Rejects with
 * `server-start-failed` (quoting the end of its log) when it exits or stays silent past the
 * timeout (then it is killed).
 */
export function spawnServer(options: SpawnOptions): Promise<number> {
  const { identity } = options;
  const timeoutMs = options.timeoutMs ?? SERVER_TIMEOUTS.startMs;
  const log = openFreshFileSync(identity.logPath, PRIVATE_FILE_MODE);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  env[ANNOUNCE_FD_ENV] = String(ANNOUNCE_FD);
  let child;
  try {
    // cwd `/`: a long-lived process should keep no folder busy (its language servers run in the workspace).
    child = spawn(process.execPath, serverArgs(identity), { cwd: '/', env, detached: true, stdio: ['ignore', 'ignore', log, 'pipe'] });
  } finally {
    closeSync(log); // the child has its own copy
  }
  const pipe = child.stdio[ANNOUNCE_FD] as Readable;
  const failed = (why: string): DialectError =>
    new DialectError({
      code: BackgroundServerCode.StartFailed,
      message: `the background server for ${identity.workspaceRoot} ${why}${logTail(identity.logPath)}`,
      hint: `its log is ${identity.logPath}; --no-server (or DIALECT_NO_SERVER=1) answers in-process`,
    });
  return new Promise<number>((resolve, reject) => {
    let announced = '';
    const done = (): void => {
      clearTimeout(timer);
      pipe.removeAllListeners('data');
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      pipe.destroy();
      child.unref();
    };
    const timer = setTimeout(() => {
      done();
      if (child.pid !== undefined) killGroup(child.pid);
      reject(failed(`did not announce itself within ${timeoutMs} ms`));
    }, timeoutMs);
    pipe.setEncoding('utf8');
    pipe.on('data', (chunk: string) => {
      announced += chunk;
      if (!announced.includes('\n')) return;
      done();
      if (announced.startsWith(LISTENING) && child.pid !== undefined) resolve(child.pid);
      else reject(failed(`failed to start: ${announced.trim()}`));
    });
    pipe.on('error', () => undefined); // the exit handler reports
    child.on('error', (error) => {
      done();
      reject(failed(`could not be spawned (${error.message})`));
    });
    child.on('exit', (code, signal) => {
      done();
      reject(failed(`exited before it listened (${signal ?? `exit code ${code ?? '?'}`})`));
    });
  });
}

/** SIGKILL to a detached server's whole process group (it leads its own). */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function logTail(path: string): string {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (text === '') return '';
    return `:\n${text.length > LOG_TAIL_CHARS ? `…${text.slice(-LOG_TAIL_CHARS)}` : text}`;
  } catch {
    return '';
  }
}
