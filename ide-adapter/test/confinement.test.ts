/**
 * Attacks on workspace confinement, reproduced for real: symlinks that lead out (to /etc/passwd,
 * /dev/zero), FIFOs, oversized files, a `.gitignore` that is a link out, and patterns that
 * backtrack without end. Every read goes through one check (`confine.ts`); every user pattern
 * runs in the file worker under a time budget (walkthrough links: walkthrough/test/link-budget).
 */
import { NotesLedger } from '../notes-ledger.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interpreter, type Outcome } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { readConfined } from '../confine.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import type { SearchMatch } from '../model.js';
import { MAX_FILE_BYTES, Workspace } from '../workspace.js';

const PASSWD = '/etc/passwd';
/** A line every /etc/passwd has: the proof that its contents leaked. */
const PASSWD_MARKER = 'root:x';

let base: string;
let root: string;
let host: IdeHost;
let interpreter: Interpreter<IdeHost>;

const run = (program: string, deadlineMs = 30_000): Promise<Outcome> => interpreter.evaluate(program, { host, deadlineMs });
async function value(program: string): Promise<{ value: unknown; notes: readonly string[] }> {
  const o = await run(program);
  if (o.kind !== 'value') throw new Error(`${program}: ${o.kind} ${o.kind === 'error' ? o.error.message : ''}`);
  return { value: o.value, notes: o.notes };
}

beforeAll(async () => {
  expect(readFileSync(PASSWD, 'utf8')).toContain(PASSWD_MARKER); // the attack needs a real target
  base = await mkdtemp(join(tmpdir(), 'dialect-confine-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'src', 'deep'), { recursive: true });
  await writeFile(join(root, 'src', 'main.rs'), 'fn main() { let root = 1; }\n');
  await writeFile(join(root, 'src', 'deep', 'inner.rs'), 'fn inner() {}\n');
  await symlink(PASSWD, join(root, 'src', 'link.rs'));
  await symlink('/dev/zero', join(root, 'src', 'zero.rs'));
  await symlink('main.rs', join(root, 'src', 'alias.rs')); // a link that stays inside is fine
  execFileSync('mkfifo', [join(root, 'src', 'pipe.rs')]);
  await symlink('pipe.rs', join(root, 'src', 'pipe-link.rs'));
  await writeFile(join(root, 'src', 'huge.rs'), 'fn huge() {}\n');
  await truncate(join(root, 'src', 'huge.rs'), MAX_FILE_BYTES + 1); // sparse: no disk used
  // A .gitignore that is a link out: if it were read, every .rs file would be ignored.
  await writeFile(join(base, 'rules'), '*.rs\n');
  await symlink(join(base, 'rules'), join(root, 'src', 'deep', '.gitignore'));
  // A name long enough for `+(*)+(*)+(*)+(*)Z` to backtrack for many seconds.
  await writeFile(join(root, 'src', `${'a'.repeat(24)}.ts`), 'export {};\n');
  const workspace = new Workspace(root);
  // These functions never touch a language server; a backend that fails loudly proves it.
  const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;
  host = { backend, workspace, readyTimeoutMs: 1000, ledger: new NotesLedger() };
  interpreter = new Interpreter(createIdeRegistry());
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('reads outside the workspace', () => {
  it('search never reads a symlink that leads out, and says it left it out', async () => {
    const { value: matches, notes } = await value(`search("src", "${PASSWD_MARKER}")`);
    expect(matches).toEqual([]);
    expect(notes.join('\n')).toMatch(/left out 3 symlinks leading outside the workspace/); // link.rs, zero.rs, deep/.gitignore
  });

  it('search of the link itself is refused like lines() is', async () => {
    for (const program of [`search("src/link.rs", "root")`, `lines("src/link.rs", 1, 1)`]) {
      const o = await run(program);
      expect(o.kind).toBe('error');
      if (o.kind === 'error') expect(o.error.code).toBe('path-outside-workspace');
    }
  });

  it('findFiles does not list links that lead out, but lists links that stay inside', async () => {
    const { value: files } = await value('findFiles("*.rs")');
    expect(files).not.toContain('src/link.rs');
    expect(files).not.toContain('src/zero.rs');
    expect(files).toContain('src/alias.rs');
    expect(files).toContain('src/main.rs');
  });

  it('a .gitignore that is a link out is not read', async () => {
    const { value: files } = await value('findFiles("*.rs", "src/deep")');
    expect(files).toEqual(['src/deep/inner.rs']);
  });

  it('the confined reader refuses what a symlink leads to outside, even named by its real path', () => {
    expect(readConfined(root, join(root, 'src', 'link.rs'), MAX_FILE_BYTES)).toMatchObject({ ok: false, reason: 'outside' });
    expect(readConfined(root, PASSWD, MAX_FILE_BYTES)).toMatchObject({ ok: false, reason: 'outside' });
    expect(readConfined(root, join(root, 'src', 'alias.rs'), MAX_FILE_BYTES)).toMatchObject({ ok: true, text: 'fn main() { let root = 1; }\n' });
  });
});

describe('files that hang or never end', () => {
  it('search skips FIFOs and devices without blocking, and counts an oversized file in a note', async () => {
    const { value: matches, notes } = await value('search("src", "fn")');
    const paths = (matches as SearchMatch[]).map((m) => m.path);
    expect(paths).toContain('src/main.rs');
    expect(paths).not.toContain('src/pipe.rs');
    expect(paths).not.toContain('src/huge.rs');
    const text = notes.join('\n');
    expect(text).toMatch(/skipped 1 file over 16 MB/);
    expect(text).toMatch(/left out 2 special files/); // the FIFO and the link to it
  });

  it('lines() of a FIFO is a clear error, not a hang', async () => {
    for (const path of ['src/pipe.rs', 'src/pipe-link.rs']) {
      const o = await run(`lines("${path}", 1, 1)`);
      expect(o.kind).toBe('error');
      if (o.kind === 'error') expect(o.error.code).toBe('not-a-file');
    }
  });

  it('an oversized file is refused with its size', async () => {
    const o = await run('lines("src/huge.rs", 1, 1)');
    expect(o.kind === 'error' && o.error.code).toBe('file-too-large');
  });
});

describe('every user pattern runs under a budget', () => {
  it('a backtracking glob ends at the deadline instead of freezing the thread', async () => {
    const started = Date.now();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const o = await run('findFiles("+(*)+(*)+(*)+(*)Z")', 1500);
    clearInterval(ticker);
    expect(o.kind).toBe('error');
    if (o.kind === 'error') expect(['deadline-exceeded', 'glob-timeout', 'cancelled']).toContain(o.error.code);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(0); // the main thread kept running while the glob was matched
  });
});
