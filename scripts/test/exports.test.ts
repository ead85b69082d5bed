/**
 * Every exported declaration of the product folders has a doc comment, and every one is used by
 * another product module (no dead code, no export that only tests need) — apart from the few
 * listed below, each with its reason.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportedDeclarations, undocumentedExports, unusedExports } from '../exports.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Exports no product module imports, kept on purpose. */
const KEPT: Readonly<Record<string, string>> = {
  // Tests that swap a server binary reset the process-wide discovery cache between cases.
  'ide-adapter/lsp/discovery.ts#clearDiscoveryCache': 'resets a process-wide cache (test isolation)',
  // Example configurations of common servers (pyright, gopls, clangd), checked by the tests.
  'ide-adapter/lsp/servers.ts#exampleServerConfigs': 'documented example configurations',
  // The build (scripts/bundle.ts) writes the copies of the vendored files the package ships.
  'ide-adapter/package-files.ts#vendoredCopy': 'used by the build script',
  // The command's entry for `dialect eval` (bin/dialect.js runs its one-file bundle).
  'cli/warm-eval.ts#runEvalCommandLine': 'called by bin/dialect.js',
  // The extension's entry points: VS Code calls them (package.json `main`), no module imports them.
  'vscode/src/extension.ts#activate': 'called by VS Code',
  'vscode/src/extension.ts#deactivate': 'called by VS Code',
};

describe('exported declarations', () => {
  it('are found (the scan reads the product folders)', () => {
    const names = new Set(exportedDeclarations(root).map((d) => `${d.file}#${d.name}`));
    expect(names.has('dialect/parse.ts#parse')).toBe(true);
    expect(names.has('ide-adapter/timeouts.ts#TIMEOUTS')).toBe(true);
  });

  it('each have a doc comment', () => {
    expect(undocumentedExports(root).map((d) => `${d.file}:${d.line} ${d.name}`)).toEqual([]);
  });

  it('are each used by another product module', () => {
    const unused = unusedExports(root)
      .map((d) => `${d.file}#${d.name}`)
      .filter((key) => !(key in KEPT));
    expect(unused).toEqual([]);
  });
});
