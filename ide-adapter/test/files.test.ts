/**
 * The file functions (search, findFiles, lines, gitdiff) through the interpreter on temporary
 * workspaces and real git repositories; no language server needed.
 */
import { NotesLedger } from '../notes-ledger.js';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interpreter, type Outcome } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import type { DiffFile, SearchMatch } from '../model.js';
import { searchWorkspace } from '../search.js';
import { Workspace } from '../workspace.js';

let root: string;
let outside: string;
let interpreter: Interpreter<IdeHost>;
let host: IdeHost;

const run = (program: string): Promise<Outcome> => interpreter.evaluate(program, { host, deadlineMs: 30_000 });
async function value(program: string): Promise<unknown> {
  const o = await run(program);
  if (o.kind !== 'value') throw new Error(`${program}: ${o.kind} ${o.kind === 'error' ? o.error.message : ''}`);
  return o.value;
}
async function errorCode(program: string): Promise<string> {
  const o = await run(program);
  if (o.kind !== 'error') throw new Error(`${program}: expected an error, got ${o.kind}`);
  return o.error.code;
}
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'dialect-files-'));
  root = join(base, 'ws');
  outside = join(base, 'secret.txt');
  await mkdir(join(root, 'src', 'nested'), { recursive: true });
  await mkdir(join(root, 'target'), { recursive: true });
  await writeFile(outside, 'top secret\n');
  await writeFile(join(root, '.gitignore'), 'target/\n*.log\n');
  await writeFile(join(root, 'src', 'main.rs'), 'fn main() {\n    login("é😀", user);\n}\n\nfn login(a: &str, b: u32) {}\n');
  await writeFile(join(root, 'src', 'nested', 'lib.rs'), 'pub fn login_twice() { login(); login(); }\n');
  await writeFile(join(root, 'src', 'notes.md'), 'login in docs\n');
  await writeFile(join(root, 'target', 'build.rs'), 'fn login() {}\n');
  await writeFile(join(root, 'debug.log'), 'login\n');
  await writeFile(join(root, 'src', 'nested', '.gitignore'), 'ignored.rs\n');
  await writeFile(join(root, 'src', 'nested', 'ignored.rs'), 'fn login() {}\n');
  await writeFile(join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
  await symlink(outside, join(root, 'link-out'));
  const workspace = new Workspace(root);
  // The file functions never touch the backend; a backend that fails loudly proves it.
  const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;
  host = { backend, workspace, readyTimeoutMs: 1000, ledger: new NotesLedger() };
  interpreter = new Interpreter(createIdeRegistry());
});

afterAll(async () => {
  await rm(join(root, '..'), { recursive: true, force: true });
});

describe('search', () => {
  it('finds every match with its line, honouring .gitignore at every level', async () => {
    const matches = (await value('search(".", "login")')) as SearchMatch[];
    const paths = [...new Set(matches.map((m) => m.path))].sort();
    expect(paths).toEqual(['src/main.rs', 'src/nested/lib.rs', 'src/notes.md']);
    expect(matches.filter((m) => m.path === 'src/nested/lib.rs')).toHaveLength(3);
    const call = matches.find((m) => m.path === 'src/main.rs' && m.start.line === 2);
    expect(call?.start.column).toBe(5);
    expect(call?.content).toBe('    login("é😀", user);');
  });

  it('counts columns in code points, filters by extension, and takes a file', async () => {
    const [m] = (await value('search("src/main.rs", "user")')) as SearchMatch[];
    const line = '    login("é😀", user);';
    expect(m?.start.column).toBe([...line.slice(0, line.indexOf('user'))].length + 1);
    expect(((await value('search("src", "login", ".md")')) as SearchMatch[]).map((x) => x.path)).toEqual(['src/notes.md']);
    expect(((await value('search("src", "login", ["rs"])')) as SearchMatch[]).every((x) => x.path.endsWith('.rs'))).toBe(true);
    expect(((await value('search("src", `fn\\s+login\\(`)')) as SearchMatch[]).map((x) => x.path)).toEqual(['src/main.rs']);
  });

  it('reports a bad regex clearly and stops a runaway one', async () => {
    expect(await errorCode('search(".", "fn (")')).toBe('invalid-regex');
    await expect(searchWorkspace(host.workspace, '.', '(a+)+$', { timeoutMs: 300 })).rejects.toMatchObject({ code: 'regex-timeout' });
  });

  it('stops a pattern that exhausts the stack over a long line as over its budget, with the hint, and serves the next search', async () => {
    // V8's regex engine recurses while backtracking: (a|b)*c over one 15 MB line overflows the stack.
    const dir = await mkdtemp(join(tmpdir(), 'dialect-deep-regex-'));
    try {
      await writeFile(join(dir, 'long.txt'), `${'ab'.repeat(7_500_000)}\n`);
      const workspace = new Workspace(dir);
      const error = await searchWorkspace(workspace, 'long.txt', '(a|b)*c').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'regex-timeout', message: 'the search for "(a|b)*c" ran out of stack space' });
      expect((error as { hint?: string }).hint).toContain('backtrack');
      expect((await searchWorkspace(workspace, 'long.txt', 'c')).matches).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves many concurrent searches with a bounded number of workers', async () => {
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => searchWorkspace(host.workspace, 'src', i % 2 === 0 ? 'login' : 'fn')));
    expect(results.every((r, i) => r.matches.length > 0 && r.matches.every((m) => m.match === (i % 2 === 0 ? 'login' : 'fn')))).toBe(true);
  });

  it('caps huge results and says how many there were', async () => {
    const all = await searchWorkspace(host.workspace, '.', '', { maxResults: 3 });
    expect(all.matches).toHaveLength(3);
    expect(all.total).toBeGreaterThan(3);
  });
});

