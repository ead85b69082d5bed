/**
 * Walkthroughs inside a real VS Code (code-server + headless Chromium): an agent running in an
 * integrated terminal (fakes/terminal-agent.js: a real MCP client on `dialect mcp`) presents a
 * walkthrough; the panel beside the code shows it, its comments become comment threads on the
 * lines their programs name (positions from the fixture text), an ambiguous comment is placed by
 * choosing a candidate in the panel, a reply written in a thread reaches the agent's terminal as a
 * reference the agent expands, edits move the comments with the code (and a comment whose program
 * stops resolving says so), a second walkthrough replaces the first one's threads, and closing the
 * walkthrough (its tab, or the command) removes them; an agent outside the window's terminals gets
 * the reply through the clipboard, with a notice. Screenshots go to test-artifacts/vscode/.
 */
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, childEnv, requireFreshBuild } from '../../cli/test/support/cli.js';
import { socketConnection } from '../../ide-adapter/remote/transport.js';
import { copyFixture, positionOf } from '../../ide-adapter/test/support/servers.js';
import type { PresentWalkthroughResult } from '../../mcp/walkthrough-tool.js';
import { eventually } from '../../mcp/test/support.js';
import { StatusResultSchema, WalkthroughMethod, type ShownWalkthrough, type ThreadInfo } from '../../walkthrough/editor-protocol.js';
import { openVsCode, requireRig, type VsCodeWindow } from './support/rig.js';

const rig = await requireRig();

/** How long the UI may take to show something, and the extension to follow an edit. */
const UI_MS = 60_000;
/** Where screenshots go. */
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/vscode/', import.meta.url));
const AGENT_SCRIPT = fileURLToPath(new URL('./fakes/terminal-agent.js', import.meta.url));

const FIRST = `# How tasks are served

The service that owns the tasks:

<comment location='findDefinition("TaskService")'>
TaskService keeps the tasks and checks who may change them.
</comment>

Tokens are checked here:

<comment location='findDefinition("validateToken", file: "src/auth.ts")' icon="lightbulb">
validateToken turns a session token into a user id.
</comment>

And one of two checks of the same name:

<comment location='findDefinition("validateToken")'>
The check the login form calls.
</comment>

The journal keeps every change:

<comment location='search("src/journalRepository.ts", "export class JournalRepository")'>
JournalRepository records each save.
</comment>

<action button="Add tests">Write tests for validateToken.</action>
`;

const SECOND = `# Where tasks are stored

<comment location='findDefinition("MemoryRepository")'>
MemoryRepository keeps every task in a Map.
</comment>

\`\`\`mermaid
flowchart LR
  TaskService --> MemoryRepository
\`\`\`
`;

const THIRD = `# Sessions

<comment location='findDefinition("Session", file: "src/auth.ts")'>
A session ties a token to a user.
</comment>
`;

/** The agent in the terminal, driven through its control socket. */
class TerminalAgent {
  #next = 0;
  readonly #pending = new Map<number, (line: { result?: unknown; error?: string }) => void>();
  readonly #socket: ReturnType<typeof connect>;

  constructor(controlSocket: string) {
    this.#socket = connect(controlSocket);
    let buffered = '';
    this.#socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, end)) as { id: number; result?: unknown; error?: string };
        buffered = buffered.slice(end + 1);
        this.#pending.get(line.id)?.(line);
        this.#pending.delete(line.id);
      }
    });
  }

  async call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const id = ++this.#next;
    const answer = new Promise<{ result?: unknown; error?: string }>((resolve) => this.#pending.set(id, resolve));
    this.#socket.write(`${JSON.stringify({ id, tool, arguments: args })}\n`);
    const line = await answer;
    if (line.error !== undefined) throw new Error(`${tool} failed in the agent: ${line.error}`);
    return line.result as CallToolResult;
  }

  async exit(): Promise<void> {
    this.#socket.write(`${JSON.stringify({ id: ++this.#next, tool: 'exit' })}\n`);
    this.#socket.end();
  }
}

