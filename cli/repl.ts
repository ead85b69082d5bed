/**
 * `dialect repl`: the interactive prompt.
 *
 * It starts at once: the language servers start in the background and a progress line above the
 * prompt shows how far their indexing is. A program that needs a server waits for the index and
 * says so. Lines are queued and evaluated one at a time; Ctrl-C aborts the running evaluation
 * (the interpreter passes the abort to the server requests, which send `$/cancelRequest`).
 */
import { performance } from 'node:perf_hooks';
import { createInterface, moveCursor, clearScreenDown, type Interface } from 'node:readline';
import { Ambiguity, build, closest, EvalCode, parse, type AmbiguityOutcome, type Outcome, type ParseResult } from '../dialect/index.js';
import { capAnswer, displayState, incompleteMarker, presentOutcome, statusLine, TIMEOUTS, trustCommand } from '../ide-adapter/index.js';
import { complete, workspaceLister, type CompletionSource } from './completion.js';
import { History, HISTORY_LIMIT, historyPath } from './history.js';
import { classifyInput, joinForHistory } from './input.js';
import { ReverseSearch, TerminalInput } from './keys.js';
import { CliSession, usesName, type RequestTiming } from './session.js';
import { fit, formatBytes, LiveLine, styles, useColor, type Io, type Styles } from './terminal.js';
import { formatDuration } from '../dialect/display.js';

const PROMPT = 'dialect> ';
const CONTINUATION = '     ... ';
/** How long a query waits for the index before it runs anyway (results may then be incomplete). */
const READY_WAIT_MS = TIMEOUTS.cli.replReadyWaitMs;
/** Deadline of one evaluation (after the index is ready). Ctrl-C cancels sooner. */
const EVAL_DEADLINE_MS = TIMEOUTS.cli.replDeadlineMs;
/** An evaluation still running after this long shows a live `⋯ running — Ctrl-C cancels` line. */
const RUNNING_HINT_MS = 500;
/** The live line of a slow evaluation (a terminal test waits for it before pressing Ctrl-C). */
const RUNNING_HINT = '⋯ running — Ctrl-C cancels';
const STATUS_THROTTLE_MS = 100;

const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  '.help': [],
  '.functions': [],
  '.workspace': [],
  '.servers': [],
  '.timing': ['on', 'off'],
  '.break': [],
  '.exit': [],
};

/** The options of `dialect repl`. */
export interface ReplOptions {
  readonly workspace: string;
  readonly io: Io;
  readonly version: string;
  /** `--trust`: trust the workspace for this run. */
  readonly trust?: boolean;
  /** `--no-server`: run the language servers in this process instead of the background server. */
  readonly noServer?: boolean;
}

/** Runs the REPL until Ctrl-D, `.exit` or the end of input; resolves with the exit code. */
export async function runRepl(options: ReplOptions): Promise<number> {
  const cli = await CliSession.open({ workspaceRoot: options.workspace, eager: true, readyTimeoutMs: READY_WAIT_MS, trust: options.trust === true, env: options.io.env, server: options.noServer !== true });
  const history = await History.load(historyPath(options.io.env), (m) => options.io.stderr.write(`dialect: ${m}\n`));
  const repl = new Repl(cli, history, options);
  try {
    await repl.run();
  } finally {
    await repl.close();
  }
  return 0;
}

class Repl {
  readonly #cli: CliSession;
  readonly #history: History;
  readonly #io: Io;
  readonly #version: string;
  readonly #terminal: boolean;
  readonly #color: boolean;
  readonly #s: Styles;
  readonly #rl: Interface;
  readonly #input: TerminalInput | undefined;
  /** readline's history array (newest first), which we may edit (documented for the 'history' event). */
  #historyRef: string[];

  /** Lines of an unfinished program. */
  #pending: string[] = [];
  /** Submitted lines waiting for their turn. */
  readonly #queue: string[] = [];
  #pumping = false;
  #current: AbortController | undefined;
  #last: { value: unknown } | undefined;
  #timing = false;
  #sawInterrupt = false;
  #inputEnded = false;
  #finished = false;
  #resolveDone: () => void = () => undefined;
  /** The row above the prompt is our progress line (nothing printed since). */
  #statusAbove = false;
  #settledAnnounced = false;
  #statusTimer: ReturnType<typeof setTimeout> | undefined;
  #lastStatusAt = 0;
  #waitLine: LiveLine | undefined;
  readonly #unsubscribe: () => void;
  readonly #signalHandlers: [NodeJS.Signals, () => void][] = [];

