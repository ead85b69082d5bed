/**
 * A language server's memory bound (`lsp/memory-bound.ts`): a fake server process that grows past
 * a small configured bound is killed, its request fails with `server-memory-exceeded` (not retried
 * on the restarted process), and the restarted server answers; a server within the bound is left
 * alone.
 */
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer } from '../lsp/client.js';
import { isLspClientError } from '../lsp/errors.js';
import { boundMessages, DEFAULT_SERVER_MEMORY_BYTES, MAX_SERVER_MESSAGE_BYTES, serverMemoryBound, SERVER_MEMORY_ENV, treeResidentBytes } from '../lsp/memory-bound.js';
import type { ServerDefinition } from '../lsp/servers.js';
import { fakeServerScript, isAlive } from './support/servers.js';

const MIB = 1024 * 1024;
/** Far above a Node fake at rest (~60 MB), far below what `fake/grow` reaches (2 GB). */
const BOUND = 256 * MIB;

const definition: ServerDefinition = {
  id: 'fake-grow',
  displayName: 'fake-grow',
  languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
  rootMarkers: [],
  candidates: () => [fakeServerScript],
  args: ['--mode=ok'],
  readiness: 'immediate',
  installHint: 'it is a test fake',
};

let dir: string;
const servers: LanguageServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-memory-'));
  await writeFile(join(dir, 'a.fake'), 'hello\n');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.shutdown()));
  await rm(dir, { recursive: true, force: true });
});

describe('the memory bound of a language server', () => {
  it('kills a server that grows past it, fails its request with the typed error, and restarts it', async () => {
    const server = await LanguageServer.start(definition, dir, { restartDelayMs: 50, maxMemoryBytes: BOUND, requestTimeoutMs: 60_000 });
    servers.push(server);
    const first = server.pid as number;
    expect(treeResidentBytes(first)).toBeLessThan(BOUND);
    const error = await server.request('fake/grow', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLspClientError(error, 'server-memory-exceeded'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/fake-grow used \d+ MB of memory, over its bound of 256 MB \(DIALECT_SERVER_MEMORY_MB\) while handling fake\/grow/);
    // The next request waits for the restarted process, which answers; the first one is gone.
    expect(await server.request('fake/echo', { ok: 1 })).toEqual({ ok: 1 });
    expect(isAlive(first)).toBe(false);
    expect(server.pid).not.toBe(first);
    expect(server.restartCount).toBe(1);
  }, 120_000);

  it('kills a server whose message header claims more than one message may hold, at once, instead of buffering it', async () => {
    const server = await LanguageServer.start(definition, dir, { restartDelayMs: 50, requestTimeoutMs: 60_000 });
    servers.push(server);
    const first = server.pid as number;
    const started = Date.now();
    const error = await server.request('fake/huge', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    // At the header (a second here); buffered, it would wait for the request's timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(isLspClientError(error, 'server-memory-exceeded'), String(error)).toBe(true);
    expect((error as Error).message).toContain(`fake-grow sent a message of 1024 MB, over the bound of ${MAX_SERVER_MESSAGE_BYTES / MIB} MB on one message while handling fake/huge`);
    expect(await server.request('fake/echo', { ok: 1 })).toEqual({ ok: 1 });
    expect(server.pid).not.toBe(first);
  }, 120_000);

  it('passes framed messages through unchanged, however the chunks split them', async () => {
    const message = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const input = Buffer.from(message('{"a":"\r\n\r\nContent-Length: 999999999"}') + message('{"b":"é"}'));
    const source = new PassThrough();
    const refusals: string[] = [];
    const out = boundMessages(source, 64, (reason) => refusals.push(reason));
    const received: Buffer[] = [];
    out.on('data', (chunk: Buffer) => received.push(chunk));
    for (const byte of input) source.write(Buffer.from([byte]));
    source.end();
    await new Promise((resolve) => out.on('end', resolve));
    expect(Buffer.concat(received).equals(input)).toBe(true);
    expect(refusals).toEqual([]);
  });

  it('reads the framing of many messages in one chunk in place, and refuses one too large among them', async () => {
    const message = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const small = Array.from({ length: 500 }, (_, i) => message(JSON.stringify({ i, text: 'x'.repeat(i % 50) }))).join('');
    const run = async (input: Buffer): Promise<{ out: Buffer; refusals: string[] }> => {
      const source = new PassThrough();
      const refusals: string[] = [];
      const out = boundMessages(source, 128, (reason) => refusals.push(reason));
      const received: Buffer[] = [];
      out.on('data', (chunk: Buffer) => received.push(chunk));
      source.end(input);
      await new Promise((resolve) => out.on('end', resolve));
      return { out: Buffer.concat(received), refusals };
    };
    const fine = Buffer.from(small + message('{"b":"é"}'));
    expect(await run(fine)).toEqual({ out: fine, refusals: [] });
    // The 130-byte body is over the bound of 128: refused at its header, nothing of the chunk passes.
    const over = Buffer.from(small + message(JSON.stringify({ big: 'y'.repeat(120) })) + message('{"c":1}'));
    const { out, refusals } = await run(over);
    expect(refusals).toEqual(['sent a message of 0 MB, over the bound of 0 MB on one message']);
    expect(out.length).toBe(0);
  });

  it('leaves a server within it alone', async () => {
    const server = await LanguageServer.start(definition, dir, { maxMemoryBytes: BOUND });
    servers.push(server);
    const pid = server.pid;
    for (let i = 0; i < 5; i++) expect(await server.request('fake/echo', { i })).toEqual({ i });
    expect(server.pid).toBe(pid);
    expect(server.memory()).toBeGreaterThan(0);
  });

  it('has a named default, overridden by the environment', () => {
    expect(serverMemoryBound(undefined, {})).toBe(DEFAULT_SERVER_MEMORY_BYTES);
    expect(serverMemoryBound(undefined, { [SERVER_MEMORY_ENV]: '512' })).toBe(512 * MIB);
    expect(serverMemoryBound(100, { [SERVER_MEMORY_ENV]: '512' })).toBe(100);
  });
});
