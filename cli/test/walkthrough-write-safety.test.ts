/**
 * Where `dialect walkthrough render` writes its page: never through a symbolic link, never over a
 * file it did not write (`ide-adapter/safe-write.ts`). A hostile repository ships `docs/tour.html`
 * as a link to a file outside; rendering `docs/tour.md` must refuse (exit 1, a message naming the
 * link and the fix) and leave the outside file as it was. Controls: a new page is written, and a
 * re-render replaces its own page.
 */
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_MARK } from '../../walkthrough/index.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const OUTSIDE_TEXT = 'precious outside content\n';
const WALKTHROUGH = ['# Tour', '', `<comment location='lines("notes.txt", 1, 1)'>The first line.</comment>`, ''].join('\n');

describe('dialect walkthrough render writes only where it may', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let workspace: string;
  let outside: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    dir = await tempDir('dialect-wt-write-');
    workspace = join(dir.path, 'repo');
    outside = join(dir.path, 'outside');
    await mkdir(join(workspace, 'docs'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\n');
    env = await childEnv(join(dir.path, 'state'));
  });
  afterAll(() => dir?.dispose());

  const render = (file: string, ...extra: string[]) => runDialect(['walkthrough', 'render', file, '--workspace', workspace, ...extra], { env });

  it('refuses to write the default page through a symlink the repository ships; the outside file is unchanged', async () => {
    const victim = join(outside, 'victim.txt');
    await writeFile(victim, OUTSIDE_TEXT);
    const md = join(workspace, 'docs', 'tour.md');
    await writeFile(md, WALKTHROUGH);
    await symlink(victim, join(workspace, 'docs', 'tour.html'));
    const r = await render(md);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`refused to write ${join(workspace, 'docs', 'tour.html')}: it is a symbolic link (to ${victim})`);
    expect(r.stderr).toContain('choose another place with -o OUT.html');
    expect(r.stderr).not.toContain('✓ wrote');
    expect(await readFile(victim, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(lstatSync(join(workspace, 'docs', 'tour.html')).isSymbolicLink()).toBe(true);
  });

  it('refuses -o naming a symlink, even a dangling one (which would create the file it names)', async () => {
    const md = join(workspace, 'docs', 'other.md');
    await writeFile(md, WALKTHROUGH);
    const victim = join(outside, 'victim-o.txt');
    await writeFile(victim, OUTSIDE_TEXT);
    const link = join(workspace, 'page.html');
    await symlink(victim, link);
    const r = await render(md, '-o', link);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`refused to write ${link}: it is a symbolic link`);
    expect(await readFile(victim, 'utf8')).toBe(OUTSIDE_TEXT);

    const dangling = join(workspace, 'dangling.html');
    const target = join(outside, 'created-through-link.html');
    await symlink(target, dangling);
    const d = await render(md, '-o', dangling);
    expect(d.code).toBe(1);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses to replace a file that is not a page it wrote', async () => {
    const md = join(workspace, 'docs', 'index.md');
    await writeFile(md, WALKTHROUGH);
    const theirs = join(workspace, 'docs', 'index.html');
    await writeFile(theirs, '<!DOCTYPE html>\n<p>the project site</p>\n');
    const r = await render(md);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`refused to replace ${theirs}: the file there is not a walkthrough page Dialect wrote`);
    expect(await readFile(theirs, 'utf8')).toBe('<!DOCTYPE html>\n<p>the project site</p>\n');
  });

  it('control: writes a new page, and a re-render replaces its own page', async () => {
    const md = join(workspace, 'docs', 'fresh.md');
    await writeFile(md, WALKTHROUGH);
    const page = join(workspace, 'docs', 'fresh.html');
    const first = await render(md);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`✓ wrote ${page}`);
    const html = await readFile(page, 'utf8');
    expect(html.startsWith(PAGE_MARK)).toBe(true);
    expect(html).toContain('The first line.');
    await writeFile(md, WALKTHROUGH.replace('The first line.', 'Rendered again.'));
    const second = await render(md);
    expect(second.code).toBe(0);
    expect(await readFile(page, 'utf8')).toContain('Rendered again.');
  });
});
