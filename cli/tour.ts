/**
 * `dialect tour`: a few programs and their results, so that a newcomer sees Dialect work in one
 * command (`npm start`). Without a workspace it tours a temporary copy of the bundled Rust fixture
 * with a fixed script; with one, it picks its programs from what the workspace contains.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Outcome } from '../dialect/index.js';
import { isSymbolDefinition, presentOutcome, TIMEOUTS, walkFiles, type SymbolDefinition } from '../ide-adapter/index.js';
import { bundledFixture } from './package.js';
import { CliSession } from './session.js';
import { LiveLine, styles, useColor, type Io, type Styles } from './terminal.js';
import { ExitCode } from './usage.js';
import { listenForInterrupt } from './interrupt.js';
import { formatDuration } from '../dialect/display.js';

/** The options of `dialect tour`. */
export interface TourOptions {
  /** The workspace to tour; undefined for the bundled Rust fixture. */
  readonly workspace: string | undefined;
  /** `--trust`: trust the workspace for this run (the bundled fixture needs no trust). */
  readonly trust?: boolean;
  readonly io: Io;
}

interface Previous {
  readonly program: string;
  readonly outcome: Outcome;
}

interface Step {
  readonly title: string;
  /** The program, or a function of the previous step (to run one of its refinements); undefined skips the step. */
  readonly program: string | ((previous: Previous | undefined) => string | undefined);
  /** What a healthy run gives; anything else makes the tour exit with 1. */
  readonly expect?: Outcome['kind'];
  readonly after?: string;
}

const FIXTURE_STEPS: readonly Step[] = [
  { title: 'Where is the User struct defined?', program: 'findDefinitions("User")', expect: 'value' },
  { title: 'Who uses the MAX_TASKS constant? (references, with the line of each use)', program: 'findReferences("MAX_TASKS")', expect: 'value' },
  { title: 'Search the text with a regular expression (no server needed)', program: 'search("src", `fn\\s+validate`)', expect: 'value' },
  {
    title: 'Ask for "the" definition of a name that exists twice…',
    program: 'findDefinition("validate_token")',
    expect: 'ambiguity',
    after: 'Dialect never guesses: each choice is a program that selects exactly that candidate.',
  },
  { title: '…and run one of the refinements', program: (previous) => refinement(previous, 1), expect: 'value' },
  {
    title: 'Programs compose: the references of that function',
    program: (previous) => (previous?.outcome.kind === 'value' ? `findReferences(${previous.program})` : undefined),
    expect: 'value',
  },
  { title: 'What is it? Signature and documentation from the server', program: 'getSymbolInfo("Task::complete")', expect: 'value' },
];

/** The program of one of the previous step's refinements. */
function refinement(previous: Previous | undefined, index: number): string | undefined {
  const outcome = previous?.outcome;
  if (outcome?.kind !== 'ambiguity') return undefined;
  return (outcome.refinements[index] ?? outcome.refinements[0])?.program;
}

/** Runs `dialect tour`: a guided series of real queries on a workspace (or the bundled fixture); returns the exit code. */
export async function runTour(options: TourOptions): Promise<number> {
  const { io } = options;
  const s = styles(useColor(io.stdout, io.env));
  const bundled = options.workspace === undefined;
  let copy: string | undefined;
  let root = options.workspace;
  if (root === undefined) {
    // A copy, so rust-analyzer and cargo never write into the package's fixture.
    copy = await mkdtemp(join(tmpdir(), 'dialect-tour-'));
    root = join(copy, 'rust-app');
    await cp(bundledFixture('rust-app'), root, { recursive: true, filter: (src) => !/[/\\](target|node_modules)$/.test(src) });
  }
  const cli = await CliSession.open({ workspaceRoot: root, eager: true, readyTimeoutMs: TIMEOUTS.cli.tourReadyWaitMs, trust: options.trust === true, env: options.io.env, server: false }); // in-process: it tours a temporary copy, warm servers would outlive it for nothing
  const interrupt = listenForInterrupt();
  try {
    io.stdout.write(
      `${s.bold('Dialect tour')} ${s.dim('·')} ${bundled ? `the bundled Rust fixture ${s.dim(`(fixtures/rust-app, copied to ${root})`)}` : s.cyan(cli.root)}\n\n`,
    );
    const live = new LiveLine(io.stdout);
    const started = performance.now();
    const ready = await cli
      .waitUntilSettled({ signal: interrupt.signal, timeoutMs: TIMEOUTS.cli.settleMs, onProgress: (text) => live.show(s.dim(`⋯ ${text}`)) })
      .catch(() => false);
    live.clear();
    if (interrupt.interrupted) return interrupt.exitCode;
    const settled = cli.settledText();
    if (!settled.ok) {
      io.stdout.write(`${s.yellow('!')} ${settled.text}\n`);
      if (bundled) {
        io.stdout.write(`\nThe tour needs rust-analyzer. Install it with  npm run setup  (or apt-get install rust-analyzer / rustup component add rust-analyzer).\n`);
        return ExitCode.Error;
      }
    } else {
      // A tick only for a complete index: a degraded or still-indexing server is a warning.
      const mark = ready ? s.green('✓') : s.yellow('!');
      io.stdout.write(`${mark} ${s.dim(`${settled.text} after ${formatDuration(performance.now() - started)}${ready ? '' : ' (answers may be incomplete)'}`)}\n`);
    }
    const steps = bundled ? FIXTURE_STEPS : await discoverSteps(cli, interrupt.signal);
    let healthy = true;
    let previous: Previous | undefined;
    let number = 0;
    const shownNotes = new Set<string>();
    for (const step of steps) {
      if (interrupt.interrupted) return interrupt.exitCode;
      const program = typeof step.program === 'string' ? step.program : step.program(previous);
      if (program === undefined) continue;
      number++;
      io.stdout.write(`\n${s.bold(`${number}. ${step.title}`)}\n   ${s.magenta('›')} ${program}\n`);
      const outcome = await cli.session.evaluate(program, { signal: interrupt.signal, deadlineMs: TIMEOUTS.cli.tourStepDeadlineMs });
      // A tour reads top to bottom: a note every answer carries (e.g. the untrusted workspace's) shows once.
      const fresh = { ...outcome, notes: outcome.notes.filter((n) => !shownNotes.has(n)) };
      for (const note of outcome.notes) shownNotes.add(note);
      io.stdout.write(`${indent(presentOutcome(fresh, { color: useColor(io.stdout, io.env) }), '   ')}\n`);
      if (step.after !== undefined) io.stdout.write(`   ${s.dim(step.after)}\n`);
      if (step.expect !== undefined && outcome.kind !== step.expect) healthy = false;
      previous = { program, outcome };
    }
    if (interrupt.interrupted) return interrupt.exitCode;
    io.stdout.write(`\n${nextSteps(s, bundled ? undefined : cli.root)}\n`);
    return healthy ? ExitCode.Value : ExitCode.Error;
  } finally {
    interrupt.dispose();
    await cli.shutdown();
    if (copy !== undefined) await rm(copy, { recursive: true, force: true }).catch(() => undefined);
  }
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `${by}${l}`))
    .join('\n');
}

