/**
 * The bridge out of the editor: serves one folder's `EditorBackend` over the workspace-server
 * protocol (`ide-adapter/remote`, the protocol the background server speaks) on a private Unix
 * socket (mode 0600 in a 0700 folder of the runtime directory), and advertises it with a
 * discovery record keyed by the folder. Any number of clients may connect; each gets its own
 * connection, and closing the bridge closes them all and removes the socket and the record.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { PROTOCOL_VERSION, type HelloInfo } from '../../ide-adapter/remote/protocol.js';
import { serveBackend } from '../../ide-adapter/remote/serve.js';
import { socketConnection } from '../../ide-adapter/remote/transport.js';
import type { MessageConnection, Disposable } from 'vscode-jsonrpc/node';
import type { EditorBackend } from './editor-backend.js';
import { DISCOVERY_VERSION, ensureDiscoveryDir, removeRecord, writeRecord } from '../../ide-adapter/editors/discovery.js';
import { workbenchAnswers, workbenchLost, workbenchProbeDue } from './workbench.js';

/** The socket is the user's alone: it answers questions about their code. */
const SOCKET_MODE = 0o600;
/** Random bytes in a socket's name (Unix socket paths are short: keep names small). */
const SOCKET_NAME_BYTES = 6;

/** What the bridge says about itself in its handshake. */
export interface BridgeIdentity {
  /** The extension's version and folder. */
  readonly version: string;
  readonly installPath: string;
  /** The editor (`Code - OSS 1.139.1`, …), for people. */
  readonly editor: string;
  /** Whether the editor trusts the folder. */
  readonly trusted: () => boolean;
  /** Adds the window's other methods (walkthroughs) to each connection, for this folder's backend. */
  readonly extend?: (connection: MessageConnection, backend: EditorBackend) => Disposable;
}

/** A running bridge. */
export interface Bridge {
  /** The socket clients connect to (`DIALECT_IDE`). */
  readonly socket: string;
  /** Writes the discovery record (once the window is ready to be found); returns its file. */
  advertise(): string;
  /** Stops serving: closes every connection, removes the socket and the record. */
  close(): Promise<void>;
}

/** Serves `backend` for its workspace folder; resolves once clients can connect (call `advertise` to be found). */
export async function openBridge(backend: EditorBackend, identity: BridgeIdentity, env: Readonly<Record<string, string | undefined>> = process.env): Promise<Bridge> {
  const dir = ensureDiscoveryDir(env);
  const socketPath = join(dir, `w-${process.pid}-${randomBytes(SOCKET_NAME_BYTES).toString('hex')}.sock`);
  const startedAt = Date.now();
  const root = backend.workspace.root;
  // A window without its workbench cannot answer anything: the handshake says so (bounded), and
  // the client passes it over — except just after start, when the workbench is there but slow.
  const hello = async (): Promise<HelloInfo> => {
    if (workbenchProbeDue(env) && !(await workbenchAnswers())) throw workbenchLost('the handshake');
    return helloInfo();
  };
  const helloInfo = (): HelloInfo => ({
    protocolVersion: PROTOCOL_VERSION,
    product: { version: identity.version, installPath: identity.installPath },
    workspaceRoot: root,
    trusted: identity.trusted(),
    pid: process.pid,
    startedAt,
    languages: backend.languageInfos(),
    servers: backend.servers(),
  });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that resets its socket must not take the extension host down.
    socket.on('error', () => socket.destroy());
    const extend = identity.extend;
    const served = serveBackend(backend, socketConnection(socket), { hello, ...(extend !== undefined ? { extend: (connection: MessageConnection) => extend(connection, backend) } : {}) });
    socket.on('close', () => served.dispose());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, SOCKET_MODE);
  void backend.start();
  let record: string | undefined;
  return {
    socket: socketPath,
    advertise: () => (record ??= writeRecord(dir, { version: DISCOVERY_VERSION, workspaceRoot: root, socket: socketPath, pid: process.pid, startedAt, editor: identity.editor })),
    close: async () => {
      if (record !== undefined) removeRecord(record);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(socketPath, { force: true });
    },
  };
}
