/**
 * `gitdiff()` on repositories whose configuration names programs: none of them may run, and the
 * diff must still be right. Each test makes a real repository (support/hostile-repo.ts) whose
 * programs leave a marker file when run, and drives the real `gitdiff` through the interpreter.
 */
import { NotesLedger } from '../notes-ledger.js';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DialectError, Interpreter, type Outcome } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import { gitDiff } from '../git.js';
import { GIT_MEMORY_BYTES, runGit } from '../git/run.js';
import type { DiffFile } from '../model.js';
import { Workspace } from '../workspace.js';
import { ADDED_LINE, CHANGED_TEXT, createHostileRepo, makeStatDirty, type HostileRepo } from './support/hostile-repo.js';

const interpreter = new Interpreter(createIdeRegistry());
// gitdiff never touches the backend; one that fails loudly proves it.
const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;

let repos: HostileRepo[] = [];
afterEach(() => {
  for (const r of repos) r.dispose();
  repos = [];
});

function hostile(): HostileRepo {
  const repo = createHostileRepo();
  repos.push(repo);
  return repo;
}

async function evaluate(repo: HostileRepo, program: string): Promise<Outcome> {
  const host: IdeHost = { backend, workspace: new Workspace(repo.root), readyTimeoutMs: 1000, ledger: new NotesLedger() };
  return interpreter.evaluate(program, { host, deadlineMs: 30_000 });
}

/** Runs `program` (a gitdiff call) and returns its files, failing on any other outcome. */
async function diff(repo: HostileRepo, program: string): Promise<DiffFile[]> {
  const o = await evaluate(repo, program);
  if (o.kind !== 'value') throw new Error(`${program}: ${o.kind} ${o.kind === 'error' ? o.error.message : ''}`);
  return o.value as DiffFile[];
}

/** The changed file is there with its hunk: `beta` removed, `ADDED_LINE` added. */
function expectChangeShown(repo: HostileRepo, files: DiffFile[]): void {
  const file = files.find((f) => f.path === repo.changedPath);
  expect(file).toMatchObject({ status: 'modified', additions: 1, deletions: 1 });
  const lines = file?.hunks.flatMap((h) => h.lines) ?? [];
  expect(lines).toContainEqual({ kind: 'removed', text: 'beta', oldLine: 2 });
  expect(lines).toContainEqual({ kind: 'added', text: ADDED_LINE, newLine: 2 });
}

/** Commits `.gitattributes` with `attributes` (before any hostile program is configured). */
function commitAttributes(repo: HostileRepo, attributes: string): void {
  repo.write('.gitattributes', attributes);
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'attributes');
}

/** Commits the change, so `HEAD~1..HEAD` holds it. */
function commitChange(repo: HostileRepo): void {
  repo.write(repo.changedPath, CHANGED_TEXT);
  repo.git('commit', '-qam', 'change');
}

