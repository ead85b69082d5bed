/**
 * `dialect walkthrough render` on the walkthrough that once took 4 GB and crashed with
 * "Invalid string length": 1 M characters, 13,874 comments. It is refused at once — before any
 * language server starts — with the limit and how to split it, exit code 1, no stack trace.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_COMMENT_COUNT, largeWalkthrough } from '../../walkthrough/test/support/large.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

describe('dialect walkthrough render within the limits', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    requireFreshBuild();
    dir = await tempDir('dialect-wt-limits-');
  });
  afterAll(() => dir?.dispose());

  it(`refuses the 1 M-character walkthrough with ${LARGE_COMMENT_COUNT} comments quickly, with the limit and no stack trace`, async () => {
    const workspace = join(dir.path, 'workspace');
    await mkdir(workspace);
    await writeFile(join(workspace, 'notes.txt'), 'notes\n');
    const file = join(dir.path, 'large.md');
    await writeFile(file, largeWalkthrough());
    const env = await childEnv(join(dir.path, 'state'));
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace], { env, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the walkthrough has ${LARGE_COMMENT_COUNT.toLocaleString('en-US')} comments; the limit is 500 (maxComments)`);
    expect(r.stderr).toContain('Split it into several walkthroughs');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('internal error');
    expect(r.ms).toBeLessThan(30_000);
    expect(existsSync(join(dir.path, 'large.html'))).toBe(false);
  });

  it('renders a megabyte of stray tags as a page of its own size: the warnings listed are bounded', async () => {
    const workspace = join(dir.path, 'stray');
    await mkdir(workspace);
    const markdown = `# Stray\n\n${'<div>\n'.repeat(160_000)}`;
    const file = join(dir.path, 'stray.md');
    await writeFile(file, markdown);
    const env = await childEnv(join(dir.path, 'state'));
    const r = await runDialect(['walkthrough', 'render', file, '--workspace', workspace], { env, timeoutMs: 120_000 });
    // Each stray tag was a warning of a kilobyte on the page: 190 MB, refused as too large.
    expect(r.stderr).not.toContain('maxPageChars');
    expect(r.code).toBe(0);
    const page = await readFile(join(dir.path, 'stray.html'), 'utf8');
    expect(page.length).toBeLessThan(markdown.length * 8);
    expect(page).toContain('159,800 more warnings not listed');
  }, 150_000);
});
