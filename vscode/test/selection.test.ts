/**
 * The editor's selection from outside the editor: text selected through the real VS Code UI
 * (Quick Open, Go to Line, select word with the keyboard) is what `dialect eval 'selection()'`
 * and MCP's `get_selection` (a real MCP client over stdio) answer, with workspace-relative paths
 * and 1-based code-point positions, and `findReferences(symbolAt(selection()))` asks about it.
 * Without an active editor, or without an editor at all, `get_selection` says so with a code. A
 * `dialect` on a subfolder of the window's folder is answered by the window, in its own paths.
 */
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, childEnv, requireFreshBuild, runDialect, tempDir } from '../../cli/test/support/cli.js';
import { connectRemoteBackend, type RemoteBackend } from '../../ide-adapter/remote/remote-backend.js';
import { copyFixture, positionOf } from '../../ide-adapter/test/support/servers.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import type { Location, Reference } from '../../ide-adapter/model.js';
import { eventually } from '../../mcp/test/support.js';
import { openVsCode, requireRig, type VsCodeWindow } from './support/rig.js';

const rig = await requireRig();

/** How long the UI may take to show a file and move the selection, and the extension host to see it. */
const UI_MS = 30_000;
/** The selected word and the line it is on in src/service.ts (the fixture). */
const SELECTED = 'validateToken';
const SELECTED_LINE = 'if (!validateToken(token))';

/** The structured content of a `get_selection` result. */
interface SelectionContent {
  selection: { selectedText: string; path: string; start: { line: number; column: number }; end: { line: number; column: number } } | null;
  reason?: string;
  code?: string;
}