  constructor(cli: CliSession, history: History, options: ReplOptions) {
    this.#cli = cli;
    this.#history = history;
    this.#io = options.io;
    this.#version = options.version;
    const { stdin, stdout } = options.io;
    this.#terminal = stdin.isTTY === true && stdout.isTTY === true;
    this.#color = useColor(stdout, options.io.env);
    this.#s = styles(this.#color);
    this.#input = this.#terminal ? new TerminalInput(stdin) : undefined;
    this.#historyRef = [...history.entries];
    const completion: CompletionSource = { registry: cli.session.registry, listDir: workspaceLister(cli.session.workspace), commands: COMMANDS };
    this.#rl = createInterface({
      input: this.#input?.stream ?? stdin,
      output: stdout,
      terminal: this.#terminal,
      prompt: PROMPT,
      history: this.#historyRef,
      historySize: HISTORY_LIMIT,
      removeHistoryDuplicates: true,
      tabSize: 4,
      // The callback form: path completion lists folders in the file worker.
      completer: (line: string, callback: (error: null, result: [string[], string]) => void): void => {
        complete([...this.#pending, line].join('\n'), completion).then(
          (result) => callback(null, [result.items, result.replace]),
          () => callback(null, [[], line]),
        );
      },
    });
    const rl = this.#rl;
    if (this.#input !== undefined) {
      const input = this.#input;
      input.useSearch(
        new ReverseSearch(
          {
            get line() {
              return rl.line;
            },
            setLine: (text) => this.#setLine(text),
            redraw: () => this.#rl.prompt(true),
            write: (text) => stdout.write(text),
            get columns() {
              return stdout.columns ?? 80;
            },
          },
          () => this.#historyRef,
          (keys) => input.forward(keys),
        ),
      );
    }
    rl.on('history', (h: string[]) => {
      this.#historyRef = h;
    });
    rl.on('line', (line: string) => {
      this.#statusAbove = false;
      this.#sawInterrupt = false;
      this.#queue.push(line);
      void this.#pump();
    });
    rl.on('SIGINT', () => this.#interrupt());
    rl.on('close', () => {
      this.#inputEnded = true;
      if (!this.#pumping) void this.#pump();
    });
    const unsubscribeStatus = cli.onChange(() => this.#statusChanged());
    // The background server lost mid-session: say so where the answer appears.
    const unsubscribeNotices = cli.onNotice((notice) => this.#out(`${this.#s.yellow('note:')} ${notice}`));
    this.#unsubscribe = () => {
      unsubscribeStatus();
      unsubscribeNotices();
    };
    // Outside raw mode (piped input, `kill -INT`) signals arrive as signals.
    const onSigint = (): void => this.#interrupt();
    const onTerm = (): void => {
      this.#current?.abort();
      this.#rl.close();
    };
    for (const [signal, handler] of [
      ['SIGINT', onSigint],
      ['SIGTERM', onTerm],
      ['SIGHUP', onTerm],
    ] as const) {
      process.on(signal, handler);
      this.#signalHandlers.push([signal, handler]);
    }
  }

  /** Resolves when the REPL ends. */
  run(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.#resolveDone = resolve;
    });
    if (this.#terminal) {
      const s = this.#s;
      this.#out(`${s.bold(`Dialect ${this.#version}`)} ${s.dim('·')} workspace ${s.cyan(this.#cli.root)}`);
      this.#out(s.dim(`Type a program such as findDefinitions("User"). help() lists the functions, .help the commands, Ctrl-D exits.`));
    }
    for (const notice of this.#cli.notices) this.#out(`${this.#s.yellow('note:')} ${notice}`);
    this.#showPrompt();
    return done;
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    if (this.#statusTimer !== undefined) clearTimeout(this.#statusTimer);
    for (const [signal, handler] of this.#signalHandlers) process.off(signal, handler);
    this.#current?.abort();
    this.#rl.close();
    this.#input?.close();
    const stopping = new LiveLine(this.#io.stderr);
    if (this.#cli.backend.servers().length > 0) stopping.show(this.#s.dim(`stopping ${this.#cli.backend.servers().map((s) => s.displayName).join(', ')}…`));
    await this.#cli.shutdown();
    stopping.clear();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#terminal) this.#io.stdout.write('\n');
    this.#resolveDone();
  }

  // ---- input ---------------------------------------------------------------------------------

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0 && !this.#finished) {
        const line = this.#queue.shift() as string;
        try {
          await this.#handleLine(line);
        } catch (error) {
          this.#out(this.#s.red(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
        }
      }
      if (this.#inputEnded && !this.#terminal && this.#pending.length > 0 && !this.#finished) {
        // The input ended inside a program: show why it is unfinished instead of dropping it.
        const program = this.#pending.join('\n');
        this.#pending = [];
        await this.#evaluate(program, parse(program, { names: new Set(['_']) }));
      }
    } finally {
      this.#pumping = false;
    }
    if (this.#inputEnded) this.#finish();
    else this.#showPrompt();
  }

  async #handleLine(line: string): Promise<void> {
    const trimmed = line.trim();
    if (this.#pending.length > 0 && trimmed === '.break') {
      this.#pending = [];
      return;
    }
    if (this.#pending.length === 0 && /^\.[A-Za-z]/.test(trimmed)) {
      await this.#record([trimmed]);
      await this.#command(trimmed);
      return;
    }
    const lines = [...this.#pending, line];
    const program = lines.join('\n');
    const state = classifyInput(program, new Set(['_']));
    if (state.kind === 'empty') {
      if (this.#pending.length > 0) this.#pending = lines; // a blank line inside a program
      return;
    }
    if (state.kind === 'incomplete') {
      this.#pending = lines;
      return;
    }
    this.#pending = [];
    await this.#record(lines);
    await this.#evaluate(program, state.parsed);
  }

  /** Saves a finished entry: one history line for a program typed over several lines. */
  async #record(lines: readonly string[]): Promise<void> {
    if (!this.#terminal) return;
    const joined = joinForHistory(lines);
    if (joined !== undefined && lines.length > 1) {
      // readline added each line as an entry; replace them by the whole program.
      for (const line of [...lines].reverse()) if (this.#historyRef[0] === line) this.#historyRef.shift();
      const dup = this.#historyRef.indexOf(joined);
      if (dup >= 0) this.#historyRef.splice(dup, 1);
      this.#historyRef.unshift(joined);
    }
    await this.#history.append(joined !== undefined ? [joined] : lines);
  }

  #interrupt(): void {
    if (this.#current !== undefined) {
      this.#current.abort();
      return;
    }
    if (this.#pumping) return;
    if (!this.#terminal) {
      this.#rl.close();
      return;
    }
    if (this.#pending.length > 0 || this.#rl.line !== '') {
      this.#pending = [];
      this.#rl.write(null, { ctrl: true, name: 'e' });
      this.#io.stdout.write('^C\n');
      this.#rl.setPrompt(PROMPT);
      this.#setLine('');
      this.#sawInterrupt = false;
      this.#showPrompt();
      return;
    }
    if (this.#sawInterrupt) {
      this.#rl.close();
      return;
    }
    this.#sawInterrupt = true;
    this.#io.stdout.write('\n');
    this.#out(this.#s.dim('(To exit, press Ctrl-C again, Ctrl-D, or type .exit)'));
    this.#showPrompt();
  }

  /** Replaces the line being edited, through readline's own editing keys. */
  #setLine(text: string): void {
    this.#rl.write(null, { ctrl: true, name: 'e' });
    this.#rl.write(null, { ctrl: true, name: 'u' });
    if (text !== '') this.#rl.write(text);
  }

  // ---- output --------------------------------------------------------------------------------

  /** Prints lines while no prompt is shown (before the first prompt, during an evaluation). */
  #out(text: string): void {
    this.#waitLine?.clear();
    this.#io.stdout.write(`${text}\n`);
  }

  /** Prints above the prompt without losing what is being typed. */
  #printAbove(text: string): void {
    if (!this.#terminal) {
      this.#io.stdout.write(`${text}\n`);
      return;
    }
    const out = this.#io.stdout;
    const rows = this.#rl.getCursorPos().rows;
    if (rows > 0) moveCursor(out, 0, -rows);
    out.write('\r');
    clearScreenDown(out);
    out.write(`${text}\n`);
    this.#statusAbove = false;
    this.#rl.prompt(true);
  }

  #showPrompt(): void {
    if (this.#finished) return;
    this.#rl.setPrompt(this.#pending.length > 0 ? CONTINUATION : PROMPT);
    if (!this.#terminal) return; // piped input: no prompts in the output
    if (this.#pending.length === 0) {
      if (!this.#cli.isSettled()) {
        this.#io.stdout.write(`${this.#progressLine()}\n`);
        this.#statusAbove = true;
      } else if (!this.#settledAnnounced) {
        this.#io.stdout.write(`${this.#settledLine()}\n`);
        this.#settledAnnounced = true;
      }
    }
    this.#rl.prompt(true);
  }

  #progressLine(): string {
    return this.#s.dim(fit(`⋯ ${this.#cli.progressText()}`, this.#io.stdout.columns ?? 80));
  }

  #settledLine(): string {
    const { ok, text } = this.#cli.settledText();
    const after = this.#cli.settledAfterMs !== undefined && this.#cli.backend.servers().length > 0 ? ` (${formatDuration(this.#cli.settledAfterMs)})` : '';
    return ok ? `${this.#s.green('✓')} ${this.#s.dim(`${text}${after}`)}` : `${this.#s.yellow('!')} ${text}`;
  }

  /** A server's status changed: refresh the progress line in place (throttled). */
  #statusChanged(): void {
    if (!this.#terminal || this.#finished) return;
    const wait = this.#lastStatusAt + STATUS_THROTTLE_MS - performance.now();
    if (wait > 0 && !this.#cli.isSettled()) {
      this.#statusTimer ??= setTimeout(() => {
        this.#statusTimer = undefined;
        this.#statusChanged();
      }, wait);
      return;
    }
    this.#lastStatusAt = performance.now();
    if (this.#pumping) return; // an evaluation shows its own waiting line; the prompt catches up
    const settled = this.#cli.isSettled();
    if (this.#statusAbove && this.#pending.length === 0) {
      const text = settled ? this.#settledLine() : this.#progressLine();
      const up = this.#rl.getCursorPos().rows + 1;
      this.#io.stdout.write(`\u001b7\u001b[${up}A\r\u001b[2K${text}\u001b8`);
      if (settled) {
        this.#settledAnnounced = true;
        this.#statusAbove = false;
      }
    } else if (settled && !this.#settledAnnounced && this.#pending.length === 0) {
      this.#settledAnnounced = true;
      this.#printAbove(this.#settledLine());
    }
  }

