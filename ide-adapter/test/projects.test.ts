/**
 * Project discovery on real folder trees made in the test: tsconfig.json/jsconfig.json at any
 * depth, closest first, outside dependency, hidden and gitignored folders, bounded with a note.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_JOB_BUDGET_MS } from '../file-jobs.js';
import { projectAnchor } from '../project-anchor.js';
import { findProjects, PROJECT_SCAN_BUDGET_MS } from '../lsp/projects.js';
import { detectServers } from '../lsp/servers.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { builtinServers } from '../languages/index.js';

describe('findProjects', () => {
  let root: string;
  const project = async (dir: string, marker = 'tsconfig.json'): Promise<void> => {
    await mkdir(join(root, dir, 'src'), { recursive: true });
    await writeFile(join(root, dir, marker), '{}');
    await writeFile(join(root, dir, 'src', 'index.ts'), 'export const x = 1;\n');
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-projects-'));
    await writeFile(join(root, 'package.json'), '{}');
    await writeFile(join(root, '.gitignore'), 'generated/\n');
    await project('app');
    await project('packages/core');
    await project('packages/group/lib');
    await project('tools/scripts/deep/er', 'jsconfig.json');
    await project('node_modules/dep'); // a dependency
    await project('.cache/thing'); // a tool's hidden cache
    await project('examples/.test/app'); // hidden, yet a project (trpc keeps its examples so)
    await project('generated/client'); // ignored by the root .gitignore
    await project('packages/legacy'); // ignored by a nested .gitignore
    await writeFile(join(root, 'packages', '.gitignore'), 'legacy/\n');
    await symlink(join(root, 'packages'), join(root, 'linked')); // never followed
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds every project at any depth, closest to the root first, skipping what git and builds ignore', async () => {
    const scan = await findProjects(root, ['tsconfig.json', 'jsconfig.json']);
    expect(scan.projectDirs.map((d) => d.slice(root.length + 1))).toEqual(['app', 'packages/core', 'examples/.test/app', 'packages/group/lib', 'tools/scripts/deep/er']);
    expect(scan.warnings).toEqual([]);
    expect(scan.complete).toBe(true);
  });

  it("finds each anchor from the folders its walk read, reading itself only those it skipped, with the answer a search of its own gives", async () => {
    const tree = await mkdtemp(join(tmpdir(), 'dialect-anchors-'));
    try {
      const files = {
        'nested/tsconfig.json': '{}',
        'nested/src/b/a.ts': '',
        'nested/src/a/z.ts': '', // folders by name: a before b
        'ignored-src/tsconfig.json': '{}',
        'ignored-src/.gitignore': 'src/\n', // the walk does not read src/; the anchor search still does
        'ignored-src/src/index.ts': '',
        'declarations/tsconfig.json': '{}',
        'declarations/src/index.d.ts': '', // not a source: the folder itself is next
        'declarations/main.ts': '',
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(tree, path, '..'), { recursive: true });
        await writeFile(join(tree, path), text);
      }
      const rule = { folders: ['src', '.'], depth: 1, source: '\\.ts$', notEnding: ['.d.ts'] };
      const scan = await findProjects(tree, ['tsconfig.json'], { anchorRule: rule });
      expect(scan.anchors?.map((f) => f.slice(tree.length + 1))).toEqual(['declarations/main.ts', 'ignored-src/src/index.ts', 'nested/src/a/z.ts']);
      expect(scan.anchors).toEqual(scan.projectDirs.map((dir) => projectAnchor(dir, rule)));
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it('stops at the project limit with a note naming it, and says the scan is incomplete', async () => {
    const scan = await findProjects(root, ['tsconfig.json', 'jsconfig.json'], { maxProjects: 2 });
    expect(scan.projectDirs.map((d) => d.slice(root.length + 1))).toEqual(['app', 'packages/core']);
    expect(scan.warnings.join('\n')).toMatch(/found 5 projects; loaded the 2 closest .*MAX_PROJECTS.*may miss .* of the other 3/);
    expect(scan.complete).toBe(false);
  });

  it("lists the files its walk passes, as git sees them, with each folder's anchor and the project files checked: one walk", async () => {
    await writeFile(join(root, 'app', 'src', 'tool.js'), '');
    await writeFile(join(root, 'examples', '.test', 'app', 'setup.js'), ''); // in a hidden folder: not listed
    await writeFile(join(root, 'generated', 'client', 'gen.js'), ''); // in an ignored folder
    await writeFile(join(root, 'packages', 'core', 'out.js'), '');
    await writeFile(join(root, 'packages', 'core', '.gitignore'), 'out.js\n'); // an ignored file
    const scan = await findProjects(root, ['tsconfig.json', 'jsconfig.json'], {
      collectFiles: { pattern: '\\.js$', limit: 10 },
      anchorRule: { folders: ['src', '.'], depth: 1, source: '\\.ts$', notEnding: ['.d.ts'] },
      checkFiles: { rule: { names: ['tsconfig.json'] }, serverName: 'ts', trusted: false },
    });
    expect(scan.files).toEqual({ paths: ['app/src/tool.js'], complete: true });
    expect(scan.anchors?.map((f) => f.slice(root.length + 1))).toEqual(['app/src/index.ts', 'packages/core/src/index.ts', 'examples/.test/app/src/index.ts', 'packages/group/lib/src/index.ts', 'tools/scripts/deep/er/src/index.ts']);
    expect(scan.checked).toEqual({ refusal: undefined, uninstalledExtends: [] });
    // Past its limit the list is cut, and says so.
    const cut = await findProjects(root, ['tsconfig.json', 'jsconfig.json'], { collectFiles: { pattern: '\\.ts$', limit: 2 } });
    expect(cut.files?.paths).toHaveLength(2);
    expect(cut.files?.complete).toBe(false);
  });

  it('stops at the folder limit with a note naming it', async () => {
    const scan = await findProjects(root, ['tsconfig.json'], { maxDirectories: 3 });
    expect(scan.warnings.join('\n')).toContain('MAX_SCANNED_DIRECTORIES');
  });

  it('scans asked for in one turn share one walk, each answered as it would be alone (its own markers, limits and notes)', async () => {
    const asks = [
      () => findProjects(root, ['tsconfig.json', 'jsconfig.json']),
      () => findProjects(root, ['jsconfig.json'], { everyMarker: true }),
      () => findProjects(root, ['tsconfig.json', 'jsconfig.json'], { maxProjects: 2 }),
      () => findProjects(root, ['tsconfig.json'], { maxDirectories: 3 }),
      () => findProjects(root, ['tsconfig.json'], { maxProjects: 1, stopAtLimit: true }),
    ];
    const alone = [];
    for (const ask of asks) alone.push(await ask());
    const together = await Promise.all(asks.map((ask) => ask()));
    expect(together).toEqual(alone);
    const shown = (scan: { projectDirs: readonly string[] } | undefined) => scan?.projectDirs.map((d) => d.slice(root.length + 1));
    expect(shown(together[1])).toEqual(['tools/scripts/deep/er']);
    expect(shown(together[4])).toEqual(['app']);
    expect([together[2]?.complete, together[3]?.warnings.join('\n')]).toEqual([false, expect.stringContaining('MAX_SCANNED_DIRECTORIES')]);
  });

  it('the TypeScript server opens one source file of each project', async () => {
    const anchors = await typeScriptServer.projectAnchors?.(root);
    expect(anchors?.files.map((a) => a.slice(root.length + 1))).toEqual(['app/src/index.ts', 'packages/core/src/index.ts', 'examples/.test/app/src/index.ts', 'packages/group/lib/src/index.ts', 'tools/scripts/deep/er/src/index.ts']);
  });

  it("each project's anchor is its first source by name, by code unit (declarations skipped): in src/, else lib/, else a folder below", async () => {
    const tree = await mkdtemp(join(tmpdir(), 'dialect-anchors-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': '{}',
        'src/zeta.ts': '',
        'src/alpha.ts': '',
        'src/Beta.ts': '', // capitals sort first by code unit, as the scan orders folders
        'src/aaa.d.ts': '',
        'lib/tsconfig.json': '{}',
        'lib/lib/only.ts': '',
        'tools/tsconfig.json': '{}',
        'tools/notes.md': '',
        'tools/b/second.ts': '',
        'tools/a/first.mts': '',
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(tree, path, '..'), { recursive: true });
        await writeFile(join(tree, path), text);
      }
      const anchors = await typeScriptServer.projectAnchors?.(tree);
      expect(anchors?.files.map((a) => a.slice(tree.length + 1))).toEqual(['src/Beta.ts', 'lib/lib/only.ts', 'tools/a/first.mts']);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it('a workspace whose only TypeScript project is three levels down still gets the TypeScript server', async () => {
    const deep = await mkdtemp(join(tmpdir(), 'dialect-deep-'));
    try {
      await mkdir(join(deep, 'tools', 'web', 'client', 'src'), { recursive: true });
      await writeFile(join(deep, 'tools', 'web', 'client', 'tsconfig.json'), '{}');
      await writeFile(join(deep, 'README.md'), '# no package.json at the root\n');
      const detected = await detectServers(deep, builtinServers());
      expect(detected.map((d) => [d.definition.id, d.evidence])).toEqual([['typescript', ['tools/web/client/tsconfig.json']]]);
    } finally {
      await rm(deep, { recursive: true, force: true });
    }
  });
});

describe('a hostile .gitignore', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-hostile-ignore-'));
    // Thousands of wildcard rules (no nested quantifiers in gitignore, but long chains of `*` and
    // `?*`): each folder name of 250 characters takes most of a second to match against them all.
    const rules: string[] = [];
    for (let i = 0; i < 3000; i++) rules.push(`${'*a'.repeat(15)}*${i}?*z/`, `**/${'?*'.repeat(10)}[!x]${i}*/`);
    await writeFile(join(root, '.gitignore'), `${rules.join('\n')}\n`);
    await writeFile(join(root, 'tsconfig.json'), '{}');
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'index.ts'), 'export const x = 1;\n');
    // Enough folders that matching them all outlasts the budget even on an idle machine.
    for (let i = 0; i < 2000; i++) await mkdir(join(root, `${'a'.repeat(244)}${String(i).padStart(4, '0')}`));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('delays the server start by the scan budget at most, with a note, and never blocks this thread', async () => {
    // A timer that must keep firing: the rules are matched in the file worker, not here.
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const anchors = await typeScriptServer.projectAnchors?.(root);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // The project at the root was found before the budget ran out, and the note says what stopped.
    expect(anchors?.files.map((a) => a.slice(root.length + 1))).toEqual(['src/index.ts']);
    expect(anchors?.warnings.join('\n')).toMatch(/^TypeScript: stopped looking for projects after 5000 ms \(PROJECT_SCAN_BUDGET_MS/);
    // Matching all these folders here took over a minute; the scan ends at its budget (plus the
    // match under way and a worker's start on a loaded machine), the hard bound is the one below.
    expect(elapsed).toBeLessThan(PROJECT_SCAN_BUDGET_MS + FILE_JOB_BUDGET_MS);
    // Generous for a loaded 2-core machine; matching on this thread blocked it for over a minute.
    expect(longestGap).toBeLessThan(2000);
  }, 60_000);
});
