/**
 * A reader that leaves before the answer is written (`dialect eval … | head`, the way agents read
 * a long answer) ends the command quietly with the answer's exit code: seen on go-chi/chi,
 * `dialect eval --json 'page(findReferences(findDefinition("NewRouter")), 1, 200)' | head -c 600`
 * printed Node's unhandled EPIPE error with its stack and exited 1, through the warm server and
 * in-process alike. The real built command, its stdout a pipe closed after the first bytes, its
 * program (read from stdin) a JSON list far larger than a pipe holds.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, childEnv, requireFreshBuild, tempDir } from './support/cli.js';

/** Items of the answer: far more than a pipe holds (64 KiB on Linux), so the command is still writing when the reader leaves. */
const ANSWER_ITEMS = 20_000;
/** The program: a JSON list is its own answer. */
const PROGRAM = JSON.stringify(Array.from({ length: ANSWER_ITEMS }, (_, i) => `item ${i} of a long answer`));

let dir: Awaited<ReturnType<typeof tempDir>>;
let workspace: string;

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-closed-reader-');
  workspace = join(dir.path, 'ws');
  await mkdir(workspace);
});
afterAll(() => dir?.dispose());

/** Runs the command, closes its stdout after the first chunk, and resolves with its exit code and stderr. */
async function readFirstChunk(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: workspace, env: await childEnv(join(dir.path, 'state')), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(PROGRAM);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stderr };
}

describe('a reader that leaves early', () => {
  for (const mode of ['text', '--json'] as const) {
    it(`eval ${mode}: no error, the answer's exit code`, async () => {
      const { code, stderr } = await readFirstChunk(['eval', '--no-server', ...(mode === '--json' ? ['--json'] : []), '-']);
      expect(stderr).not.toContain('EPIPE');
      expect(code).toBe(0);
    });
  }
});
