/**
 * A project's own pyright `include` narrows what pyright sees (psf/requests: `include =
 * ["src/requests"]`, so `findReferences` of `Session` missed its ~60 uses in tests/ and looked
 * complete; python-attrs/attrs: one file, so `findDefinitions("define")` missed the
 * implementation). Pyright has no setting that overrides a configuration file, but it searches
 * open files too: the files left out are opened (bounded; past the bound they are counted by top
 * folder and said once). The listing on real folders; the search through real pyright on a copy
 * of fixtures/py-app.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pythonServer } from '../languages/python/index.js';
import { pyrightScope } from '../languages/python/scope.js';
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

  it('lists the files outside a multi-line include of pyproject.toml, to be opened', async () => {
    const root = await made({ ...layout, 'pyproject.toml': '[project]\nname = "pkg"\n\n[tool.pyright]\ninclude = [\n  "src/pkg",  # the package\n]\nstrict = ["src"]\n\n[tool.other]\ninclude = ["tests"]\n' });
    const scope = pyrightScope(root);
    expect([...scope.outside].sort()).toEqual(['docs/conf.py', 'tests/test_a.py', 'tests/test_b.py']);
    expect(scope.warnings).toEqual([]);
  });

  it('past its bound, says once what is not opened, by top folder', async () => {
    const root = await made({ ...layout, 'pyproject.toml': '[tool.pyright]\ninclude = ["src/pkg"]\n' });
    const scope = pyrightScope(root, 1);
    expect(scope.outside).toHaveLength(1);
    expect(scope.warnings.map((w) => w.text)).toEqual([expect.stringMatching(/^pyright searches 3 of 5 Python files, not (tests\/ [12], docs\/ 1|docs\/ 1, tests\/ 1|tests\/ 2): the project's pyright include \(src\/pkg in pyproject\.toml \[tool\.pyright\]\) leaves out 3, of which the first 1 are opened/)]);
  });

  it('reads pyrightconfig.json first (comments, trailing commas, globs), as pyright does', async () => {
    const root = await made({ ...layout, 'pyproject.toml': '[tool.pyright]\ninclude = ["docs"]\n', 'pyrightconfig.json': '{\n  // what is checked\n  "include": ["src", "tests/**/test_a.py",],\n}\n' });
    expect([...pyrightScope(root).outside].sort()).toEqual(['docs/conf.py', 'tests/test_b.py']);
  });

  it('opens nothing without an include, or when the include covers every file', async () => {
    expect(pyrightScope(await made({ ...layout, 'pyproject.toml': '[tool.pyright]\nstrict = ["src"]\n' }))).toEqual({ outside: [], warnings: [] });
    expect(pyrightScope(await made({ ...layout, 'pyproject.toml': '[tool.pyright]\ninclude = ["src", "tests", "docs"]\n' }))).toEqual({ outside: [], warnings: [] });
    expect(pyrightScope(await made({ ...layout }))).toEqual({ outside: [], warnings: [] });
  });
});

const available = (await requireServer(pythonServer)) !== undefined;

describe.runIf(available)('files a pyright include leaves out are searched (real pyright, a copy of fixtures/py-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('py-app', async (root) => {
      await writeFile(join(await realpath(root), 'pyproject.toml'), '[project]\nname = "shapes"\n\n[tool.pyright]\ninclude = ["src"]\n');
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('references include the uses in tests/, and no note says they are left out', async () => {
    const o = await f.outcome('findReferences(findDefinition("Circle"))');
    expect(o.kind).toBe('value');
    const refs = (o.kind === 'value' ? o.value : []) as { referencedAt: { path: string; start: { line: number; column: number } } }[];
    const use = await f.at('tests/test_shapes.py', 'Circle(1.0)');
    expect(refs.filter((r) => r.referencedAt.path === 'tests/test_shapes.py').map((r) => r.referencedAt.start)).toContainEqual(use);
    expect(o.notes.filter((n) => /pyright (sees|searches)/.test(n))).toEqual([]);
  });
});
