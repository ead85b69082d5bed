/**
 * Python through pyright, the npm dependency Dialect pins (`pyright/langserver.index.js --stdio`).
 * pyright's language server has no `--version`: its version is the package's, read from the
 * `package.json` beside it. Detection: `pyproject.toml`, `setup.py`, `setup.cfg`,
 * `requirements.txt`, `pyrightconfig.json` or a `.py` file in the top two levels. Before it starts,
 * `prepare` hands it the workspace's own environment (a `.venv`, the editor's interpreter
 * setting); untrusted, `trust.ts` pins the interpreter outside the workspace instead.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRequire } from '../../package-files.js';
import type { ProjectFileRule } from '../../lsp/project-files.js';
import type { ServerDefinition, WarmUp } from '../../lsp/servers.js';
import { findPythonEnvironment } from './environment.js';
import { tidyPyrightHover } from './hover.js';
import { PYTHON_IMPORTS } from './imports.js';
import { pythonKind } from './kinds.js';
import { pythonModulePath } from './module-path.js';
import { pythonEnvironmentWarnings } from './problems.js';
import { pyrightScopeWarnings } from './scope.js';
import { linesInStrings } from './strings.js';
import { untrustedPyright } from './trust.js';

/** The variable naming another pyright language server (its `langserver.index.js`). */
const OVERRIDE_VAR = 'DIALECT_PYRIGHT';

/** pyright's settings (`python` section; pyright asks for `python` and `python.analysis`). */
const PYRIGHT_SETTINGS = {
  python: {
    analysis: {
      // `src/` and the workspace root are search paths, as in the packaging tools' layouts.
      autoSearchPaths: true,
      // Library code without stubs still gets types (hover, go to definition into packages).
      useLibraryCodeForTypes: true,
      // Diagnostics for what we open; whole-workspace checking competes with queries for CPU.
      diagnosticMode: 'openFilesOnly',
    },
  },
} as const;

/**
 * pyright lists the workspace's files a moment after `initialized` (logging `Found 665 source
 * files`; a `workspace/symbol` before that finds nothing) and parses and binds them on its first
 * `workspace/symbol` (6–15 s on pip's 665 files, measured): asked at start with a query no Python
 * name matches (a space and a hyphen), that reading is done before it counts as ready.
 */
const PYRIGHT_WARM_UP: WarmUp = {
  listed: /^(?:Found (\d+) source files?|No source files found)/,
  method: 'workspace/symbol',
  params: { query: 'dialect warm-up' },
  reason: (files) => (files === undefined ? "listing the workspace's Python files" : `reading ${files} Python files`),
};

/** The pyright language server of this package's dependency, or none when it is not installed. */
export function bundledPyright(): string[] {
  try {
    return [join(dirname(packageRequire().resolve('pyright/package.json')), 'langserver.index.js')];
  } catch {
    return [];
  }
}

/**
 * The version of a pyright language server without running it: the `version` of the `pyright`
 * package it belongs to (its launcher has no `--version`; `pyright-langserver --version` exits 1).
 */
export function pyrightVersion(binary: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dirname(realpathSync(binary)), 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return manifest.name === 'pyright' && typeof manifest.version === 'string' ? `pyright ${manifest.version}` : undefined;
  } catch {
    return undefined;
  }
}

function candidates(env: Readonly<Record<string, string | undefined>> | undefined): string[] {
  const override = (env ?? process.env)[OVERRIDE_VAR];
  if (override !== undefined && override.trim() !== '') return [override];
  return bundledPyright();
}

/**
 * The configuration pyright reads whole as it starts (the root's only; `extends` chains included):
 * a `pyrightconfig.json` that is a FIFO held pyright (and every answer) until the deadline.
 */
const PYTHON_PROJECT_FILES: ProjectFileRule = { names: ['pyrightconfig.json', 'pyproject.toml'], projectMarkers: [], extendsIn: ['pyrightconfig.json'] };

/** Python via pyright. Override: `DIALECT_PYRIGHT` (a `langserver.index.js` of another pyright). */
export const pythonServer: ServerDefinition = {
  id: 'pyright',
  displayName: 'Python (pyright)',
  languages: [{ languageId: 'python', extensions: ['.py', '.pyi'] }],
  rootMarkers: ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pyrightconfig.json'],
  filePatterns: ['*.py', '*/*.py'],
  candidates,
  overrideVar: OVERRIDE_VAR,
  staticVersion: pyrightVersion,
  args: ['--stdio'],
  settings: PYRIGHT_SETTINGS,
  readiness: 'progress',
  warmUp: PYRIGHT_WARM_UP,
  installHint: 'npm install (Dialect pins pyright as an npm dependency)',
  modulePath: pythonModulePath,
  symbolKind: pythonKind,
  hoverDocumentation: tidyPyrightHover,
  // pyright answers no implementation request: subclasses come from the references in class headers.
  implementationsFromBases: true,
  // `cache.maxsize` on an unannotated parameter is no reference to Cache.maxsize for pyright.
  membersByInferredType: true,
  // Docstrings: a `.member` written in one is prose, not an untyped use.
  linesInStrings,
  // A package's `.pyi` beside its `.py`: importers' uses resolve to the stub's declaration.
  stubExtensions: ['.pyi'],
  imports: PYTHON_IMPORTS,
  prepare: (root) => {
    const environment = findPythonEnvironment(root);
    return Promise.resolve({
      ...(environment?.interpreter !== undefined ? { settings: { section: 'python', patch: { pythonPath: environment.interpreter } } } : {}),
      warnings: [...pythonEnvironmentWarnings(environment, false), ...pyrightScopeWarnings(root)],
    });
  },
  projectFiles: PYTHON_PROJECT_FILES,
  untrusted: untrustedPyright,
};