  // ---- evaluation ----------------------------------------------------------------------------

  async #evaluate(program: string, parsed: ParseResult): Promise<void> {
    const s = this.#s;
    if (parsed.ok && usesName(parsed.ast, '_') && this.#last === undefined) {
      this.#out(`${s.red('error[no-last-result]')}${s.bold(': `_` is the last result, and there is none yet')}\n  = hint: evaluate something first, e.g. findDefinitions("User"), then use it: findReferences(_)`);
      return;
    }
    const controller = new AbortController();
    this.#current = controller;
    const { signal } = controller;
    let waitedMs = 0;
    try {
      if (parsed.ok && this.#cli.needsServers(parsed.ast) && !this.#cli.isSettled()) {
        const started = performance.now();
        const live = new LiveLine(this.#io.stdout);
        this.#waitLine = live;
        if (!live.enabled) this.#out('waiting for the language servers to finish indexing…');
        let ready: boolean;
        try {
          ready = await this.#cli.waitUntilSettled({
            signal,
            timeoutMs: READY_WAIT_MS,
            onProgress: (text) => live.show(s.dim(`⋯ waiting for the index: ${text} — Ctrl-C cancels`)),
          });
        } catch (error) {
          live.clear();
          if (signal.aborted) {
            this.#out(`${s.yellow('cancelled')} ${s.dim(`while waiting for the index (${formatDuration(performance.now() - started)})`)}`);
            return;
          }
          throw error;
        } finally {
          this.#waitLine = undefined;
        }
        waitedMs = performance.now() - started;
        live.clear();
        this.#out(s.dim(`${ready ? '✓' : '!'} waited ${formatDuration(waitedMs)} for the index${ready ? '' : ` — still ${this.#cli.progressText()}; answering anyway`}`));
        this.#settledAnnounced ||= ready;
      }
      this.#cli.timings.record(this.#timing);
      const started = performance.now();
      const running = new LiveLine(this.#io.stdout);
      const hint = setTimeout(() => {
        this.#waitLine = running;
        running.show(s.dim(RUNNING_HINT));
      }, RUNNING_HINT_MS);
      let outcome: Outcome;
      let marker: string | undefined;
      try {
        const answer = await this.#cli.session.answer(program, {
          signal,
          deadlineMs: EVAL_DEADLINE_MS,
          bindings: this.#last !== undefined ? { _: this.#last.value } : {},
        });
        outcome = answer.outcome;
        marker = incompleteMarker(answer.completeness);
      } finally {
        clearTimeout(hint);
        running.clear();
        this.#waitLine = undefined;
      }
      const elapsed = performance.now() - started;
      const requests = this.#cli.timings.record(false);
      this.#present(outcome, signal.aborted, elapsed, marker);
      // After an ambiguity, `_` is the ambiguity: pick(_, 2) chooses, findReferences(_) asks again.
      if (outcome.kind === 'value') this.#last = { value: outcome.value };
      else if (outcome.kind === 'ambiguity') this.#last = { value: ambiguityOf(outcome) };
      if (this.#timing) this.#out(this.#timingReport(elapsed, waitedMs, requests));
    } finally {
      this.#current = undefined;
    }
  }

  #present(outcome: Outcome, interrupted: boolean, elapsedMs: number, marker: string | undefined): void {
    if (this.#terminal && this.#rl.line !== '') this.#io.stdout.write('\r\u001b[2K'); // type-ahead is redrawn with the next prompt
    if (interrupted && outcome.kind === 'error' && outcome.error.code === EvalCode.Cancelled) {
      this.#out(`${this.#s.yellow('cancelled')} ${this.#s.dim(`after ${formatDuration(elapsedMs)} (Ctrl-C)`)}`);
      return;
    }
    // Each session fact once (the ledger); an incomplete answer's short marker every time.
    this.#out(capAnswer(presentOutcome(outcome, { color: this.#color })) + (marker !== undefined ? `\n${this.#s.yellow(marker)}` : ''));
  }

  #timingReport(elapsedMs: number, waitedMs: number, requests: readonly RequestTiming[]): string {
    const s = this.#s;
    const head = `⏱ ${formatDuration(elapsedMs)} to evaluate${waitedMs > 0 ? `, after waiting ${formatDuration(waitedMs)} for the index` : ''}`;
    const shown = requests.filter((r) => !(r.what.startsWith('(') && r.ms < 1));
    if (shown.length === 0) return s.dim(`${head}; no language server requests`);
    const width = Math.min(80, Math.max(...shown.map((r) => r.what.length)));
    const lines = shown.map((r) => `   ${r.what.padEnd(width)}  ${formatDuration(r.ms).padStart(7)}${r.ok ? '' : '  (failed)'}`);
    return s.dim([`${head}; ${shown.length} server request${shown.length === 1 ? '' : 's'} (concurrent ones overlap):`, ...lines].join('\n'));
  }

  // ---- dot commands --------------------------------------------------------------------------

  async #command(line: string): Promise<void> {
    const [name = '', ...args] = line.split(/\s+/);
    const s = this.#s;
    switch (name) {
      case '.help':
        this.#out(this.#helpText());
        return;
      case '.functions': {
        const registry = this.#cli.session.registry;
        const groups = new Map<string, string[]>();
        for (const fn of registry.functions) {
          const aliases = (fn.aliases ?? []).length > 0 ? s.dim(`  (also ${(fn.aliases ?? []).join(', ')})`) : '';
          const key = fn.category ?? 'general';
          groups.set(key, [...(groups.get(key) ?? []), `  ${registry.signature(fn)}${aliases}`]);
        }
        this.#out([...groups].map(([category, lines]) => `${s.bold(category)}\n${lines.join('\n')}`).join('\n') + `\n${s.dim('help("name") shows one function with its parameters and examples.')}`);
        return;
      }
      case '.workspace': {
        const servers = this.#cli.backend.servers();
        this.#out(
          [
            `workspace  ${s.cyan(this.#cli.root)}`,
            `trust      ${this.#cli.trusted ? 'trusted' : `untrusted (build scripts, proc macros and dialect.json servers are off; ${trustCommand(this.#cli.root)})`}`,
            `servers    ${servers.length === 0 ? 'none (no language this workspace needs has a server)' : servers.map((x) => `${x.displayName} (${displayState(x)})`).join(', ')}`,
            `history    ${this.#history.file ?? 'off'}`,
          ].join('\n'),
        );
        return;
      }
      case '.servers':
        this.#out(this.#serversTable());
        return;
      case '.timing': {
        const arg = args[0];
        if (arg !== undefined && arg !== 'on' && arg !== 'off') {
          this.#out(`${s.red('error')}: .timing takes on or off`);
          return;
        }
        this.#timing = arg === undefined ? !this.#timing : arg === 'on';
        this.#out(
          this.#timing
            ? 'timing is on: each evaluation shows its time and the time of each language server request'
            : 'timing is off',
        );
        return;
      }
      case '.break':
        return;
      case '.exit':
        this.#rl.close();
        return;
      default: {
        const suggestion = closest(name, Object.keys(COMMANDS), 1)[0];
        this.#out(`${s.red('error')}: unknown command ${name}${suggestion !== undefined ? ` — did you mean ${suggestion}?` : ''} (.help lists the commands)`);
      }
    }
  }

  #serversTable(): string {
    const servers = this.#cli.backend.servers();
    if (servers.length === 0) return this.#cli.started ? 'no language servers: this workspace has no language with a server' : 'the language servers are starting…';
    const rows = servers.map((x) => [x.displayName, displayState(x), x.memoryBytes !== undefined ? formatBytes(x.memoryBytes) : '-', x.pid !== undefined ? String(x.pid) : '-', x.languages.join(', '), statusLine(x, { memory: true })]);
    const header = ['server', 'state', 'memory', 'pid', 'languages', 'status'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
    const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
    return [this.#s.bold(line(header)), ...rows.map(line)].join('\n');
  }

  #helpText(): string {
    const s = this.#s;
    return `${s.bold('Programs')} are JSON with calls:  findReferences(findDefinitions("User"))
  help()                 the functions;  help("findReferences") one of them
  _                      the last result:  findReferences(_)
  an unfinished program continues on the next line (.break abandons it)

${s.bold('Commands')}
  .help                  this text
  .functions             every function with its signature
  .workspace             the workspace folder, its servers and the history file
  .servers               the language servers: state, memory, pid
  .timing on|off         show the time of each evaluation and of each server request
  .exit                  leave (also Ctrl-D)

${s.bold('Keys')}
  Tab                    complete a function, a named argument (file:) or a path in a path argument;
                         twice lists the choices with their signatures
  Up/Down, Ctrl-R        history (kept in ${this.#history.file ?? '(off)'}), reverse search
  Ctrl-C                 cancel the running query, or clear the line; twice at an empty prompt exits`;
  }
}

/** An ambiguity outcome as a value for `_`: its choices, each selected by its whole refined program. */
function ambiguityOf(outcome: AmbiguityOutcome): Ambiguity {
  return new Ambiguity(
    outcome.message,
    outcome.refinements.map((r) => {
      const program = parse(r.program);
      return { label: r.label, value: r.value, replacement: program.ok ? program.ast : build.literal(null), facets: {} };
    }),
  );
}