/** A real MCP client on `dialect mcp --workspace root`, over stdio. */
async function mcpClient(root: string, env: Record<string, string>): Promise<{ client: Client; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', root], env, stderr: 'pipe' });
  const client = new Client({ name: 'dialect-selection-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

async function getSelection(client: Client): Promise<SelectionContent> {
  const result = (await client.callTool({ name: 'get_selection', arguments: {} })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as unknown as SelectionContent;
}

describe('get_selection without an editor', () => {
  let state: { path: string; dispose: () => Promise<void> };
  let copy: { root: string; dispose: () => Promise<void> };
  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-noeditor-');
    copy = await copyFixture('ts-app');
  });
  afterAll(async () => {
    await copy?.dispose();
    await state?.dispose();
  });

  it('answers null with the no-editor code, and selection() fails with it', async () => {
    const env = await childEnv(state.path, { DIALECT_IDE: 'off' });
    const mcp = await mcpClient(copy.root, env);
    try {
      const content = await getSelection(mcp.client);
      expect(content.selection).toBeNull();
      expect(content.code).toBe('no-editor');
      expect(content.reason).toMatch(/no editor is connected/);
    } finally {
      await mcp.close();
    }
    const r = await runDialect(['eval', 'selection()', '--json', '--workspace', copy.root], { env });
    expect(r.code).not.toBe(0);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('no-editor');
  });
});

describe.skipIf(rig === undefined)('the selection of a real VS Code window', () => {
  let window: VsCodeWindow;
  let copy: { root: string; dispose: () => Promise<void> };
  let state: { path: string; dispose: () => Promise<void> };
  let backend: RemoteBackend;
  let env: Record<string, string>;
  /** Where the selected word starts in src/service.ts, from the fixture text. */
  let at: { line: number; column: number };

  beforeAll(async () => {
    requireFreshBuild();
    copy = await copyFixture('ts-app');
    state = await tempDir('dialect-selection-');
    window = await openVsCode(rig as NonNullable<typeof rig>, copy.root);
    backend = await connectRemoteBackend(window.record.socket, new Workspace(await realpath(copy.root)));
    env = await childEnv(state.path, { DIALECT_NO_SERVER: '0', DIALECT_IDE: window.record.socket });
    const p = positionOf(await readFile(join(copy.root, 'src/service.ts'), 'utf8'), SELECTED_LINE);
    at = { line: p.line, column: p.column + SELECTED_LINE.indexOf(SELECTED) };
  });

  afterAll(async () => {
    await backend?.shutdown();
    await window?.close();
    await copy?.dispose();
    await state?.dispose();
  });

  it('sees a word selected through the UI', async () => {
    const page = window.page;
    // Quick Open (the command palette without its `>`), once the workbench is there to take keys.
    await page.locator('.monaco-workbench').waitFor({ timeout: UI_MS });
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: UI_MS });
    await input.fill('service.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'service.ts' }).first().waitFor({ timeout: UI_MS });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'service.ts' }).waitFor({ timeout: UI_MS });
    // Go to Line, then select the word to its right with the keyboard.
    await input.waitFor({ state: 'hidden', timeout: UI_MS });
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: UI_MS });
    await input.fill(`:${at.line}:${at.column}`);
    // Enter only once the picker has read the line (before that, Enter goes nowhere).
    await page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`\\b${at.line}\\b`) }).first().waitFor({ timeout: UI_MS });
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: UI_MS });
    await page.keyboard.press('Control+Shift+ArrowRight');
    // The extension host learns of the selection after the workbench: wait (bounded) until it does.
    await eventually(async () => (await backend.selection())?.content === SELECTED, UI_MS, `the extension to see "${SELECTED}" selected`);
  });

  it('dialect eval selection() answers it, and findReferences(symbolAt(selection())) asks about it', async () => {
    const r = await runDialect(['eval', 'selection()', '--json', '--workspace', copy.root], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const value = (JSON.parse(r.stdout) as { value: Location }).value;
    expect(value).toEqual({ path: 'src/service.ts', start: at, end: { line: at.line, column: at.column + SELECTED.length }, content: SELECTED });

    const refs = await runDialect(['eval', 'findReferences(symbolAt(selection()))', '--json', '--workspace', copy.root], { env });
    expect(refs.code, refs.stdout + refs.stderr).toBe(0);
    const list = (JSON.parse(refs.stdout) as { value: Reference[] }).value;
    expect(list.every((ref) => ref.name === SELECTED && ref.definedAt.path === 'src/util.ts')).toBe(true);
    expect(list.map((ref) => `${ref.referencedAt.path}:${ref.referencedAt.start.line}:${ref.referencedAt.start.column}`)).toContain(`src/service.ts:${at.line}:${at.column}`);
  });

  it('a dialect on a subfolder of the window\'s folder finds the window by its record and gets answers in its own paths', async () => {
    const sub = join(copy.root, 'src');
    const subEnv = await childEnv(state.path, { DIALECT_NO_SERVER: '0', XDG_RUNTIME_DIR: window.runtimeDir });
    const r = await runDialect(['eval', 'selection()', '--json', '--workspace', sub], { env: subEnv });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { value: Location }).value).toMatchObject({ path: 'service.ts', start: at, content: SELECTED });
    const def = await runDialect(['eval', 'findDefinition("validateToken", file: "util.ts")', '--json', '--workspace', sub], { env: subEnv });
    expect(def.code, def.stdout + def.stderr).toBe(0);
    const json = JSON.parse(def.stdout) as { value: { definedAt: Location }; indexing: { backend: string } };
    expect(json.value.definedAt.path).toBe('util.ts');
    expect(json.indexing.backend).toBe('vscode');
  });

  it('get_selection answers it through a real MCP client, and null with a code once no editor is active', async () => {
    const mcp = await mcpClient(copy.root, env);
    try {
      expect(await getSelection(mcp.client)).toEqual({
        selection: { selectedText: SELECTED, path: 'src/service.ts', start: at, end: { line: at.line, column: at.column + SELECTED.length } },
      });
      await window.page.keyboard.press('F1');
      await window.page.keyboard.type('View: Close All Editors');
      await window.page.keyboard.press('Enter');
      let content: SelectionContent | undefined;
      await eventually(async () => (content = await getSelection(mcp.client)).selection === null, UI_MS, 'get_selection to see no active editor');
      expect(content?.code).toBe('no-active-editor');
    } finally {
      await mcp.close();
    }
  });
});
