/**
 * The command line: the commands, their options and help texts, and argument parsing with
 * `node:util` parseArgs (strict: an unknown option is a usage error with a "did you mean").
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
// suggest.js directly, not the dialect index: `--help` and usage errors should not pay for loading
// the parser (half a second of grammar set-up).
import { closest } from '../dialect/suggest.js';

/** Exit codes, the contract for scripts. */
export const ExitCode = {
  /** A value (or a command that succeeded). */
  Value: 0,
  /** An evaluation error (or a command that failed). */
  Error: 1,
  /** An ambiguous result: the output lists the refinements. */
  Ambiguity: 2,
  /** The command line is wrong: unknown option, missing argument, bad workspace. */
  Usage: 3,
  /** Interrupted (Ctrl-C / SIGINT): 128 + 2, as shells report it (see `interrupt.ts`). */
  Interrupted: 130,
  /** Terminated (SIGTERM): 128 + 15. */
  Terminated: 143,
} as const;

/** A wrong command line; printed as `dialect: message` plus a hint, exit code 3. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];

/** One command of the CLI: its name, options and help text. */
export interface CommandSpec {
  readonly name: string;
  /** One line for the overview. */
  readonly summary: string;
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** How many positionals: [min, max]. */
  readonly positionals: readonly [number, number];
  readonly help: string;
}

const WORKSPACE: OptionSpec = { type: 'string', short: 'w' };
const HELP: OptionSpec = { type: 'boolean', short: 'h' };

const TRUST: OptionSpec = { type: 'boolean' };

const WORKSPACE_HELP = '  -w, --workspace DIR   the workspace folder (default: the current directory)';
const NO_SERVER: OptionSpec = { type: 'boolean' };
const NO_SERVER_HELP = `      --no-server       run the language servers in this process instead of the workspace's
                        background server (also DIALECT_NO_SERVER=1)`;

const TRUST_HELP = `      --trust           trust the workspace for this run: its dialect.json servers, build scripts and
                        proc macros may run (to trust it for good: dialect trust DIR)`;