describe('gitdiff runs no program a repository configures', () => {
  it('core.fsmonitor hook', async () => {
    const repo = hostile();
    repo.config('core.fsmonitor', repo.program('fsmonitor', 'exit'));
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('diff textconv driver (attributes diff=conv)', async () => {
    const repo = hostile();
    commitAttributes(repo, '*.txt diff=conv\n');
    commitChange(repo);
    repo.config('diff.conv.textconv', repo.program('textconv', 'print-file'));
    expectChangeShown(repo, await diff(repo, 'gitdiff("HEAD~1..HEAD")'));
    repo.write(repo.changedPath, `${CHANGED_TEXT}more\n`);
    await diff(repo, 'gitdiff()');
    expect(repo.fired()).toEqual([]);
  });

  it('clean filter', async () => {
    const repo = hostile();
    commitAttributes(repo, '*.txt filter=scrub\n');
    repo.config('filter.scrub.clean', repo.program('clean', 'pass-stdin'));
    repo.config('filter.scrub.required', 'true');
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('clean filter whose driver name holds "=" and "." (names are read exactly, not guessed)', async () => {
    const repo = hostile();
    commitAttributes(repo, '*.txt filter=x=y.z\n');
    repo.config('filter.x=y.z.clean', repo.program('odd-name-clean', 'pass-stdin'));
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('smudge filter (run when git writes a blob to a temporary file)', async () => {
    const repo = hostile();
    // A textconv makes git write blobs to temporary files, through the smudge filter.
    commitAttributes(repo, '*.txt filter=scrub diff=conv\n');
    commitChange(repo);
    repo.config('diff.conv.textconv', 'cat');
    repo.config('filter.scrub.smudge', repo.program('smudge', 'pass-stdin'));
    expectChangeShown(repo, await diff(repo, 'gitdiff("HEAD~1..HEAD")'));
    expect(repo.fired()).toEqual([]);
  });

  it('process filter (long-running)', async () => {
    const repo = hostile();
    commitAttributes(repo, '*.txt filter=proc\n');
    repo.config('filter.proc.process', repo.program('process', 'exit'));
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('external diff from diff.external', async () => {
    const repo = hostile();
    repo.config('diff.external', repo.program('external', 'exit'));
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('external diff from attributes diff=driver with diff.driver.command', async () => {
    const repo = hostile();
    commitAttributes(repo, '*.txt diff=ext\n');
    commitChange(repo);
    repo.config('diff.ext.command', repo.program('command', 'exit'));
    expectChangeShown(repo, await diff(repo, 'gitdiff("HEAD~1..HEAD")'));
    expect(repo.fired()).toEqual([]);
  });

  it('pager (core.pager, pager.diff)', async () => {
    const repo = hostile();
    repo.config('core.pager', repo.program('pager', 'pass-stdin'));
    repo.config('pager.diff', 'true');
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('post-index-change hook (git refreshes the index of a touched file)', async () => {
    const repo = hostile();
    repo.write('src/still.txt', 'unchanged\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'still');
    writeFileSync(join(repo.root, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\nexec '${repo.program('post-index-change', 'exit')}'\n`, { mode: 0o755 });
    makeStatDirty(repo.root, 'src/still.txt');
    repo.write(repo.changedPath, CHANGED_TEXT);
    const files = await diff(repo, 'gitdiff()');
    expectChangeShown(repo, files);
    expect(files.map((f) => f.path)).toEqual([repo.changedPath]);
    expect(repo.fired()).toEqual([]);
  });

  it.each([
    ['include.path', (): string => 'include.path'],
    ['includeIf gitdir', (): string => 'includeIf.gitdir:**/repo/.path'],
  ])('a filter defined in a file pulled in by %s', async (_name, key) => {
    const repo = hostile();
    commitAttributes(repo, '*.txt filter=inc\n');
    writeFileSync(join(repo.root, '.git', 'hostile.config'), `[filter "inc"]\n\tclean = '${repo.program('included-clean', 'pass-stdin')}'\n`);
    repo.config(key(), 'hostile.config');
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('a filter configured inside a submodule (git would run status there)', async () => {
    const upstream = hostile();
    upstream.write('inner.txt', 'inner\n');
    upstream.git('add', '-A');
    upstream.git('commit', '-qm', 'inner');
    const repo = hostile();
    repo.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', upstream.root, 'sm');
    repo.git('commit', '-qm', 'submodule');
    const inSub = (...args: string[]): string => repo.git('-C', 'sm', ...args);
    writeFileSync(join(repo.root, 'sm', '.gitattributes'), '* filter=subf\n');
    inSub('add', '-A');
    inSub('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'attributes');
    repo.git('commit', '-qam', 'bump');
    inSub('config', 'filter.subf.clean', repo.program('submodule-clean', 'pass-stdin'));
    makeStatDirty(repo.root, 'sm/inner.txt');
    repo.write(repo.changedPath, CHANGED_TEXT);
    expectChangeShown(repo, await diff(repo, 'gitdiff()'));
    expect(repo.fired()).toEqual([]);
  });

  it('a lazy fetch from a promisor remote (partial clone) with an ext:: command URL', async () => {
    const repo = hostile();
    commitChange(repo);
    // Drop the new blob, so git must fetch it from the "promisor" remote to diff.
    const blob = repo.git('rev-parse', `HEAD:${repo.changedPath}`).trim();
    rmSync(join(repo.root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    repo.config('core.repositoryformatversion', '1');
    repo.config('extensions.partialClone', 'origin');
    repo.config('remote.origin.promisor', 'true');
    repo.config('protocol.ext.allow', 'always');
    repo.config('remote.origin.url', `ext::${repo.program('ext-transport', 'exit')}`);
    const o = await evaluate(repo, 'gitdiff("HEAD~1..HEAD")');
    expect(repo.fired()).toEqual([]);
    // The blob cannot be had without the network, which gitdiff never uses: a clear error.
    expect(o.kind === 'error' && o.error.code).toBe('git-failed');
    expect(o.kind === 'error' && o.error.message).toMatch(/lazy fetching disabled|not allowed/);
  });

  it('ignores git variables in the caller environment (GIT_CONFIG_*, GIT_DIR, GIT_EXTERNAL_DIFF)', async () => {
    const repo = hostile();
    const other = hostile();
    other.write(other.changedPath, 'other\n');
    repo.write(repo.changedPath, CHANGED_TEXT);
    const saved = { ...process.env };
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: repo.program('env-fsmonitor', 'exit'),
      GIT_CONFIG_PARAMETERS: `'core.hooksPath'='${join(repo.root, 'nowhere')}'`,
      GIT_DIR: join(other.root, '.git'),
      GIT_WORK_TREE: other.root,
      GIT_EXTERNAL_DIFF: repo.program('env-external', 'exit'),
    });
    let files: DiffFile[];
    try {
      files = await diff(repo, 'gitdiff()');
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) Reflect.deleteProperty(process.env, key);
      Object.assign(process.env, saved);
    }
    expect(repo.fired()).toEqual([]);
    expectChangeShown(repo, files);
    expect(files.map((f) => f.path)).toEqual([repo.changedPath]);
  });

  it.each(['.', '', 'tools'])("runs no git the workspace ships, whatever relative folder PATH names (PATH entry %j)", async (entry) => {
    // A PATH entry that is not absolute (`.`, an empty one — POSIX reads it as `.` —, or a folder
    // such as `node_modules/.bin`) names a folder relative to where a program runs: for git, the
    // workspace. A repository shipping `git` there would run on every gitdiff.
    const repo = hostile();
    const real = repo.program('real-git-unused', 'exit'); // only to learn the markers folder
    const markers = dirname(dirname(real));
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const fake = `#!/bin/sh\ntouch '${join(markers, 'markers', 'workspace-git')}'\nexec '${realGit}' "$@"\n`;
    repo.write('git', fake);
    repo.write('tools/git', fake);
    chmodSync(join(repo.root, 'git'), 0o755);
    chmodSync(join(repo.root, 'tools', 'git'), 0o755);
    repo.write(repo.changedPath, CHANGED_TEXT);
    const saved = process.env['PATH'];
    // The workspace's folder first, then the real PATH.
    process.env['PATH'] = entry === '' ? `:${saved ?? ''}` : `${entry}:${saved ?? ''}`;
    let files: DiffFile[];
    try {
      files = await diff(repo, 'gitdiff()');
    } finally {
      process.env['PATH'] = saved;
    }
    expect(repo.fired()).toEqual([]);
    expectChangeShown(repo, files.filter((f) => f.path === repo.changedPath));
  });

  it('core.worktree pointing outside the workspace does not make git read files there', async () => {
    const repo = hostile();
    const elsewhere = join(repo.root, '..', 'elsewhere');
    mkdirSync(join(elsewhere, 'src'), { recursive: true });
    writeFileSync(join(elsewhere, repo.changedPath), 'alpha\nSECRET from outside\ngamma\n');
    repo.config('core.worktree', elsewhere);
    repo.write(repo.changedPath, CHANGED_TEXT);
    const files = await diff(repo, 'gitdiff()');
    expect(JSON.stringify(files)).not.toContain('SECRET');
    expectChangeShown(repo, files);
  });

  it('refuses caller flags that would undo a safety flag', async () => {
    const repo = hostile();
    await expect(runGit(repo.root, 'diff', ['--textconv', 'HEAD', '--'])).rejects.toThrow(/would undo a safety flag/);
    await expect(runGit(repo.root, 'diff', ['--ext-diff'])).rejects.toThrow(/would undo a safety flag/);
    await expect(runGit(repo.root, 'diff', ['--submodule=diff'])).rejects.toThrow(/would undo a safety flag/);
  });

  /** How long each git of these cases may run: the memory bound, not this, must end it. */
  const ZERO_READ_TIMEOUT_MS = 60_000;
  // Without the bound git reads /dev/zero until the machine runs out of memory (git 2.39.5 under
  // `ulimit -v 2000000`: "fatal: Out of memory, getdelim failed"); each case must end at once.
  const zeroSettings: readonly [string, (repo: HostileRepo) => void][] = [
    ['.git/info/attributes linked to /dev/zero', (repo) => symlinkSync('/dev/zero', join(repo.root, '.git', 'info', 'attributes'))],
    ['diff.orderFile = /dev/zero', (repo) => repo.config('diff.orderFile', '/dev/zero')],
    ['core.attributesFile = /dev/zero', (repo) => repo.config('core.attributesFile', '/dev/zero')],
  ];
  for (const [what, make] of zeroSettings) {
    it(`a repository whose settings make git read /dev/zero (${what}): a clear error, git's memory bounded`, async () => {
      const repo = hostile();
      mkdirSync(join(repo.root, '.git', 'info'), { recursive: true });
      make(repo);
      repo.write(repo.changedPath, CHANGED_TEXT);
      // The diff gitdiff() runs, with a timeout far past the bound: reaching 4 GiB takes ~2 s on a
      // quiet machine and up to ~17 s under the suite's load (speed is for benchmarks).
      const error = await gitDiff(new Workspace(repo.root), undefined, { timeoutMs: ZERO_READ_TIMEOUT_MS }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DialectError);
      const { code, message, hint } = error as DialectError;
      expect(code).toBe('git-failed');
      // git's own out-of-memory message, not the timeout's: the memory bound ended it.
      expect(message).toMatch(/out of memory/i);
      expect(hint).toContain(`memory bound of ${GIT_MEMORY_BYTES / (1024 * 1024 * 1024)} GiB`);
    }, 2 * ZERO_READ_TIMEOUT_MS);
  }

  it('a FIFO where git reads its settings (.gitattributes): the call ends at its timeout, saying so', async () => {
    const repo = hostile();
    execFileSync('mkfifo', [join(repo.root, '.gitattributes')]);
    repo.write(repo.changedPath, CHANGED_TEXT);
    const timeoutMs = 2_000;
    const error = await runGit(repo.root, 'diff', ['HEAD', '--'], { timeoutMs }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string; hint?: string },
    );
    expect(error?.code).toBe('git-failed');
    expect(error?.message).toBe(`git diff did not finish within ${timeoutMs / 1000} s`);
    expect(error?.hint).toContain('FIFO');
  }, 30_000);
});
