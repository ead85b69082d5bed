/**
 * A workspace whose folders nest without end (a tarball can hold 100,000 levels): the walks of
 * `findFiles` and `search` pin each folder on the way down, so depth cost a descriptor and a stack
 * frame per level, and a folder whose path outgrew PATH_MAX could not be checked and vanished
 * from the answer without a word. Now a walk goes at most `MAX_WALK_DEPTH` levels down, and every
 * folder it leaves out (too deep, or a path too long to check) is counted in a note.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { closeSync, mkdirSync as mkdirAt, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interpreter } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import type { SearchMatch } from '../model.js';
import { NotesLedger } from '../notes-ledger.js';
import { MAX_WALK_DEPTH } from '../walk.js';
import { Workspace } from '../workspace.js';

const interpreter = new Interpreter(createIdeRegistry());
// findFiles and search never touch the backend; one that fails loudly proves it.
const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;

let root: string;

/**
 * Makes `levels` nested folders named `name` under `base` and a file `leaf.txt` holding `text` at
 * the bottom, through `/proc/self/fd` (no path from the root: it outgrows PATH_MAX).
 */
function nest(base: string, name: string, levels: number, text: string): void {
  let at = base;
  let fd: number | undefined;
  for (let i = 0; i < levels; i++) {
    mkdirAt(join(at, name));
    const next = openSync(join(at, name), 'r');
    if (fd !== undefined) closeSync(fd);
    fd = next;
    at = `/proc/self/fd/${fd}`;
  }
  writeFileSync(join(at, 'leaf.txt'), text);
  if (fd !== undefined) closeSync(fd);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-deep-folders-'));
  writeFileSync(join(root, 'top.txt'), 'needle at the top\n');
  nest(root, 'ok', 10, 'needle ten levels down\n');
  nest(root, 'deep', MAX_WALK_DEPTH + 50, 'needle far down\n');
  // 20 levels of 250-character names: a path of 5,000 characters, past PATH_MAX.
  nest(root, 'l'.repeat(250), 20, 'needle past PATH_MAX\n');
});

afterAll(() => {
  // rm walks below PATH_MAX itself (Node's rmSync takes whole paths).
  spawnSync('rm', ['-rf', root]);
});

async function run(program: string): Promise<{ value: unknown; notes: readonly string[] }> {
  const host: IdeHost = { backend, workspace: new Workspace(root), readyTimeoutMs: 1000, ledger: new NotesLedger() };
  const o = await interpreter.evaluate(program, { host, deadlineMs: 60_000 });
  if (o.kind !== 'value') throw new Error(`${program}: ${o.kind} ${o.kind === 'error' ? o.error.message : ''}`);
  return { value: o.value, notes: o.notes };
}

describe('folders nested without end', () => {
  it('findFiles lists what lies within the depth and says how many folders it left out', async () => {
    const { value, notes } = await run('findFiles("**/*.txt")');
    const files = value as string[];
    expect(files).toContain('top.txt');
    expect(files).toContain(`${'ok/'.repeat(10)}leaf.txt`);
    expect(files.some((f) => f.startsWith('deep/') && f.endsWith('leaf.txt'))).toBe(false);
    expect(notes.filter((n) => n.includes('folder'))).toEqual([`left out 2 folders nested deeper than ${MAX_WALK_DEPTH} levels or with too long a path`]);
  }, 60_000);

  it('search says the same, once, whatever the number of workers sharing the walk', async () => {
    const { value, notes } = await run('search(".", "needle")');
    const texts = (value as SearchMatch[]).map((m) => m.content);
    expect(texts).toEqual(expect.arrayContaining(['needle at the top', 'needle ten levels down']));
    expect(texts).not.toContain('needle far down');
    expect(notes.filter((n) => n.includes('folder'))).toEqual([`left out 2 folders nested deeper than ${MAX_WALK_DEPTH} levels or with too long a path`]);
  }, 60_000);
});