/** Every command of the CLI, in the order `dialect --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'repl',
    summary: 'an interactive prompt (the default in a terminal)',
    usage: 'dialect repl [--workspace DIR] [--trust] [--no-server]',
    options: { workspace: WORKSPACE, trust: TRUST, 'no-server': NO_SERVER, help: HELP },
    positionals: [0, 0],
    help: `Starts an interactive prompt at once; the language servers start and index in the background
(a progress line shows how far they are). A query typed before the index is ready waits for it.

Options:
${WORKSPACE_HELP}
${TRUST_HELP}
${NO_SERVER_HELP}
  -h, --help            show this help

At the prompt:
  findReferences(findDefinitions("User"))   a program; an unfinished one continues on the next line
  _                     the last result, e.g. findReferences(_)
  Tab                   complete function names (twice: their signatures), named arguments (file:)
                        and workspace paths inside path arguments
  Up/Down, Ctrl-R       history (kept between runs), reverse search
  Ctrl-C                cancel the running query; at an empty prompt twice, exit
  Ctrl-D, .exit         exit
  .help .functions .workspace .servers .timing on|off .break

History is kept in $XDG_STATE_HOME/dialect/history (default ~/.local/state/dialect/history);
DIALECT_HISTORY=FILE uses another file, DIALECT_HISTORY= (empty) keeps none.`,
  },
  {
    name: 'eval',
    summary: 'evaluate one program and exit',
    usage: 'dialect eval PROGRAM [--workspace DIR] [--json] [--quiet] [--timeout SECONDS] [--trust] [--no-server]',
    options: { workspace: WORKSPACE, json: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' }, timeout: { type: 'string' }, trust: TRUST, 'no-server': NO_SERVER, help: HELP },
    positionals: [1, 1],
    help: `Evaluates PROGRAM against the workspace and prints the result. PROGRAM "-" reads it from stdin.

Options:
${WORKSPACE_HELP}
      --json            print only the outcome as JSON on stdout:
                          {"kind":"value","value":…,"notes":[…]}
                          {"kind":"error","error":{"code","message",…},"rendered":"…","notes":[…]}
                          {"kind":"ambiguity","message":"…","refinements":[{"label","program","value"}],"notes":[…]}
  -q, --quiet           no notes on stderr (each is one line there; an incomplete answer's
                          [incomplete: …] marker still shows; status() has the details)
      --timeout SECONDS the evaluation's deadline, including waiting for the index (default 120)
${TRUST_HELP}
${NO_SERVER_HELP}
  -h, --help            show this help

Exit codes: 0 a value, 1 an error, 2 an ambiguity (run one of the refinement programs),
3 a usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).

Examples:
  dialect eval 'findReferences(findDefinitions("User"))'
  dialect eval 'findDefinition("validate_token", file: "src/auth.rs")' --json
  echo 'search("src", \`fn\\s+main\`)' | dialect eval -`,
  },
  {
    name: 'tour',
    summary: 'a short scripted tour (the bundled Rust fixture by default)',
    usage: 'dialect tour [--workspace DIR] [--trust]',
    options: { workspace: WORKSPACE, trust: TRUST, help: HELP },
    positionals: [0, 0],
    help: `Runs a few programs and shows their results: definitions, references, a text search, an
ambiguous question and how to refine it. Without --workspace it tours the bundled Rust fixture
(fixtures/rust-app, copied to a temporary folder); with one, programs are chosen from what it contains.

Options:
${WORKSPACE_HELP}
${TRUST_HELP}
  -h, --help            show this help`,
  },
  {
    name: 'walkthrough',
    summary: 'render a Markdown walkthrough with live code references',
    usage: 'dialect walkthrough render FILE.md [--workspace DIR] [-o OUT.html] [--json] [--open] [--trust] [--no-server]',
    options: { workspace: WORKSPACE, output: { type: 'string', short: 'o' }, json: { type: 'boolean' }, open: { type: 'boolean' }, trust: TRUST, 'no-server': NO_SERVER, help: HELP },
    positionals: [2, 2],
    help: `Resolves the Dialect programs in a walkthrough against the workspace and renders it.
Unresolved and ambiguous comments are summarised on stderr.

Options:
${WORKSPACE_HELP}
  -o, --output FILE     where to write the HTML (default: FILE.html next to FILE.md)
      --json            print the resolved walkthrough as JSON on stdout instead
      --open            open the HTML with xdg-open afterwards
${TRUST_HELP}
${NO_SERVER_HELP}
  -h, --help            show this help

Exit codes: 0 the page (or the JSON) was made, even with comments for the reader to choose or
that did not resolve (one line on stderr says so); 1 no page could be made (the file could not be
read, a limit, the page could not be written); 3 a usage error; 130 interrupted, 143 terminated.`,
  },
  {
    name: 'mcp',
    summary: 'serve the workspace to AI agents over MCP (stdio)',
    usage: 'dialect mcp [--workspace DIR] [--timeout SECONDS] [--trust] [--no-server]',
    options: { workspace: WORKSPACE, timeout: { type: 'string' }, trust: TRUST, 'no-server': NO_SERVER, help: HELP },
    positionals: [0, 0],
    help: `Runs a Model Context Protocol server on stdin/stdout that answers Dialect programs about
the workspace. Without --workspace, the workspaces are the client's roots (a tool call names one
by its folder's name when there are several), or without roots the folder the server starts in —
never / or the home folder. Configure it in an agent as
{"command": "npx", "args": ["-y", "dialect-ide", "mcp"]}, or with a fixed workspace as
{"command": "dialect", "args": ["mcp", "--workspace", "DIR"]} (add "--trust" there to trust the
workspace whenever the agent starts the server). Agents cannot grant trust: no tool changes it.

Options:
  -w, --workspace DIR   the workspace folder (default: the client's roots, else the current directory)
      --timeout SECONDS the longest one tool call may take, waiting for the index included
                          (default 50, below the 60 s most clients wait): raise it together with
                          your client's tool timeout for questions on large workspaces
${TRUST_HELP}
${NO_SERVER_HELP}
  -h, --help            show this help`,
  },
  {
    name: 'server',
    summary: "list or stop the workspaces' background servers",
    usage: 'dialect server status [--json] | dialect server stop [--workspace DIR] [--all]',
    options: { workspace: WORKSPACE, all: { type: 'boolean' }, json: { type: 'boolean' }, trust: TRUST, 'idle-timeout': { type: 'string' }, help: HELP },
    positionals: [1, 1],
    help: `The first eval, repl, walkthrough render or mcp on a workspace starts a background server that
keeps its language servers warm; later calls on that workspace (from any of your processes) use it
and answer at once. There is one per workspace, trust, and what the environment resolves to: the
language-server binaries and Rust toolchain found (by real path, not the raw PATH), the rustup
variables and the configuration file. It stops itself after 15 minutes without a connection
(DIALECT_SERVER_IDLE_MS), when its folder is deleted or replaced, or on dialect server stop. --no-server (or DIALECT_NO_SERVER=1) on a
command runs its language servers in-process instead. Sockets live in $XDG_RUNTIME_DIR/dialect
(else a private folder in the temp folder).

Actions:
  status                every running server: workspace, pid, uptime, trust, memory, its language
                        servers and their state
  stop                  stop the servers of the workspace (any trust), or with --all every one
  run                   (internal) the server process itself; clients start it

Options:
${WORKSPACE_HELP}
      --all             stop: every server of yours
      --json            status: print JSON
      --idle-timeout S  run: stop after S seconds without a connection (default 900)
      --trust           run: serve the workspace as trusted (the client decides)
  -h, --help            show this help`,
  },
  {
    name: 'trust',
    summary: 'trust a workspace folder (or list the trusted ones)',
    usage: 'dialect trust [DIR] | dialect trust --list',
    options: { list: { type: 'boolean' }, help: HELP },
    positionals: [0, 1],
    help: `Trusts DIR (default: the current directory) and every folder below it, by real path (symlinks
resolved). In a trusted workspace the language servers named in its dialect.json run, and
rust-analyzer runs build scripts, proc macros and the workspace's cargo configuration. Untrusted
workspaces still answer everything else. Trust is stored in
$XDG_CONFIG_HOME/dialect/trusted.json (default ~/.config/dialect/trusted.json).

Options:
      --list            print the trusted folders, one per line
  -h, --help            show this help`,
  },
  {
    name: 'untrust',
    summary: 'stop trusting a workspace folder',
    usage: 'dialect untrust DIR',
    options: { help: HELP },
    positionals: [1, 1],
    help: `Removes DIR from the trusted folders (as it was trusted: a folder below a trusted one stays
trusted until that one is untrusted).

Options:
  -h, --help            show this help`,
  },
];

/** The text of `dialect --help`. */
export function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `dialect — ask an IDE questions about code, answered by real language servers
(the npm package dialect-ide: npm install -g dialect-ide, or npx -y dialect-ide COMMAND)

Usage: dialect COMMAND [OPTIONS]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

  ${COMMANDS.map((c) => c.usage).join('\n  ')}

Options:
  -h, --help      show help (dialect COMMAND --help for a command)
  -V, --version   print the version

Programs are JSON with calls, e.g.  findReferences(findDefinitions("User")).
Run  dialect eval 'help()'  for the functions, or  dialect tour  to see it work.

Exit codes: 0 value, 1 error, 2 ambiguity, 3 usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
Workspaces are untrusted until you trust them (dialect trust DIR, or --trust for one run):
untrusted, no program the workspace configures runs (dialect.json servers, build scripts, proc macros).

Environment: NO_COLOR / FORCE_COLOR, XDG_STATE_HOME or DIALECT_HISTORY (REPL history),
XDG_CONFIG_HOME (trusted folders), DIALECT_NO_SERVER=1 (no background server),
DIALECT_SERVER_IDLE_MS (its idle time), XDG_RUNTIME_DIR (its sockets).`;
}

