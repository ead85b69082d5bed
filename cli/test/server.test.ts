/**
 * The background server with real processes: the built `dialect` command, the real TypeScript
 * server on a copy of `fixtures/ts-monorepo`, real Unix sockets in a private runtime folder per
 * test file (`XDG_RUNTIME_DIR`), and real signals. One server per (workspace, trust, environment);
 * warm answers; stop, idle timeout, a killed server, stale files, permissions, another build; and
 * no process left behind.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeJson } from '../../dialect/index.js';
import { isAlive } from '../../ide-adapter/test/support/servers.js';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import { serverIdentity } from '../server/identity.js';
import { runtimeDirPath } from '../server/runtime-dir.js';
import { bin, childEnv, copyFixture, processesIn, repoRoot, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const available = await serversAvailable('typescript');
const TIMEOUT = 120_000;
/** The program every call asks: answered by the TypeScript server. */
const PROGRAM = 'findDefinitions("Subject")';
/** Where the answer is (from the fixture's text). */
const SUBJECT_FILE = 'packages/core/src/subject.ts';
/** How long a test waits for a process it stopped (or that stops itself) to be gone. */
const EXIT_WAIT_MS = 30_000;
const POLL_MS = 25;

/** One server of `dialect server status --json`. */
interface StatusEntry {
  readonly pid: number;
  readonly workspace: string;
  readonly trusted: boolean;
  readonly product: { readonly version: string; readonly installPath: string };
  readonly servers: readonly { readonly id: string; readonly state: string; readonly pid?: number }[];
}

/**
 * Waits until `pid` is gone. Bounded polling: a process that is not our child announces its exit
 * to nobody.
 */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return true;
}

