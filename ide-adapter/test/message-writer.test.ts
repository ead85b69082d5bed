/**
 * The writer of messages to a server (`lsp/message-writer.ts`): every message framed whole in one
 * write, in call order, read back by vscode-jsonrpc's own reader; a message that cannot be
 * serialized and a stream that fails are reported as failed writes, with the message.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamMessageReader, type Message } from 'vscode-languageserver-protocol/node';
import { FramedMessageWriter } from '../lsp/message-writer.js';

describe('FramedMessageWriter', () => {
  it('writes each message whole, in one write, in call order, as the standard reader reads them', async () => {
    const stream = new PassThrough();
    const writes: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => writes.push(chunk));
    const writer = new FramedMessageWriter(stream);
    const sent: Message[] = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { i, text: `é ${'x'.repeat(i)} 𝒳` } }) as Message);
    // Not awaited one by one: the order is the calls' order, whatever the callbacks do.
    await Promise.all(sent.map((message) => writer.write(message)));
    expect(writes).toHaveLength(sent.length);
    const reader = new StreamMessageReader(readableOf(writes));
    const received: Message[] = [];
    await new Promise<void>((resolve) => {
      reader.listen((message) => {
        received.push(message);
        if (received.length === sent.length) resolve();
      });
    });
    expect(received).toEqual(sent);
  });

  it('reports a message it cannot serialize as a failed write, and goes on with the next', async () => {
    const stream = new PassThrough();
    const writer = new FramedMessageWriter(stream);
    const errors: [Error, Message | undefined, number | undefined][] = [];
    writer.onError((e) => errors.push(e));
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic['params'] = cyclic;
    await expect(writer.write(cyclic as unknown as Message)).rejects.toThrow(/circular/i);
    expect(errors.map(([error, message, count]) => [error.message.includes('circular'), message, count])).toEqual([[true, cyclic, 1]]);
    await writer.write({ jsonrpc: '2.0' });
    expect((stream.read() as Buffer).toString()).toBe('Content-Length: 17\r\n\r\n{"jsonrpc":"2.0"}');
  });

  it('rejects a write to a failed stream and reports it with the count of failures in a row', async () => {
    const stream = new Writable({ write: (_chunk, _encoding, done) => done(new Error('EPIPE: the server is gone')) });
    stream.on('error', () => undefined);
    const writer = new FramedMessageWriter(stream);
    const counts: (number | undefined)[] = [];
    writer.onError(([, , count]) => counts.push(count));
    await expect(writer.write({ jsonrpc: '2.0', method: 'a' } as Message)).rejects.toThrow('EPIPE');
    expect(counts).toContain(1);
  });
});

/** A readable stream of `chunks`, as a server's stdout would deliver them. */
function readableOf(chunks: readonly Buffer[]): PassThrough {
  const stream = new PassThrough();
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return stream;
}