/** The text of `dialect <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  return `Usage: ${spec.usage}\n\n${spec.help}`;
}

/** A command line, parsed: the command with its options, or a request for help or the version. */
export type ParsedCommand =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly name: string; readonly values: Readonly<Record<string, string | boolean | undefined>>; readonly positionals: readonly string[] }
  /** No arguments at all: the caller decides (the REPL in a terminal). */
  | { readonly kind: 'none' };

/** Parses `argv` (without `node` and the script). Throws {@link UsageError}. */
export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  if (argv.length === 0) return { kind: 'none' };
  const first = argv[0] as string;
  if (first.startsWith('-') && first !== '-') {
    const command = argv.find((a) => COMMANDS.some((c) => c.name === a));
    const reordered = command !== undefined ? [command, ...argv.filter((a) => a !== command)] : ['COMMAND', ...argv];
    const values = strictParse(argv, { help: HELP, version: { type: 'boolean', short: 'V' } }, 'dialect', [0, 0], (option) =>
      COMMANDS.some((c) => option in c.options) ? `options go after the command: dialect ${reordered.join(' ')}` : undefined,
    ).values;
    if (values['version'] === true) return { kind: 'version' };
    return { kind: 'help', text: overview() };
  }
  if (first === 'help') {
    const topic = argv[1];
    const spec = COMMANDS.find((c) => c.name === topic);
    return { kind: 'help', text: spec !== undefined ? commandHelp(spec) : overview() };
  }
  const spec = COMMANDS.find((c) => c.name === first);
  if (spec === undefined) {
    const suggestion = closest(first, COMMANDS.map((c) => c.name), 1)[0];
    throw new UsageError(`unknown command "${first}"`, suggestion !== undefined ? `did you mean dialect ${suggestion}? (dialect --help lists the commands)` : 'dialect --help lists the commands');
  }
  const rest = argv.slice(1);
  // `--help` wins over everything else (even a missing PROGRAM).
  if (rest.includes('--help') || rest.includes('-h')) {
    const helpOnly = rest.filter((a) => a !== '--help' && a !== '-h');
    strictParse(helpOnly, spec.options, `dialect ${spec.name}`, [0, Number.POSITIVE_INFINITY]);
    return { kind: 'help', text: commandHelp(spec) };
  }
  const { values, positionals } = strictParse(rest, spec.options, `dialect ${spec.name}`, spec.positionals);
  return { kind: 'command', name: spec.name, values, positionals };
}

