/**
 * The agent session of `mcp/test/agent-session.ts`, typed into the REPL in a real terminal (tmux)
 * on an untrusted copy of fixtures/rust-app whose rust-analyzer cannot load the standard library:
 * each fact is told once per REPL session, an incomplete answer carries only its short marker, and
 * a long search names the page() program of its next part, which the REPL answers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepository, measure, nextProgram, RUST_SESSION, type SessionAnswer } from '../../mcp/test/agent-session.js';
import { stdlessEnv } from '../../ide-adapter/test/support/conformance-rust.js';
import { bin, childEnv, copyFixture, repoRoot, requireFreshBuild, rustAnalyzerAvailable, tempDir } from './support/cli.js';
import { requireTmux, TmuxSession } from './support/tmux.js';

const tmux = requireTmux();
const rust = await rustAnalyzerAvailable();
const PROMPT = 'dialect> ';

describe.runIf(tmux !== undefined && rust)('the agent session in the REPL (tmux)', { timeout: 600_000 }, () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let stdless: Awaited<ReturnType<typeof stdlessEnv>>;
  let term: TmuxSession;
  let prompts = 0;
  const answers: SessionAnswer[] = [];

  /** Types a program and returns what the REPL printed for it (up to the next prompt). */
  const ask = async (program: string): Promise<SessionAnswer> => {
    const asked = ++prompts;
    await term.line(program);
    // The answer is done when a prompt follows the line this program was typed on (the asked-th prompt line).
    const promptLines = (screen: string): number[] => screen.split('\n').flatMap((l, i) => (l.startsWith(PROMPT.trimEnd()) ? [i] : []));
    const screen = await term.waitFor((sc) => promptLines(sc).length > asked && sc.split('\n')[promptLines(sc)[asked - 1] ?? -1] === `${PROMPT}${program}`, 180_000);
    const lines = screen.split('\n');
    const starts = promptLines(screen);
    const from = starts[asked - 1] ?? 0;
    const to = starts[asked] ?? lines.length;
    // The REPL's own progress lines ("✓ waited …") are the terminal's, not the answer's.
    const text = lines.slice(from + 1, to).filter((l) => !/^[✓!] waited /.test(l)).join('\n').trimEnd();
    return { program, text, structured: undefined, isError: /^error/m.test(text) };
  };

  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('rust-app');
    await makeRepository(fixture.root, 'src/util.rs');
    state = await tempDir('dialect-repl-notes-');
    // std's sources without their vendored crates and an empty CARGO_HOME: std cannot be loaded offline.
    stdless = await stdlessEnv();
    const env = await childEnv(join(state.path, 'state'), { ...stdless.env, NO_COLOR: '1' });
    term = await TmuxSession.start({ tmux: tmux as string, dir: state.path, command: [process.execPath, bin, 'repl', '--workspace', fixture.root], cwd: repoRoot, env, width: 250 });
    await term.waitForCount(PROMPT.trimEnd(), 1, 60_000);
    for (const program of RUST_SESSION) answers.push(await ask(program));
  }, 600_000);

  afterAll(async () => {
    await term?.kill();
    await fixture?.dispose();
    await state?.dispose();
    await stdless?.dispose();
  });

  it('tells each fact once, in short lines; no sentence twice in an answer; few repeated lines', () => {
    const m = measure(answers);
    expect(m.repeatedChars / m.totalChars).toBeLessThanOrEqual(0.1);
    expect(m.firstNotes).toBeLessThanOrEqual(600);
    expect(m.repeatedSentences, JSON.stringify(m.repeatedSentences)).toEqual([]);
    const all = answers.map((a) => a.text).join('\n');
    expect(all.match(/^note: untrusted workspace/gm)).toHaveLength(1);
    expect(all.match(/^note: rust-analyzer could not fully load the Rust standard library/gm)).toHaveLength(1);
    expect(all).not.toContain('Updating crates.io index');
    // Answers that asked rust-analyzer say they are incomplete, in a short marker.
    expect(answers[1]?.text).toMatch(/^\[incomplete: rust-analyzer degraded\]$/m);
  });

  it('a long search names its next page, and the REPL answers it', async () => {
    const search = answers.find((a) => a.program.startsWith('search('));
    const next = nextProgram(search?.text ?? '');
    expect(next, search?.text.slice(-600)).toBe('page(search("src", "\\\\w+"), 101)');
    const page = await ask(next as string);
    expect(page.text).toMatch(/^src\/\S+:\d+:\d+ {2}/m);
    expect(page.text).toMatch(/… items 101–\d+ of \d+; next: page\(search\("src", "\\\\w\+"\), \d+\)/);
  });

  it('.servers says degraded, never ready, with the memory column filled', async () => {
    const row = (await ask('.servers')).text.split('\n').find((l) => l.startsWith('rust-analyzer'));
    expect(row).toMatch(/^rust-analyzer\s+degraded\s+\d+(\.\d+)? [MG]B\s+\d+/);
  });
});
