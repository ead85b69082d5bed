/**
 * The `dialect` command: parses the command line and runs one command. `bin/dialect.js` calls
 * {@link runCli} and exits with the code it returns.
 */
import { packageVersion } from '../ide-adapter/package-files.js';
import type { EvalOptions } from './eval.js';
import { evalOptionsOf, timeoutOf, workspaceOf } from './options.js';
import { TIMEOUTS } from '../ide-adapter/timeouts.js';
import { IDLE_ENV, SERVER_TIMEOUTS } from './server/defaults.js';
import type { ReplOptions } from './repl.js';
import { processIo, styles, useColor, type Io } from './terminal.js';
import type { TourOptions } from './tour.js';
import { COMMANDS, ExitCode, overview, parseCommandLine, UsageError } from './usage.js';

// Commands are imported when they run: `--help`, `--version` and usage errors answer at once
// instead of first loading the parser, the language-server client and the MCP SDK.
const runRepl = async (options: ReplOptions): Promise<number> => (await import('./repl.js')).runRepl(options);
// `bin/dialect.js` sends `dialect eval` to the warm background server first (warm-eval.ts); here it is evaluated.
const runEval = async (options: EvalOptions): Promise<number> => (await import('./eval.js')).runEval(options);
const runTour = async (options: TourOptions): Promise<number> => (await import('./tour.js')).runTour(options);

/** How to see an internal error's stack in the TypeScript sources rather than the bundle. */
const SOURCE_MAPS_HINT = 'for positions in the TypeScript sources, run it again with NODE_OPTIONS=--enable-source-maps';

/** Runs the command line `argv` (without `node` and the script) and resolves with the exit code. */
export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return report(error, io);
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(argv);
  switch (parsed.kind) {
    case 'help':
      io.stdout.write(`${parsed.text}\n`);
      return ExitCode.Value;
    case 'version':
      io.stdout.write(`dialect ${packageVersion()}\n`);
      return ExitCode.Value;
    case 'none':
      // Like node and python: no arguments in a terminal starts the REPL.
      if (io.stdin.isTTY === true && io.stdout.isTTY === true) return runRepl({ workspace: workspaceOf(undefined), io, version: packageVersion() });
      throw new UsageError('a command is needed', `${overview().split('\n\n')[3] ?? ''}\n(dialect --help for more)`);
    case 'command':
      break;
  }
  const { name, values, positionals } = parsed;
  const workspaceOption = typeof values['workspace'] === 'string' ? values['workspace'] : undefined;
  const trust = values['trust'] === true;
  const noServer = values['no-server'] === true;
  switch (name) {
    case 'repl':
      return runRepl({ workspace: workspaceOf(workspaceOption), io, version: packageVersion(), trust, noServer });
    case 'eval':
      return runEval(evalOptionsOf(parsed, io));
    case 'tour':
      return runTour({ workspace: workspaceOption === undefined ? undefined : workspaceOf(workspaceOption), trust, io });
    case 'mcp': {
      const { runMcp } = await import('./mcp.js'); // the MCP SDK loads only for this command
      // Without --workspace: the client's roots, else the current folder (never / or the home folder).
      const deadlineMs = timeoutOf(values['timeout'], TIMEOUTS.mcp.deadlineMs);
      return runMcp({ workspace: workspaceOption === undefined ? undefined : workspaceOf(workspaceOption), trust, noServer, deadlineMs });
    }
    case 'trust': {
      const { runTrust } = await import('./trust.js');
      return runTrust({ dir: positionals[0], list: values['list'] === true, io });
    }
    case 'untrust': {
      const { runUntrust } = await import('./trust.js');
      return runUntrust({ dir: positionals[0] as string, io });
    }
    case 'walkthrough': {
      const [action, file] = positionals;
      if (action !== 'render') {
        throw new UsageError(`unknown walkthrough action "${action ?? ''}"`, 'usage: dialect walkthrough render FILE.md [--workspace DIR] [-o OUT.html] [--json] [--open]');
      }
      const { runWalkthroughRender } = await import('./walkthrough.js');
      return runWalkthroughRender({
        file: file as string,
        workspace: workspaceOf(workspaceOption),
        output: typeof values['output'] === 'string' ? values['output'] : undefined,
        json: values['json'] === true,
        open: values['open'] === true,
        trust,
        noServer,
        io,
      });
    }
    case 'server':
      return runServerCommand(positionals[0] as string, values, workspaceOption, io);
    default:
      throw new UsageError(`unknown command "${name}"`, `commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
  }
}

/** `dialect server ACTION`: the background servers' commands, loaded only for them. */
async function runServerCommand(action: string, values: Readonly<Record<string, string | boolean | undefined>>, workspaceOption: string | undefined, io: Io): Promise<number> {
  const commands = await import('./server/commands.js');
  switch (action) {
    case 'status':
      return commands.runServerStatus({ json: values['json'] === true, io });
    case 'stop':
      return commands.runServerStop({ workspace: workspaceOption === undefined ? undefined : workspaceOf(workspaceOption), all: values['all'] === true, io });
    case 'run':
      return commands.runServerProcess({ workspace: workspaceOf(workspaceOption), trust: values['trust'] === true, idleMs: idleOf(values['idle-timeout'], io.env), io });
    default:
      throw new UsageError(`unknown server action "${action}"`, 'usage: dialect server status [--json] | dialect server stop [--workspace DIR] [--all]');
  }
}

/** The idle time of a server: `--idle-timeout SECONDS`, else `DIALECT_SERVER_IDLE_MS`, else the default. */
function idleOf(option: string | boolean | undefined, env: Readonly<Record<string, string | undefined>>): number {
  if (typeof option === 'string') {
    const seconds = Number(option);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--idle-timeout must be a number of seconds, not "${option}"`, 'e.g. --idle-timeout 600');
    return Math.round(seconds * 1000);
  }
  const fromEnv = env[IDLE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const ms = Number(fromEnv);
    if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`${IDLE_ENV} must be a number of milliseconds, not "${fromEnv}"`, `e.g. ${IDLE_ENV}=600000`);
    return Math.round(ms);
  }
  return SERVER_TIMEOUTS.idleMs;
}

function report(error: unknown, io: Io): number {
  const s = styles(useColor(io.stderr, io.env));
  if (error instanceof UsageError) {
    // Messages name their command (`dialect eval: unknown option --jsn`) or get the program's name.
    const text = error.message.startsWith('dialect') ? error.message.replace(/^([^:]*:)/, (m) => s.red(m)) : `${s.red('dialect:')} ${error.message}`;
    io.stderr.write(`${text}\n`);
    if (error.hint !== undefined) io.stderr.write(`${error.hint.replace(/^/gm, '  ')}\n`);
    return ExitCode.Usage;
  }
  if (error instanceof Error && error.name === 'DialectError') {
    // Opening the workspace: a missing folder, an invalid dialect.json.
    const hint = (error as Error & { hint?: unknown }).hint;
    io.stderr.write(`${s.red('dialect:')} ${error.message}\n${typeof hint === 'string' ? `  ${hint}\n` : ''}`);
    return ExitCode.Usage;
  }
  io.stderr.write(`${s.red('dialect: internal error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  // The bundle's source maps are not read by default (parsing them costs every start ~40 ms).
  if (!process.sourceMapsEnabled) io.stderr.write(`  ${SOURCE_MAPS_HINT}\n`);
  return ExitCode.Error;
}
