/**
 * One `dialect eval` per question, as agents call it from a shell: wall time of whole processes on
 * the generated 1,000-file crate, against a bare `node -e 0` measured in the same run.
 *
 * - in-process (`--no-server`): every call starts its own rust-analyzer and waits for it;
 * - first call with the background server: starts the server, then answers (must not be slower
 *   than in-process by more than the spawn of one more process);
 * - warm calls: later calls, which the background server answers whole (`dialect/eval`: it parses,
 *   evaluates on its warm rust-analyzer and prints; the client loads one small file).
 * Contenders are interleaved (measure.ts) so drifts of the machine hit them alike. The start-up
 * floor (`help("lines")`) is the `startup` section's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFile } from '../ide-adapter/package-files.js';
import { rustOfflineEnv } from '../ide-adapter/test/support/rust-offline.js';
import { generateCrate } from './lsp.js';
import { fmt, interleaved, summarize, table, type Sample } from './measure.js';

const bin = packageFile('bin', 'dialect.js');
const PROGRAM = 'findDefinitions("Item500")';
/** Cold calls start rust-analyzer on 1,000 files each: a few samples are enough. */
const COLD_RUNS = 3;
const WARM_RUNS = 15;

/** Runs a process to its end and returns its wall time in ms; fails on a non-zero exit. */
function wall(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** The section's Markdown. */
export async function benchCliCalls(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-cli-'));
  const root = join(base, 'bench-crate');
  try {
    await generateCrate(root);
    const offline = await rustOfflineEnv();
    const envFor = (runtime: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, ...offline, XDG_RUNTIME_DIR: runtime, DIALECT_NO_SERVER: '', ...extra });
    const evalArgs = (program: string, ...more: string[]): string[] => [bin, 'eval', program, '--workspace', root, ...more];
    const stop = (runtime: string): Promise<number> => wall(process.execPath, [bin, 'server', 'stop', '--workspace', root], envFor(runtime));

    // Cold: each in-process call starts its own rust-analyzer; each first call with the server gets
    // a fresh runtime folder (so it starts one), which is stopped after the timing. Alternated.
    const scratch = await mkdtemp(join(base, 'rt-none-'));
    const inProcessTimes: number[] = [];
    const firstTimes: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const runtime = await mkdtemp(join(base, 'rt-cold-'));
      const first = (): Promise<number> => wall(process.execPath, evalArgs(PROGRAM), envFor(runtime));
      const local = (): Promise<number> => wall(process.execPath, evalArgs(PROGRAM, '--no-server'), envFor(scratch));
      if (i % 2 === 0) {
        inProcessTimes.push(await local());
        firstTimes.push(await first());
      } else {
        firstTimes.push(await first());
        inProcessTimes.push(await local());
      }
      await stop(runtime);
    }
    const inProcess = summarize(inProcessTimes);
    const firstWithServer = summarize(firstTimes);
    const warmRuntime = await mkdtemp(join(base, 'rt-warm-'));
    await wall(process.execPath, evalArgs(PROGRAM), envFor(warmRuntime));
    const hot = await interleaved({ bare: () => wall(process.execPath, ['-e', '0'], process.env), warm: () => wall(process.execPath, evalArgs(PROGRAM), envFor(warmRuntime)) }, WARM_RUNS);
    await stop(warmRuntime);
    const bare = hot['bare'] as Sample;
    const warm = hot['warm'] as Sample;

    const vsBare = (s: Sample): string => `${fmt.ratio(s.median / bare.median)}×`;
    return [
      '### One `dialect eval` per question (whole processes, 1,000-file crate)',
      '',
      `Wall time of \`node bin/dialect.js eval …\` from spawn to exit, medians; the baseline is a bare \`node -e 0\` (${fmt.ms(bare.median)} ms) measured in the same run. ` +
        'In-process means `--no-server` (the call starts and waits for its own rust-analyzer); the first call with the background server starts it; warm calls are answered by it whole (it parses, evaluates and prints; the client loads one small file, `dist/bundle/cli/warm-eval.js`).',
      '',
      table(
        ['call', 'median', 'p90', 'runs', 'vs node -e 0'],
        [
          ['`node -e 0`', `${fmt.ms(bare.median)} ms`, `${fmt.ms(bare.p90)} ms`, String(bare.runs), '1×'],
          [`\`${PROGRAM}\` in-process, cold`, `${fmt.ms(inProcess.median)} ms`, `${fmt.ms(inProcess.p90)} ms`, String(inProcess.runs), vsBare(inProcess)],
          [`\`${PROGRAM}\` first call, starts the background server`, `${fmt.ms(firstWithServer.median)} ms`, `${fmt.ms(firstWithServer.p90)} ms`, String(firstWithServer.runs), vsBare(firstWithServer)],
          [`\`${PROGRAM}\` warm (background server)`, `${fmt.ms(warm.median)} ms`, `${fmt.ms(warm.p90)} ms`, String(warm.runs), vsBare(warm)],
        ],
      ),
      '',
      `First call with the server vs in-process: **${fmt.ratio(firstWithServer.median / inProcess.median)}×** (target ≤ 1.2×). ` +
        `Warm call vs \`node -e 0\`: **${fmt.ratio(warm.median / bare.median)}×** (target ≤ 2×); vs the in-process call: ${fmt.ratio(inProcess.median / warm.median)}× faster.`,
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
