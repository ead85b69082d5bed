/**
 * The built-in languages: the one registration list. A language is its folder (`rust/`,
 * `typescript/`, …: its `ServerDefinition` with detection, `prepare`, module paths, known problems
 * and its untrusted form in `trust.ts`) and one line here.
 */
import { mergeServers, type ServerDefinition } from '../lsp/servers.js';
import { restrictServers } from '../lsp/untrusted.js';
import { clangdServer } from './cpp/index.js';
import { goplsServer } from './go/index.js';
import { rustAnalyzerServer } from './rust/index.js';
import { typeScriptServer } from './typescript/index.js';
import { pythonServer } from './python/index.js';

/** The servers Dialect knows without configuration. */
export function builtinServers(): ServerDefinition[] {
  return [
    rustAnalyzerServer,
    typeScriptServer,
    clangdServer,
    pythonServer,
    goplsServer,
  ];
}

/**
 * The custom servers and the built-ins (`mergeServers`): the custom ones first (so they win a
 * language), then each built-in whose id no custom server takes over.
 */
export function withBuiltinServers(custom: readonly ServerDefinition[]): ServerDefinition[] {
  return mergeServers(custom, builtinServers());
}

/**
 * The servers an in-process backend runs: the custom ones and the built-ins, each in its untrusted
 * form unless the workspace is trusted (`lsp/untrusted.ts`). `LspBackend` runs these, and a
 * `DeferredBackend` answers which files they handle before it makes one.
 */
export function serverDefinitions(custom: readonly ServerDefinition[], trusted: boolean): ServerDefinition[] {
  return restrictServers(withBuiltinServers(custom), trusted);
}