describe('findFiles and lines', () => {
  it('matches globs, names anywhere, and respects .gitignore', async () => {
    expect(await value('findFiles("*.rs")')).toEqual(['src/main.rs', 'src/nested/lib.rs']);
    expect(await value('findFiles("src/**/*.md")')).toEqual(['src/notes.md']);
    expect(await value('findFiles("*", "src/nested")')).toEqual(['src/nested/.gitignore', 'src/nested/lib.rs']);
  });

  it('reads line ranges as a location with text', async () => {
    const l = (await value('lines("src/main.rs", 2, 3)')) as { path: string; start: unknown; text: string; content: string };
    expect(l.path).toBe('src/main.rs');
    expect(l.start).toEqual({ line: 2, column: 1 });
    expect(l.text).toBe('    login("é😀", user);\n}');
    expect(await value('lines(file: "src/main.rs", from: 2, to: 3)')).toEqual(l);
    expect(await errorCode('lines("src/main.rs", 99, 100)')).toBe('invalid-range');
    expect(await errorCode('lines("src/main.rs", 0, 1)')).toBe('invalid-range');
  });

  it('refuses every path outside the workspace', async () => {
    expect(await errorCode('lines("/etc/passwd", 1, 2)')).toBe('path-outside-workspace');
    expect(await errorCode('lines("../secret.txt", 1, 1)')).toBe('path-outside-workspace');
    expect(await errorCode('lines("src/../../secret.txt", 1, 1)')).toBe('path-outside-workspace');
    expect(await errorCode('lines("link-out", 1, 1)')).toBe('path-outside-workspace');
    expect(await errorCode(`lines(${JSON.stringify(outside)}, 1, 1)`)).toBe('path-outside-workspace');
    expect(await errorCode('search("/etc", "root")')).toBe('path-outside-workspace');
    expect(await errorCode('findFiles("*", "..")')).toBe('path-outside-workspace');
    expect(await errorCode('lines("src/missing.rs", 1, 1)')).toBe('file-not-found');
  });
});

describe('gitdiff on a real repository', () => {
  it('is a clear error outside a repository', async () => {
    expect(await errorCode('gitdiff()')).toBe('not-a-repository');
  });

  it('shows commit ranges, staged, unstaged and untracked changes', async () => {
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'first');
    await writeFile(join(root, 'src', 'main.rs'), 'fn main() {\n    login("é😀", user);\n    logout();\n}\n\nfn login(a: &str, b: u32) {}\n');
    git('commit', '-qam', 'second');
    const range = (await value('gitdiff("HEAD~1..HEAD")')) as DiffFile[];
    expect(range).toHaveLength(1);
    expect(range[0]).toMatchObject({ path: 'src/main.rs', status: 'modified', additions: 1, deletions: 0 });
    const added = range[0]?.hunks[0]?.lines.find((l) => l.kind === 'added');
    expect(added).toEqual({ kind: 'added', text: '    logout();', newLine: 3 });

    await writeFile(join(root, 'src', 'notes.md'), 'login in docs\nmore\n');
    git('add', 'src/notes.md');
    await writeFile(join(root, 'src', 'nested', 'lib.rs'), 'pub fn login_once() { login(); }\n');
    await writeFile(join(root, 'src', 'new.rs'), 'fn fresh() {}\n');
    const paths = async (program: string): Promise<string[]> => ((await value(program)) as DiffFile[]).map((d) => d.path).sort();
    expect(await paths('gitdiff()')).toEqual(['src/nested/lib.rs', 'src/new.rs', 'src/notes.md']);
    expect(await paths('gitdiff(excludeUnstaged: true)')).toEqual(['src/notes.md']);
    expect(await paths('gitdiff(excludeStaged: true)')).toEqual(['src/nested/lib.rs', 'src/new.rs']);
    expect(await paths('gitdiff("HEAD~1", excludeStaged: true, excludeUnstaged: true)')).toEqual(['src/main.rs']);
    const untracked = ((await value('gitdiff()')) as DiffFile[]).find((d) => d.path === 'src/new.rs');
    expect(untracked).toMatchObject({ status: 'added', additions: 1 });
  });

  it('in a workspace inside a larger repository, shows only the workspace, with workspace paths', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dialect-outer-'));
    const run = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
    try {
      await mkdir(join(repo, 'inner', 'src'), { recursive: true });
      await writeFile(join(repo, 'outside.txt'), 'a\n');
      await writeFile(join(repo, 'inner', 'src', 'a.rs'), 'fn a() {}\n');
      run('init', '-q');
      run('add', '-A');
      run('commit', '-qm', 'one');
      await writeFile(join(repo, 'outside.txt'), 'b\n');
      await writeFile(join(repo, 'inner', 'src', 'a.rs'), 'fn a() { b() }\n');
      await writeFile(join(repo, 'inner', 'new.rs'), 'fn n() {}\n');
      const inner = new Interpreter(createIdeRegistry());
      const o = await inner.evaluate('gitdiff()', { host: { ...host, workspace: new Workspace(join(repo, 'inner')) } });
      expect(o.kind === 'value' && (o.value as DiffFile[]).map((d) => d.path).sort()).toEqual(['new.rs', 'src/a.rs']);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it('is a clear error for a bad range', async () => {
    expect(await errorCode('gitdiff("nope..HEAD")')).toBe('bad-revision');
    expect(await errorCode('gitdiff("no-such-branch")')).toBe('bad-revision');
    expect(await errorCode('gitdiff("--output=/tmp/x")')).toBe('bad-revision');
  });
});
