/**
 * A realistic agent session over MCP, for the tests and the benchmark of what answers cost: the
 * built `dialect mcp` spawned over stdio (the command line the README documents, untrusted, in
 * process), a dozen mixed programs (a typo, an ambiguity, a long search and its next page), and
 * the measures the tests assert on: answer text against notes, lines repeated across answers,
 * sentences repeated within one.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { packageFile } from '../../ide-adapter/package-files.js';

const run = promisify(execFile);

/** One answer of the session. */
export interface SessionAnswer {
  readonly program: string;
  readonly text: string;
  readonly structured: Record<string, unknown> | undefined;
  readonly isError: boolean;
}

/** The programs of the Rust session on fixtures/rust-app. `NEXT` stands for the next-page program the previous answer names. */
export const RUST_SESSION: readonly string[] = [
  'findDefinitions("Config")',
  'findReferences(findDefinition("User"))',
  'findDefinition("validate_token")',
  'findDefinition("validate_token", file: "src/auth.rs")',
  'getSymbolInfo(findDefintion("Task::complete"))',
  'getSymbolInfo(findDefinition("Task::complete"))',
  'callers(findDefinition("validate_token", file: "src/util.rs"))',
  'documentSymbols("src/model.rs")',
  'search("src", `\\w+`)',
  'gitdiff()',
  'findFiles("**/*.rs")',
  'lines("src/auth.rs", 1, 8)',
  'diagnostics()',
];

/** The programs of the TypeScript session on fixtures/ts-app. */
export const TS_SESSION: readonly string[] = [
  'findDefinitions("User")',
  'findReferences(findDefinition("User"))',
  'findDefinition("validateToken")',
  'getSymbolInfo(findDefintion("TaskService"))',
  'getSymbolInfo(findDefinition("TaskService"))',
  'callers(findDefinition("validateToken", file: "src/auth.ts"))',
  'documentSymbols("src/model.ts")',
  'search("src", `\\w+`)',
  'gitdiff()',
  'findFiles("**/*.ts")',
  'lines("src/auth.ts", 1, 8)',
  'diagnostics()',
];

/** Makes the copied fixture a git repository with one commit and one unstaged change, so `gitdiff()` has something to say. */
export async function makeRepository(root: string, changedFile: string): Promise<void> {
  const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'fixture');
  const { appendFile } = await import('node:fs/promises');
  await appendFile(join(root, changedFile), '\n// changed in the session\n');
}

/** A running `dialect mcp` and its client. */
export interface AgentConnection {
  call(program: string): Promise<SessionAnswer>;
  readResource(uri: string): Promise<string>;
  /** The description of a tool, as the client lists it. */
  toolDescription(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Spawns the built `dialect mcp --workspace root` (untrusted, in process) and connects a real MCP client over stdio. */
export async function connectAgent(root: string, env: Record<string, string>): Promise<AgentConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [packageFile('bin', 'dialect.js'), 'mcp', '--workspace', root],
    env: { ...env, DIALECT_NO_SERVER: '1' },
    stderr: 'pipe',
    cwd: packageFile(),
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'dialect-agent-session', version: '1.0.0' });
  await client.connect(transport);
  return {
    async call(program) {
      const result = (await client.callTool({ name: 'ide_operation', arguments: { program } }, undefined, { timeout: 180_000 })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { program, text, structured: result.structuredContent, isError: result.isError === true };
    },
    async readResource(uri) {
      const { contents } = await client.readResource({ uri });
      return contents.map((c) => ('text' in c ? c.text : '')).join('\n');
    },
    async toolDescription(name) {
      const { tools } = await client.listTools();
      return tools.find((t) => t.name === name)?.description ?? '';
    },
    close: () => client.close(),
  };
}

/** The program an answer names for its next part (`… next: PROGRAM`), if any. */
export function nextProgram(text: string): string | undefined {
  return /^… .*next: (.+)$/m.exec(text)?.[1]?.trim();
}

/** Runs the session's programs in order; a program `NEXT` runs the next-page program the previous answer named. */
export async function runSession(connection: AgentConnection, programs: readonly string[]): Promise<SessionAnswer[]> {
  const answers: SessionAnswer[] = [];
  for (const program of programs) {
    const previous = answers.at(-1);
    const actual = program === 'NEXT' ? (previous !== undefined ? nextProgram(previous.text) : undefined) : program;
    if (actual === undefined) throw new Error(`the answer to ${previous?.program ?? '(none)'} names no next-page program:\n${previous?.text ?? ''}`);
    answers.push(await connection.call(actual));
  }
  return answers;
}

/**
 * Whether a line of an answer is a note rather than the answer: `note:` lines, the bracketed
 * status footer (`[language servers …]`, `[incomplete …]`), and the lines a note continues on.
 */
export function isNoteLine(line: string): boolean {
  const t = line.trim();
  return t.startsWith('note:') || (t.startsWith('[') && t.endsWith(']') && /language server|incomplete|indexing|status\(\)|answered by/.test(t));
}

/** Characters of an answer's text that are notes, and the rest. */
export function splitNotes(text: string): { answer: number; notes: number } {
  let notes = 0;
  let answer = 0;
  for (const line of text.split('\n')) {
    if (isNoteLine(line)) notes += line.length + 1;
    else answer += line.length + 1;
  }
  return { answer, notes };
}

/** The measures of a session the tests assert on and the benchmark reports. */
export interface SessionMeasures {
  readonly answers: number;
  readonly totalChars: number;
  readonly noteChars: number;
  readonly answerChars: number;
  /** Characters of lines (trimmed, non-empty) that appear in three or more answers. */
  readonly repeatedChars: number;
  readonly firstNotes: number;
  /** Answers in which a sentence of at least 20 characters appears twice. */
  readonly repeatedSentences: { program: string; sentence: string }[];
}

/** Measures a session's answers. */
export function measure(answers: readonly SessionAnswer[]): SessionMeasures {
  const seenIn = new Map<string, number>();
  for (const a of answers) for (const line of new Set(a.text.split('\n').map((l) => l.trim()).filter((l) => l !== ''))) seenIn.set(line, (seenIn.get(line) ?? 0) + 1);
  let repeatedChars = 0;
  let totalChars = 0;
  let noteChars = 0;
  for (const a of answers) {
    totalChars += a.text.length;
    noteChars += splitNotes(a.text).notes;
    for (const line of a.text.split('\n')) if ((seenIn.get(line.trim()) ?? 0) >= 3) repeatedChars += line.length + 1;
  }
  const repeatedSentences: { program: string; sentence: string }[] = [];
  for (const a of answers) {
    const seen = new Set<string>();
    // Prose only: a listed line of code (after its `path:line:col`) or a refinement program may well repeat parts.
    const prose = a.text.split('\n').filter((l) => !/^\s*[^\s:]+:\d+(:\d+|-\d+)?\s/.test(l) && !/^\s*\d+ \|/.test(l) && !/^\s*[A-Za-z_]\w*\(/.test(l));
    for (const sentence of prose.join('\n').split(/(?<=[.;:!?])\s+|\n+/).map((s) => s.trim().replace(/[.;:]$/, ''))) {
      if (sentence.length < 20) continue;
      if (seen.has(sentence)) repeatedSentences.push({ program: a.program, sentence });
      seen.add(sentence);
    }
  }
  return {
    answers: answers.length,
    totalChars,
    noteChars,
    answerChars: totalChars - noteChars,
    repeatedChars,
    firstNotes: answers[0] !== undefined ? splitNotes(answers[0].text).notes : 0,
    repeatedSentences,
  };
}
