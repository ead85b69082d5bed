/**
 * `present_walkthrough` through the built stdio server and a real MCP client: `baseUri` cannot
 * widen what the server reads (`/`, `file:///etc`, the parent folder, `..`, a symlink inside the
 * workspace that leads out are tool errors naming the allowed folder; a real subfolder works,
 * with paths relative to it), and the 1 M-character walkthrough with 13,874 comments is refused at
 * once with the limit, no stack trace, while the server keeps answering. Pages go to the user's
 * pages folder (`$XDG_CACHE_HOME/dialect/walkthroughs`), where week-old pages are removed, rather
 * than to a new temporary folder per server run.
 */
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_COMMENT_COUNT, largeWalkthrough } from '../../walkthrough/test/support/large.js';
import type { PresentWalkthroughResult } from '../index.js';
import { asResult, repoRoot, textOf } from './support.js';

const cliEntry = join(repoRoot, 'bin', 'dialect.js');

describe('present_walkthrough stays inside the workspace and within its limits (stdio)', { timeout: 120_000 }, () => {
  let base: string;
  let root: string;
  let outside: string;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    expect(existsSync(join(repoRoot, 'dist', 'cli', 'main.js')), 'run npm run build first').toBe(true);
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-mcp-confine-')));
    root = join(base, 'workspace');
    outside = join(base, 'outside');
    await mkdir(join(root, 'sub'), { recursive: true });
    await mkdir(outside);
    await mkdir(`${root}-sibling`);
    await writeFile(join(root, 'notes.txt'), 'root notes\n');
    await writeFile(join(root, 'sub', 'notes.txt'), 'subfolder notes\n');
    await writeFile(join(outside, 'notes.txt'), 'secret notes\n');
    await symlink(outside, join(root, 'leads-out'));
    // A page from eight days ago and one from yesterday, in the pages folder; the server's temp dir.
    await mkdir(pages(), { recursive: true });
    await writeFile(join(pages(), 'walkthrough-old-1.html'), 'old');
    await writeFile(join(pages(), 'walkthrough-recent-1.html'), 'recent');
    await writeFile(join(pages(), 'notes.html'), 'not ours');
    const day = 24 * 60 * 60;
    const now = Date.now() / 1000;
    utimesSync(join(pages(), 'walkthrough-old-1.html'), now - 8 * day, now - 8 * day);
    utimesSync(join(pages(), 'walkthrough-recent-1.html'), now - day, now - day);
    utimesSync(join(pages(), 'notes.html'), now - 30 * day, now - 30 * day);
    await mkdir(join(base, 'tmp'));
    // A subfolder whose own dialect.json would run a program (it leaves a marker when it runs).
    await mkdir(join(root, 'vendored'));
    await writeFile(join(root, 'vendored', 'notes.txt'), 'vendored notes\n');
    await writeFile(join(root, 'vendored', 'x.evil'), 'evil\n');
    await writeFile(join(base, 'evil.sh'), `#!/bin/sh\ntouch ${join(base, 'evil-ran')}\nexit 1\n`);
    await chmod(join(base, 'evil.sh'), 0o755);
    const evil = { id: 'evil', command: join(base, 'evil.sh'), languages: [{ languageId: 'evil', extensions: ['.evil'] }] };
    await writeFile(join(root, 'vendored', 'dialect.json'), JSON.stringify({ servers: [evil] }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliEntry, 'mcp', '--workspace', root],
      // In-process: no background server outlives the test.
      env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: join(base, 'cache'), TMPDIR: join(base, 'tmp'), DIALECT_NO_SERVER: '1' },
      stderr: 'pipe',
      cwd: repoRoot,
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'dialect-confine-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  const pages = (): string => join(base, 'cache', 'dialect', 'walkthroughs');
  const present = async (content: string, baseUri: string) => {
    const result = asResult(await client.callTool({ name: 'present_walkthrough', arguments: { content, baseUri } }, undefined, { timeout: 120_000 }));
    return { result, text: textOf(result), data: result.structuredContent as PresentWalkthroughResult | undefined };
  };
  const readsNotes = "# Notes\n\n<comment location='lines(\"notes.txt\", 1, 1)'>The notes.</comment>\n";

  it.each([
    ['/', () => '/'],
    ['file:///etc', () => 'file:///etc'],
    ['the parent folder', () => join(root, '..')],
    ['the parent folder as a file:// URI', () => pathToFileURL(join(root, '..')).href],
    ['..', () => '..'],
    ['a sibling whose name starts with the workspace name', () => `${root}-sibling`],
    ['a symlink inside the workspace that leads out', () => join(root, 'leads-out')],
    ['a path through that symlink', () => `${join(root, 'leads-out')}/`],
  ])('%s is a tool error that names the allowed folder', async (_, baseUri) => {
    const { result, text } = await present(readsNotes, baseUri());
    expect(result.isError).toBe(true);
    expect(text).toContain(`pass the server's workspace ${root}`);
    expect(text).not.toContain('secret notes');
  });

  it('says why a symlink is refused', async () => {
    const { text } = await present(readsNotes, join(root, 'leads-out'));
    expect(text).toContain(`is outside the server's workspace (it leads to ${outside} through a symbolic link)`);
  });

  it('no page was written for the refused calls', () => {
    expect(readdirSync(pages()).sort()).toEqual(['notes.html', 'walkthrough-old-1.html', 'walkthrough-recent-1.html']);
  });

  it('the workspace and a real subfolder work; paths are relative to the folder given', async () => {
    const atRoot = await present(readsNotes, root);
    expect(atRoot.result.isError).toBeUndefined();
    expect(atRoot.data?.counts).toMatchObject({ comments: 1, resolved: 1 });
    expect(atRoot.data?.workspace).toBe(root);
    expect(atRoot.text).toContain('Everything resolved.');
    // Written to the user's pages folder, where the week-old page is gone; nothing in the temp dir.
    expect(atRoot.data?.path?.startsWith(`${pages()}/walkthrough-notes-`)).toBe(true);
    expect(readdirSync(pages()).filter((n) => !n.startsWith('walkthrough-notes-')).sort()).toEqual(['notes.html', 'walkthrough-recent-1.html']);
    expect(readdirSync(join(base, 'tmp')).filter((n) => n.startsWith('dialect-walkthroughs-'))).toEqual([]);

    const inSub = await present(readsNotes, pathToFileURL(join(root, 'sub')).href);
    expect(inSub.result.isError).toBeUndefined();
    expect(inSub.data?.workspace).toBe(join(root, 'sub'));
    expect(inSub.data?.counts).toMatchObject({ comments: 1, resolved: 1 });
    const html = await readFile(inSub.data?.path ?? '', 'utf8');
    expect(html).toContain('subfolder notes');
    expect(html).not.toContain('root notes');
  });

  it("a subfolder's own dialect.json does not choose what runs: its session uses the workspace's", async () => {
    const md = "# Vendored\n\n<comment location='documentSymbols(\"x.evil\")'>Outline.</comment>\n\n<comment location='lines(\"notes.txt\", 1, 1)'>Notes.</comment>\n";
    const { result, data } = await present(md, join(root, 'vendored'));
    expect(result.isError).toBeUndefined();
    expect(data?.counts).toMatchObject({ comments: 2, resolved: 1, unresolved: 1 });
    expect(existsSync(join(base, 'evil-ran'))).toBe(false);
  });

  it(`refuses the 1 M-character walkthrough with ${LARGE_COMMENT_COUNT} comments at once, with the limit, and keeps serving`, async () => {
    const content = largeWalkthrough();
    expect(content).toHaveLength(1_000_000);
    const started = Date.now();
    const { result, text } = await present(content, root);
    const ms = Date.now() - started;
    expect(result.isError).toBe(true);
    expect(text).toContain(`the walkthrough has ${LARGE_COMMENT_COUNT.toLocaleString('en-US')} comments; the limit is 500 (maxComments)`);
    expect(text).toContain('Split it into several walkthroughs');
    expect(ms).toBeLessThan(30_000);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain('Invalid string length');
    const after = asResult(await client.callTool({ name: 'ide_operation', arguments: { program: 'lines("notes.txt", 1, 1)' } }));
    expect(after.isError).toBeFalsy();
    expect(textOf(after)).toContain('root notes');
  });
});
