/**
 * Python in an untrusted workspace. pyright learns its import search paths by running a Python
 * interpreter (`python -I -c <script>`, and once more for the version when the configuration
 * names none), with the project root as working directory: the one named by the client's
 * `python.pythonPath` setting, else `python3`, then `python` from PATH. A workspace steers that
 * choice through what Dialect would forward (its `.vscode/settings.json`, a `.venv/bin/python`
 * Dialect finds when trusted) and through its working directory (pyenv's `python3` shim obeys the
 * `.python-version` there). pyright's own configuration (`pyrightconfig.json`, `[tool.pyright]`)
 * cannot name an interpreter: its `venvPath`/`venv` only point at folders it reads.
 *
 * Untrusted, the interpreter is pinned (`python.pythonPath`, which pyright then runs alone) to a
 * real system interpreter outside the workspace — a binary, never a script such as a pyenv shim,
 * found on Dialect's own PATH — or, without one, to a path that does not exist, so pyright runs no
 * interpreter at all and answers from its bundled standard library stubs and the workspace.
 */
import { openSync, readSync, closeSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../../confine.js';
import { packageFile } from '../../package-files.js';
import { confineProjectFiles } from '../../lsp/project-files.js';
import type { ServerDefinition } from '../../lsp/servers.js';
import { pythonEnvironmentWarnings } from './problems.js';
import { pyrightScopeWarnings } from './scope.js';
import { searchPathFolders } from '../../search-path.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Interpreter names looked for on PATH, in order. */
const SYSTEM_INTERPRETERS = ['python3', 'python'] as const;

/** A path inside Dialect's package that is never a file: pinning pyright to it runs nothing. */
export function noInterpreter(): string {
  return packageFile('ide-adapter', 'languages', 'python', 'no-interpreter');
}

/**
 * The first interpreter on PATH that is a native executable outside `root` (its real path), or
 * `undefined`. Scripts are passed over: pyenv's shims read the working directory's
 * `.python-version`, and pyright runs the interpreter in the workspace.
 */
export function systemInterpreter(root: string, env: Env = process.env): string | undefined {
  for (const dir of searchPathFolders(env['PATH'])) {
    for (const name of SYSTEM_INTERPRETERS) {
      let real: string;
      try {
        real = realpathSync(join(dir, name));
        if (!statSync(real).isFile()) continue;
      } catch {
        continue;
      }
      if (!isInside(root, real) && !isScript(real)) return real;
    }
  }
  return undefined;
}

/** Whether a file starts with `#!` (an interpreter script rather than a program). */
function isScript(path: string): boolean {
  const head = Buffer.alloc(2);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What pyright does without in an untrusted workspace; short, so that it fits an answer's note line whole beside another server's. */
export const PYRIGHT_UNTRUSTED_LIMITS = "pyright sees no packages of the workspace's virtual environment";

/**
 * The restricted copy of the pyright definition for an untrusted workspace: the interpreter is
 * pinned outside the workspace in `prepare` (which sees the workspace root and the environment),
 * and the workspace's own environment is never looked up.
 */
export function untrustedPyright(definition: ServerDefinition): ServerDefinition {
  // Its configuration may not lead out either (pyright follows an `extends` anywhere).
  return confineProjectFiles({
    ...definition,
    untrustedLimits: PYRIGHT_UNTRUSTED_LIMITS,
    prepare: (root, env) => {
      const interpreter = systemInterpreter(root, env) ?? noInterpreter();
      return Promise.resolve({
        settings: { section: 'python', patch: { pythonPath: interpreter } },
        warnings: [...pythonEnvironmentWarnings(undefined, true), ...pyrightScopeWarnings(root)],
      });
    },
  });
}
