/**
 * Writes JSON-RPC messages to a server's stdin: each message, header and body, in one write, made
 * at once and in call order (the stream keeps the order and buffers what the pipe does not take
 * yet). vscode-jsonrpc's stream writer queues every message behind the previous one's write
 * callback, two writes each: a start's fifty documents left one per turn of the event loop, over
 * some 50 ms, behind whatever other work those turns ran.
 */
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver-protocol/node';

/** The framed bytes of one message: its `Content-Length` header, then its JSON in UTF-8. */
export function framedMessage(message: Message): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = `Content-Length: ${body.byteLength}\r\n\r\n`;
  const frame = Buffer.allocUnsafe(header.length + body.byteLength);
  frame.write(header, 0, 'ascii');
  body.copy(frame, header.length);
  return frame;
}

/** A {@link MessageWriter} over a writable stream that writes each message whole, at once. */
export class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #stream: Writable;
  /** Failed writes in a row, as vscode-jsonrpc counts them for its error handler. */
  #failures = 0;

  constructor(stream: Writable) {
    super();
    this.#stream = stream;
    stream.on('error', (error: Error) => this.fireError(error));
    stream.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    let frame: Buffer;
    try {
      frame = framedMessage(message);
    } catch (error) {
      // A message that cannot be serialized (a cycle, a BigInt) is the caller's error, reported as a failed write.
      this.fireError(error, message, ++this.#failures);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise((resolve, reject) => {
      this.#stream.write(frame, (error) => {
        if (error === undefined || error === null) {
          this.#failures = 0;
          resolve();
          return;
        }
        this.fireError(error, message, ++this.#failures);
        reject(error);
      });
    });
  }

  end(): void {
    this.#stream.end();
  }
}
