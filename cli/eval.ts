/**
 * `dialect eval PROGRAM`: one evaluation for scripts. The exit code says what came out (0 value,
 * 1 error, 2 ambiguity); `--json` prints only the outcome as JSON. The servers are started only
 * when the program needs them, and are always shut down before returning.
 */
import { performance } from 'node:perf_hooks';
import { outcomeToJson, parse, showControls, type Outcome, type ParseResult } from '../dialect/index.js';
// Modules, not the ide-adapter barrel: it would load the LSP client and zod (cli/test/bundle.test.ts).
import { presentOutcome, presentValue } from '../ide-adapter/present.js';
import { capAnswer } from '../ide-adapter/paging.js';
import { TIMEOUTS } from '../ide-adapter/timeouts.js';
import { incompleteMarker, indexingOf, type IndexingState } from '../ide-adapter/indexing.js';
import { CliSession, programNeedsServers } from './session.js';
import { LiveLine, styles, useColor, type Io } from './terminal.js';
import { ExitCode } from './usage.js';
import { listenForInterrupt } from './interrupt.js';
import { readStdinProgram } from './stdin-program.js';
import { formatDuration } from '../dialect/display.js';
import { prewarmFileWorker } from '../ide-adapter/file-jobs.js';
import { noServerRequested } from './server/defaults.js';

/** Set-up (start, the wait for the index) shorter than this goes unmentioned in a deadline's error. */
const SPENT_WORTH_NAMING_MS = 1000;

/** The options of `dialect eval`. */
export interface EvalOptions {
  /** The program, or `-` to read it from stdin. */
  readonly program: string;
  readonly workspace: string;
  readonly json: boolean;
  /** `--quiet`: no notes on stderr (the answer's marker of incompleteness stays). */
  readonly quiet?: boolean;
  readonly timeoutMs: number;
  /** `--trust`: trust the workspace for this run. */
  readonly trust?: boolean;
  /** `--no-server`: run the language servers in this process instead of the background server. */
  readonly noServer?: boolean;
  readonly io: Io;
}

/** Runs `dialect eval` in this process: evaluates one program (waiting for the index first when it needs one) and returns the exit code. */
export async function runEval(options: EvalOptions): Promise<number> {
  // In-process, the file worker boots on its own thread while this one loads the parser and
  // parses: a start's project scan, a search or a listing then does not wait for it.
  if (options.noServer === true || noServerRequested(options.io.env)) prewarmFileWorker();
  const program = options.program === '-' ? await readStdinProgram(options.io.stdin) : options.program;
  const startedAt = performance.now();
  const parsed = parse(program);
  // Listen before anything starts, so a signal during set-up still ends the way it should.
  const interrupt = listenForInterrupt();
  // A program that asks no language server (help(), search, lines) neither starts nor needs the background server.
  const needsServers = parsed.ok && programNeedsServers(parsed.ast);
  const server = options.noServer !== true && needsServers;
  // A program that needs a server starts it at open, as the REPL does: detection's early start
  // (`ServerPool.startSole`) then overlaps the checks of a start with the rest of detection.
  const cli = await CliSession.open({ workspaceRoot: options.workspace, eager: needsServers, readyTimeoutMs: options.timeoutMs, trust: options.trust === true, env: options.io.env, server }).catch((error: unknown) => {
    interrupt.dispose();
    throw error;
  });
  try {
    const code = await answerAndPrint(cli, program, parsed, { ...options, startedAt, signal: interrupt.signal });
    return interrupt.interrupted ? interrupt.exitCode : code;
  } finally {
    interrupt.dispose();
    await cli.shutdown();
  }
}

/** How {@link answerAndPrint} answers and prints. */
export interface AnswerOptions {
  readonly json: boolean;
  readonly quiet?: boolean;
  readonly timeoutMs: number;
  /** When the command started (`performance.now()`): the timeout counts from there. */
  readonly startedAt: number;
  /** Aborts the evaluation (Ctrl-C, or the client of the background server cancelling). */
  readonly signal: AbortSignal;
  readonly io: Io;
}