describe.skipIf(rig === undefined)('walkthroughs in a real VS Code', () => {
  let window: VsCodeWindow;
  let copy: { root: string; dispose: () => Promise<void> };
  let scratch: string;
  let agent: TerminalAgent;
  let typed: string;
  let status: MessageConnection;
  /** 1-based lines of the places the comments name, from the fixture text. */
  let lines: { taskService: number; authValidate: number; utilValidate: number; memoryRepository: number; session: number; journal: number };
  let page: Page;

  const lineOf = async (file: string, needle: string): Promise<number> => positionOf(await readFile(join(copy.root, file), 'utf8'), needle).line;
  const shown = async (): Promise<ShownWalkthrough | null> => StatusResultSchema.parse(await status.sendRequest(WalkthroughMethod.Status)).shown;
  const threadOf = async (comment: string): Promise<ThreadInfo | undefined> => (await shown())?.threads.find((t) => t.comment === comment);
  const panel = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  const shot = async (name: string): Promise<void> => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  };
  const present = async (content: string): Promise<{ result: CallToolResult; data: PresentWalkthroughResult }> => {
    const result = await agent.call('present_walkthrough', { content, baseUri: copy.root });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return { result, data: result.structuredContent as unknown as PresentWalkthroughResult };
  };

  beforeAll(async () => {
    requireFreshBuild();
    copy = await copyFixture('ts-app');
    // Short: the control socket's path must fit a Unix socket address.
    scratch = await mkdtemp(join(tmpdir(), 'dwt-'));
    lines = {
      taskService: await lineOf('src/service.ts', 'export class TaskService'),
      authValidate: await lineOf('src/auth.ts', 'export function validateToken'),
      utilValidate: await lineOf('src/util.ts', 'export function validateToken'),
      memoryRepository: await lineOf('src/memoryRepository.ts', 'export class MemoryRepository'),
      session: await lineOf('src/auth.ts', 'export class Session'),
      journal: await lineOf('src/journalRepository.ts', 'export class JournalRepository'),
    };
    window = await openVsCode(rig as NonNullable<typeof rig>, copy.root);
    page = window.page;
    await page.setViewportSize({ width: 1600, height: 1000 });
    const socket = connect(window.record.socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    status = socketConnection(socket);
    status.listen();

    // The agent starts in an integrated terminal opened through the UI, as a person starts one.
    const control = join(scratch, 'agent.sock');
    typed = join(scratch, 'typed.txt');
    await page.locator('.monaco-workbench').waitFor({ timeout: UI_MS });
    await page.keyboard.press('F1');
    await page.keyboard.type('Terminal: Create New Terminal');
    await page.keyboard.press('Enter');
    const terminal = page.locator('.xterm-helper-textarea').first();
    await terminal.waitFor({ timeout: UI_MS });
    await terminal.focus();
    await page.keyboard.type(`'${process.execPath}' '${AGENT_SCRIPT}' '${control}' '${typed}' '${bin}' '${copy.root}'`);
    await page.keyboard.press('Enter');
    await eventually(async () => (await stat(control).catch(() => undefined)) !== undefined, UI_MS, 'the terminal agent to start');
    agent = new TerminalAgent(control);
  }, 240_000);

  afterAll(async () => {
    await agent?.exit().catch(() => undefined);
    status?.dispose();
    await window?.close();
    await copy?.dispose();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('shows the walkthrough in a panel beside the code, its comments as threads on their lines', async () => {
    const { result, data } = await present(FIRST);
    expect(data.path).toBeNull();
    expect(data.shownIn?.editor).toMatch(/\d+\.\d+/);
    expect(data.shownIn?.panel).toBe('How tasks are served');
    expect(data.shownIn?.threads).toEqual([
      { comment: 'comment-1', path: 'src/service.ts', line: lines.taskService },
      { comment: 'comment-2', path: 'src/auth.ts', line: lines.authValidate },
      { comment: 'comment-4', path: 'src/journalRepository.ts', line: lines.journal },
    ]);
    expect(data.shownIn?.opened).toEqual({ path: 'src/service.ts', line: lines.taskService });
    expect(data.counts).toMatchObject({ comments: 4, resolved: 3, ambiguous: 1 });
    expect(data.problems.map((p) => p.id)).toEqual(['comment-3']);
    expect(data.indexing.backend).toBe('vscode');
    expect((result.content[0] as { text: string }).text).toContain('The walkthrough is shown in');

    // The panel shows the page's heading; the file of the first comment is open with its thread.
    await panel().locator('h1', { hasText: 'How tasks are served' }).waitFor({ timeout: UI_MS });
    await page.locator('.tab', { hasText: 'service.ts' }).first().waitFor({ timeout: UI_MS });
    await page.locator('.review-widget', { hasText: 'TaskService keeps the tasks' }).first().waitFor({ timeout: UI_MS });
    const threads = (await shown())?.threads ?? [];
    expect(threads.map((t) => [t.comment, t.label, t.state])).toEqual([
      ['comment-1', 'How tasks are served', 'placed'],
      ['comment-2', 'How tasks are served', 'placed'],
      ['comment-4', 'How tasks are served', 'placed'],
    ]);
    expect(threads[0]?.body).toContain('TaskService keeps the tasks');
    await shot('walkthrough-panel-and-threads');
  });

  it('places an ambiguous comment where the reader chooses in the panel', async () => {
    expect(await threadOf('comment-3')).toBeUndefined();
    const comment = panel().locator('.wt-comment[data-comment="comment-3"]');
    await comment.locator('.wt-choice', { hasText: 'src/util.ts' }).click({ timeout: UI_MS });
    await eventually(async () => (await threadOf('comment-3')) !== undefined, UI_MS, 'the chosen comment to get a thread');
    expect(await threadOf('comment-3')).toMatchObject({ path: 'src/util.ts', line: lines.utilValidate, state: 'placed' });
    await page.locator('.review-widget', { hasText: 'The check the login form calls' }).first().waitFor({ timeout: UI_MS });
    await panel().locator('.wt-count-resolved', { hasText: '4 of 4 comments placed' }).waitFor({ timeout: UI_MS });
    await shot('walkthrough-chosen');

    // Chosen again later, from the Quick Pick; then back, from the panel.
    await page.keyboard.press('F1');
    await page.keyboard.type('Dialect: Choose where a walkthrough comment belongs');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'src/auth.ts' }).first().click({ timeout: UI_MS });
    await eventually(async () => (await threadOf('comment-3'))?.path === 'src/auth.ts', UI_MS, 'the Quick Pick choice to move the thread');
    expect(await threadOf('comment-3')).toMatchObject({ line: lines.authValidate });
    await panel().locator('.wt-comment[data-comment="comment-3"] .wt-loc:not([hidden])', { hasText: 'src/auth.ts' }).waitFor({ timeout: UI_MS });
    await comment.locator('.wt-magnifier').click({ timeout: UI_MS });
    await comment.locator('.wt-choice', { hasText: 'src/util.ts' }).click({ timeout: UI_MS });
    await eventually(async () => (await threadOf('comment-3'))?.path === 'src/util.ts', UI_MS, 'the panel choice to move the thread back');
  });

  it('delivers a reply written in a thread to the agent, in its terminal, as a reference it expands', async () => {
    // The chosen comment's file is in front now; reply on its thread.
    const widget = page.locator('.review-widget', { hasText: 'The check the login form calls' }).first();
    await widget.locator('.review-thread-reply-button').click({ timeout: UI_MS });
    await widget.locator('.comment-form .monaco-editor').first().click({ timeout: UI_MS });
    const reply = 'Why are there two of these?';
    await page.keyboard.type(reply);
    await widget.locator('.monaco-button', { hasText: 'Send to the agent' }).click({ timeout: UI_MS });
    let text = '';
    await eventually(async () => /<dialect-ref id="([^"]+)"\/>/.test((text = await readFile(typed, 'utf8'))), UI_MS, 'the reference to be typed into the agent terminal');
    const id = /<dialect-ref id="([^"]+)"\/>/.exec(text)?.[1] ?? '';
    const expanded = await agent.call('expand_reference', { id });
    expect(expanded.isError ?? false).toBe(false);
    expect((expanded.structuredContent as { value: unknown }).value).toEqual({
      kind: 'reply',
      walkthrough: 'How tasks are served',
      'in-reply-to-comment-at': { file: 'src/util.ts', start: { line: lines.utilValidate }, end: { line: lines.utilValidate }, comment: 'The check the login form calls.' },
      reply,
    });
    await widget.locator('.review-comment', { hasText: reply }).waitFor({ timeout: UI_MS });
    await shot('walkthrough-reply');

    // An action button in the panel goes the same way.
    await panel().locator('.wt-action-button', { hasText: 'Add tests' }).click({ timeout: UI_MS });
    await eventually(async () => [...(text = await readFile(typed, 'utf8')).matchAll(/<dialect-ref id="([^"]+)"\/>/g)].length === 2, UI_MS, 'the action to be typed into the agent terminal');
    const actionId = [...text.matchAll(/<dialect-ref id="([^"]+)"\/>/g)][1]?.[1] ?? '';
    const action = await agent.call('expand_reference', { id: actionId });
    expect((action.structuredContent as { value: unknown }).value).toEqual({ kind: 'action', walkthrough: 'How tasks are served', button: 'Add tests', message: 'Write tests for validateToken.' });
  });

  it('opens a comment\'s file at its line when its location is clicked in the panel', async () => {
    await panel().locator('.wt-comment[data-comment="comment-2"] .wt-loc').click({ timeout: UI_MS });
    await page.locator('.tab.active', { hasText: 'auth.ts' }).waitFor({ timeout: UI_MS });
    await page.locator('.review-widget', { hasText: 'validateToken turns a session token' }).first().waitFor({ timeout: UI_MS });
    await page.locator('.editor-group-container.active .line-numbers', { hasText: String(lines.authValidate) }).first().waitFor({ timeout: UI_MS });
  });

  it('moves comments with their code when a file changes above them, and says so when a program no longer resolves', async () => {
    // A file no editor ever showed changes on disk (an agent's edit): its comment follows it too.
    const journal = join(copy.root, 'src/journalRepository.ts');
    await writeFile(journal, `// a line above\n${await readFile(journal, 'utf8')}`);
    await eventually(async () => (await threadOf('comment-4'))?.line === lines.journal + 1, UI_MS, 'the JournalRepository comment to follow an edit of a file never opened');
    const service = join(copy.root, 'src/service.ts');
    await writeFile(service, `// one line above\n// and another\n${await readFile(service, 'utf8')}`);
    await eventually(async () => (await threadOf('comment-1'))?.line === lines.taskService + 2, UI_MS, 'the TaskService comment to move two lines down');
    expect(await threadOf('comment-2')).toMatchObject({ line: lines.authValidate, state: 'placed' });

    const auth = join(copy.root, 'src/auth.ts');
    await writeFile(auth, (await readFile(auth, 'utf8')).replace('export function validateToken', 'export function checkToken'));
    await eventually(async () => (await threadOf('comment-2'))?.state === 'stale', UI_MS, 'the comment whose program no longer resolves to say so');
    const stale = await threadOf('comment-2');
    expect(stale).toMatchObject({ path: 'src/auth.ts', line: lines.authValidate, label: 'How tasks are served (stale)' });
    expect((await shown())?.revision).toBeGreaterThan(0);
  });

  it('a second walkthrough replaces the first one\'s threads, and closing it removes its own', async () => {
    const { data } = await present(SECOND);
    expect(data.shownIn?.threads).toEqual([{ comment: 'comment-1', path: 'src/memoryRepository.ts', line: lines.memoryRepository }]);
    expect((await shown())?.threads.map((t) => t.body)).toEqual(['MemoryRepository keeps every task in a Map.']);
    await panel().locator('h1', { hasText: 'Where tasks are stored' }).waitFor({ timeout: UI_MS });
    // Its diagram is drawn in the panel by the bundled mermaid, under the panel's policy.
    await panel().locator('html[data-mermaid="done"] .wt-mermaid.wt-mermaid-rendered svg').first().waitFor({ timeout: UI_MS });
    await page.locator('.review-widget', { hasText: 'MemoryRepository keeps every task' }).first().waitFor({ timeout: UI_MS });
    expect(await page.locator('.review-widget', { hasText: 'TaskService keeps the tasks' }).count()).toBe(0);
    await shot('walkthrough-second');

    // Closing the panel's tab closes the walkthrough.
    const tab = page.locator('.tab', { hasText: 'Where tasks are stored' });
    await tab.hover({ timeout: UI_MS });
    await tab.getByRole('button', { name: /^Close/ }).click({ timeout: UI_MS });
    await eventually(async () => (await shown()) === null, UI_MS, 'the walkthrough to close');
    await page.locator('.review-widget', { hasText: 'MemoryRepository keeps every task' }).waitFor({ state: 'detached', timeout: UI_MS });
  });

  it('copies a reply with a visible notice when the agent runs in no terminal of the window; the close command removes the walkthrough', async () => {
    // An agent started outside the editor: its MCP server finds the window by DIALECT_IDE.
    const env = await childEnv(scratch, { DIALECT_IDE: window.record.socket, DIALECT_NO_SERVER: '0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', copy.root], env, stderr: 'pipe' });
    const client = new Client({ name: 'dialect-outside-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'present_walkthrough', arguments: { content: THIRD, baseUri: copy.root } }, undefined, { timeout: UI_MS })) as CallToolResult;
      expect((result.structuredContent as unknown as PresentWalkthroughResult).shownIn?.threads).toEqual([{ comment: 'comment-1', path: 'src/auth.ts', line: lines.session }]);
      const widget = page.locator('.review-widget', { hasText: 'A session ties a token' }).first();
      await widget.locator('.review-thread-reply-button').click({ timeout: UI_MS });
      await widget.locator('.comment-form .monaco-editor').first().click({ timeout: UI_MS });
      await page.keyboard.type('Is it ever renewed?');
      await widget.locator('.monaco-button', { hasText: 'Send to the agent' }).click({ timeout: UI_MS });
      await page.locator('.notifications-toasts', { hasText: /Dialect: .*the agent does not run in one of this window's terminals/ }).waitFor({ timeout: UI_MS });
      await widget.locator('.review-comment', { hasText: 'copied for the agent' }).waitFor({ timeout: UI_MS });
      await shot('walkthrough-copied');
    } finally {
      await client.close();
    }
    await page.keyboard.press('F1');
    await page.keyboard.type('Dialect: Close the walkthrough');
    await page.keyboard.press('Enter');
    await eventually(async () => (await shown()) === null, UI_MS, 'the walkthrough to close');
    await page.locator('.review-widget', { hasText: 'A session ties a token' }).waitFor({ state: 'detached', timeout: UI_MS });
  });
});
