/** A backend served over a real Unix socket in a temp dir, as the background server serves it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LspBackend } from '../../lsp-backend.js';
import { PROTOCOL_VERSION, type HelloInfo } from '../../remote/protocol.js';
import { serveBackend, type ServeOptions } from '../../remote/serve.js';
import { socketConnection } from '../../remote/transport.js';
import { repoRoot } from './servers.js';

/** A listening socket serving one backend to any number of clients. */
export interface ServedBackend {
  readonly socketPath: string;
  /** The server side of every connection accepted so far. */
  readonly sockets: readonly Socket[];
  /** Waits until `count` connections have been accepted. */
  accepted(count: number): Promise<void>;
  /** Destroys the server side of every connection (as a dying server would) and stops listening. */
  close(): Promise<void>;
}

/** The handshake an `LspBackend` served by this process gives. */
export function helloOf(backend: LspBackend, overrides: Partial<HelloInfo> = {}): HelloInfo {
  return {
    protocolVersion: PROTOCOL_VERSION,
    product: { version: 'test', installPath: repoRoot },
    workspaceRoot: backend.workspace.root,
    trusted: true,
    pid: process.pid,
    startedAt: Date.now(),
    languages: backend.languages(),
    servers: backend.servers(),
    ...overrides,
  };
}

/** Serves `backend` on a fresh Unix socket. */
export async function serveOnSocket(backend: LspBackend, options: Partial<ServeOptions> = {}): Promise<ServedBackend> {
  const dir = await mkdtemp(join(tmpdir(), 'dialect-remote-'));
  const socketPath = join(dir, 'server.sock');
  const sockets: Socket[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    serveBackend(backend, socketConnection(socket), { hello: () => helloOf(backend), ...options });
    for (const w of waiters.filter((w) => sockets.length >= w.count)) w.resolve();
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    sockets,
    accepted: (count) => (sockets.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
