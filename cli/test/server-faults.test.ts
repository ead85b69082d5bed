/**
 * The background server dying mid-call: the client answers in-process and says so. The language
 * server is the fake one (`DIALECT_CONFIG`, trusted with `--trust`) behind a small launcher the
 * test writes: started by the background server it hangs every hover (`--mode=hang`), started by
 * anyone else it answers (`--mode=ok`) — so the call is stuck in the background server when it is
 * killed, and the answer that comes back can only be the in-process one (the hover names its
 * mode and pid).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeJson } from '../../dialect/index.js';
import { fakeServerScript, isAlive } from '../../ide-adapter/test/support/servers.js';
import { serverIdentity } from '../server/identity.js';
import { runtimeDirPath } from '../server/runtime-dir.js';
import { bin, childEnv, repoRoot, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const TIMEOUT = 90_000;
const WAIT_MS = 30_000;
const POLL_MS = 25;

let dir: Awaited<ReturnType<typeof tempDir>>;
let workspace: string;
let env: Record<string, string>;
/** Where the background server's hanging fakes write their grandchildren's pids. */
let pidfile: string;
/** Processes the test must end: the hanging fake ignores SIGTERM and its stdin closing. */
const leftovers = new Set<number>();

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-server-faults-');
  workspace = join(dir.path, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'a.fake'), 'class Alpha\nclass Beta extends Alpha\n');
  const launcher = join(dir.path, 'launcher.mjs');
  pidfile = join(dir.path, 'hang-grandchild.pid'); // one per hanging fake: `.<its pid>` appended
  await writeFile(
    launcher,
    [
      "import { readFileSync } from 'node:fs';",
      `const parent = readFileSync('/proc/' + process.ppid + '/cmdline', 'utf8').split('\\0');`,
      "const inServer = parent.includes('server') && parent.includes('run');",
      `process.argv = [process.argv[0], ${JSON.stringify(fakeServerScript)}, inServer ? '--mode=hang' : '--mode=ok', '--types', ...(inServer ? [${JSON.stringify(`--pidfile=${pidfile}.`)} + process.pid] : [])];`,
      `await import(${JSON.stringify(pathToFileURL(fakeServerScript).href)});`,
    ].join('\n'),
  );
  const config = join(dir.path, 'dialect.json');
  await writeFile(
    config,
    JSON.stringify({ servers: [{ id: 'fake', command: process.execPath, args: [launcher], languages: [{ languageId: 'fake', extensions: ['.fake'] }], readiness: 'immediate' }] }),
  );
  env = await childEnv(join(dir.path, 'state'), { DIALECT_CONFIG: config, DIALECT_NO_SERVER: '0' });
});

afterAll(async () => {
  if (env !== undefined) await runDialect(['server', 'stop', '--all'], { env }).catch(() => undefined);
  if (dir !== undefined) {
    for (const name of readdirSync(dir.path)) if (name.startsWith('hang-grandchild.pid.')) leftovers.add(Number(readFileSync(join(dir.path, name), 'utf8')));
  }
  for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir?.dispose();
});

/** `dialect server status --json`, parsed. */
async function status(): Promise<{ pid: number; connections: number; servers: { id: string; pid?: number }[] }[]> {
  const r = await runDialect(['server', 'status', '--json'], { env });
  if (r.code !== 0) throw new Error(`server status exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { pid: number; connections: number; servers: { id: string; pid?: number }[] }[];
}

/** Waits (bounded polling of another process's state) until `condition` holds. */
async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

describe('the background server dies mid-call', () => {
  it(
    'the call is answered in-process, with a note saying so',
    async () => {
      const child = spawn(process.execPath, [bin, 'eval', 'getSymbolInfo(symbolAt("a.fake", 1, 7))', '--json', '--trust', '--workspace', workspace], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      try {
        // The client is connected and its hover is stuck in the background server's fake.
        const server = await until('the client to connect to the background server', async () => (await status()).find((s) => s.connections > 0));
        for (const s of server.servers) if (s.pid !== undefined) leftovers.add(s.pid);
        process.kill(server.pid, 'SIGKILL');
        const code = await exited;
        expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(0);
        const outcome = JSON.parse(stdout) as OutcomeJson & { value: { signature?: string; documentation?: string } };
        expect(outcome.kind).toBe('value');
        // The hover came from a fake in ok mode: the in-process one (the server's hangs).
        expect(JSON.stringify(outcome.value)).toContain('(ok, pid');
        expect(outcome.notes.join('\n')).toContain('the background server stopped');
      } finally {
        child.kill('SIGKILL');
      }
    },
    TIMEOUT,
  );

  it(
    'the killed server is cleaned up by the next call, which starts a new one',
    async () => {
      const identity = serverIdentity(runtimeDirPath(env), { workspaceRoot: realpathSync(workspace), trusted: true, env });
      // Go to definition answers even in hang mode (the fake's --types handler), hover would not.
      const r = await runDialect(['eval', 'symbolAt("a.fake", 1, 7)', '--json', '--trust', '--workspace', workspace], { env, timeoutMs: 60_000 });
      expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
      const outcome = JSON.parse(r.stdout) as OutcomeJson;
      expect(outcome.notes.join('\n')).toMatch(/had stopped without cleaning up/);
      const [server] = await status();
      for (const s of server?.servers ?? []) if (s.pid !== undefined) leftovers.add(s.pid);
      expect((JSON.parse(readFileSync(identity.recordPath, 'utf8')) as { pid: number }).pid).toBe(server?.pid);
    },
    TIMEOUT,
  );
});