function nextSteps(s: Styles, root: string | undefined): string {
  const self = process.argv[1] !== undefined && relative(process.cwd(), process.argv[1]) === join('bin', 'dialect.js') ? 'node bin/dialect.js' : 'dialect';
  const ws = ` --workspace ${root ?? 'YOUR/PROJECT'}`;
  return [
    s.bold('Next:'),
    `   ${self} repl${ws}`,
    s.dim('       ask your own questions; Tab completes, .help explains, Ctrl-D leaves'),
    `   ${self} eval 'findReferences("Name")'${ws} --json`,
    s.dim('       one answer for scripts (exit code 0 value, 1 error, 2 ambiguity)'),
    `   ${self} eval 'help()'`,
    s.dim('       every function with its signature'),
  ].join('\n');
}

/** Programs for a workspace we know nothing about: a file's outline, a symbol's uses, a search, a duplicate name. */
async function discoverSteps(cli: CliSession, signal: AbortSignal): Promise<Step[]> {
  const { files } = await walkFiles(cli.session.workspace, '.', { signal, limit: 5000 });
  const handled = files.filter((f) => cli.backend.handles(f));
  const steps: Step[] = [];
  if (handled.length === 0) {
    const any = files[0];
    steps.push({ title: 'Files in the workspace', program: 'findFiles("*")', expect: 'value' });
    if (any !== undefined) steps.push({ title: 'Read a few lines', program: `lines(${JSON.stringify(any)}, 1, 5)`, expect: 'value' });
    return steps;
  }
  const ext = mostCommonExtension(handled);
  steps.push({ title: `The ${ext} files`, program: `findFiles("*${ext}")`, expect: 'value' });
  const file = handled.find((f) => f.startsWith('src/') && f.endsWith(ext)) ?? handled[0] ?? '';
  steps.push({ title: `The outline of ${file}`, program: `documentSymbols(${JSON.stringify(file)})`, expect: 'value' });

  // Top-level names per file, to find a symbol to follow and a name defined twice.
  const outlines = new Map<string, SymbolDefinition[]>();
  for (const f of handled.slice(0, 30)) {
    const outcome = await cli.session.evaluate(`documentSymbols(${JSON.stringify(f)})`, { signal, deadlineMs: TIMEOUTS.cli.tourOutlineDeadlineMs });
    if (outcome.kind === 'value' && Array.isArray(outcome.value)) outlines.set(f, outcome.value.filter(isSymbolDefinition));
  }
  const interesting = /^(struct|class|interface|enum|function|trait)$/;
  const symbol = (outlines.get(file) ?? []).find((d) => interesting.test(d.kind) && d.name.length >= 3 && /^[A-Za-z_$][\w$]*$/.test(d.name));
  if (symbol !== undefined) {
    const name = JSON.stringify(symbol.name);
    steps.push({ title: `Where is ${symbol.name} defined?`, program: `findDefinitions(${name})`, expect: 'value' });
    steps.push({ title: 'Who uses it?', program: `findReferences(findDefinitions(${name}, file: ${JSON.stringify(file)}))`, expect: 'value' });
    steps.push({ title: 'Search the text (no server needed)', program: `search(".", \`\\b${symbol.name}\\b\`)`, expect: 'value' });
  }
  const seen = new Map<string, string>();
  let duplicate: string | undefined;
  for (const [f, defs] of outlines) {
    for (const d of defs) {
      if (!interesting.test(d.kind) || !/^[A-Za-z_$][\w$]*$/.test(d.name)) continue;
      const other = seen.get(d.name);
      if (other !== undefined && other !== f) duplicate ??= d.name;
      seen.set(d.name, f);
    }
  }
  if (duplicate !== undefined) {
    steps.push({
      title: `"${duplicate}" is defined in more than one place: ask for "the" definition…`,
      program: `findDefinition(${JSON.stringify(duplicate)})`,
      expect: 'ambiguity',
      after: 'Dialect never guesses: each choice is a program that selects exactly that candidate.',
    });
    steps.push({ title: '…and run one of the refinements', program: (previous) => refinement(previous, 0), expect: 'value' });
  }
  return steps;
}

function mostCommonExtension(files: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    const m = /(\.[^./]+)$/.exec(f);
    if (m !== null) counts.set(m[1] as string, (counts.get(m[1] as string) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}