/**
 * Answers a parsed program on a session and prints it as `dialect eval` does; returns the exit
 * code of its outcome. The command runs it on its own session; the background server on its
 * warm one, for a client (`cli/server/eval-service.ts`), with output going back to the client.
 */
export async function answerAndPrint(cli: CliSession, program: string, parsed: ParseResult, options: AnswerOptions): Promise<number> {
  const { io, signal } = options;
  const live = new LiveLine(io.stderr);
  const s = styles(useColor(io.stderr, io.env));
  const usesServers = parsed.ok && cli.needsServers(parsed.ast);
  try {
    if (usesServers) {
      // The servers answer "no such symbol" while they index: wait for them first.
      const waitBudget = Math.max(1_000, options.timeoutMs - TIMEOUTS.cli.evalQueryReserveMs);
      await cli
        .waitUntilSettled({
          signal,
          timeoutMs: waitBudget,
          onProgress: options.json ? undefined : (text) => live.show(s.dim(`⋯ waiting for the index: ${text}`)),
        })
        .catch(() => false); // aborted: the evaluation below reports the cancellation
      live.clear();
    }
    const spent = performance.now() - options.startedAt;
    const remaining = Math.max(1_000, options.timeoutMs - spent);
    // The evaluation gets what set-up left of --timeout: its error names the whole and where the rest went.
    const timeout = `the ${formatDuration(options.timeoutMs)} --timeout`;
    const deadlineText = spent >= SPENT_WORTH_NAMING_MS ? `${timeout}, ${formatDuration(spent)} of it spent ${usesServers ? 'starting and waiting for the index' : 'starting'}` : timeout;
    const { outcome, completeness } = await cli.session.answer(program, { signal, deadlineMs: remaining, moreTime: 'dialect eval --timeout SECONDS', deadlineText });
    // The servers' state (and who answered) as MCP answers carry it, for programs that asked them.
    print(outcome, cli.notices, options, usesServers ? indexingOf(cli.backend, true) : undefined, incompleteMarker(completeness));
    return outcome.kind === 'value' ? ExitCode.Value : outcome.kind === 'ambiguity' ? ExitCode.Ambiguity : ExitCode.Error;
  } finally {
    live.clear();
  }
}

/** Prints the outcome; `notices` (where the answer came from, when that is news) join its notes. */
function print(outcome: Outcome, notices: readonly string[], options: Pick<AnswerOptions, 'io' | 'json' | 'quiet'>, indexing: IndexingState | undefined, marker: string | undefined): void {
  const { io } = options;
  if (options.json) {
    const json = outcomeToJson(outcome);
    io.stdout.write(`${JSON.stringify({ ...json, notes: [...json.notes, ...notices], ...(indexing !== undefined ? { indexing } : {}) }, null, 2)}\n`);
    return;
  }
  const color = useColor(io.stdout, io.env);
  const s = styles(useColor(io.stderr, io.env));
  // Notes go to stderr, one line each (`--quiet` drops them); the marker of an incomplete answer always shows.
  const quiet = options.quiet === true;
  if (!quiet) for (const notice of notices) io.stderr.write(`${s.yellow('note:')} ${showControls(notice)}\n`);
  if (marker !== undefined) io.stderr.write(`${s.yellow(marker)}\n`);
  switch (outcome.kind) {
    case 'value': {
      // The value alone on stdout (for pipes), never longer than MAX_ANSWER_CHARS; notes on stderr.
      io.stdout.write(`${capAnswer(presentValue(outcome.value, { color, program: outcome.source.text }))}\n`);
      if (!quiet) for (const note of outcome.notes) io.stderr.write(`${s.yellow('note:')} ${showControls(note)}\n`);
      return;
    }
    case 'ambiguity':
      io.stdout.write(`${presentOutcome(outcome, { color })}\n`);
      return;
    case 'error':
      io.stderr.write(`${presentOutcome(outcome, { color: useColor(io.stderr, io.env) })}\n`);
  }
}
