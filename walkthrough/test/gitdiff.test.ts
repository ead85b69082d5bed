import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, summarizeWalkthrough, walkthroughToJson, type ResolvedDiff } from '../index.js';
import { fixtureEnvironment } from './support/fixture-env.js';
import { createSampleRepository, type SampleRepository } from './support/git-repo.js';

let sample: SampleRepository;
let repo: string;
let notARepo: string;

beforeAll(() => {
  sample = createSampleRepository();
  repo = sample.root;
  notARepo = mkdtempSync(join(tmpdir(), 'wt-nogit-'));
}, 30_000);

afterAll(() => {
  sample.dispose();
  rmSync(notARepo, { recursive: true, force: true });
});

async function diffs(markdown: string, root: string = repo): Promise<readonly ResolvedDiff[]> {
  return (await resolveWalkthrough(parseWalkthrough(markdown), fixtureEnvironment(root))).diffs;
}
const paths = (diff: ResolvedDiff | undefined): string[] => (diff?.files ?? []).map((f) => `${f.status} ${f.path}`).sort();

describe('gitdiff against a real repository', () => {
  it('a commit range: files and hunks with added and removed lines', async () => {
    const [diff] = await diffs('<gitdiff range="HEAD~2..HEAD" />');
    expect(diff?.error).toBeUndefined();
    expect(paths(diff)).toEqual(['added src/added.rs', 'modified src/greet.rs', 'renamed src/new_name.rs']);
    const greet = diff?.files?.find((f) => f.path === 'src/greet.rs');
    expect(greet).toMatchObject({ additions: 1, deletions: 1 });
    const lines = greet?.hunks[0]?.lines ?? [];
    expect(lines.filter((l) => l.kind === 'removed').map((l) => l.text)).toEqual(['    "hello"']);
    expect(lines.filter((l) => l.kind === 'added').map((l) => l.text)).toEqual(['    "hello, world"']);
    expect(diff?.files?.find((f) => f.status === 'renamed')?.oldPath).toBe('src/old_name.rs');
  });

  it('the working tree: staged, unstaged and untracked changes, each excludable (block, inline and fenced forms)', async () => {
    const [all, noUnstaged, noStaged, fenced] = await diffs(
      ['<gitdiff range="HEAD" />', '', 'Staged only: <gitdiff range="HEAD" exclude-unstaged />.', '', '<gitdiff range="HEAD" exclude-staged></gitdiff>', '', '```gitdiff(range="HEAD", exclude-unstaged)', '```'].join('\n'),
    );
    expect(paths(all)).toEqual(['added untracked.txt', 'modified notes.txt', 'modified src/added.rs']);
    expect(paths(noUnstaged)).toEqual(['modified src/added.rs']);
    expect(paths(noStaged)).toEqual(['added untracked.txt', 'modified notes.txt']);
    expect(paths(fenced)).toEqual(paths(noUnstaged));
    expect(noUnstaged?.element.form).toBe('inline');
  });

  it('renders files and hunks as collapsible, with +/- lines marked', async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough('<gitdiff range="HEAD~2..HEAD" />'), fixtureEnvironment(repo));
    const html = renderWalkthroughHtml(resolved, { nonce: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(html).toContain('git diff HEAD~2..HEAD');
    expect(html).toContain('3 files changed');
    expect(html).toMatch(/<button type="button" class="wt-toggle wt-diff-file-head" aria-expanded="true">.*src\/greet\.rs/);
    expect(html).toMatch(/wt-line-removed"><span class="wt-ln">2<\/span><span class="wt-ln"><\/span><span class="wt-marker" aria-label="removed">-<\/span><span class="wt-code"> {4}&quot;hello&quot;<\/span>/);
    expect(html).toMatch(/wt-line-added"><span class="wt-ln"><\/span><span class="wt-ln">2<\/span><span class="wt-marker" aria-label="added">\+<\/span><span class="wt-code"> {4}&quot;hello, world&quot;/);
    expect(html).toContain('(from src/old_name.rs)');
    expect(walkthroughToJson(resolved).diffs[0]?.files).toHaveLength(3);
  });

  it('a bad range is an error shown on the element and in the summary', async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough('<gitdiff range="no-such-branch..HEAD" />'), fixtureEnvironment(repo));
    expect(resolved.diffs[0]?.error?.code).toBe('bad-revision');
    const html = renderWalkthroughHtml(resolved);
    expect(html).toContain('wt-gitdiff wt-failed');
    expect(html).toContain('git diff failed (bad-revision)');
    expect(summarizeWalkthrough(resolved)).toMatch(/gitdiff-1 \(line 1\) git diff no-such-branch\.\.HEAD: \[bad-revision\]/);
  });

  it('a folder that is not a repository is an error too', async () => {
    const [diff] = await diffs('<gitdiff range="HEAD" />', notARepo);
    expect(diff?.error?.code).toBe('not-a-repository');
    expect(diff?.files).toBeUndefined();
  });
});
