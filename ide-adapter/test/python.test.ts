/**
 * Python beyond the conformance table: detection, module paths, pyright's version without a
 * probe, the environment a workspace names, and trust — a workspace interpreter (`.venv/bin/python`,
 * `.vscode/settings.json`, a `python3` in the workspace) that leaves a marker when it runs must not
 * run untrusted, while pyright still answers; trusted, the workspace's `.venv` is the interpreter
 * pyright runs (what trust is for: its packages).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYRIGHT_UNTRUSTED_LIMITS } from '../languages/python/trust.js';
import { renderOutcome } from '../../dialect/index.js';
import { findPythonEnvironment } from '../languages/python/environment.js';
import { bundledPyright, pythonServer, pyrightVersion } from '../languages/python/index.js';
import { pythonModulePath } from '../languages/python/module-path.js';
import { linesInStrings } from '../languages/python/strings.js';
import { noInterpreter, systemInterpreter } from '../languages/python/trust.js';
import { findServerBinary } from '../lsp/discovery.js';
import { detectServers } from '../lsp/servers.js';
import { builtinServers } from '../languages/index.js';
import { IdeSession } from '../session.js';
import { copyFixture, fixture, requireServer } from './support/servers.js';
import { readFile } from 'node:fs/promises';

const available = (await requireServer(pythonServer)) !== undefined;

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-python-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('Python detection, module paths and discovery', () => {
  it('detects pyright from each marker file and from loose .py files', async () => {
    for (const marker of ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pkg/mod.py']) {
      const root = join(base, `detect-${marker.replace(/\W/g, '-')}`);
      await mkdir(join(root, 'pkg'), { recursive: true });
      await writeFile(join(root, marker), '');
      expect((await detectServers(root, builtinServers())).map((d) => d.definition.id), marker).toEqual(['pyright']);
    }
    const plain = join(base, 'detect-none');
    await mkdir(plain, { recursive: true });
    await writeFile(join(plain, 'notes.txt'), '');
    expect(await detectServers(plain, builtinServers())).toEqual([]);
  });

  it('writes module paths as imports do: packages from __init__.py, src/ as a source root, namespace folders kept', async () => {
    const read = (path: string) => readFile(join(fixture('py-app'), path), 'utf8').then((t) => t.split('\n'));
    const of = async (path: string) => (await pythonModulePath(path, read)).map((s) => s.join('|')).join('.');
    expect(await of('src/shapes/circle.py')).toBe('shapes.circle');
    expect(await of('src/shapes/__init__.py')).toBe('shapes');
    expect(await of('tests/test_shapes.py')).toBe('tests.test_shapes');
    // A namespace package (no __init__.py) above a regular one is part of the path (jaraco.functools).
    expect(await of('jaraco/functools/__init__.py')).toBe('jaraco.functools');
    expect(await of('src/acme/tools/hooks.py')).toBe('acme.tools.hooks');
  });

  it('finds the bundled pyright without running it, and reports the package version', async () => {
    const [binary] = bundledPyright();
    expect(binary).toMatch(/pyright[/\\]langserver\.index\.js$/);
    const manifest = JSON.parse(await readFile(join(binary as string, '..', 'package.json'), 'utf8')) as { version: string };
    expect(pyrightVersion(binary as string)).toBe(`pyright ${manifest.version}`);
    expect(await findServerBinary(pythonServer, { env: { ...process.env, DIALECT_PYRIGHT: '' } })).toEqual({ path: binary, version: `pyright ${manifest.version}` });
  });

  it('finds the environment a workspace names: editor setting first, then a virtual environment folder, then pyright configuration', async () => {
    const root = join(base, 'env');
    await mkdir(join(root, '.venv', 'bin'), { recursive: true });
    expect(findPythonEnvironment(root)).toBeUndefined(); // a folder without pyvenv.cfg is no environment
    await writeFile(join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    await writeFile(join(root, '.venv', 'bin', 'python'), '');
    expect(findPythonEnvironment(root)).toEqual({ interpreter: join(root, '.venv', 'bin', 'python'), source: '.venv' });
    await mkdir(join(root, '.vscode'));
    await writeFile(join(root, '.vscode', 'settings.json'), '{\n  // chosen in the editor\n  "python.defaultInterpreterPath": "${workspaceFolder}/tools/py",\n}\n');
    expect(findPythonEnvironment(root)).toEqual({ interpreter: join(root, 'tools', 'py'), source: '.vscode/settings.json' });
    const configured = join(base, 'env-config');
    await mkdir(configured);
    await writeFile(join(configured, 'pyproject.toml'), '[tool.pyright]\nvenvPath = "."\nvenv = "env3"\n');
    expect(findPythonEnvironment(configured)).toEqual({ source: 'pyproject.toml' });
  });

  it('pins an untrusted workspace to a native interpreter outside it, never a script or one inside it', async () => {
    const root = join(base, 'pin');
    await mkdir(join(root, 'bin'), { recursive: true });
    await writeFile(join(root, 'bin', 'python3'), '#!/bin/sh\nexit 0\n');
    await chmod(join(root, 'bin', 'python3'), 0o755);
    expect(systemInterpreter(root, { PATH: join(root, 'bin') })).toBeUndefined();
    const found = systemInterpreter(root, { PATH: `${join(root, 'bin')}:${process.env.PATH ?? ''}` });
    if (found !== undefined) {
      expect(found.startsWith(root)).toBe(false);
      expect((await readFile(found)).subarray(0, 2).toString('latin1')).not.toBe('#!');
    }
    expect(existsSync(noInterpreter())).toBe(false);
  });
});

/** A workspace whose every way of naming an interpreter leads to a script that leaves `marker`. */
async function lureWorkspace(name: string): Promise<{ root: string; marker: string; dispose: () => Promise<void> }> {
  const copy = await copyFixture('py-app');
  const root = await realpath(copy.root);
  const marker = join(base, `${name}.marker`);
  const script = (tag: string) => `#!/bin/sh\necho ${tag} >> '${marker}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin python3 "$@"\n`;
  const put = async (path: string, tag: string) => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), script(tag));
    await chmod(join(root, path), 0o755);
  };
  await put('.venv/bin/python', 'venv');
  await writeFile(join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  await put('python3', 'cwd-python3');
  await writeFile(join(root, '.python-version'), 'system\n');
  return { root, marker, dispose: copy.dispose };
}

