/** Helpers for the MCP tests: a real MCP client over the in-memory transport, fake workspaces. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BackendSymbol, CallEdge, CallItem, Completeness, DiagnosticReport, HoverInfo, IdeBackend, Location, LspBackend, OutlineSymbol, ReferenceList, ServerStatus, TypeItem } from '../../ide-adapter/index.js';
import { IdeSession, Workspace } from '../../ide-adapter/index.js';
import type { ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import { createMcpServer, type DialectMcpOptions, type DialectMcpServer, type ServerStats } from '../index.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fakeLspScript = fileURLToPath(new URL('./fakes/fake-lsp.js', import.meta.url));

/** A connected client and server; `close` disconnects both (the session is the caller's). */
export interface Connected {
  readonly client: Client;
  readonly server: DialectMcpServer;
  close(): Promise<void>;
}

/** A real MCP `Client` connected to a server over the in-memory transport. */
export async function connect(session: IdeSession, options: DialectMcpOptions = {}): Promise<Connected> {
  const server = createMcpServer(session, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'dialect-mcp-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result (all text parts joined). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** A tool result, typed. */
export function asResult(result: unknown): CallToolResult {
  return result as CallToolResult;
}

/** A temporary folder, removed by `dispose`. */
export async function tempDir(prefix: string): Promise<{ path: string; dispose: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `dialect-mcp-${prefix}-`));
  return { path, dispose: () => rm(path, { recursive: true, force: true }) };
}

/** A backend without language servers: every query answers nothing. For tests of the protocol. */
export class NullBackend implements IdeBackend {
  readonly workspace: Workspace;
  constructor(root: string) {
    this.workspace = new Workspace(root);
  }
  workspaceSymbols(): Promise<BackendSymbol[]> {
    return Promise.resolve([]);
  }
  documentSymbols(): Promise<OutlineSymbol[]> {
    return Promise.resolve([]);
  }
  definition(): Promise<Location[]> {
    return Promise.resolve([]);
  }
  references(): Promise<ReferenceList> {
    return Promise.resolve({ locations: [], total: 0 });
  }
  hover(): Promise<HoverInfo | undefined> {
    return Promise.resolve(undefined);
  }
  implementation(): Promise<Location[]> {
    return Promise.resolve([]);
  }
  prepareCallHierarchy(): Promise<CallItem[]> {
    return Promise.resolve([]);
  }
  incomingCalls(): Promise<CallEdge[]> {
    return Promise.resolve([]);
  }
  outgoingCalls(): Promise<CallEdge[]> {
    return Promise.resolve([]);
  }
  typeDefinition(): Promise<Location[]> {
    return Promise.resolve([]);
  }
  prepareTypeHierarchy(): Promise<TypeItem[]> {
    return Promise.resolve([]);
  }
  typeHierarchy(): Promise<TypeItem[]> {
    return Promise.resolve([]);
  }
  diagnostics(): Promise<DiagnosticReport> {
    return Promise.resolve({ diagnostics: [], complete: true, files: 0 });
  }
  handles(): boolean {
    return false;
  }
  modulePath(): Promise<string[][]> {
    return Promise.resolve([]);
  }
  relativeQualifiers(): readonly string[] {
    return [];
  }
  start(): Promise<void> {
    return Promise.resolve();
  }
  waitUntilReady(): Promise<Completeness> {
    return Promise.resolve({ complete: true, servers: [], waitedMs: 0, warnings: [], notes: [] });
  }
  servers(): ServerStatus[] {
    return [];
  }
  use(): () => void {
    return () => undefined;
  }
  onStatus(): () => void {
    return () => undefined;
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A session on a folder with no language servers (see {@link NullBackend}). */
export function nullSession(root: string): Promise<IdeSession> {
  return IdeSession.open({ workspaceRoot: root, backend: new NullBackend(root) });
}

/** The fake language server of `fakes/fake-lsp.js`, for `*.fake` files in a folder with `fake.project`. */
export function fakeServer(args: readonly string[] = []): ServerDefinition {
  return {
    id: 'fake-lsp',
    displayName: 'fake-lsp',
    languages: [{ languageId: 'fake', extensions: ['.fake'] }],
    rootMarkers: ['fake.project'],
    candidates: () => [fakeLspScript],
    args,
    readiness: 'progress',
    installHint: 'it is a test fake (mcp/test/fakes/fake-lsp.js)',
  };
}

/** A folder the fake server serves: `fake.project` and `widget.fake` (`class Widget {}`). */
export async function fakeWorkspace(): Promise<{ path: string; dispose: () => Promise<void> }> {
  const dir = await tempDir('fake');
  await writeFile(join(dir.path, 'fake.project'), '');
  await writeFile(join(dir.path, 'widget.fake'), 'class Widget {}\n');
  return dir;
}

/** `fake/stats` of the fake server of a session. */
export async function fakeStats(session: IdeSession): Promise<{ cancelled: number; slowRequests: number; symbolRequests: number; pid: number }> {
  const backend = session.backend as LspBackend;
  const server = await backend.pool.server('fake-lsp');
  return server.request('fake/stats', {});
}

/**
 * Resolves when the server's call counts satisfy `check`: now, or at the stats event that makes
 * them (a call starting or ending); fails after `timeoutMs`.
 */
export function statsReached(server: DialectMcpServer, check: (stats: ServerStats) => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check(server.stats)) return resolve();
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`${what} not met within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = server.onStats((stats) => {
      if (!check(stats)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Polls until `check` holds (or fails after `timeoutMs`). Only for conditions in another process
 * that emits no event for them (a language server's counters, a process exiting); in-process
 * state has events (`statsReached`, status listeners).
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
