/**
 * One evaluation's memory budget (`dialect/budget.ts`): a program of hundreds of `lines` calls
 * over a 16 MB file of long lines ends with `evaluation-budget-exceeded`, quickly, in a child
 * process whose heap is capped far below what the values would need (before the budget it grew
 * to the heap limit and aborted); ordinary programs are untouched.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeJson } from '../../dialect/index.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

/** The child's heap cap: a few copies of the file fit, hundreds do not. */
const HEAP_MB = 256;
const LINE = 'x'.repeat(39_999);
const LINES = 400;
const CALLS = 300;
/** Generous for a loaded 2-core box: the budget error comes after a couple of calls. */
const QUICK_MS = 60_000;

describe('an evaluation holds at most its budget', () => {
  let workspace: Awaited<ReturnType<typeof tempDir>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  const evaluate = (program: string) =>
    runDialect(['eval', program, '--json', '--workspace', workspace.path], { env, timeoutMs: 4 * QUICK_MS });

  beforeAll(async () => {
    requireFreshBuild();
    workspace = await tempDir('dialect-budget-ws-');
    state = await tempDir('dialect-budget-state-');
    // 400 lines of 40,000 characters: 16,000,000 bytes, under the 16 MiB file limit.
    await writeFile(join(workspace.path, 'big.txt'), Array.from({ length: LINES }, () => LINE).join('\n'));
    await writeFile(join(workspace.path, 'small.txt'), 'one\ntwo\r\nthree\rfour\n');
    env = await childEnv(state.path, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
  });
  afterAll(async () => {
    await workspace?.dispose();
    await state?.dispose();
  });

  it('fails a program whose values outgrow it with the typed error, before the heap does', async () => {
    const program = `[${Array.from({ length: CALLS }, () => `lines("big.txt", 1, ${LINES})`).join(', ')}]`;
    const r = await evaluate(program);
    expect(r.signal, r.stderr.slice(-2000)).toBeNull();
    expect(r.stderr).not.toMatch(/heap out of memory/i);
    const json = JSON.parse(r.stdout) as OutcomeJson;
    expect(json).toMatchObject({ kind: 'error', error: { code: 'evaluation-budget-exceeded' } });
    if (json.kind === 'error') {
      expect(json.error.message).toMatch(/64 MiB of values \(maxBytes\)/);
      expect(json.error.hint).toMatch(/lines\(path, start, end\)/);
    }
    expect(r.ms).toBeLessThan(QUICK_MS);
  }, 5 * QUICK_MS);

  it('still answers programs within it: one whole range of the big file, and line ranges of any break style', async () => {
    const big = await evaluate(`lines("big.txt", ${LINES - 1}, ${LINES})`);
    expect(big.signal).toBeNull();
    const json = JSON.parse(big.stdout) as OutcomeJson;
    expect(json).toMatchObject({ kind: 'value', value: { path: 'big.txt', start: { line: LINES - 1 }, end: { line: LINES, column: LINE.length + 1 }, text: `${LINE}\n${LINE}` } });

    const small = JSON.parse((await evaluate('[lines("small.txt", 2, 4), lines("small.txt", 5, 9)]')).stdout) as OutcomeJson;
    expect(small).toMatchObject({ kind: 'value', value: [{ text: 'two\nthree\nfour' }, { text: '', start: { line: 5 } }] });
  }, 5 * QUICK_MS);
});
