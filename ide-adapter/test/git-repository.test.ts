/**
 * Which repository `gitdiff()` reads (`git/repository.ts`, checked in `git/run.ts` before every
 * call). A checkout controls its `.git`: a `gitdir:` file, a `.git` symlink, a `commondir` or an
 * alternates file can each name another repository of the user's, whose commits must never show.
 * Real repositories made here; controls: a plain repository, a workspace below one, a real linked
 * worktree (`git worktree add`) and a real submodule work.
 */
import { NotesLedger } from '../notes-ledger.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectError} from '../../dialect/index.js';
import { Interpreter } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import { GitCode } from '../git/codes.js';
import { runGit } from '../git/run.js';
import type { DiffFile } from '../model.js';
import { Workspace } from '../workspace.js';

const SECRET = 'the outside repository secret';
const interpreter = new Interpreter(createIdeRegistry());
// gitdiff never touches the backend.
const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;

/** Runs real git with a fixed identity and none of the caller's GIT_* variables. */
function git(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository at `root` with two commits; the second adds `file` holding `text`. */
function repository(root: string, file: string, text: string): void {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q');
  writeFileSync(join(root, 'README.md'), '# repo\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), `${text}\n`);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'second');
}

async function gitdiff(root: string, range = 'HEAD~1..HEAD'): Promise<{ files?: DiffFile[]; error?: DialectError }> {
  const host: IdeHost = { backend, workspace: new Workspace(root), readyTimeoutMs: 1000, ledger: new NotesLedger() };
  const outcome = await interpreter.evaluate(`gitdiff(${JSON.stringify(range)})`, { host, deadlineMs: 30_000 });
  if (outcome.kind === 'value') return { files: outcome.value as DiffFile[] };
  if (outcome.kind === 'error') return { error: outcome.error };
  throw new Error(`unexpected ${outcome.kind}`);
}

/** The refusal: the typed code, a message naming where git's repository is, nothing of the outside repository's content. */
function expectRefused(result: { files?: DiffFile[]; error?: DialectError }, where: string): void {
  expect(result.files).toBeUndefined();
  expect(result.error?.code).toBe(GitCode.RepositoryOutside);
  expect(result.error?.message).toContain(where);
  expect(result.error?.hint).toContain('Dialect reads only a repository inside the workspace');
  expect(JSON.stringify(result)).not.toContain(SECRET);
}

describe("gitdiff reads only the workspace's own repository", () => {
  let dir: string;
  let outside: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dialect-git-repo-'));
    outside = join(dir, 'outside');
    repository(outside, 'secret.txt', SECRET);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A workspace folder holding one file and the `.git` the test makes. */
  const workspace = (name: string): string => {
    const root = join(dir, name);
    mkdirSync(root);
    writeFileSync(join(root, 'main.txt'), 'hello\n');
    return root;
  };

  it('.git as a gitdir: file naming an outside repository', async () => {
    const root = workspace('gitdir-file');
    writeFileSync(join(root, '.git'), `gitdir: ${join(outside, '.git')}\n`);
    expectRefused(await gitdiff(root), `.git names ${join(outside, '.git')}`);
  });

  it('.git as a symlink to an outside repository', async () => {
    const root = workspace('git-symlink');
    symlinkSync(join(outside, '.git'), join(root, '.git'));
    expectRefused(await gitdiff(root), `.git leads to ${join(outside, '.git')}`);
  });

  it('a .git folder whose commondir names an outside repository', async () => {
    const root = workspace('commondir');
    git(root, 'init', '-q');
    writeFileSync(join(root, '.git', 'commondir'), `${join(outside, '.git')}\n`);
    expectRefused(await gitdiff(root), `its commondir names ${join(outside, '.git')}`);
  });

  it("a .git folder borrowing the outside repository's objects (alternates) and naming its commit", async () => {
    const root = workspace('alternates');
    git(root, 'init', '-q');
    writeFileSync(join(root, '.git', 'objects', 'info', 'alternates'), `${join(outside, '.git', 'objects')}\n`);
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), git(outside, 'rev-parse', 'HEAD'));
    expectRefused(await gitdiff(root), `objects/info/alternates names ${join(outside, '.git', 'objects')}`);
  });

  it("a .git folder whose objects and branch are links into the outside repository's", async () => {
    const root = workspace('linked-objects');
    git(root, 'init', '-q');
    rmSync(join(root, '.git', 'objects'), { recursive: true });
    symlinkSync(join(outside, '.git', 'objects'), join(root, '.git', 'objects'));
    symlinkSync(join(outside, '.git', 'refs', 'heads', 'main'), join(root, '.git', 'refs', 'heads', 'main'));
    expectRefused(await gitdiff(root), `its folder holds a symbolic link leading out, ${join(root, '.git', 'objects')}`);
  });

  it("a .git folder whose loose-object folders are links into the outside repository's", async () => {
    const root = workspace('linked-loose-objects');
    git(root, 'init', '-q');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), git(outside, 'rev-parse', 'HEAD'));
    const objects = join(outside, '.git', 'objects');
    for (const name of readdirSync(objects).filter((n) => /^[0-9a-f]{2}$/.test(n))) symlinkSync(join(objects, name), join(root, '.git', 'objects', name));
    expectRefused(await gitdiff(root), 'its folder holds a symbolic link leading out');
  });

  it("a gitdir: file naming a real linked worktree's folder of another repository (its back-pointer names that worktree, not this one)", async () => {
    const theirWorktree = join(dir, 'their-worktree');
    git(outside, 'worktree', 'add', '-q', theirWorktree);
    const root = workspace('forged-worktree');
    writeFileSync(join(root, '.git'), `gitdir: ${join(outside, '.git', 'worktrees', 'their-worktree')}\n`);
    expectRefused(await gitdiff(root), join(outside, '.git', 'worktrees', 'their-worktree'));
  });

  it('no .git at all: not-a-repository, and git is not run', async () => {
    const root = workspace('plain');
    await expect(runGit(root, 'rev-parse', ['--git-dir'])).rejects.toMatchObject({ code: GitCode.NotARepository });
  });

  it('control: a plain repository, and a workspace folder below one', async () => {
    const root = join(dir, 'plain-repo');
    repository(root, join('sub', 'change.txt'), 'a change');
    expect((await gitdiff(root)).files?.map((f) => f.path)).toEqual(['sub/change.txt']);
    expect((await gitdiff(join(root, 'sub'))).files?.map((f) => f.path)).toEqual(['change.txt']);
  });

  it('control: a real linked worktree (git worktree add) reads its repository', async () => {
    const main = join(dir, 'main-repo');
    repository(main, 'base.txt', 'base');
    const linked = join(dir, 'linked-worktree');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', linked);
    writeFileSync(join(linked, 'feature.txt'), 'feature work\n');
    git(linked, 'add', '-A');
    git(linked, 'commit', '-qm', 'feature');
    expect((await gitdiff(linked)).files?.map((f) => `${f.status} ${f.path}`)).toEqual(['added feature.txt']);
    writeFileSync(join(linked, 'base.txt'), 'changed in the worktree\n');
    expect((await gitdiff(linked, 'HEAD')).files?.map((f) => `${f.status} ${f.path}`)).toEqual(['modified base.txt']);
  });

  it('control: a real submodule (its repository in the superproject’s .git/modules) reads its repository', async () => {
    const library = join(dir, 'library');
    repository(library, 'lib.txt', 'library code');
    const superproject = join(dir, 'superproject');
    repository(superproject, 'app.txt', 'app');
    git(superproject, 'submodule', 'add', '-q', library, 'vendor/library');
    const sub = join(superproject, 'vendor', 'library');
    const result = await gitdiff(sub);
    expect(result.error).toBeUndefined();
    expect((await gitdiff(sub)).files?.map((f) => `${f.status} ${f.path}`)).toEqual(['added lib.txt']);
  });
});
