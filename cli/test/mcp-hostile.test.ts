/**
 * The built `dialect mcp` on a hostile workspace (FIFOs, a link to /dev/zero, a link out): a
 * search answers promptly without reading any of them, and the server exits when its client
 * closes stdin (a FIFO once hung a search for good and kept the process alive).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot, requireFreshBuild } from './support/cli.js';

let base: string;

beforeAll(async () => {
  requireFreshBuild();
  base = await mkdtemp(join(tmpdir(), 'dialect-mcp-hostile-'));
  await mkdir(join(base, 'ws', 'src'), { recursive: true });
  await writeFile(join(base, 'ws', 'src', 'main.rs'), 'fn main() { zero(); }\n');
  execFileSync('mkfifo', [join(base, 'ws', 'src', 'pipe.rs')]);
  await symlink('pipe.rs', join(base, 'ws', 'src', 'pipe-link.rs'));
  await symlink('/dev/zero', join(base, 'ws', 'src', 'zero.rs'));
  await symlink('/etc/passwd', join(base, 'ws', 'src', 'passwd.rs'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

it('answers a search over FIFOs and device links, then exits when stdin closes', async () => {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'dialect.js'), 'mcp', '--workspace', join(base, 'ws')], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const responses = createInterface({ input: child.stdout });
  interface Response {
    readonly id?: number;
    readonly result?: { readonly structuredContent?: unknown; readonly isError?: boolean };
  }
  const answers = new Map<number, (message: Response) => void>();
  responses.on('line', (line) => {
    const message = JSON.parse(line) as Response;
    if (message.id !== undefined) answers.get(message.id)?.(message);
  });
  const call = (id: number, method: string, params: unknown): Promise<Response> =>
    new Promise((resolve) => {
      answers.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await call(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const answer = await call(2, 'tools/call', { name: 'ide_operation', arguments: { program: 'search("src", "zero|root:x")' } });
  expect(answer.result?.isError).not.toBe(true);
  const text = JSON.stringify(answer.result);
  expect(text).toContain('src/main.rs');
  expect(text).not.toContain('root:x:0');
  child.stdin.end();
  expect(await exited).toBe(0);
});
