/**
 * Start-up of a short command: the wall time of `node bin/dialect.js eval …` for programs that need
 * no language server (`help("lines")`, `1`) against a bare `node -e 0`, and the same CLI loaded
 * from tsc's output instead of the bundle (what `bin/dialect.js` ran before `dist/bundle/`). Each
 * is a fresh process, measured interleaved in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, interleaved, table, type Sample } from './measure.js';

/** Processes per contender (medians); each takes a fraction of a second. */
const RUNS = 21;

/** Runs `node ARGS` to completion; a failure stops the benchmark (it would measure an error path). */
function run(args: readonly string[], cwd: string): void {
  const child = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status ?? child.signal}: ${child.stderr}`);
}

/** `root` is the package root; the commands run on an empty workspace folder. */
export async function benchStartup(root: string): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), 'dialect-bench-startup-'));
  try {
    const bin = join(root, 'bin', 'dialect.js');
    const unbundled = pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href;
    const dialect = (program: string) => () => run([bin, 'eval', program, '--workspace', workspace], workspace);
    const fromDist = (program: string) => () =>
      run(['--input-type=module', '-e', `const { runCli } = await import(${JSON.stringify(unbundled)}); process.exit(await runCli(['eval', ${JSON.stringify(program)}, '--workspace', ${JSON.stringify(workspace)}]));`], workspace);
    const results = await interleaved(
      {
        node: () => run(['-e', '0'], workspace),
        help: dialect('help("lines")'),
        one: dialect('1'),
        helpDist: fromDist('help("lines")'),
      },
      RUNS,
      2,
    );
    const median = (name: string): number => (results[name] as Sample).median;
    const row = (what: string, name: string): string[] => [what, `${fmt.ms(median(name))} ms`, `${fmt.ratio(median(name) / median('node'))}×`];
    return [
      '### Start-up of a short command',
      '',
      `Wall time of a whole process, median of ${RUNS} runs each, interleaved, on an empty workspace: programs that start no language server, so this is the floor of every \`dialect\` call that evaluates in its own process (a warm call, which the background server answers whole, loads far less: section "One \`dialect eval\` per question"). \`bin/dialect.js\` runs the esbuild bundle (\`dist/bundle/\`); the last row loads the same CLI from tsc's output, hundreds of separate modules.`,
      '',
      table(['command', 'wall time', '× node -e 0'], [
        row('`node -e 0` (baseline)', 'node'),
        row(`\`dialect eval '1'\``, 'one'),
        row(`\`dialect eval 'help("lines")'\``, 'help'),
        row(`the same \`help("lines")\` from tsc's output in \`dist/\` (not bundled)`, 'helpDist'),
      ]),
    ].join('\n');
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