describe.runIf(available)('the background server', () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let root: string;
  /** Every process a test saw (servers and their language servers), checked gone at the end. */
  const seen = new Set<number>();

  const evaluate = async (extraArgs: readonly string[] = [], withEnv: Record<string, string> = env): Promise<OutcomeJson & { stderr: string }> => {
    const r = await runDialect(['eval', PROGRAM, '--json', '--workspace', fixture.root, ...extraArgs], { env: withEnv });
    if (r.code !== 0) throw new Error(`eval exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return { ...(JSON.parse(r.stdout) as OutcomeJson), stderr: r.stderr };
  };
  const status = async (withEnv: Record<string, string> = env): Promise<StatusEntry[]> => {
    const r = await runDialect(['server', 'status', '--json'], { env: withEnv });
    if (r.code !== 0) throw new Error(`server status exited ${r.code}\n${r.stderr}`);
    const entries = JSON.parse(r.stdout) as StatusEntry[];
    for (const entry of entries) {
      seen.add(entry.pid);
      for (const s of entry.servers) if (s.pid !== undefined) seen.add(s.pid);
    }
    return entries;
  };
  const stopAll = async (withEnv: Record<string, string> = env): Promise<void> => {
    const r = await runDialect(['server', 'stop', '--all'], { env: withEnv });
    expect(r.code, r.stderr).toBe(0);
  };
  const answersSubject = (outcome: OutcomeJson): void => {
    expect(outcome.kind).toBe('value');
    const value = (outcome as { value: { definedAt: { path: string } }[] }).value;
    expect(value.map((d) => d.definedAt.path)).toContain(SUBJECT_FILE);
  };
  const tsPid = (entry: StatusEntry): number => {
    const pid = entry.servers.find((s) => s.id === 'typescript')?.pid;
    if (pid === undefined) throw new Error(`no TypeScript server pid in ${JSON.stringify(entry)}`);
    return pid;
  };
  const identityFiles = (trusted: boolean, withEnv: Record<string, string> = env) => serverIdentity(runtimeDirPath(withEnv), { workspaceRoot: root, trusted, env: withEnv });

  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('ts-monorepo');
    root = realpathSync(fixture.root);
    state = await tempDir('dialect-server-');
    env = await childEnv(state.path, { DIALECT_NO_SERVER: '0' });
  });
  afterAll(async () => {
    if (env !== undefined) await runDialect(['server', 'stop', '--all'], { env }).catch(() => undefined);
    try {
      // No process outlives the tests: every server and language server seen is gone.
      const left = [...seen].filter((pid) => isAlive(pid));
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left).toEqual([]);
      if (fixture !== undefined) expect(processesIn(fixture.root)).toEqual([]);
    } finally {
      await fixture?.dispose();
      await state?.dispose();
    }
  });

  it(
    'two concurrent first calls start one server; a later call is answered by it, warm',
    async () => {
      const [a, b] = await Promise.all([evaluate(), evaluate()]);
      answersSubject(a);
      answersSubject(b);
      const first = await status();
      expect(first).toHaveLength(1);
      const [server] = first as [StatusEntry];
      expect(server.workspace).toBe(root);
      expect(server.trusted).toBe(false);
      const languageServer = tsPid(server);
      expect(processesIn(fixture.root)).toEqual([languageServer]); // the clients started none of their own

      const c = await evaluate();
      answersSubject(c);
      const again = await status();
      expect(again.map((s) => s.pid)).toEqual([server.pid]);
      expect(tsPid(again[0] as StatusEntry)).toBe(languageServer);
    },
    TIMEOUT,
  );

  it(
    "status() in a later eval tells the warm server's language servers as they are, never 'not started'",
    async () => {
      await evaluate();
      const r = await runDialect(['eval', 'status()', '--workspace', fixture.root], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^server .*: ready/m);
      expect(r.stdout).not.toContain('not started');
    },
    TIMEOUT,
  );

  it(
    'status() as the first question of a polyglot workspace lists the servers it needs, not started yet (not "none")',
    async () => {
      // TypeScript and Python (both come with Dialect): a polyglot workspace starts each server
      // when a question first needs it, so at first none runs, and the client hears of them only
      // from the background server's status notifications.
      const polyglot = await tempDir('dialect-server-polyglot-');
      try {
        writeFileSync(join(polyglot.path, 'app.ts'), 'export const answer = 42;\n');
        writeFileSync(join(polyglot.path, 'tsconfig.json'), '{}\n');
        writeFileSync(join(polyglot.path, 'tool.py'), 'def answer():\n    return 42\n');
        const r = await runDialect(['eval', 'status()', '--workspace', polyglot.path], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).not.toContain('servers: none');
        expect(r.stdout).toMatch(/^server TypeScript.*\n {2}state: not started yet/m);
        expect(r.stdout).toMatch(/^server Python.*\n {2}state: not started yet/m);
      } finally {
        await runDialect(['server', 'stop', '--workspace', polyglot.path], { env }).catch(() => undefined);
        await polyglot.dispose();
      }
    },
    TIMEOUT,
  );

  it(
    'a file added between two calls is seen by the warm server',
    async () => {
      await evaluate();
      const [server] = (await status()) as [StatusEntry];
      const file = 'packages/core/src/freshly.ts';
      writeFileSync(join(fixture.root, file), 'export class Freshly {}\n');
      try {
        const r = await runDialect(['eval', 'findDefinitions("Freshly")', '--json', '--workspace', fixture.root], { env });
        expect(r.code, r.stderr).toBe(0);
        const outcome = JSON.parse(r.stdout) as OutcomeJson & { value: { definedAt: { path: string; start: { line: number; column: number } } }[] };
        expect(outcome.value.map((d) => d.definedAt)).toEqual([expect.objectContaining({ path: file, start: { line: 1, column: 'export class '.length + 1 } })]);
        expect((await status()).map((s) => s.pid)).toEqual([server.pid]);
      } finally {
        rmSync(join(fixture.root, file), { force: true });
      }
    },
    TIMEOUT,
  );

  it(
    'dialect mcp answers through the same warm server, which outlives the MCP session',
    async () => {
      await evaluate();
      const [server] = (await status()) as [StatusEntry & { connections: number }];
      const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', fixture.root], env, stderr: 'pipe', cwd: repoRoot });
      const client = new Client({ name: 'dialect-server-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = (await client.callTool({ name: 'ide_operation', arguments: { program: PROGRAM } }, undefined, { timeout: TIMEOUT })) as { content: { text: string }[] };
        expect(result.content.map((c) => c.text).join('\n')).toContain(SUBJECT_FILE);
        const during = (await status()) as (StatusEntry & { connections: number })[];
        expect(during.map((s) => s.pid)).toEqual([server.pid]);
        expect(during[0]?.connections).toBe(1);
        expect(tsPid(during[0] as StatusEntry)).toBe(tsPid(server));
      } finally {
        await client.close();
      }
      const after = await status();
      expect(after.map((s) => s.pid)).toEqual([server.pid]);
    },
    TIMEOUT,
  );

  it(
    'the runtime folder is 0700 and the socket 0600',
    async () => {
      await evaluate();
      const files = identityFiles(false);
      expect(lstatSync(runtimeDirPath(env)).mode & 0o777).toBe(0o700);
      const socket = lstatSync(files.socketPath);
      expect(socket.isSocket()).toBe(true);
      expect(socket.mode & 0o777).toBe(0o600);
      expect(lstatSync(files.recordPath).mode & 0o777).toBe(0o600);
    },
    TIMEOUT,
  );

  it(
    'untrusted and trusted calls on one workspace use two different servers',
    async () => {
      await evaluate();
      answersSubject(await evaluate(['--trust']));
      const servers = await status();
      expect(servers.map((s) => s.trusted).sort()).toEqual([false, true]);
      expect(new Set(servers.map((s) => s.pid)).size).toBe(2);
      expect(new Set(servers.map(tsPid)).size).toBe(2);
    },
    TIMEOUT,
  );

  it(
    '--no-server and DIALECT_NO_SERVER=1 answer in-process and start no server',
    async () => {
      await stopAll();
      answersSubject(await evaluate(['--no-server']));
      answersSubject(await evaluate([], { ...env, DIALECT_NO_SERVER: '1' }));
      expect(await status()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'server stop stops the server and its language servers, and leaves no file behind',
    async () => {
      await evaluate();
      const [server] = (await status()) as [StatusEntry];
      const pids = [server.pid, tsPid(server)];
      const r = await runDialect(['server', 'stop', '--workspace', fixture.root], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`pid ${server.pid}`);
      // `stop` returns once the server has exited, and the server exits after its language servers.
      expect(pids.filter((pid) => isAlive(pid))).toEqual([]);
      expect(processesIn(fixture.root)).toEqual([]);
      const files = identityFiles(false);
      expect([files.socketPath, files.recordPath, files.lockPath].filter((f) => existsSync(f))).toEqual([]);
      expect(await status()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'a SIGKILLed server: the next call still answers, says so, and gets a new server',
    async () => {
      await evaluate();
      const [killed] = (await status()) as [StatusEntry];
      const orphan = tsPid(killed);
      process.kill(killed.pid, 'SIGKILL');
      expect(await gone(killed.pid)).toBe(true);
      // A language server orphaned by SIGKILL ends when its stdin closes; it must not linger.
      expect(await gone(orphan)).toBe(true);
      const answer = await evaluate();
      answersSubject(answer);
      expect(answer.notes.join('\n')).toContain(`pid ${killed.pid}) had stopped`);
      const [replacement] = (await status()) as [StatusEntry];
      expect(replacement.pid).not.toBe(killed.pid);
    },
    TIMEOUT,
  );

  it(
    'a stale socket file and the record of a dead pid are cleaned up',
    async () => {
      await stopAll();
      const files = identityFiles(false);
      // A real socket whose process died: connections to it are refused.
      const dead = await deadListener(files.socketPath);
      expect(lstatSync(files.socketPath).isSocket()).toBe(true);
      const product = JSON.parse(readFileSync(join(repoPackage(), 'package.json'), 'utf8')) as { version: string };
      writeFileSync(files.recordPath, JSON.stringify({ pid: dead, workspace: root, trusted: false, product: { version: product.version, installPath: repoPackage() }, startedAt: Date.now() }));
      writeFileSync(files.lockPath, `${dead}\n`);
      answersSubject(await evaluate());
      const [server] = (await status()) as [StatusEntry];
      expect(server.pid).not.toBe(dead);
      expect((JSON.parse(readFileSync(files.recordPath, 'utf8')) as { pid: number }).pid).toBe(server.pid);
    },
    TIMEOUT,
  );

  it(
    'a server whose record names another version is stopped and replaced',
    async () => {
      await evaluate();
      const [old] = (await status()) as [StatusEntry];
      const files = identityFiles(false);
      const record = JSON.parse(readFileSync(files.recordPath, 'utf8')) as { product: { version: string } };
      writeFileSync(files.recordPath, JSON.stringify({ ...record, product: { ...record.product, version: '0.0.0-another-build' } }));
      const answer = await evaluate();
      answersSubject(answer);
      expect(answer.notes.join('\n')).toContain('0.0.0-another-build');
      expect(isAlive(old.pid)).toBe(false);
      expect(isAlive(tsPid(old))).toBe(false);
      const [replacement] = (await status()) as [StatusEntry];
      expect(replacement.pid).not.toBe(old.pid);
      expect(replacement.product.version).not.toBe('0.0.0-another-build');
    },
    TIMEOUT,
  );

  it(
    'the idle timeout ends the server and its language servers',
    async () => {
      // Its own workspace copy and runtime folder: the server is new, gets the short idle time, and
      // the processes in that copy are its language servers only.
      const copy = await copyFixture('ts-monorepo');
      try {
        const idleEnv = { ...env, XDG_RUNTIME_DIR: join(state.path, 'run-idle'), DIALECT_SERVER_IDLE_MS: '1500' };
        const r = await runDialect(['eval', PROGRAM, '--json', '--workspace', copy.root], { env: idleEnv });
        expect(r.code, r.stderr).toBe(0);
        const languageServers = processesIn(copy.root);
        const files = serverIdentity(runtimeDirPath(idleEnv), { workspaceRoot: realpathSync(copy.root), trusted: false, env: idleEnv });
        // The log outlives the server (it may be idle already): it names its pid and why it stopped.
        const pid = Number(/pid (\d+)/.exec(readFileSync(files.logPath, 'utf8'))?.[1]);
        seen.add(pid);
        expect(pid).toBeGreaterThan(0);
        expect(await gone(pid)).toBe(true);
        expect(readFileSync(files.logPath, 'utf8')).toContain('stopping (idle)');
        expect(languageServers.filter((p) => isAlive(p))).toEqual([]);
        expect(processesIn(copy.root)).toEqual([]);
        expect([files.socketPath, files.recordPath, files.lockPath].filter((f) => existsSync(f))).toEqual([]);
        expect(await status(idleEnv)).toEqual([]);
      } finally {
        await copy.dispose();
      }
    },
    TIMEOUT,
  );

  describe('an unsafe runtime folder is refused (and the call answers in-process, saying why)', () => {
    const refused = async (prepare: (dir: string) => void, why: RegExp): Promise<void> => {
      const base = join(state.path, `unsafe-${Math.random().toString(16).slice(2)}`);
      mkdirSync(base, { mode: 0o700 });
      prepare(join(base, 'dialect'));
      const unsafeEnv = { ...env, XDG_RUNTIME_DIR: base };
      const answer = await evaluate([], unsafeEnv);
      answersSubject(answer);
      expect(answer.notes.join('\n')).toMatch(why);
      const r = await runDialect(['server', 'status'], { env: unsafeEnv });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(why);
      expect(processesIn(fixture.root).filter((pid) => !seenLanguageServers().includes(pid))).toEqual([]);
    };
    const seenLanguageServers = (): number[] => [...seen];

    it('a folder open to others', () => refused((dir) => chmodSync(mkdirAnd(dir), 0o755), /open to others \(mode 755\)/), TIMEOUT);
    it(
      'a symlinked folder',
      () =>
        refused((dir) => {
          const real = `${dir}-real`;
          mkdirSync(real, { mode: 0o700 });
          symlinkSync(real, dir);
        }, /is a symbolic link/),
      TIMEOUT,
    );
    it.runIf(process.getuid?.() === 0)('a folder of another user', () => refused((dir) => chownSync(mkdirAnd(dir), 65534, 65534), /belongs to user 65534/), TIMEOUT);
  });
});

function mkdirAnd(dir: string): string {
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** The package folder (a server's install path). */
function repoPackage(): string {
  return realpathSync(join(import.meta.dirname, '..', '..'));
}

/** Listens on `path` in a child process, kills it with SIGKILL (the socket file stays), and returns its pid. */
async function deadListener(path: string): Promise<number> {
  rmSync(path, { force: true });
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return child.pid as number;
}
