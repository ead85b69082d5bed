/**
 * What answers cost an agent, asserted on a realistic session: the built `dialect mcp` over stdio
 * through a real MCP client, untrusted and offline (rust-analyzer without the standard library, so
 * the std, untrusted and degraded notes all appear), on fixtures/rust-app and fixtures/ts-app.
 * Each fact is told once; a long list names the program of its next part, and it returns it;
 * `explain()` shows the requests and the candidates it dropped; `dialect://status` has the details.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFile } from '../../ide-adapter/package-files.js';
import { copyFixture } from '../../ide-adapter/test/support/servers.js';
import { stdlessEnv } from '../../ide-adapter/test/support/conformance-rust.js';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import { connectAgent, makeRepository, measure, nextProgram, RUST_SESSION, runSession, splitNotes, TS_SESSION, type AgentConnection, type SessionAnswer } from './agent-session.js';

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

/** Documented bounds (README, "Answers an agent can afford"). */
const FIRST_NOTES_MAX = 600;
const REPEATED_SHARE_MAX = 0.1;
const ANSWER_MAX = 20_000;

it('the CLI is built (npm run build)', () => {
  expect(existsSync(packageFile('dist', 'bundle')), 'run npm run build').toBe(true);
});

for (const [name, fixture, changed, programs, available, server] of [
  ['rust-analyzer on fixtures/rust-app (untrusted, no std)', 'rust-app', 'src/util.rs', RUST_SESSION, rustAvailable, 'rust-analyzer'],
  ['tsgo on fixtures/ts-app (untrusted)', 'ts-app', 'src/util.ts', TS_SESSION, tsAvailable, 'TypeScript'],
] as const) {
  describe.skipIf(!available)(`an agent's session: ${name}`, { timeout: 300_000 }, () => {
    let copy: Awaited<ReturnType<typeof copyFixture>>;
    let agent: AgentConnection;
    let answers: SessionAnswer[];
    let stdless: Awaited<ReturnType<typeof stdlessEnv>> | undefined;
    beforeAll(async () => {
      copy = await copyFixture(fixture);
      await makeRepository(copy.root, changed);
      // No offline std, and std's sources without their vendored crates: rust-analyzer cannot load the standard library.
      stdless = await stdlessEnv();
      agent = await connectAgent(copy.root, { ...(process.env as Record<string, string>), ...stdless.env });
      answers = await runSession(agent, programs);
    });
    afterAll(async () => {
      await agent?.close();
      await copy?.dispose();
      await stdless?.dispose();
    });

    it('tells each fact once: few repeated lines, a short first set of notes, no sentence twice in an answer', () => {
      const m = measure(answers);
      expect(m.repeatedChars / m.totalChars).toBeLessThanOrEqual(REPEATED_SHARE_MAX);
      expect(m.firstNotes).toBeLessThanOrEqual(FIRST_NOTES_MAX);
      expect(m.repeatedSentences, JSON.stringify(m.repeatedSentences)).toEqual([]);
      for (const a of answers) expect(a.text.length).toBeLessThanOrEqual(ANSWER_MAX);
      // Each note line appears in one answer of the session only.
      const noteLines = answers.flatMap((a) => a.text.split('\n').filter((l) => l.startsWith('note:') && !l.includes('showing the first')));
      expect(noteLines.length).toBe(new Set(noteLines).size);
      // Every answer still says in structured form how complete it is.
      for (const a of answers) expect(a.structured?.['indexing']).toBeDefined();
      if (fixture === 'rust-app') {
        const first = answers[0]?.text ?? '';
        expect(first).toMatch(/^note: untrusted workspace.*dialect trust /m);
        expect(first).toMatch(/^note: rust-analyzer could not fully load the Rust standard library/m);
        // The degraded reason is cargo's error, never its progress line.
        expect(answers.map((a) => a.text).join('\n')).not.toContain('Updating crates.io index');
        expect(splitNotes(first).notes).toBeGreaterThan(0);
      }
    });

    it('cuts a long search, names the program of its next part, and that program returns it', async () => {
      const search = answers.find((a) => a.program.startsWith('search('));
      expect(search).toBeDefined();
      const next = nextProgram(search?.text ?? '');
      expect(next).toBe('page(search("src", "\\\\w+"), 101)');
      const shown = (search?.text ?? '').split('\n').filter((l) => /^src\/\S+:\d+:\d+ {2}/.test(l));
      const page = await agent.call(next as string);
      expect(page.isError).toBe(false);
      const pageLines = page.text.split('\n').filter((l) => /^src\/\S+:\d+:\d+ {2}/.test(l));
      expect(pageLines.length).toBeGreaterThan(0);
      expect(pageLines.some((l) => shown.includes(l))).toBe(false);
      expect(page.text).toMatch(/… items 101–\d+ of \d+; next: page\(search\("src", "\\\\w\+"\), \d+\)/);
      const third = await agent.call(nextProgram(page.text) as string);
      expect(third.text).toMatch(/… items \d+–\d+ of \d+/);
    });

    it('keeps the details behind status() and dialect://status', async () => {
      const status = await agent.readResource('dialect://status');
      expect(status).toContain(`server ${server}`);
      if (fixture === 'rust-app') {
        expect(status).toContain('state: degraded');
        expect(status).toContain('Fix: let rust-analyzer reach crates.io once');
        expect(status).toContain('untrusted workspace');
      }
      const fromProgram = await agent.call('status()');
      expect(fromProgram.text).toContain(`server ${server}`);
    });

    it('explain() shows the steps, the requests to the server with their times, and the candidates dropped', async () => {
      const description = await agent.toolDescription('ide_operation');
      expect(description).toContain('explain(program: string)');
      expect(description).toContain('explain(`the program`) shows how it was made');
      expect((await agent.call('help("explain")')).text).toContain('explain(program: string)');
      const e = await agent.call('explain(`findDefinition("User")`)');
      expect(e.isError).toBe(false);
      expect(e.text).toMatch(/^1\. findDefinition\("User"\) {2}\(\d+ ms\) → (struct|class) User at src\/model\.(rs|ts):\d+:\d+/m);
      expect(e.text).toMatch(new RegExp(`request workspace/symbol "User" → ${server}[^,]*, \\d+ ms`));
      expect(e.text).toMatch(/kept (struct|class) User at src\/model\./);
      if (fixture === 'rust-app') {
        // `pub use model::{…, User}` in lib.rs is a re-export binding, dropped.
        expect(e.text).toMatch(/dropped \S+ User at src\/lib\.rs:\d+:\d+ — (a binding|an import)/);
        expect(e.text).toContain('incomplete: rust-analyzer degraded');
      } else {
        // tsgo's workspace/symbol is fuzzy: "Task" also finds TaskService, TaskStatus…, dropped.
        const fuzzy = await agent.call('explain(`findDefinitions("Task")`)');
        expect(fuzzy.text).toMatch(/dropped \S+ Task\w+ at src\/\S+ — a fuzzy workspace\/symbol hit: "Task\w+" is not "Task"/);
      }
    });
  });
}