describe.runIf(available)('Python trust (the real pyright running interpreters)', () => {
  it('untrusted: no interpreter of the workspace runs, pyright still answers, and the note says what is off', async () => {
    const lure = await lureWorkspace('untrusted');
    await mkdir(join(lure.root, '.vscode'));
    await writeFile(join(lure.root, '.vscode', 'settings.json'), JSON.stringify({ 'python.defaultInterpreterPath': './python3' }));
    await writeFile(join(lure.root, 'pyrightconfig.json'), JSON.stringify({ venvPath: '.', venv: '.venv' }));
    // A regular package inside a namespace package (jaraco.functools: no jaraco/__init__.py).
    await mkdir(join(lure.root, 'src', 'acme', 'tools'), { recursive: true });
    await writeFile(join(lure.root, 'src', 'acme', 'tools', '__init__.py'), 'def compose(*funcs):\n    return funcs\n');
    const session = await IdeSession.open({ workspaceRoot: lure.root, trusted: false, env: { PATH: `.:${lure.root}:${process.env.PATH ?? ''}` }, readyTimeoutMs: 120_000 });
    try {
      const o = await session.evaluate('findDefinitions("shapes.circle.Circle.area")', { deadlineMs: 60_000 });
      expect(o.kind).toBe('value');
      expect(o.kind === 'value' ? (o.value as { definedAt: { path: string } }[]).map((d) => d.definedAt.path) : []).toEqual(['src/shapes/circle.py']);
      expect(o.notes.find((n) => n.startsWith('untrusted workspace'))).toContain(PYRIGHT_UNTRUSTED_LIMITS);
      const composed = await session.evaluate('findDefinitions("acme.tools.compose")', { deadlineMs: 60_000 });
      expect(composed.kind === 'value' ? (composed.value as { definedAt: { path: string } }[]).map((d) => d.definedAt.path) : composed).toEqual(['src/acme/tools/__init__.py']);
      // The interpreter runs while pyright builds its import resolver, before any answer above.
      const diagnostics = await session.evaluate('diagnostics("src/shapes/render.py")', { deadlineMs: 60_000 });
      expect(diagnostics.kind).toBe('value');
      expect(existsSync(lure.marker)).toBe(false);
      // Beyond the table: a method's implementations are its overrides in the subclasses, and a
      // function's "type definition" (pyright answers with the function itself) is said, not shown.
      const overrides = await session.evaluate('implementations(findDefinition("Shape.area"))', { deadlineMs: 60_000 });
      expect(overrides.kind === 'value' ? (overrides.value as { container?: string }[]).map((d) => d.container).sort() : overrides).toEqual(['Circle', 'Square']);
      const itself = await session.evaluate('typeDefinition(findDefinition("render"))', { deadlineMs: 60_000 });
      expect(itself.kind === 'value' ? itself.value : itself).toEqual([]);
      expect(itself.notes.join('\n')).toContain('the server answered with the declaration itself for function render');
      // A parameter does not crowd a lookup of the attribute of the same name.
      const radius = await session.evaluate('findDefinitions("radius")', { deadlineMs: 60_000 });
      expect(radius.kind === 'value' ? (radius.value as { container?: string }[]).map((d) => d.container) : radius).toEqual(['Circle']);
      // A name only an unresolved import brings in: the lookup names the import, pyright's words and the fix.
      const session_ = await session.evaluate('getSymbolInfo("Session")', { deadlineMs: 60_000 });
      const text = renderOutcome(session_);
      expect(session_.kind).toBe('error');
      expect(text).toContain('imported from requests (src/shapes/remote.py:2), which the language server could not resolve: Import "requests" could not be resolved');
      expect(text).toContain('.venv');
    } finally {
      await session.shutdown();
      await lure.dispose();
    }
  });

  it('trusted: the workspace .venv is the interpreter pyright runs', async () => {
    const lure = await lureWorkspace('trusted');
    const session = await IdeSession.open({ workspaceRoot: lure.root, trusted: true, readyTimeoutMs: 120_000 });
    try {
      const o = await session.evaluate('diagnostics("src/shapes/render.py")', { deadlineMs: 60_000 });
      expect(o.kind).toBe('value');
      expect((await readFile(lure.marker, 'utf8')).split('\n')).toContain('venv');
    } finally {
      await session.shutdown();
      await lure.dispose();
    }
  });
});

