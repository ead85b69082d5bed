/**
 * A project's own pyright `include` narrows what pyright sees (psf/requests: `include =
 * ["src/requests"]`, so `findReferences` of `Session` missed its ~60 uses in tests/ and looked
 * complete; python-attrs/attrs: one file, so `findDefinitions("define")` missed the
 * implementation). Pyright has no setting that overrides a configuration file: the files left out
 * are counted by top folder and said once. The counting on real folders; the note through real
 * pyright on copies of fixtures/py-app.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pythonServer } from '../languages/python/index.js';
import { pyrightScopeWarnings } from '../languages/python/scope.js';
import { MAX_NOTE_LINE } from '../notes-ledger.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'dialect-pyscope-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('the Python files a pyright include leaves out (real folders)', () => {
  const roots: string[] = [];
  const made = async (files: Record<string, string>) => {
    const root = await tree(files);
    roots.push(root);
    return root;
  };
  afterEach(async () => {
    for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
  });

  const layout = {
    'src/pkg/__init__.py': '',
    'src/pkg/core.py': '',
    'tests/test_a.py': '',
    'tests/test_b.py': '',
    'docs/conf.py': '',
    '.venv/lib/site.py': '', // dot folders are not the project's
    'env/pyvenv.cfg': '',
    'env/lib/mod.py': '', // a virtual environment
    'node_modules/x/y.py': '',
  };

  it('counts the files outside a multi-line include of pyproject.toml, by top folder', async () => {
    const root = await made({ ...layout, 'pyproject.toml': '[project]\nname = "pkg"\n\n[tool.pyright]\ninclude = [\n  "src/pkg",  # the package\n]\nstrict = ["src"]\n\n[tool.other]\ninclude = ["tests"]\n' });
    const [warning, ...rest] = pyrightScopeWarnings(root);
    expect(rest).toEqual([]);
    expect(warning?.text).toMatch(/^pyright sees 2 of 5 Python files, not tests\/ 2, docs\/ 1: the project's pyright include \(src\/pkg in pyproject\.toml \[tool\.pyright\]\)/);
  });

  it('reads pyrightconfig.json first (comments, trailing commas, globs), as pyright does', async () => {
    const root = await made({ ...layout, 'pyproject.toml': '[tool.pyright]\ninclude = ["docs"]\n', 'pyrightconfig.json': '{\n  // what is checked\n  "include": ["src", "tests/**/test_a.py",],\n}\n' });
    expect(pyrightScopeWarnings(root).map((w) => w.text)).toEqual([expect.stringMatching(/^pyright sees 3 of 5 Python files, not docs\/ 1, tests\/ 1: .*\(src, tests\/\*\*\/test_a\.py in pyrightconfig\.json\)/)]);
  });

  // The configuration is workspace text read on the main thread as a server starts.
  describe('a hostile configuration', () => {
    const writers: ChildProcess[] = [];
    afterEach(() => {
      for (const w of writers.splice(0)) w.kill('SIGKILL');
    });

    it('is read only inside the workspace: one that leads out, or is a FIFO, is not read (nothing blocks)', async () => {
      const outside = await made({ 'base.json': '{ "include": ["src"] }\n' });
      const linked = await made(layout);
      await symlink(join(outside, 'base.json'), join(linked, 'pyrightconfig.json'));
      expect(pyrightScopeWarnings(linked)).toEqual([]);

      // A FIFO whose writer waits for a reader: reading it would block the thread (or, here,
      // read the include the writer sends).
      const fifo = await made(layout);
      expect(spawnSync('mkfifo', [join(fifo, 'pyrightconfig.json')]).status).toBe(0);
      writers.push(spawn('sh', ['-c', `printf '{ "include": ["src"] }' > "$0"`, join(fifo, 'pyrightconfig.json')], { stdio: 'ignore' }));
      expect(pyrightScopeWarnings(fifo)).toEqual([]);
    });

    it('costs linear time: nested-star include globs, unclosed comments, a long multi-line include', async () => {
      const python = { ...layout, [`src/${'a'.repeat(40)}.py`]: '' };
      // As regular expressions, each of these held the thread for tens of seconds to hours.
      const json = await made({ ...python, 'pyrightconfig.json': `{ "include": ["src/pkg", "${'*a'.repeat(16)}b"] } ${'/* '.repeat(80_000)}` });
      // A spec with a long run of slashes not at its end: its trailing slashes were cut by a quadratic pattern (minutes).
      const slashes = await made({ ...python, 'pyrightconfig.json': `{ "include": ["src/pkg", "src${'/'.repeat(200_000)}x"] }` });
      const toml = await made({ ...python, 'pyproject.toml': `[tool.pyright]\n${'\n'.repeat(50_000)}include = [\n${'  # "no"\n'.repeat(10_000)}"src/pkg" ]\n` });
      const started = performance.now();
      expect(pyrightScopeWarnings(json).map((w) => w.text)).toEqual([expect.stringMatching(/^pyright sees 2 of 6 Python files, not tests\/ 2, docs\/ 1, src\/ 1:/)]);
      expect(pyrightScopeWarnings(toml).map((w) => w.text)).toEqual([expect.stringMatching(/^pyright sees 2 of 6 Python files, not tests\/ 2, docs\/ 1, src\/ 1: .*\(src\/pkg in pyproject\.toml/)]);
      expect(pyrightScopeWarnings(slashes).length).toBeLessThanOrEqual(1);
      expect(performance.now() - started).toBeLessThan(3000);
    });
  });

  it('says nothing without an include, or when the include covers every file', async () => {
    expect(pyrightScopeWarnings(await made({ ...layout, 'pyproject.toml': '[tool.pyright]\nstrict = ["src"]\n' }))).toEqual([]);
    expect(pyrightScopeWarnings(await made({ ...layout, 'pyproject.toml': '[tool.pyright]\ninclude = ["src", "tests", "docs"]\n' }))).toEqual([]);
    expect(pyrightScopeWarnings(await made({ ...layout }))).toEqual([]);
  });
});

const available = (await requireServer(pythonServer)) !== undefined;

describe.runIf(available)('the pyright include note (real pyright, a copy of fixtures/py-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('py-app', async (root) => {
      await writeFile(join(await realpath(root), 'pyproject.toml'), '[project]\nname = "shapes"\n\n[tool.pyright]\ninclude = ["src"]\n');
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('is said once, in one short line that names what is left out', async () => {
    const first = await f.outcome('findReferences(findDefinition("Shape"))');
    const notes = first.notes.filter((n) => n.startsWith('pyright sees'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^pyright sees 6 of 7 Python files, not tests\/ 1: /);
    expect((notes[0] ?? '').length).toBeLessThanOrEqual(MAX_NOTE_LINE);
    const again = await f.outcome('findReferences(findDefinition("Shape"))');
    expect(again.notes.filter((n) => n.startsWith('pyright sees'))).toEqual([]);
  });
});
