/**
 * A walkthrough's `<gitdiff>` reads only the workspace's own repository (`ide-adapter/git/repository.ts`):
 * a checkout whose `.git` is a `gitdir:` file naming another repository gets a failed diff on
 * the element, with the typed code and the reason, and nothing of the other repository in the page.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, summarizeWalkthrough } from '../index.js';
import { fixtureEnvironment } from './support/fixture-env.js';

const SECRET = 'outside-secret-line';

describe('<gitdiff> in a checkout whose .git names another repository', () => {
  let dir: string;
  let workspace: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wt-gitdir-'));
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: outside, env, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(outside, 'a.txt'), 'a\n');
    git('add', '-A');
    git('commit', '-qm', 'one');
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    git('add', '-A');
    git('commit', '-qm', 'two');
    workspace = join(dir, 'checkout');
    mkdirSync(workspace);
    writeFileSync(join(workspace, '.git'), `gitdir: ${join(outside, '.git')}\n`);
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the diff with git-repository-outside and shows nothing of the other repository', async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough('<gitdiff range="HEAD~1..HEAD" />'), fixtureEnvironment(workspace));
    const diff = resolved.diffs[0];
    expect(diff?.files).toBeUndefined();
    expect(diff?.error?.code).toBe('git-repository-outside');
    const html = renderWalkthroughHtml(resolved);
    expect(html).toContain('git diff failed (git-repository-outside)');
    expect(summarizeWalkthrough(resolved)).toContain('[git-repository-outside]');
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain('secret.txt');
  });
});
