/**
 * The server's own requests, for `dialect server status` and `stop`: a short JSON-RPC exchange on
 * a server's socket (`dialect/info`, `dialect/stop`) without opening its workspace as a backend.
 */
import { createConnection } from 'node:net';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { RemoteMethod, socketConnection, type ServerInfo } from '../../ide-adapter/index.js';
import { ServerInfoSchema } from '../../ide-adapter/remote/protocol.js';

/** Sends one request on a server's socket and returns the raw result; rejects on timeout or a broken connection. */
async function request(socketPath: string, method: string, timeoutMs: number): Promise<unknown> {
  const socket = createConnection(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const connection = socketConnection(socket);
  connection.listen();
  const cancel = new CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      connection.sendRequest(method, {}, cancel.token),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          cancel.cancel();
          reject(new Error(`${method} got no answer within ${timeoutMs} ms`));
        }, timeoutMs);
      }),
      new Promise<never>((_, reject) => connection.onClose(() => reject(new Error(`the server closed the connection during ${method}`)))),
    ]);
  } finally {
    clearTimeout(timer);
    connection.dispose();
    socket.destroy();
  }
}

/** A server's state (`dialect/info`). */
export async function requestInfo(socketPath: string, timeoutMs: number): Promise<ServerInfo> {
  return ServerInfoSchema.parse(await request(socketPath, RemoteMethod.Info, timeoutMs));
}

/** Asks a server to stop (`dialect/stop`); it answers, then shuts its language servers down and exits. */
export async function requestStop(socketPath: string, timeoutMs: number): Promise<void> {
  try {
    await request(socketPath, RemoteMethod.Stop, timeoutMs);
  } catch {
    // a server that stops before its answer is written closes the connection: stopping is what we asked
  }
}
