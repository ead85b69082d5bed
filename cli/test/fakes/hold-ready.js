#!/usr/bin/env node
// A language server that stays "indexing" until the test says so: it runs the real server named
// by HOLD_READY_SERVER and relays its messages unchanged, except that from the first
// `experimental/serverStatus` reporting `quiescent: true` (rust-analyzer's "ready") it holds back
// everything the server sends, in order, until a line is written to the FIFO HOLD_READY_FIFO.
// A test can then act while the index is certainly not ready, on any machine, with no sleep.
// `--version` (the client's probe) runs the server directly.
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { createReadStream } from 'node:fs';
import process from 'node:process';

const server = process.env.HOLD_READY_SERVER;
const fifo = process.env.HOLD_READY_FIFO;
if (server === undefined || fifo === undefined) {
  process.stderr.write('hold-ready: set HOLD_READY_SERVER and HOLD_READY_FIFO\n');
  process.exit(2);
}
const args = process.argv.slice(2);
if (args.includes('--version')) {
  const probe = spawn(server, args, { stdio: 'inherit' });
  probe.on('exit', (code) => process.exit(code ?? 1));
} else {
  relay(server, fifo);
}

function relay(serverPath, fifoPath) {
  const child = spawn(serverPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  process.stdin.pipe(child.stdin);
  child.on('exit', (code) => process.exit(code ?? 1));

  /** Frames held back once the server said it is ready; undefined while not holding (or released). */
  let held;
  let released = false;
  createReadStream(fifoPath).on('data', () => {
    released = true;
    for (const frame of held ?? []) process.stdout.write(frame);
    held = undefined;
  });

  const HEADER_END = Buffer.from('\r\n\r\n');
  let buffer = Buffer.alloc(0);
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      const end = headerEnd + HEADER_END.length + length;
      if (buffer.length < end) return;
      const frame = buffer.subarray(0, end);
      buffer = buffer.subarray(end);
      if (!released && held === undefined && isReady(frame.subarray(headerEnd + HEADER_END.length))) held = [];
      if (held !== undefined) held.push(frame);
      else process.stdout.write(frame);
    }
  });
}

function isReady(body) {
  try {
    const message = JSON.parse(body.toString('utf8'));
    return message.method === 'experimental/serverStatus' && message.params?.quiescent === true;
  } catch {
    return false;
  }
}
