/**
 * The built command (`bin/dialect.js` → the bundle in `dist/bundle/`) finds the package's own files
 * through `ide-adapter/package-files.ts`, although its code sits in bundle chunks and not where the
 * sources are: the version in package.json, the file worker's own entry, the walkthrough page's
 * assets with mermaid and DOMPurify, the MCP guidance (covered by `delegates.test.ts`) and the
 * untrusted toolchain shims of rust-analyzer.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, copyFixture, processesIn, repoRoot, requireFreshBuild, runDialect, rustAnalyzerAvailable, tempDir } from './support/cli.js';

const rust = await rustAnalyzerAvailable();
const TIMEOUT = 150_000;

/** The first line of a package file: enough to recognise it inlined in a page. */
const firstLine = (path: string): string => readFileSync(path, 'utf8').split('\n')[0] as string;

describe('the bundled command finds the package files', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-package-files-');
    env = await childEnv(join(state.path, 'state'));
  });
  afterAll(() => state?.dispose());

  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const r = await runDialect(['--version'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`dialect ${version}\n`);
  });

  it('runs file jobs in the bundle’s file worker', async () => {
    const workspace = join(state.path, 'files');
    await mkdir(join(workspace, 'docs'), { recursive: true });
    await writeFile(join(workspace, 'docs', 'guide.md'), '# Guide\nneedle here\n');
    const r = await runDialect(['eval', 'search("docs", "needl[e]")', '--workspace', workspace], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('docs/guide.md:2:1');
  });

  it('inlines the page assets, mermaid and DOMPurify into a walkthrough page', async () => {
    const workspace = join(state.path, 'page');
    await mkdir(workspace, { recursive: true });
    await writeFile(join(workspace, 'tour.md'), '# Diagram\n\n<mermaid>graph TD; A-->B</mermaid>\n');
    const out = join(state.path, 'tour.html');
    const r = await runDialect(['walkthrough', 'render', join(workspace, 'tour.md'), '--workspace', workspace, '-o', out], { env });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    const html = await readFile(out, 'utf8');
    for (const file of ['walkthrough/assets/page.js', 'walkthrough/assets/page.css', 'node_modules/dompurify/dist/purify.min.js']) {
      expect(html).toContain(firstLine(join(repoRoot, file)));
    }
    expect(html).toContain(readFileSync(join(repoRoot, 'node_modules/mermaid/dist/mermaid.min.js'), 'utf8').slice(0, 200));
  });

  describe.runIf(rust)('an untrusted Rust workspace', () => {
    let fixture: Awaited<ReturnType<typeof copyFixture>>;
    beforeAll(async () => {
      fixture = await copyFixture('rust-app');
    });
    afterAll(() => fixture?.dispose());

    it(
      'starts rust-analyzer restricted, with the package’s toolchain shims, and answers',
      async () => {
        // The workspace is not in the test's private trust store: rust-analyzer runs with the shims of
        // ide-adapter/languages/rust/untrusted-toolchain/, which the bundle must find to start it at all.
        const r = await runDialect(['eval', 'findDefinitions("User")', '--workspace', fixture.root], { env });
        expect(r.stderr).not.toContain('internal error');
        expect(r.code).toBe(0);
        const line = (await readFile(join(fixture.root, 'src', 'model.rs'), 'utf8')).split('\n').findIndex((l) => l.includes('pub struct User')) + 1;
        expect(r.stdout).toContain(`src/model.rs:${line}:`);
        expect(`${r.stdout}${r.stderr}`).toContain('dialect trust');
        expect(processesIn(fixture.root)).toEqual([]);
      },
      TIMEOUT,
    );
  });
});
