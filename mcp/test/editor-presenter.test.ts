/**
 * `present_walkthrough` when an editor is (or seems to be) there, through a real MCP client: a
 * `DIALECT_IDE` socket nobody listens on, and an editor that fails the request, both end in the
 * page being written, with the reason in the answer; an editor that shows the walkthrough is
 * answered with where it is shown (no page), and what its reader sends back over the same
 * connection is kept for `expand_reference`. The editor here is a fake that speaks the protocol
 * on a real Unix socket (the real one is tested in vscode/test/walkthrough.test.ts).
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { socketConnection } from '../../ide-adapter/remote/transport.js';
import { DeliverResultSchema, PresentParamsSchema, WalkthroughMethod, type PresentResult } from '../../walkthrough/editor-protocol.js';
import type { PresentWalkthroughResult } from '../index.js';
import { procParent, processAncestry, psParent } from '../process-ancestry.js';
import { asResult, connect, nullSession, tempDir, textOf } from './support.js';

const WALKTHROUGH = '# Notes\n\nSee <comment location=\'search("notes.txt", "hello")\'>the greeting</comment>.\n';

/** A fake editor on a Unix socket: answers `dialect/presentWalkthrough` with `answer(params, connection)`. */
async function fakeEditor(path: string, answer: (params: unknown, connection: MessageConnection) => Promise<unknown>): Promise<{ close: () => Promise<void>; connections: MessageConnection[] }> {
  const connections: MessageConnection[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const connection = socketConnection(socket);
    connections.push(connection);
    connection.onRequest(WalkthroughMethod.Present, (params: unknown) => answer(params, connection));
    connection.listen();
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('present_walkthrough and the editor', () => {
  let dir: { path: string; dispose: () => Promise<void> };
  let root: string;

  beforeAll(async () => {
    dir = await tempDir('editor');
    root = await realpath(join(dir.path));
    await mkdir(join(root, 'pages'));
    await writeFile(join(root, 'notes.txt'), 'hello\n');
  });
  afterAll(async () => {
    await dir?.dispose();
  });

  const present = async (env: Record<string, string>) => {
    const session = await nullSession(root);
    const c = await connect(session, { outputDir: join(root, 'pages'), editorEnv: { ...env, XDG_RUNTIME_DIR: join(root, 'no-runtime') } });
    try {
      const result = asResult(await c.client.callTool({ name: 'present_walkthrough', arguments: { content: WALKTHROUGH, baseUri: root } }));
      return { result, text: textOf(result), data: result.structuredContent as PresentWalkthroughResult, c };
    } catch (error) {
      await c.close();
      throw error;
    }
  };

  it('writes the page when DIALECT_IDE names a socket nobody listens on, and says why', async () => {
    const { result, text, data, c } = await present({ DIALECT_IDE: join(root, 'gone.sock') });
    await c.close();
    expect(result.isError).toBeUndefined();
    expect(data.shownIn).toBeNull();
    expect(data.path).toMatch(/\.html$/);
    expect(text).toMatch(/No editor showed it: .*gone\.sock.*cannot connect/);
  });

  it('writes the page when the editor fails the request, with its error', async () => {
    const socket = join(root, 'failing.sock');
    const editor = await fakeEditor(socket, () => Promise.resolve(new ResponseError(1000, 'the window is closing', { code: 'background-server-lost' })));
    try {
      const { data, text, c } = await present({ DIALECT_IDE: socket });
      await c.close();
      expect(data.shownIn).toBeNull();
      expect(data.path).toMatch(/\.html$/);
      expect(text).toContain('the window is closing');
    } finally {
      await editor.close();
    }
  });

  it('answers where the editor shows it, and keeps what its reader sends for expand_reference', async () => {
    const socket = join(root, 'editor.sock');
    let received: unknown;
    const shown: PresentResult = {
      shown: { editor: 'Fake Editor 1.0', panel: 'Notes', revision: 0, threads: [{ comment: 'comment-1', path: 'notes.txt', line: 1, state: 'placed', label: 'Notes', body: 'the greeting' }], opened: { path: 'notes.txt', line: 1 } },
      json: { title: 'Notes', counts: { comments: 1, resolved: 1, ambiguous: 0, unresolved: 0, actions: 0, diagrams: 0, diffs: 0, failedDiffs: 0, warnings: 0 }, comments: [{ id: 'comment-1', status: 'resolved' }], warnings: [] },
      summary: 'Everything resolved.',
      indexing: { complete: true, pending: [], servers: [], stillIndexing: false, backend: 'vscode' },
    };
    const editor = await fakeEditor(socket, (params) => {
      received = params;
      return Promise.resolve(shown);
    });
    try {
      const { data, text, c } = await present({ DIALECT_IDE: socket });
      try {
        expect(PresentParamsSchema.parse(received)).toMatchObject({ markdown: WALKTHROUGH, folder: root });
        // The editor finds the agent's terminal among these: this process and its ancestors.
        expect(PresentParamsSchema.parse(received).agent?.pids).toEqual(processAncestry());
        expect(data.path).toBeNull();
        expect(data.shownIn).toEqual({ editor: 'Fake Editor 1.0', panel: 'Notes', threads: [{ comment: 'comment-1', path: 'notes.txt', line: 1 }], opened: { path: 'notes.txt', line: 1 } });
        expect(text).toContain('shown in Fake Editor 1.0');

        // The reader replies: the editor hands it back over the same connection and types the id.
        const reply = { kind: 'reply', walkthrough: 'Notes', 'in-reply-to-comment-at': { file: 'notes.txt', start: { line: 1 }, end: { line: 1 }, comment: 'the greeting' }, reply: 'Why hello?' };
        const connection = editor.connections[0];
        if (connection === undefined) throw new Error('the server never connected');
        const { id } = DeliverResultSchema.parse(await connection.sendRequest(WalkthroughMethod.Deliver, reply));
        const expanded = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id: `<dialect-ref id="${id}"/>` } }));
        expect((expanded.structuredContent as { value: unknown }).value).toEqual(reply);
        // Anything else is refused, and nothing is kept.
        await expect(connection.sendRequest(WalkthroughMethod.Deliver, { kind: 'reply', reply: 1 })).rejects.toThrow(/invalid params/);
      } finally {
        await c.close();
      }
    } finally {
      await editor.close();
    }
  });
});

describe('the presenter\'s process ancestry', () => {
  it('is this process, its parent and theirs up to init, the same from /proc and from ps', () => {
    const fromProc = processAncestry(procParent);
    expect(fromProc.slice(0, 2)).toEqual([process.pid, process.ppid]);
    expect(fromProc.length).toBeGreaterThan(2);
    expect(processAncestry(psParent)).toEqual(fromProc);
  });
});
