/**
 * The protocol's transport: one JSON-RPC connection over one socket (a Unix socket for the
 * background server), the same framing LSP uses (`Content-Length` headers).
 */
import type { Socket } from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

/**
 * A JSON-RPC connection over a connected socket, not listening yet (`serveBackend` listens on the
 * serving side, `RemoteBackend` on the client side). Disposing it does not close the socket.
 */
export function socketConnection(socket: Socket): MessageConnection {
  return createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
}
