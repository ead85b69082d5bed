/**
 * What answers cost an agent: the realistic MCP sessions of `mcp/test/agent-session.ts` (untrusted,
 * offline, rust-analyzer without the standard library; and tsgo), run through a real MCP client
 * against the built `dialect mcp`, counted in characters — the answer itself against its notes.
 */
import { copyWorkspace } from './workspace-copy.js';
import { stdlessEnv } from '../ide-adapter/test/support/conformance-rust.js';
import { connectAgent, makeRepository, measure, RUST_SESSION, runSession, splitNotes, TS_SESSION, type SessionAnswer } from '../mcp/test/agent-session.js';

async function session(fixture: string, changed: string, programs: readonly string[]): Promise<SessionAnswer[]> {
  const copy = await copyWorkspace(fixture);
  try {
    await makeRepository(copy.root, changed);
    // No offline std, and std's sources without their vendored crates: rust-analyzer says the standard library is not loaded.
    const stdless = await stdlessEnv();
    const env = { ...process.env, ...stdless.env, DIALECT_NO_SERVER: '1' } as Record<string, string>;
    try {
      const agent = await connectAgent(copy.root, env);
      try {
        return await runSession(agent, programs);
      } finally {
        await agent.close();
      }
    } finally {
      await stdless.dispose();
    }
  } finally {
    await copy.dispose();
  }
}

/** The section's Markdown. */
export async function benchAnswerCosts(): Promise<string> {
  const rows: string[] = [];
  for (const [name, fixture, changed, programs] of [
    ['Rust (rust-analyzer, no std)', 'rust-app', 'src/util.rs', RUST_SESSION],
    ['TypeScript (tsgo)', 'ts-app', 'src/util.ts', TS_SESSION],
  ] as const) {
    const answers = await session(fixture, changed, programs);
    const m = measure(answers);
    const first = answers[0] !== undefined ? splitNotes(answers[0].text) : { answer: 0, notes: 0 };
    const largest = Math.max(...answers.map((a) => a.text.length));
    rows.push(
      `| ${name} | ${m.answers} | ${m.totalChars.toLocaleString('en')} | ${m.answerChars.toLocaleString('en')} | ${m.noteChars.toLocaleString('en')} (${Math.round((100 * m.noteChars) / Math.max(1, m.totalChars))}%) | ${Math.round(m.noteChars / Math.max(1, m.answers))} | ${first.answer} / ${first.notes} | ${Math.round((100 * m.repeatedChars) / Math.max(1, m.totalChars))}% | ${largest.toLocaleString('en')} |`,
    );
    if (process.env.DIALECT_BENCH_SHOW === '1') for (const a of answers) process.stderr.write(`\n→ ${a.program}\n${a.text}\n`);
  }
  return [
    '### What answers cost an agent',
    '',
    'A realistic MCP session (a dozen mixed calls with a typo, an ambiguity, a search of every word, `gitdiff`, `diagnostics`) through a real MCP client on the built `dialect mcp`, untrusted, offline; rust-analyzer without the standard library. Characters of the tool results\' text: notes are `note:` lines and the status footer; "repeated" is the share of text in lines that appear in three or more answers.',
    '',
    '| session | answers | all characters | answer | notes | notes per answer | first answer: answer / notes | repeated lines | largest answer |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
