/**
 * Running the built `dialect` command in tests: `node bin/dialect.js …` as a child process with a
 * deadline, on temporary copies of the fixtures, with the offline-std environment for
 * rust-analyzer and a private history folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { rustOfflineEnv } from '../../../ide-adapter/test/support/rust-offline.js';
import { copyFixture, repoRoot } from '../../../ide-adapter/test/support/servers.js';
import { serversAvailable } from '../../../ide-adapter/test/support/session.js';

export { copyFixture, repoRoot };

export const bin = join(repoRoot, 'bin', 'dialect.js');

/**
 * The tests run the build: fail clearly when it is missing or older than the sources
 * (the README's test command builds first; run `npm run build`).
 */
export function requireFreshBuild(): void {
  const main = join(repoRoot, 'dist', 'cli', 'main.js');
  if (!existsSync(main)) throw new Error('dist/cli/main.js is missing: run npm run build before these tests');
  const built = newest(join(repoRoot, 'dist'), (f) => f.endsWith('.js'));
  for (const dir of ['dialect', 'ide-adapter', 'walkthrough', 'mcp', 'cli']) {
    const source = newest(join(repoRoot, dir), (f) => f.endsWith('.ts') && !f.includes('/test/'));
    if (source.time > built.time + 1000) {
      throw new Error(`the build is older than ${relative(repoRoot, source.file)}: run npm run build before these tests`);
    }
  }
}

function newest(dir: string, wanted: (file: string) => boolean): { file: string; time: number } {
  let best = { file: dir, time: 0 };
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'test') visit(path);
      } else if (wanted(path)) {
        const time = statSync(path).mtimeMs;
        if (time > best.time) best = { file: path, time };
      }
    }
  };
  visit(dir);
  return best;
}

/** Whether rust-analyzer can run here; under CI (`CI=true`) a missing server throws, failing the test. */
export function rustAnalyzerAvailable(): Promise<boolean> {
  return serversAvailable('rust');
}

/**
 * The environment for a `dialect` child: the offline std for rust-analyzer, private state, config
 * and runtime folders, and no background server (`DIALECT_NO_SERVER=1`: a test that wants one
 * passes `DIALECT_NO_SERVER: '0'` in `extra`, and stops its servers in afterAll), so no test
 * leaves a daemon behind.
 */
export async function childEnv(stateHome: string, extra: Readonly<Record<string, string>> = {}): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  delete env['DIALECT_HISTORY'];
  // A private trust store too: what the user trusted on this machine must not change the tests.
  return {
    ...env,
    ...(await rustOfflineEnv()),
    XDG_STATE_HOME: stateHome,
    XDG_CONFIG_HOME: join(stateHome, 'config'),
    XDG_RUNTIME_DIR: join(stateHome, 'run'),
    DIALECT_NO_SERVER: '1',
    ...extra,
  };
}

export async function tempDir(prefix: string): Promise<{ path: string; dispose: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, dispose: () => rm(path, { recursive: true, force: true }) };
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `node bin/dialect.js ARGS`; kills it (and fails) after `timeoutMs`. */
export function runDialect(
  args: readonly string[],
  options: { env: Readonly<Record<string, string>>; cwd?: string; input?: string; timeoutMs?: number },
): Promise<RunResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? repoRoot, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dialect ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Processes whose working directory is `dir` (language servers run in the workspace root). */
export function processesIn(dir: string): number[] {
  if (!existsSync('/proc/self/cwd')) return [];
  const target = realpathSync(dir);
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      const exe = readlinkSync(`/proc/${entry}/exe`);
      // tmux and the shell it runs the REPL in may sit in the workspace too; they are the test's.
      if (cwd === target && !/\/(tmux|sh|dash|bash)$/.test(exe)) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out.filter((pid) => {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3);
      return state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  });
}
