/**
 * Go through gopls (Debian's `gopls`, x/tools 0.5.0, with `golang-go`). Detection: `go.mod`,
 * `go.work` or `.go` files in the top two levels. Names: `pkg.Func`, `Type.Method`,
 * `pkg.Type.Method` (names.ts); module cache gaps (modules.ts); files only a newer go builds
 * (release-tags.ts); names declared in files built only elsewhere (unbuilt.ts); implementations gopls cannot see, by method sets in the text (implementers.ts); untrusted workspaces (trust.ts).
 *
 * What this gopls offers, probed from its `initialize` answer: definitions, references, hover,
 * outlines, workspace symbols, implementations (both ways: an interface's implementing types
 * and the interfaces a type satisfies, Go's implicit satisfaction included), type definitions
 * and call hierarchies; no type hierarchy (`subtypes`/`supertypes` answer `unsupported-by-server`
 * with `implementations` as the alternative).
 */
import type { KeyedWarning, KnownProblem, ServerDefinition, ServerPreparation } from '../../lsp/servers.js';
import { PROJECT_FILES_GO } from './project.js';
import { missingModules, missingModulesWarning } from './modules.js';
import { goEmbeddedField, goKind, goModulePath, goSymbolName } from './names.js';
import { genericImplementationsGap } from './generics.js';
import { installedGoVersion, olderGoWarnings } from './toolchain.js';
import { newerReleaseWarnings } from './release-tags.js';
import { GOPLS_UNTRUSTED_LIMITS, untrustedGopls } from './trust.js';
import { goUnbuiltFiles } from './unbuilt.js';
import { goTextImplementations } from './implementers.js';

/**
 * gopls settings (also its `initializationOptions`, which it reads first). gopls caps
 * `workspace/symbol` at 100 answers; `Dynamic` style names a member `Type.Member` for the plain
 * names Dialect asks for.
 */
const GOPLS_CONFIG = {
  symbolStyle: 'Dynamic',
  symbolMatcher: 'FastFuzzy',
  // No background analyses Dialect never shows; diagnostics still come from the type checker.
  codelenses: { generate: false, gc_details: false, regenerate_cgo: false, test: false, tidy: false, upgrade_dependency: false, vendor: false },
} as const;

/** How many symbols gopls's `workspace/symbol` returns at most. */
const GOPLS_SYMBOL_LIMIT = 100;

/** Problems gopls reports that leave Go answers degraded, with what to do. */
const GOPLS_KNOWN_PROBLEMS: readonly KnownProblem[] = [
  {
    key: 'go-toolchain-line',
    pattern: /unknown directive: toolchain/,
    warning: 'Go: go.mod has a `toolchain` line, which this go command (older than 1.21) cannot read, so gopls loads no packages: install go 1.21 or newer',
  },
  {
    key: 'go-version-too-new',
    pattern: /requires go >= ?1\.\d+|go\.mod requires go/,
    warning: 'Go: go.mod asks for a newer go than the one installed, so some packages may not load: install a newer go',
  },
];

/** Workspace-wide Go answers: the environment every gopls gets, trusted or not. */
const GO_ENV: Readonly<Record<string, string>> = {
  // A language server never fetches code: offline, a download would hang until its timeout.
  GOPROXY: 'off',
  // go ≥ 1.21 would fetch and run the toolchain go.mod names; the installed one answers.
  GOTOOLCHAIN: 'local',
};

/**
 * Before gopls starts: requirements the module cache lacks are left out of a private go.mod
 * (`-modfile`), so the rest of the workspace loads; one warning names them with the fix.
 */
async function prepareGo(root: string, env: Readonly<Record<string, string | undefined>>): Promise<ServerPreparation> {
  // Files only a newer go builds are looked for while gopls starts.
  const laterWarnings = newerReleaseWarnings(root, installedGoVersion(root, env));
  const older = olderGoWarnings(root, env);
  const warnings = (more: readonly KeyedWarning[] = []): Pick<ServerPreparation, 'warnings' | 'laterWarnings'> => ({ laterWarnings, ...(older.length + more.length > 0 ? { warnings: [...older, ...more] } : {}) });
  try {
    const { missing, modFile } = await missingModules(root, env);
    if (modFile === undefined) return warnings();
    return {
      // gopls would put a copy of the real go.mod after ours (`tempModfile`, for edits Dialect never asks for).
      settings: { section: 'gopls', patch: { buildFlags: [`-modfile=${modFile}`], tempModfile: false } },
      ...warnings([{ key: 'go-missing-modules', text: missingModulesWarning(missing) }]),
    };
  } catch {
    // No private copy (temp folder not writable): gopls reports the module errors itself.
    return warnings();
  }
}

/** gopls. Override: `DIALECT_GOPLS`. */
export const goplsServer: ServerDefinition = {
  id: 'gopls',
  displayName: 'gopls',
  languages: [{ languageId: 'go', extensions: ['.go'] }],
  rootMarkers: ['go.mod', 'go.work'],
  filePatterns: ['*.go', '*/*.go'],
  projectMarkers: ['go.mod', 'go.work'],
  candidates: (env) => {
    const override = (env ?? process.env)['DIALECT_GOPLS'];
    if (override !== undefined && override.trim() !== '') return [override];
    return ['gopls', '/usr/bin/gopls'];
  },
  overrideVar: 'DIALECT_GOPLS',
  args: ['serve'],
  // gopls has no --version: `gopls version` is its probe.
  versionArgs: ['version'],
  initializationOptions: GOPLS_CONFIG,
  settings: { gopls: GOPLS_CONFIG },
  env: GO_ENV,
  readiness: 'progress',
  // gopls keeps "Error loading workspace" open for as long as the error lasts.
  conditionProgress: /^Error loading workspace/,
  hoverSignature: 'first-code-block',
  modulePath: goModulePath,
  symbolName: goSymbolName,
  symbolKind: (lspKind, line, name) => goKind(lspKind, line, name) ?? lspKind,
  implementationsGap: genericImplementationsGap,
  textImplementations: goTextImplementations,
  // The go command ignores `_x`, `.x` and `testdata` (go-chi/chi's `_examples/`): gopls analyses none of their files.
  ignoredFolder: (name) => name.startsWith('_') || name.startsWith('.') || name === 'testdata',
  ignoredFoldersNote: 'folders the go command ignores (_x, .x, testdata)',
  embeddedField: goEmbeddedField,
  installHint: 'apt-get install -y gopls golang-go',
  knownProblems: GOPLS_KNOWN_PROBLEMS,
  workspaceSymbolLimit: GOPLS_SYMBOL_LIMIT,
  // Go declares a name once (no overloads, no merging) and imports packages, never names.
  standaloneKinds: ['function', 'method', 'struct', 'interface', 'type'],
  projectFiles: PROJECT_FILES_GO,
  prepare: prepareGo,
  untrusted: untrustedGopls,
  untrustedLimits: GOPLS_UNTRUSTED_LIMITS,
  unbuilt: goUnbuiltFiles,
};
