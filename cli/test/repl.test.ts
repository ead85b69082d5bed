/**
 * The REPL as a user sees it: a real terminal (tmux) on a copy of the Rust fixture with real
 * rust-analyzer, typing keys and reading the screen back. The tests of the first block are one
 * session, in order, like a person at the prompt; the second block starts the REPL again to
 * find the history of the first.
 */
import { execFileSync } from 'node:child_process';
import { constants, realpathSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rustAnalyzerServer } from '../../ide-adapter/languages/rust/index.js';
import { isAlive, positionOf, requireServer } from '../../ide-adapter/test/support/servers.js';
import { bin, childEnv, copyFixture, processesIn, repoRoot, requireFreshBuild, rustAnalyzerAvailable, tempDir } from './support/cli.js';
import { requireTmux, TmuxSession } from './support/tmux.js';

const tmux = requireTmux();
const rust = await rustAnalyzerAvailable();
const PROMPT = 'dialect> ';
const CONTINUATION = '     ... ';
const STEP = 60_000;
/** The relay that keeps rust-analyzer "indexing" until released. */
const holdReadyScript = fileURLToPath(new URL('./fakes/hold-ready.js', import.meta.url));

describe.runIf(tmux !== undefined && rust)('dialect repl in a terminal', () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let term: TmuxSession;
  let serverPid: number | undefined;
  /** Waits for the prompt to come back after the nth program (prompts are counted on the screen). */
  let prompts = 0;
  const nextPrompt = async (): Promise<string> => term.waitForCount(PROMPT.trimEnd(), ++prompts);
  const at = async (path: string, needle: string) => positionOf(await readFile(join(fixture.root, path), 'utf8'), needle);

  /** Lets rust-analyzer's "ready" through (see `fakes/hold-ready.js`); idempotent. */
  let releaseIndex: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('rust-app');
    // A line on which `(a+)+$` backtracks for a very long time: the slow query to interrupt.
    await writeFile(join(fixture.root, 'long.txt'), `${'a'.repeat(40)}!\n`);
    state = await tempDir('dialect-repl-');
    // rust-analyzer runs behind a relay that holds back its "ready" until the first test has seen
    // the REPL wait for the index: that test needs the index not ready, on any machine.
    const env = await childEnv(join(state.path, 'state'));
    const real = await requireServer(rustAnalyzerServer, env);
    if (real === undefined) throw new Error('rust-analyzer was found a moment ago and is gone');
    const fifo = join(state.path, 'release-index');
    execFileSync('mkfifo', [fifo]);
    const relay = join(state.path, 'rust-analyzer');
    await writeFile(relay, `#!/bin/sh\nexec '${process.execPath}' '${holdReadyScript}' "$@"\n`, { mode: 0o755 });
    releaseIndex = async () => {
      releaseIndex = async () => undefined;
      // Non-blocking: the relay holds the FIFO open for reading from its start.
      const handle = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      await handle.write('go\n');
      await handle.close();
    };
    term = await TmuxSession.start({
      tmux: tmux as string,
      dir: state.path,
      command: [process.execPath, bin, 'repl', '--workspace', fixture.root],
      cwd: repoRoot,
      env: { ...env, DIALECT_RUST_ANALYZER: relay, HOLD_READY_SERVER: real.path, HOLD_READY_FIFO: fifo },
    });
  });

  afterAll(async () => {
    await term?.kill();
    await fixture?.dispose();
    await state?.dispose();
  });

  it(
    'starts at once with a progress line; a query typed before the index is ready waits for it and says so (Ctrl-C stops the wait)',
    async () => {
      const screen = await nextPrompt();
      expect(screen).toMatch(/Dialect \d+\.\d+\.\d+ · workspace /);
      // The servers are still starting or indexing: the progress line sits above the prompt.
      expect(screen).toMatch(/⋯ (starting the language servers…|rust-analyzer: (starting|indexing))/);

      try {
        await term.line('findReferences("MAX_TASKS")');
        await term.waitFor(/⋯ waiting for the index: .* — Ctrl-C cancels/, STEP);
        await term.press('C-c');
        await term.waitFor(/cancelled while waiting for the index \([\d.]+ m?s\)/);
        await nextPrompt();
      } finally {
        await releaseIndex(); // also when this part failed: the other tests need a ready server
      }

      await term.line('findReferences("MAX_TASKS")');
      const answer = await term.waitFor('4 references to constant MAX_TASKS', STEP);
      expect(answer).toMatch(/(✓ waited [\d.]+ m?s for the index|✓ rust-analyzer ready \([\d.]+ m?s\))\n(.*\n)?4 references/);
      const use = await at('src/config.rs', 'use crate::MAX_TASKS');
      expect(answer).toContain(`  src/config.rs:${use.line}:${use.column + 'use crate::'.length}  use crate::MAX_TASKS;`);
      await nextPrompt();
    },
    STEP * 2,
  );

  it(
    'Tab completes function names (twice: their signatures), named parameters and paths',
    async () => {
      await term.type('findDef');
      await term.press('Tab');
      await term.waitForEnd(`${PROMPT}findDefinition`);
      await term.press('Tab');
      const list = await term.waitFor('findDefinitions(of: string | symbol | (string | symbol)[], file?: string, kind?: string, line?: number) → symbol[]');
      expect(list).toContain('findDefinition(of: string | symbol, file?: string, kind?: string, line?: number) → symbol');
      await term.type('s("User", fi');
      await term.press('Tab');
      await term.waitForEnd(`${PROMPT}findDefinitions("User", file: `);
      await term.type('"src/mo');
      await term.press('Tab');
      await term.waitForEnd(`${PROMPT}findDefinitions("User", file: "src/model.rs"`);
      await term.type(')');
      await term.press('Enter');
      const user = await at('src/model.rs', 'User {');
      await term.waitFor(`struct User  src/model.rs:${user.line}:${user.column}  pub struct User {`);
      await nextPrompt();
    },
    STEP,
  );

  it(
    'binds the last result to _',
    async () => {
      await term.line('findReferences(_)');
      await term.waitFor(/\d+ references to struct User \(src\/model\.rs:\d+:\d+\):/);
      await nextPrompt();
    },
    STEP,
  );

  it(
    'after an ambiguity, _ is the ambiguity: pick(_, …) chooses from it',
    async () => {
      await term.line('findDefinition("validate_token")');
      await term.waitFor(/ambiguous: .*validate_token/);
      await nextPrompt();
      await term.line('pick(_, "util.rs")');
      const screen = await term.waitFor(/function validate_token\s+src\/util\.rs:\d+:\d+/);
      expect(screen).not.toContain('error[');
      await nextPrompt();
    },
    STEP,
  );

  it(
    'continues an unfinished program on the next line, and shows a syntax error with its caret and goes on',
    async () => {
      await term.line('findReferences(');
      await term.waitForEnd(CONTINUATION.trimEnd());
      await term.line('  findDefinition("validate_token",');
      await term.waitForCount(CONTINUATION.trimEnd(), 2);
      await term.line('    file: "src/util.rs"))');
      const screen = await term.waitFor('3 references to function validate_token');
      expect(screen).toContain(`${PROMPT}findReferences(\n${CONTINUATION}  findDefinition("validate_token",\n${CONTINUATION}    file: "src/util.rs"))\n`);
      await nextPrompt();

      await term.line('findDefinitions(User)');
      const error = await term.waitFor('quote this, or call it');
      expect(error).toContain('error[bare-identifier]: `User` is not a value');
      expect(error).toContain('1 | findDefinitions(User)\n  |                 ^^^^ quote this, or call it');
      await nextPrompt();
    },
    STEP,
  );

  it(
    '.servers lists rust-analyzer with its state, memory and pid',
    async () => {
      await term.line('.servers');
      const screen = await term.waitFor(/rust-analyzer\s+ready\s+\d+ MB\s+\d+\s+rust/);
      expect(screen).toMatch(/server\s+state\s+memory\s+pid\s+languages\s+status/);
      serverPid = Number(/rust-analyzer\s+ready\s+\d+ MB\s+(\d+)/.exec(screen)?.[1]);
      expect(isAlive(serverPid)).toBe(true);
      await nextPrompt();
    },
    STEP,
  );

  it(
    '.help, .workspace, .functions and help() describe the REPL, the workspace and the functions',
    async () => {
      await term.line('.help');
      await term.waitFor('.timing on|off         show the time of each evaluation and of each server request');
      await nextPrompt();
      await term.line('.workspace');
      await term.waitFor(`workspace  ${realpathSync(fixture.root)}`);
      await term.waitFor(`trust      untrusted (build scripts, proc macros and dialect.json servers are off; dialect trust ${realpathSync(fixture.root)})`);
      await term.waitFor(`history    ${join(state.path, 'state', 'dialect', 'history')}`);
      await nextPrompt();
      await term.line('.functions');
      await term.waitFor(/navigation\n {2}findDefinitions\(of: /);
      await nextPrompt();
      await term.line('help("findReferences")');
      await term.waitFor('findReferences(to: symbol | symbol[]) → reference[]');
      await nextPrompt();
      await term.line('.tming on');
      await term.waitFor('error: unknown command .tming — did you mean .timing? (.help lists the commands)');
      await nextPrompt();
    },
    STEP,
  );

  it(
    '.timing on shows the time of the evaluation and of each server request',
    async () => {
      await term.line('.timing on');
      await term.waitFor('timing is on');
      await nextPrompt();
      await term.line('findDefinitions("Task")');
      const screen = await term.waitFor(/textDocument\/documentSymbol src\/model\.rs\s+\d+ ms/);
      // Each request on its line (the wait for the index, when it took a millisecond or more, first).
      expect(screen).toMatch(/⏱ \d+ ms to evaluate[^;\n]*; \d+ server requests? \(concurrent ones overlap\):\n(?:[ \t]+\S.*\n)*?[ \t]+workspace\/symbol "Task"\s+\d+ ms/);
      await nextPrompt();
      await term.line('.timing off');
      await term.waitFor('timing is off');
      await nextPrompt();
    },
    STEP,
  );

  it(
    'Ctrl-C cancels a slow query without leaving the REPL, which answers the next one',
    async () => {
      await term.line('search(".", "(a+)+$")');
      await term.waitFor('⋯ running — Ctrl-C cancels'); // the evaluation is under way: Ctrl-C now cancels it
      const started = Date.now();
      await term.press('C-c');
      const screen = await term.waitFor(/cancelled after [\d.]+ m?s \(Ctrl-C\)/, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000); // long before the search's own 10 s limit
      expect(screen).not.toContain('regex-timeout');
      await nextPrompt();
      await term.line('findDefinitions("Priority")');
      await term.waitFor(/enum Priority {2}src\/model\.rs:\d+:\d+/);
      await nextPrompt();
    },
    STEP,
  );

  it(
    'Ctrl-R searches the history and Enter runs the match',
    async () => {
      const before = (await term.screen()).split('4 references to constant MAX_TASKS').length;
      await term.press('C-r');
      await term.type('MAX_T');
      await term.waitFor("(reverse-i-search)`MAX_T': findReferences(\"MAX_TASKS\")");
      await term.press('Enter');
      await term.waitFor((s) => s.split('4 references to constant MAX_TASKS').length > before);
      await nextPrompt();
    },
    STEP,
  );

  it(
    'Ctrl-C at an empty prompt hints how to leave; a second Ctrl-C exits and stops the servers',
    async () => {
      await term.type('something half typed');
      await term.press('C-c');
      await term.waitFor(`${PROMPT}something half typed^C\n${PROMPT.trimEnd()}`);
      await term.press('C-c');
      await term.waitFor('(To exit, press Ctrl-C again, Ctrl-D, or type .exit)');
      await term.press('C-c');
      expect(await term.exitCode()).toBe(0);
      expect(serverPid).toBeDefined();
      expect(isAlive(serverPid as number)).toBe(false);
      expect(processesIn(fixture.root)).toEqual([]);
    },
    STEP,
  );

  it(
    'keeps the history between runs (a program typed over several lines is one entry); Ctrl-D exits',
    async () => {
      const file = join(state.path, 'state', 'dialect', 'history');
      const saved = (await readFile(file, 'utf8')).split('\n');
      expect(saved).toContain('findReferences(findDefinition("validate_token", file: "src/util.rs"))');
      expect(saved).toContain('findDefinitions("User", file: "src/model.rs")');
      expect(saved).toContain('.servers');

      // A second run, on a folder that needs no language server: it is about the history only.
      const empty = await tempDir('dialect-repl-empty-');
      const again = await TmuxSession.start({
        tmux: tmux as string,
        dir: empty.path,
        command: [process.execPath, bin, 'repl', '--workspace', empty.path],
        cwd: repoRoot,
        env: await childEnv(join(state.path, 'state')),
      });
      try {
        await again.waitFor(PROMPT.trimEnd());
        await again.press('Up');
        await again.waitForEnd(`${PROMPT}findReferences("MAX_TASKS")`);
        await again.press('C-u', 'C-r');
        await again.type('util.rs');
        await again.waitFor('(reverse-i-search)`util.rs\': findReferences(findDefinition("validate_token", file: "src/util.rs"))');
        await again.press('Escape');
        await again.waitForEnd(`${PROMPT}findReferences(findDefinition("validate_token", file: "src/util.rs"))`);
        await again.press('C-u', 'C-d');
        expect(await again.exitCode()).toBe(0);
      } finally {
        await again.kill();
        await empty.dispose();
      }
    },
    STEP,
  );

  it(
    'stops the language servers when the terminal goes away (SIGHUP)',
    async () => {
      const copy = await copyFixture('rust-app');
      const dir = await tempDir('dialect-repl-hup-');
      const session = await TmuxSession.start({
        tmux: tmux as string,
        dir: dir.path,
        command: [process.execPath, bin, 'repl', '--workspace', copy.root],
        cwd: repoRoot,
        env: await childEnv(join(dir.path, 'state')),
      });
      try {
        await session.waitFor('✓ rust-analyzer ready', STEP);
        expect(processesIn(copy.root).length).toBeGreaterThan(0);
        await session.kill();
        const deadline = Date.now() + 15_000;
        // Bounded polling: processes ending emit nothing this test can wait on.
        while (processesIn(copy.root).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(processesIn(copy.root)).toEqual([]);
      } finally {
        await session.kill();
        await copy.dispose();
        await dir.dispose();
      }
    },
    STEP * 2,
  );
});