function strictParse(
  args: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
  command: string,
  [min, max]: readonly [number, number],
  extraHint?: (option: string) => string | undefined,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorFrom(error, options, command, extraHint);
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (positionals.length < min) {
    throw new UsageError(`${command} needs ${min === 1 ? 'an argument' : `${min} arguments`}`, `usage: ${usageOf(command)}`);
  }
  if (positionals.length > max) {
    const extra = positionals[max] as string;
    throw new UsageError(
      `${command} takes ${max === 0 ? 'no arguments' : max === 1 ? 'one argument' : `${max} arguments`}, but "${extra}" was given too`,
      command === 'dialect eval' ? 'quote the whole program as one argument: dialect eval \'findDefinitions("User")\'' : `usage: ${usageOf(command)}`,
    );
  }
  return { values, positionals };
}

function usageOf(command: string): string {
  return COMMANDS.find((c) => `dialect ${c.name}` === command)?.usage ?? 'dialect --help';
}

function usageErrorFrom(error: unknown, options: Readonly<Record<string, OptionSpec>>, command: string, extraHint?: (option: string) => string | undefined): Error {
  if (!(error instanceof Error)) return new UsageError(String(error));
  const code = (error as Error & { code?: unknown }).code;
  const longNames = Object.keys(options).map((o) => `--${o}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /Unknown option '([^']+)'/.exec(error.message)?.[1] ?? '?';
    const bare = option.replace(/=.*$/, '');
    const extra = extraHint?.(bare.replace(/^-+/, ''));
    const suggestion = bare.startsWith('--') ? closest(bare, longNames, 1)[0] : undefined;
    const hints = [
      ...(extra !== undefined ? [extra] : []),
      ...(suggestion !== undefined ? [`did you mean ${suggestion}?`] : []),
      `${command} --help lists the options${command === 'dialect eval' ? '; a program starting with "-" goes after --' : ''}`,
    ];
    return new UsageError(`${command}: unknown option ${option}`, hints.join('\n'));
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const message = error.message.split('\n')[0] ?? error.message;
    return new UsageError(`${command}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`, `${command} --help lists the options`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new UsageError(`${command}: ${error.message}`, `${command} --help`);
  return error;
}
