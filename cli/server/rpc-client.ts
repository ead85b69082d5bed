/**
 * A minimal JSON-RPC client over a Unix socket, in the framing the background server speaks
 * (LSP's `Content-Length` headers, `ide-adapter/remote/transport.ts`): requests, their answers
 * and cancellation, nothing else. The warm `dialect eval` uses it instead of vscode-jsonrpc, whose
 * loading was a tenth of a warm call (BENCHMARKS.md, "One `dialect eval` per question"); what
 * the full client needs (notifications, the backend's methods) stays with `RemoteBackend`.
 */
import type { Socket } from 'node:net';

/** A message larger than this ends the connection (the server's answers are capped far below it). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The end of a message's header block. */
const HEADER_END = '\r\n\r\n';

/** Why a request failed: an error response (with its JSON-RPC code) or the connection ending first. */
export class RpcFailure extends Error {
  constructor(
    message: string,
    /** The JSON-RPC error code of an error response; undefined when the connection failed. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: RpcFailure) => void;
}

/** One connection; every request fails with {@link RpcFailure} once it closes. */
export class RpcClient {
  readonly #socket: Socket;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #buffer: Buffer = Buffer.alloc(0);
  #closed: string | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('close', () => this.#fail('the connection closed'));
    socket.on('error', (error) => this.#fail(error.message));
  }

  /** Connects to `socketPath`; rejects with {@link RpcFailure} when nobody answers within `timeoutMs`. */
  static async connect(socketPath: string, timeoutMs: number): Promise<RpcClient> {
    // Loaded when there is a server to connect to: a call that finds none does not pay for node:net.
    const { connect } = await import('node:net');
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new RpcFailure(`no connection to ${socketPath} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new RpcClient(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(new RpcFailure(error.message));
      });
    });
  }

  /** Sends a request; resolves with its result. `onId` hears its id (for {@link cancel}). */
  request(method: string, params: unknown, onId?: (id: number) => void): Promise<unknown> {
    if (this.#closed !== undefined) return Promise.reject(new RpcFailure(this.#closed));
    const id = this.#nextId++;
    onId?.(id);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Asks the server to cancel request `id` (`$/cancelRequest`); its answer still comes. */
  cancel(id: number): void {
    if (this.#closed === undefined) this.#send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
  }

  /** Closes the connection; pending requests fail. */
  close(): void {
    this.#fail('the connection was closed');
    this.#socket.destroy();
  }

  #send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.#socket.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}${HEADER_END}`, 'ascii'), body]));
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const headerEnd = this.#buffer.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const match = /(?:^|\r\n)Content-Length: *(\d+)/i.exec(this.#buffer.subarray(0, headerEnd).toString('ascii'));
      const length = match === null ? NaN : Number(match[1]);
      if (!Number.isSafeInteger(length) || length > MAX_MESSAGE_BYTES) return this.#broken('a message without a valid Content-Length');
      const start = headerEnd + HEADER_END.length;
      if (this.#buffer.length < start + length) return;
      const body = this.#buffer.subarray(start, start + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(start + length);
      let message: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
      try {
        message = JSON.parse(body) as typeof message;
      } catch {
        return this.#broken('a message that is not JSON');
      }
      this.#settle(message);
    }
  }

  /** Answers a pending request; notifications and requests from the server are not for this client. */
  #settle(message: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }): void {
    if (typeof message.id !== 'number') return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.error !== undefined) {
      const { code, message: text } = message.error;
      pending.reject(new RpcFailure(typeof text === 'string' ? text : 'an error response', typeof code === 'number' ? code : undefined));
    } else {
      pending.resolve(message.result);
    }
  }

  #broken(why: string): void {
    this.#fail(`the server sent ${why}`);
    this.#socket.destroy();
  }

  #fail(why: string): void {
    this.#closed ??= why;
    for (const pending of this.#pending.values()) pending.reject(new RpcFailure(why));
    this.#pending.clear();
  }
}
