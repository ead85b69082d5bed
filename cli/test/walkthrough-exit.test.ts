/**
 * The exit code of `dialect walkthrough render`: whenever the page (or the JSON) is made it is 0,
 * with one line on stderr saying what was written and what the reader still meets (comments to
 * choose, comments that did not resolve); 1 only when no page could be made. The workspace is
 * plain text (`search` and `lines` need no language server), so the real command runs quickly.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const NOTES = ['a needle', 'b', 'c needle', ''].join('\n');
/** Two matches of "needle": the reader chooses. */
const AMBIGUOUS = `<comment location='search("notes.txt", "needle")'>Which needle?</comment>`;
const UNRESOLVED = `<comment location='lines("missing.txt", 1, 1)'>Gone.</comment>`;

describe('dialect walkthrough render exit codes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let workspace: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    dir = await tempDir('dialect-wt-exit-');
    workspace = join(dir.path, 'workspace');
    await mkdir(workspace);
    await writeFile(join(workspace, 'notes.txt'), NOTES);
    env = await childEnv(join(dir.path, 'state'));
  });
  afterAll(() => dir?.dispose());

  const walkthrough = async (name: string, ...comments: string[]): Promise<string> => {
    const file = join(dir.path, name);
    await writeFile(file, ['# Needles', '', ...comments.flatMap((c) => [c, ''])].join('\n'));
    return file;
  };

  it('a page with an ambiguous comment is a success: exit 0, the page exists, one line says the reader chooses', async () => {
    const file = await walkthrough('ambiguous.md', AMBIGUOUS);
    const out = join(dir.path, 'ambiguous.html');
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace, '-o', out], { env });
    expect(r.stderr).toContain('1 ambiguous');
    expect(r.stderr).toContain(`✓ wrote ${out} — 1 comment asks the reader to choose a location\n`);
    expect(r.code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Which needle?');
  });

  it('a page with an unresolved comment (and an ambiguous one) exits 0 and says both in one line', async () => {
    const file = await walkthrough('mixed.md', AMBIGUOUS, UNRESOLVED, AMBIGUOUS);
    const out = join(dir.path, 'mixed.html');
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace, '-o', out], { env });
    expect(r.stderr).toContain('missing.txt does not exist in the workspace');
    const last = r.stderr.trimEnd().split('\n').at(-1);
    expect(last).toBe(`✓ wrote ${out} — 2 comments ask the reader to choose a location; 1 comment did not resolve (see above)`);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it('--json alone prints the model and exits 0, saying it printed the JSON', async () => {
    const file = await walkthrough('json.md', UNRESOLVED);
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace, '--json'], { env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { counts: { unresolved: number } }).counts.unresolved).toBe(1);
    expect(r.stderr).toContain('✓ printed the JSON — 1 comment did not resolve (see above)');
    expect(existsSync(join(dir.path, 'json.html'))).toBe(false);
  });

  it('everything resolved: exit 0 and a plain "wrote" line', async () => {
    const file = await walkthrough('clean.md', `<comment location='lines("notes.txt", 2, 2)'>The b.</comment>`);
    const out = join(dir.path, 'clean.html');
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace, '-o', out], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`✓ wrote ${out}\n`);
  });

  it('a page that cannot be written exits 1 with what and where, no stack trace', async () => {
    const file = await walkthrough('unwritable.md', AMBIGUOUS);
    const out = join(dir.path, 'no-such-folder', 'page.html');
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace, '-o', out], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`dialect walkthrough: could not write the page ${out}`);
    expect(r.stderr).not.toContain('✓ wrote');
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('a walkthrough that cannot be read exits 1, and a missing one stays a usage error (3)', async () => {
    const folder = join(dir.path, 'folder.md');
    await mkdir(folder);
    const unreadable = await runDialect(['walkthrough', 'render', folder, '--workspace', workspace], { env });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain(`dialect walkthrough: cannot read the walkthrough ${folder}`);
    expect(unreadable.stderr).not.toContain('internal error');
    const missing = await runDialect(['walkthrough', 'render', join(dir.path, 'nope.md'), '--workspace', workspace], { env });
    expect(missing.code).toBe(3);
  });
});
