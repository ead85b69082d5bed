/**
 * Exit codes on signals, with the real built command receiving real signals while it waits on a
 * language server: 143 on SIGTERM and 130 on SIGINT (128 + the signal's number, as shells
 * report a death by that signal), for `eval`, `tour` and `mcp`. The server is the fake one in
 * `hang` mode (it answers `initialize` only), configured through `DIALECT_CONFIG` (trusted with
 * `--trust`: untrusted, no configured server would start), so every
 * command is mid-request when the signal arrives.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServerScript } from '../../ide-adapter/test/support/servers.js';
import { bin, childEnv, repoRoot, requireFreshBuild, tempDir } from './support/cli.js';

const EXIT_ON_SIGTERM = 143;
const EXIT_ON_SIGINT = 130;
const WAIT_MS = 30_000;
const POLL_MS = 20;

let dir: Awaited<ReturnType<typeof tempDir>>;
let workspace: string;
let serial = 0;

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-signals-');
  workspace = join(dir.path, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'a.fake'), 'x\n');
});
afterAll(() => dir?.dispose());

interface Running {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Set once the fake server has started (it writes its grandchild's pid there). */
  readonly pidfile: string;
}

/** Starts `dialect ARGS` on the workspace, with the hanging fake server as its only server (`n`: the configuration and state of an earlier call). */
async function start(args: readonly string[], extra: Record<string, string> = {}, n = ++serial): Promise<Running> {
  const pidfile = join(dir.path, `server-${n}.pid`);
  const config = join(dir.path, `dialect-${n}.json`);
  await writeFile(
    config,
    JSON.stringify({
      servers: [{ id: 'fake', command: process.execPath, args: [fakeServerScript, '--mode=hang', '--outline', `--pidfile=${pidfile}`], languages: [{ languageId: 'fake', extensions: ['.fake'] }], readiness: 'immediate' }],
    }),
  );
  const env = await childEnv(join(dir.path, `state-${n}`), { DIALECT_CONFIG: config, ...extra });
  const child = spawn(process.execPath, [bin, ...args, '--workspace', workspace, '--trust'], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited, pidfile };
}

/**
 * Waits until `condition` holds, or fails. Bounded polling: the conditions are another process's
 * output and the files it writes, which announce nothing this process can wait on.
 */
async function until(condition: () => boolean, what: string, running: Running): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline || running.child.exitCode !== null) {
      throw new Error(`gave up waiting for ${what}\nstdout: ${running.stdout()}\nstderr: ${running.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Sends `signal` once the command is waiting on the server, and returns how it exited. */
async function signalWhileWaiting(running: Running, ready: () => boolean, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  try {
    await until(ready, 'the command to wait on the language server', running);
    running.child.kill(signal);
    return await running.exited;
  } finally {
    running.child.kill('SIGKILL');
  }
}

describe('exit codes on signals', () => {
  it('dialect eval exits 143 on SIGTERM', async () => {
    const r = await start(['eval', 'findDefinitions("x")']);
    expect(await signalWhileWaiting(r, () => existsSync(r.pidfile), 'SIGTERM')).toEqual({ code: EXIT_ON_SIGTERM, signal: null });
  }, 60_000);

  it('dialect eval still exits 130 on SIGINT', async () => {
    const r = await start(['eval', 'findDefinitions("x")']);
    expect(await signalWhileWaiting(r, () => existsSync(r.pidfile), 'SIGINT')).toEqual({ code: EXIT_ON_SIGINT, signal: null });
  }, 60_000);

  it('a warm dialect eval, answered by the background server, still exits 130 on SIGINT and leaves the server serving', async () => {
    const withServer = { DIALECT_NO_SERVER: '0' };
    // The first call starts the background server (and its fake server), then waits on it.
    const first = await start(['eval', 'findDefinitions("x")'], withServer);
    expect(await signalWhileWaiting(first, () => existsSync(first.pidfile), 'SIGTERM')).toEqual({ code: EXIT_ON_SIGTERM, signal: null });
    const languageServer = readFileSync(first.pidfile, 'utf8');
    const env = await childEnv(join(dir.path, `state-${serial}`), withServer);
    const status = (): { pid: number; connections: number; lastActivityAt: number }[] =>
      JSON.parse(execFileSync(process.execPath, [bin, 'server', 'status', '--json'], { env, encoding: 'utf8' })) as { pid: number; connections: number; lastActivityAt: number }[];
    const [server] = status();
    const before = server?.lastActivityAt ?? 0;
    // The second call is the warm one: its request waits in the server, on the same fake server.
    const warm = await start(['eval', 'findDefinitions("x")'], withServer, serial);
    try {
      expect(await signalWhileWaiting(warm, () => status().some((s) => s.connections === 1 && s.lastActivityAt > before), 'SIGINT')).toEqual({ code: EXIT_ON_SIGINT, signal: null });
      expect(warm.stderr()).toMatch(/cancel/i); // the server's answer: the evaluation was cancelled
      expect(readFileSync(first.pidfile, 'utf8')).toBe(languageServer); // no language server of its own: the server answered
      expect(status().map((s) => s.pid)).toEqual([server?.pid]);
    } finally {
      execFileSync(process.execPath, [bin, 'server', 'stop', '--all'], { env });
    }
  }, 90_000);

  it('dialect tour exits 143 on SIGTERM', async () => {
    const r = await start(['tour']);
    // The header is printed once the tour listens for signals; then it asks the server for outlines.
    expect(await signalWhileWaiting(r, () => r.stdout().includes('Dialect tour') && existsSync(r.pidfile), 'SIGTERM')).toEqual({ code: EXIT_ON_SIGTERM, signal: null });
  }, 60_000);

  it('dialect mcp exits 143 on SIGTERM', async () => {
    const r = await start(['mcp']);
    expect(await signalWhileWaiting(r, () => r.stderr().includes('on stdio'), 'SIGTERM')).toEqual({ code: EXIT_ON_SIGTERM, signal: null });
    expect(r.stderr()).toContain('stopping (SIGTERM)');
  }, 60_000);
});
