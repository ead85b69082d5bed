/**
 * The Python environment a workspace names, found by reading files only (nothing runs here): the
 * interpreter its editor settings choose (`.vscode/settings.json` `python.defaultInterpreterPath`
 * or the older `python.pythonPath`), a virtual environment folder at its root (`.venv`, `venv`,
 * `env` with a `pyvenv.cfg`), or a `venvPath`/`venv` pair in `pyrightconfig.json` or
 * `pyproject.toml`'s `[tool.pyright]` (pyright reads that one itself). Without any of them pyright
 * runs the `python3` on PATH, whose packages are rarely the project's.
 */
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readConfined } from '../../confine.js';
import { MAX_PROJECT_FILE_BYTES, withoutCommentsAndTrailingCommas } from '../../lsp/project-files.js';

/** Virtual environment folders looked for at the workspace root, in this order. */
export const VENV_FOLDERS = ['.venv', 'venv', 'env'] as const;

/** The environment found, and the file or folder that named it (workspace-relative, for notes). */
export interface PythonEnvironment {
  /** The interpreter to hand pyright (absolute); absent when pyright finds the packages itself (`venvPath`/`venv`). */
  readonly interpreter?: string;
  /** What named it: `.venv`, `.vscode/settings.json`, `pyrightconfig.json`, `pyproject.toml`. */
  readonly source: string;
}

/** The workspace's Python environment, or `undefined` when it names none. */
export function findPythonEnvironment(root: string): PythonEnvironment | undefined {
  const fromSettings = settingsInterpreter(root);
  if (fromSettings !== undefined) return { interpreter: fromSettings, source: '.vscode/settings.json' };
  for (const folder of VENV_FOLDERS) {
    const interpreter = venvInterpreter(join(root, folder));
    if (interpreter !== undefined) return { interpreter, source: folder };
  }
  const configured = configuredVenv(root);
  return configured !== undefined ? { source: configured } : undefined;
}

/** `bin/python` (or Windows' `Scripts/python.exe`) of a folder that is a virtual environment. */
export function venvInterpreter(dir: string): string | undefined {
  if (!isFile(join(dir, 'pyvenv.cfg'))) return undefined;
  return [join(dir, 'bin', 'python'), join(dir, 'Scripts', 'python.exe')].find(isFile);
}

function settingsInterpreter(root: string): string | undefined {
  const read = readConfined(root, join(root, '.vscode', 'settings.json'), MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return undefined;
  let settings: Record<string, unknown>;
  try {
    settings = JSON.parse(withoutCommentsAndTrailingCommas(read.text)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  for (const key of ['python.defaultInterpreterPath', 'python.pythonPath']) {
    const value = settings[key];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const path = value.replace(/\$\{workspaceFolder\}/g, root);
    // A bare `python3` means "the one on PATH": nothing the workspace chose.
    if (!path.includes('/') && !path.includes('\\')) continue;
    return isAbsolute(path) ? path : resolve(root, path);
  }
  return undefined;
}

/** `pyrightconfig.json` or `pyproject.toml` when it names a virtual environment (`venv`). */
function configuredVenv(root: string): string | undefined {
  const config = readConfined(root, join(root, 'pyrightconfig.json'), MAX_PROJECT_FILE_BYTES);
  if (config.ok) {
    try {
      const parsed = JSON.parse(withoutCommentsAndTrailingCommas(config.text)) as Record<string, unknown>;
      if (typeof parsed['venv'] === 'string') return 'pyrightconfig.json';
    } catch {
      // pyright reports a broken configuration itself.
    }
  }
  const pyproject = readConfined(root, join(root, 'pyproject.toml'), MAX_PROJECT_FILE_BYTES);
  if (pyproject.ok) {
    let table = '';
    for (const line of pyproject.text.split('\n')) {
      const header = /^\s*\[([^\]]+)\]/.exec(line);
      if (header !== null) table = (header[1] ?? '').trim();
      else if (table === 'tool.pyright' && /^\s*venv\s*=/.test(line)) return 'pyproject.toml';
    }
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