describe('Python imports', () => {
  it('traces a name to the import that binds it, aliases and relative imports included', async () => {
    const { PYTHON_IMPORTS } = await import('../languages/python/imports.js');
    const cases: [string, string, string | undefined][] = [
      ['from requests import Session', 'Session', 'requests'],
      ['from requests import get, Session as S  # comment', 'S', 'requests'],
      ['from requests import get, Session as S', 'Session', undefined],
      ['from .base import (Shape, Other)', 'Other', '.base'],
      ['import numpy as np', 'np', 'numpy'],
      ['import os.path', 'os', 'os'],
      ['import os.path', 'path', undefined],
    ];
    for (const [line, name, module] of cases) {
      expect(PYTHON_IMPORTS.moduleOf(line, name), `${name} in ${line}`).toBe(module);
      if (module !== undefined) expect(new RegExp(PYTHON_IMPORTS.lineImporting(name)).test(line), line).toBe(true);
    }
    // A workspace's import line padded with a megabyte of blanks: splitting at /\s+as\s+/ was quadratic.
    const pad = ' '.repeat(1_000_000);
    const started = performance.now();
    expect(PYTHON_IMPORTS.moduleOf(`from requests import Session${pad}x`, 'Session')).toBeUndefined();
    expect(PYTHON_IMPORTS.moduleOf(`import numpy${pad}as${pad}np`, 'np')).toBe('numpy');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(PYTHON_IMPORTS.unresolved('reportMissingImports', 'Import "numpy" could not be resolved')).toBe(true);
    expect(PYTHON_IMPORTS.unresolved('reportAttributeAccessIssue', 'x is not a known attribute')).toBe(false);
  });
});

describe('Python import probe', () => {
  it('reads the absolute top-level modules of an import line, none of a relative one', async () => {
    const { PYTHON_IMPORTS } = await import('../languages/python/imports.js');
    const modules = (line: string) => PYTHON_IMPORTS.probe?.modules(line);
    expect(modules('import a.b as c, d  # e')).toEqual(['a', 'd']);
    expect(modules('from x.y import (z,')).toEqual(['x']);
    expect(modules('from . import z')).toEqual([]);
    expect(modules('from .x import z')).toEqual([]);
    expect(modules('import os; import sys')).toEqual(['os']);
  });

  it('knows which lines begin inside a string, in one pass', () => {
    const text = ['x = "a # not a comment"', '"""doc', 'from a import b', '"""', "y = '''", "'''", '# """ not a string', 'import c', 'z = "\\""', 'import d'].join('\n');
    expect([...linesInStrings(text)].sort()).toEqual([2, 3, 5]);
    // Linear: a long run of escaped quotes is read once.
    const long = `"""${'\\"'.repeat(200_000)}"""\nimport e\n`;
    const started = performance.now();
    expect(linesInStrings(long).has(1)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('Python environment warnings', () => {
  it('says once, with the fix, when a trusted workspace names no environment; nothing when it does or when untrusted', async () => {
    const { pythonEnvironmentWarnings, ENVIRONMENT_FIX } = await import('../languages/python/problems.js');
    const [warning, ...rest] = pythonEnvironmentWarnings(undefined, false);
    expect(rest).toEqual([]);
    expect(warning?.text).toContain('no project environment found');
    expect(warning?.text).toContain(ENVIRONMENT_FIX);
    expect(pythonEnvironmentWarnings({ interpreter: '/x/.venv/bin/python', source: '.venv' }, false)).toEqual([]);
    expect(pythonEnvironmentWarnings(undefined, true)).toEqual([]);
  });
});
