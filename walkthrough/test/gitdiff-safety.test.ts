/**
 * A walkthrough `<gitdiff>` element on a repository whose configuration names programs (fsmonitor,
 * a clean filter, a textconv driver): the element shows the right diff and none of them runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADDED_LINE, CHANGED_TEXT, createHostileRepo, type HostileRepo } from '../../ide-adapter/test/support/hostile-repo.js';
import { parseWalkthrough, resolveWalkthrough } from '../index.js';
import { fixtureEnvironment } from './support/fixture-env.js';

let repo: HostileRepo | undefined;
afterEach(() => repo?.dispose());

describe('<gitdiff> on a hostile repository', () => {
  it('shows the change and runs no program the repository configures', async () => {
    const r = (repo = createHostileRepo());
    r.write('.gitattributes', '*.txt filter=scrub diff=conv\n');
    r.git('add', '-A');
    r.git('commit', '-qm', 'attributes');
    r.config('core.fsmonitor', r.program('fsmonitor', 'exit'));
    r.config('filter.scrub.clean', r.program('clean', 'pass-stdin'));
    r.config('diff.conv.textconv', r.program('textconv', 'print-file'));
    r.write(r.changedPath, CHANGED_TEXT);

    const resolved = await resolveWalkthrough(parseWalkthrough('<gitdiff range="HEAD" />'), fixtureEnvironment(r.root));
    expect(r.fired()).toEqual([]);
    const [diff] = resolved.diffs;
    expect(diff?.error).toBeUndefined();
    const file = diff?.files?.find((f) => f.path === r.changedPath);
    expect(file).toMatchObject({ status: 'modified', additions: 1, deletions: 1 });
    expect(file?.hunks.flatMap((h) => h.lines)).toContainEqual({ kind: 'added', text: ADDED_LINE, newLine: 2 });
  });
});
