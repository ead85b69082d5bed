/**
 * The built `dialect mcp` given hostile tool arguments within its own limits: a program whose
 * unknown name is a megabyte long (the "did you mean" edit distance against every registered
 * name was quadratic: 22 s of a blocked server for one call), and a walkthrough whose comment
 * icon is a long text (the single-emoji check spread a grapheme iterator whose every segment
 * copies the whole input: quadratic memory, the server died out of memory). Each call is
 * answered promptly with its teaching message, and the server still answers after them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, childEnv, requireFreshBuild, tempDir } from './support/cli.js';

interface Response {
  readonly id?: number;
  readonly result?: { readonly structuredContent?: unknown; readonly isError?: boolean; readonly content?: readonly { readonly text?: string }[] };
}

let dir: { path: string; dispose: () => Promise<void> };
let ws: string;
let child: ChildProcessWithoutNullStreams;
let exited: Promise<number | null>;
const answers = new Map<number, (message: Response) => void>();
let nextId = 1;

function call(method: string, params: unknown): Promise<Response> {
  const id = nextId++;
  return new Promise((resolve) => {
    answers.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
}

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-mcp-hostile-input-');
  ws = join(dir.path, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'notes.txt'), 'hello\n');
  const env = await childEnv(join(dir.path, 'state'), { XDG_CACHE_HOME: join(dir.path, 'cache') });
  child = spawn(process.execPath, [bin, 'mcp', '--workspace', ws], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Response;
    if (message.id !== undefined) answers.get(message.id)?.(message);
  });
  await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile-input-test', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
});

afterAll(async () => {
  child.stdin.end();
  // A server stuck in a quadratic loop never reads the end of its input: it is killed instead.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(stuck);
  await dir.dispose();
});

describe('hostile tool arguments within the limits', () => {
  it('a megabyte-long unknown function name is answered promptly, without suggestions it cannot afford', async () => {
    const name = 'x'.repeat(999_000);
    const started = performance.now();
    const answer = await call('tools/call', { name: 'ide_operation', arguments: { program: `${name}()` } });
    const elapsed = performance.now() - started;
    expect(answer.result?.isError).toBe(true);
    expect(JSON.stringify(answer.result)).toContain('unknown-function');
    // Linear work on a megabyte is well under a second; the quadratic suggestion took 22 s idle.
    expect(elapsed).toBeLessThan(10_000);
  }, 120_000);

  it('a comment icon of 200,000 characters is an unknown icon, and the server lives on', async () => {
    const icon = 'c'.repeat(200_000);
    const answer = await call('tools/call', { name: 'present_walkthrough', arguments: { baseUri: ws, content: `# Hostile\n\n<comment icon="${icon}">look</comment>\n` } });
    expect(JSON.stringify(answer.result?.structuredContent)).toContain('unknown-icon');
    const after = await call('tools/call', { name: 'ide_operation', arguments: { program: 'help()' } });
    expect(after.result?.isError).not.toBe(true);
  }, 120_000);
});
