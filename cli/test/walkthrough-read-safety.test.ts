/**
 * What `dialect walkthrough render` reads: a walkthrough inside the workspace is a workspace file
 * like any other (`ide-adapter/confine.ts`): a hostile repository that ships `docs/tour.md` as a
 * link to `/dev/zero` (read forever), a FIFO (blocks forever), or `docs` as a link to a folder
 * outside (whose file would be shown, and the page written beside it, outside) gets a clear
 * refusal at once (exit 1). Controls: a walkthrough the user names outside the workspace is still
 * read, and an ordinary one inside renders.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const WALKTHROUGH = ['# Tour', '', `<comment location='lines("notes.txt", 1, 1)'>The first line.</comment>`, ''].join('\n');
/** Generous on a loaded 2-core box; unbounded reads take minutes (a FIFO: forever). */
const REFUSAL_MS = 20_000;

describe('dialect walkthrough render reads a workspace walkthrough as a confined file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let workspace: string;
  let outside: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    dir = await tempDir('dialect-wt-read-');
    workspace = join(dir.path, 'repo');
    outside = join(dir.path, 'outside');
    await mkdir(workspace, { recursive: true });
    await mkdir(outside);
    await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\n');
    env = await childEnv(join(dir.path, 'state'));
  });
  afterAll(() => dir?.dispose());

  const render = (file: string, ...extra: string[]) => runDialect(['walkthrough', 'render', file, '--workspace', workspace, '--no-server', ...extra], { env });

  it('refuses a walkthrough that is a link to /dev/zero, at once: in the workspace as outside, elsewhere as no regular file', async () => {
    const md = join(workspace, 'zero.md');
    await symlink('/dev/zero', md);
    const started = Date.now();
    const r = await render(md);
    expect(Date.now() - started).toBeLessThan(REFUSAL_MS);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read the walkthrough ${md}: it leads outside the workspace ${workspace}`);

    const named = join(outside, 'zero.md');
    await symlink('/dev/zero', named);
    const again = Date.now();
    const n = await render(named, '-o', join(workspace, 'zero.html'));
    expect(Date.now() - again).toBeLessThan(REFUSAL_MS);
    expect(n.code).toBe(1);
    expect(n.stderr).toContain(`cannot read the walkthrough ${named}: it is not a regular file`);
  });

  it('refuses a walkthrough that is a FIFO, at once', async () => {
    const md = join(workspace, 'fifo.md');
    execFileSync('mkfifo', [md]);
    const started = Date.now();
    const r = await render(md);
    expect(Date.now() - started).toBeLessThan(REFUSAL_MS);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is not a regular file');
  });

  it('refuses a walkthrough in the workspace whose folder is a link leading outside; nothing is written there', async () => {
    await mkdir(join(outside, 'docs'));
    await writeFile(join(outside, 'docs', 'tour.md'), WALKTHROUGH.replace('# Tour', '# Outside secret'));
    await symlink(join(outside, 'docs'), join(workspace, 'docs'));
    const md = join(workspace, 'docs', 'tour.md');
    const r = await render(md, '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read the walkthrough ${md}: it leads outside the workspace ${workspace}`);
    expect(r.stdout).not.toContain('Outside secret');
    expect(existsSync(join(outside, 'docs', 'tour.html'))).toBe(false);
  });

  it('control: a walkthrough the user names outside the workspace is read; one inside renders', async () => {
    const named = join(outside, 'named.md');
    await writeFile(named, WALKTHROUGH);
    const r = await render(named, '-o', join(workspace, 'named.html'));
    expect(r.code).toBe(0);
    const inside = join(workspace, 'inside.md');
    await writeFile(inside, WALKTHROUGH);
    const i = await render(inside);
    expect(i.code).toBe(0);
    expect(existsSync(join(workspace, 'inside.html'))).toBe(true);
  });
});
