/**
 * The warm `dialect eval` (cli/warm-eval.ts, cli/server/eval-service.ts) with real processes: the
 * built command, a real background server with the real TypeScript server on a copy of
 * `fixtures/ts-monorepo`, a private runtime folder. A warm call is answered by the server — the
 * client loads no parser (recorded by a module hook) — and prints exactly what the in-process
 * command prints (values, errors with their caret snippet, JSON, exit codes, `--quiet`); what the
 * server must not answer (no server needed, git, another environment) it leaves to the client.
 */
import { spawn } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import { EVAL_METHOD, type EvalParams, type EvalResult } from '../server/eval-protocol.js';
import { serverIdentity } from '../server/identity.js';
import { RpcClient } from '../server/rpc-client.js';
import { runtimeDirPath } from '../server/runtime-dir.js';
import { PROTOCOL_VERSION } from '../../ide-adapter/remote/methods.js';
import { currentProduct } from '../server/record.js';
import { bin, childEnv, copyFixture, repoRoot, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const available = await serversAvailable('typescript');
const TIMEOUT = 120_000;
const PROGRAM = 'findDefinitions("Subject")';
const SUBJECT_FILE = 'packages/core/src/subject.ts';

/** The bundle's output files that hold `source` (esbuild's metafile). */
function outputsHolding(source: string): string[] {
  const meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return Object.entries(meta.outputs)
    .filter(([, output]) => source in output.inputs)
    .map(([file]) => join(repoRoot, file));
}

describe.runIf(available)('a warm dialect eval', () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let root: string;
  let hook: string;

  const run = (args: readonly string[], extra: Record<string, string> = {}) => runDialect(['eval', ...args, '--workspace', fixture.root], { env: { ...env, ...extra } });
  /** Runs a call with a module hook that records every file the process loads. */
  const runRecorded = async (args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; loaded: string[] }> => {
    const log = join(state.path, `loaded-${Date.now()}.txt`);
    writeFileSync(log, '');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, bin, 'eval', ...args, '--workspace', fixture.root], { env: { ...env, LOAD_LOG: log }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    return { ...result, loaded: readFileSync(log, 'utf8').split('\n').filter((line) => line !== '') };
  };
  /** Asks the server directly, as the warm client does. */
  const askServer = async (program: string, clientEnv: Record<string, string> = env, expect: Partial<EvalParams['expect']> = {}): Promise<EvalResult> => {
    const socket = serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env }).socketPath;
    const client = await RpcClient.connect(socket, 5_000);
    try {
      const params: EvalParams = {
        expect: { protocolVersion: PROTOCOL_VERSION, workspaceRoot: root, trusted: false, product: currentProduct(), ...expect },
        program,
        json: false,
        quiet: false,
        timeoutMs: 30_000,
        stdout: { isTTY: false },
        stderr: { isTTY: false },
        env: clientEnv,
        cwd: repoRoot,
      };
      return (await client.request(EVAL_METHOD, params)) as EvalResult;
    } finally {
      client.close();
    }
  };

  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('ts-monorepo');
    root = realpathSync(fixture.root);
    state = await tempDir('dialect-warm-eval-');
    env = await childEnv(state.path, { DIALECT_NO_SERVER: '0' });
    // A module hook (in its own thread) appends each file URL the command loads to $LOAD_LOG.
    hook = join(state.path, 'record-loads.mjs');
    const hooks = join(state.path, 'record-loads-hooks.mjs');
    writeFileSync(hooks, "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(process.env.LOAD_LOG, url + '\\n'); return next(url, context); }\n");
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    // The first call starts the server and waits for its index; later calls are warm.
    const first = await run([PROGRAM]);
    expect(first.code, first.stderr).toBe(0);
  }, TIMEOUT);
  afterAll(async () => {
    if (env !== undefined) await runDialect(['server', 'stop', '--all'], { env }).catch(() => undefined);
    await fixture?.dispose();
    await state?.dispose();
  });

  it(
    'is answered by the server: the client loads neither the parser nor the JSON-RPC library, and prints what the in-process command prints',
    async () => {
      const warm = await runRecorded([PROGRAM]);
      const local = await run([PROGRAM, '--no-server']);
      expect(warm.code, warm.stderr).toBe(0);
      expect(warm.stdout).toContain(SUBJECT_FILE);
      expect(warm.stdout).toBe(local.stdout);
      expect(warm.stderr).toBe(local.stderr);
      const parser = outputsHolding('dialect/parse.ts').map((file) => pathToFileURL(file).href);
      expect(parser.length).toBeGreaterThan(0);
      expect(warm.loaded.some((url) => url.endsWith('/bin/dialect.js'))).toBe(true); // the hook saw the command load
      expect(warm.loaded.filter((url) => parser.includes(url))).toEqual([]);
      expect(warm.loaded.filter((url) => url.includes('vscode-jsonrpc'))).toEqual([]);
      const evaluator = outputsHolding('cli/eval.ts').map((file) => pathToFileURL(file).href);
      expect(warm.loaded.filter((url) => evaluator.includes(url))).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'prints errors with their caret snippet, JSON and --quiet answers, with the exit codes of the in-process command',
    async () => {
      const cases: (readonly string[])[] = [
        ['findDefinitions("Subject"'], // a syntax error: the caret snippet, exit 1
        ['findDefinitions("NoSuchNameAnywhere")'], // an empty answer with a note
        ['findDefinitions("NoSuchNameAnywhere")', '--quiet'],
        [PROGRAM, '--json'],
        ['findDefinition(42)'], // a type error, exit 1
      ];
      for (const args of cases) {
        const [warm, local] = await Promise.all([runRecorded(args), run([...args, '--no-server'])]);
        expect({ args, code: warm.code, stdout: warm.stdout, stderr: warm.stderr }).toEqual({ args, code: local.code, stdout: local.stdout, stderr: local.stderr });
      }
      const syntax = await runRecorded(['findDefinitions("Subject"']);
      expect(syntax.code).toBe(1);
      expect(syntax.stderr).toMatch(/\^/);
    },
    TIMEOUT,
  );

  it(
    'leaves to the client what the server must not answer: programs that ask no server, programs that run git, another environment',
    async () => {
      const answered = await askServer(PROGRAM);
      expect(answered.kind === 'answer' ? [answered.exitCode, answered.stdout.includes(SUBJECT_FILE)] : answered).toEqual([0, true]);
      expect(await askServer('1')).toMatchObject({ kind: 'elsewhere' });
      for (const program of [`[diff(), ${PROGRAM}]`, `[explain("gitdiff()"), ${PROGRAM}]`]) {
        const git = await askServer(program);
        expect(git.kind === 'elsewhere' ? git.reason : git).toMatch(/git/);
      }
      // Another TypeScript server named by the environment: another identity, so another server's call.
      const other = await askServer(PROGRAM, { ...env, DIALECT_TS_SERVER: '/bin/true' });
      expect(other.kind === 'elsewhere' ? other.reason : other).toMatch(/environment/);
      // What the full client checks in the handshake: another trust, workspace or build is another server's call.
      for (const expectation of [{ trusted: true }, { workspaceRoot: repoRoot }, { product: { version: '0.0.0-other', installPath: repoRoot } }, { protocolVersion: PROTOCOL_VERSION + 1 }]) {
        expect(await askServer(PROGRAM, env, expectation)).toMatchObject({ kind: 'elsewhere' });
      }
      // The command itself still answers these, in-process or by the right server.
      const one = await runRecorded(['1']);
      expect({ code: one.code, stdout: one.stdout }).toEqual({ code: 0, stdout: '1\n' });
      const parser = outputsHolding('dialect/parse.ts').map((file) => pathToFileURL(file).href);
      expect(one.loaded.some((url) => parser.includes(url))).toBe(true); // evaluated here, as before
    },
    TIMEOUT,
  );
});
