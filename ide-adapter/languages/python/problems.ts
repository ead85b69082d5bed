/**
 * What pyright misses without the project's Python environment, said once: which imports it could
 * not resolve (its `reportMissingImports` diagnostics), why, and the fix.
 */
import type { KeyedWarning } from '../../lsp/servers.js';
import type { PythonEnvironment } from './environment.js';

/** The fix, named in every note about a missing environment. */
export const ENVIRONMENT_FIX = 'create the project\'s virtual environment as .venv (python3 -m venv .venv && .venv/bin/pip install -e .), or name its interpreter in .vscode/settings.json "python.defaultInterpreterPath"';

/** The warnings to report from the start about the environment pyright will use. */
export function pythonEnvironmentWarnings(environment: PythonEnvironment | undefined, untrusted: boolean): KeyedWarning[] {
  // Untrusted, the untrusted note says it (`ServerDefinition.untrustedLimit`); found, nothing is missing.
  if (untrusted || environment !== undefined) return [];
  return [
    {
      key: 'python:no-environment',
      text: `Python: no project environment found (.venv, venv, env or an interpreter setting): pyright sees only the packages of the python3 on PATH and typeshed's stubs. Fix: ${ENVIRONMENT_FIX}`,
    },
  ];
}
