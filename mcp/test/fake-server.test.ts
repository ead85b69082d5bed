/**
 * Cancellation, progress and indexing state end to end — MCP client → server → interpreter →
 * LSP client → language server — against the scriptable fake server of `fakes/fake-lsp.js`, where
 * timing is under the test's control.
 */
import { McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { IdeSession } from '../../ide-adapter/index.js';
import type { IdeOperationResult } from '../index.js';
import { asResult, connect, eventually, fakeServer, fakeStats, fakeWorkspace, statsReached, textOf, type Connected } from './support.js';

interface Fixture {
  readonly session: IdeSession;
  readonly c: Connected;
  dispose(): Promise<void>;
}

const open: Fixture[] = [];

async function fixture(args: readonly string[], readyTimeoutMs: number): Promise<Fixture> {
  const dir = await fakeWorkspace();
  const session = await IdeSession.open({ workspaceRoot: dir.path, definitions: [fakeServer(args)], trusted: true, readyTimeoutMs, settleMs: 100 });
  const c = await connect(session);
  await c.client.listTools();
  const f = {
    session,
    c,
    dispose: async () => {
      await c.close();
      await session.shutdown();
      await dir.dispose();
    },
  };
  open.push(f);
  return f;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.dispose()));
});

const call = async (c: Connected, program: string, options: { signal?: AbortSignal; onprogress?: (p: Progress) => void } = {}) => {
  const result = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program } }, undefined, options));
  return { result, text: textOf(result), data: result.structuredContent as IdeOperationResult };
};

describe('ide_operation against a fake language server', () => {
  it('finds a definition through the server', async () => {
    const { c } = await fixture([], 10_000);
    const { result, text, data } = await call(c, 'findDefinitions("Widget")');
    expect(result.isError).toBeUndefined();
    expect(text).toContain('widget.fake:1:7');
    expect(text).toContain('class Widget {}');
    expect(data.indexing).toMatchObject({ complete: true, pending: [] });
    expect(data.indexing.servers[0]).toMatch(/^fake-lsp: ready/);
    // A complete answer carries no status line: its structured indexing says it is complete.
    expect(text).not.toMatch(/incomplete|language servers/);
  });

  it('a cancelled call sends $/cancelRequest to the server, and the server keeps answering', async () => {
    const { c, session } = await fixture([], 10_000);
    const controller = new AbortController();
    const slow = call(c, 'findDefinitions("Slowpoke")', { signal: controller.signal });
    await eventually(async () => (await fakeStats(session)).slowRequests === 1, 10_000, 'the slow request reaching the server');
    expect(c.server.stats.activeCalls).toBe(1);
    controller.abort(new Error('the user pressed stop'));
    await expect(slow).rejects.toBeInstanceOf(McpError);
    await eventually(async () => (await fakeStats(session)).cancelled === 1, 5000, '$/cancelRequest at the server');
    await statsReached(c.server, (stats) => stats.activeCalls === 0, 5000, 'the evaluation to end');
    const { data } = await call(c, 'findDefinitions("Widget")');
    expect(data.kind).toBe('value');
    expect((data.value as unknown[]).length).toBe(1);
  });

  it('the deadline ends a call that takes too long, with an error that says so', async () => {
    const dir = await fakeWorkspace();
    const session = await IdeSession.open({ workspaceRoot: dir.path, definitions: [fakeServer()], trusted: true, readyTimeoutMs: 10_000, settleMs: 100 });
    const c = await connect(session, { deadlineMs: 1500 });
    open.push({ session, c, dispose: async () => (await c.close(), await session.shutdown(), await dir.dispose()) });
    const { result, text, data } = await call(c, 'findDefinitions("Slowpoke")');
    expect(result.isError).toBe(true);
    expect(data.error?.code).toBe('deadline-exceeded');
    expect(text).toContain('did not finish within 1.5 s');
    await eventually(async () => (await fakeStats(session)).cancelled === 1, 5000, '$/cancelRequest after the deadline');
  });

  it('forwards the server status as progress notifications while it indexes', async () => {
    const { c } = await fixture(['--index-ms=1500'], 20_000);
    const progress: Progress[] = [];
    const { data } = await call(c, 'findDefinitions("Widget")', { onprogress: (p) => progress.push(p) });
    expect(data.kind).toBe('value');
    expect(data.indexing.complete).toBe(true);
    const messages = progress.map((p) => p.message ?? '');
    expect(messages[0]).toContain('evaluating findDefinitions("Widget")');
    expect(messages.some((m) => /^fake-lsp: indexing \d+% \(Indexing \d+\/\d+ files\)/.test(m))).toBe(true);
    // Progress values increase strictly.
    for (let i = 1; i < progress.length; i++) expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress ?? Infinity);
  });

  it('says when the servers had not finished indexing', async () => {
    const { c } = await fixture(['--index-ms=5000'], 300);
    const { result, text, data } = await call(c, 'findDefinitions("Widget")');
    expect(result.isError).toBeUndefined();
    expect(data.indexing.complete).toBe(false);
    expect(data.indexing.pending[0]).toMatch(/^fake-lsp: indexing/);
    expect(text).toMatch(/^\[incomplete: fake-lsp (indexing|starting)[^\]]*— ask again shortly\]$/m);
  });

  it('never calls a degraded server ready: answers say they may be incomplete', async () => {
    const { c } = await fixture(['--health=warning:the build script of widget failed'], 10_000);
    const { result, text, data } = await call(c, 'findDefinitions("Widget")');
    expect(result.isError).toBeUndefined();
    expect(data.kind).toBe('value');
    expect(data.indexing.complete).toBe(false);
    expect(data.indexing.pending).toEqual(['fake-lsp: degraded (the build script of widget failed)']);
    // The reason is told once, as a note; every incomplete answer carries the short marker.
    expect(data.notes.join('\n')).toContain('fake-lsp is degraded: the build script of widget failed');
    expect(text).toContain('[incomplete: fake-lsp degraded]');
    const again = await call(c, 'findDefinitions("Widget")');
    expect(again.text).toContain('[incomplete: fake-lsp degraded]');
    expect(again.text).not.toContain('the build script of widget failed');
    expect(again.text).not.toMatch(/ready/);
  });

  it('answers 50 concurrent calls over one server', async () => {
    const { c, session } = await fixture([], 10_000);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call(c, i % 2 === 0 ? 'findDefinitions("Widget")' : `findFiles("*.fake")`)));
    for (const [i, { data }] of results.entries()) {
      expect(data.kind).toBe('value');
      if (i % 2 === 0) expect((data.value as { name: string }[])[0]?.name).toBe('Widget');
      else expect(data.value).toEqual(['widget.fake']);
    }
    // One server process served them all.
    const pids = new Set((session.backend.servers()).map((s) => s.pid));
    expect(pids.size).toBe(1);
    expect((await fakeStats(session)).symbolRequests).toBeGreaterThanOrEqual(25);
  });
});
