/**
 * The MCP server over the client's roots (`workspaces.ts`), through a real MCP client on the
 * in-memory transport: each root is a workspace with its own session, named by its folder; a call
 * names one when there are several; roots that change open and close sessions; a root that is the
 * home folder is never served, and without roots a start folder of `/` or home is refused.
 */
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdeSession } from '../../ide-adapter/index.js';
import { createRootsMcpServer, type DialectMcpServer } from '../index.js';
import { nullSession, tempDir, textOf } from './support.js';

interface Rooted {
  readonly client: Client;
  readonly server: DialectMcpServer;
  /** Sessions opened for roots, and those shut down, by root. */
  readonly opened: string[];
  readonly closed: string[];
  close(): Promise<void>;
}

/** A client with (or without) the roots capability, connected to a roots server started in `startFolder`. */
let pagesDir = '/nonexistent';

async function connectRooted(startFolder: string, roots: { list: string[] } | undefined): Promise<Rooted> {
  const opened: string[] = [];
  const closed: string[] = [];
  const server = createRootsMcpServer({
    startFolder,
    openRoot: async (root) => {
      opened.push(root);
      const session: IdeSession = await nullSession(root);
      const shutdown = session.shutdown.bind(session);
      session.shutdown = async () => {
        closed.push(root);
        await shutdown();
      };
      return session;
    },
  }, { outputDir: join(pagesDir, '.pages'), editorEnv: { DIALECT_IDE: 'off' } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'roots-test', version: '1.0.0' }, { capabilities: roots !== undefined ? { roots: { listChanged: true } } : {} });
  if (roots !== undefined) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.list.map((dir) => ({ uri: pathToFileURL(dir).href })) }));
  await client.connect(clientTransport);
  return {
    client,
    server,
    opened,
    closed,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const call = (c: Rooted, program: string, workspace?: string): Promise<CallToolResult> =>
  c.client.callTool({ name: 'ide_operation', arguments: { program, ...(workspace !== undefined ? { workspace } : {}) } }) as Promise<CallToolResult>;

describe("the client's roots", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let api: string;
  let web: string;
  let twin: string;
  beforeAll(async () => {
    dir = await tempDir('roots');
    const base = await realpath(dir.path);
    pagesDir = base;
    api = join(base, 'api');
    web = join(base, 'web');
    twin = join(base, 'nested', 'api');
    for (const [root, text] of [
      [api, 'in api'],
      [web, 'in web'],
      [twin, 'in the other api'],
    ] as const) {
      await mkdir(join(root, 'docs'), { recursive: true });
      await writeFile(join(root, 'docs', 'note.md'), `${text}\n`);
    }
  });
  afterAll(() => dir?.dispose());

  it('serves one root without a workspace argument, its paths relative to the root', async () => {
    const c = await connectRooted('/', { list: [api] });
    try {
      expect(textOf(await call(c, 'search("docs", "in")'))).toContain('docs/note.md:1:1  in api');
      expect(c.server.workspaces).toEqual([{ name: 'api', root: api }]);
    } finally {
      await c.close();
    }
  });

  it('asks which of several roots a call means, by folder name or path, and follows changes', async () => {
    const roots = { list: [api, web] };
    const c = await connectRooted('/', roots);
    try {
      const unnamed = await call(c, 'search("docs", "in")');
      expect(unnamed.isError).toBe(true);
      expect(textOf(unnamed)).toContain(`"api" (${api}), "web" (${web})`);
      expect(textOf(await call(c, 'search("docs", "in")', 'web'))).toContain('in web');
      expect(textOf(await call(c, 'search("docs", "in")', pathToFileURL(api).href))).toContain('in api');
      const wrong = await call(c, 'search("docs", "in")', 'nope');
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toContain('"nope" is none of the server\'s workspaces');

      // Two roots named "api": the name is ambiguous, the path is not; web's session stops.
      roots.list = [api, twin];
      await c.client.sendRootsListChanged();
      const twice = await call(c, 'search("docs", "in")', 'api');
      expect(twice.isError).toBe(true);
      expect(textOf(twice)).toContain('several workspaces are named "api"');
      expect(textOf(await call(c, 'search("docs", "in")', twin))).toContain('in the other api');
      expect(c.closed).toEqual([web]);
      expect(c.opened.filter((r) => r === api)).toHaveLength(1);
    } finally {
      await c.close();
    }
    expect(c.closed.sort()).toEqual([api, twin, web].sort());
  });

  it('finds the workspace of a walkthrough from its baseUri, and refuses a folder outside every root', async () => {
    const c = await connectRooted('/', { list: [api, web] });
    try {
      const outside = await c.client.callTool({ name: 'present_walkthrough', arguments: { content: '# T\n', baseUri: dir.path } });
      expect((outside as CallToolResult).isError).toBe(true);
      expect(textOf(outside)).toContain("in none of the server's workspaces");
      const escape = join(web, 'escape');
      await symlink(api, escape);
      const linked = await c.client.callTool({ name: 'present_walkthrough', arguments: { content: '# T\n', baseUri: escape } });
      // The link leads into another root: served as that root's folder, never as web's.
      expect((linked.structuredContent as { workspace?: string } | undefined)?.workspace).toBe(api);
    } finally {
      await c.close();
    }
  });

  it('never serves the home folder as a root, and without roots refuses a start folder of / or home', async () => {
    const home = await connectRooted('/', { list: [homedir()] });
    try {
      const result = await call(home, 'search("docs", "in")');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('no workspace');
      expect(home.opened).toEqual([]);
    } finally {
      await home.close();
    }
    for (const start of ['/', homedir()]) {
      const c = await connectRooted(start, undefined);
      try {
        const result = await call(c, 'search("docs", "in")');
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('--workspace');
        expect(c.opened).toEqual([]);
      } finally {
        await c.close();
      }
    }
  });

  it('without roots serves the folder it started in', async () => {
    const c = await connectRooted(web, undefined);
    try {
      expect(textOf(await call(c, 'search("docs", "in")'))).toContain('in web');
      expect(c.opened).toEqual([web]);
    } finally {
      await c.close();
    }
  });
});
