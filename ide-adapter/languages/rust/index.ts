/**
 * Rust: rust-analyzer's definition — how to find and configure it, its detection (`Cargo.toml`),
 * `prepare` (a working toolchain, a generated project description: `workspace.ts`), module paths
 * (`module-paths.ts`), known problems, project files and its untrusted form (`trust.ts`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProjectFileRule } from '../../lsp/project-files.js';
import { withOverride, type ServerDefinition } from '../../lsp/servers.js';
import { RUST_RELATIVE_QUALIFIERS, rustModulePath } from './module-paths.js';
import { rustInstalledSources } from './outside-packages.js';
import { RUST_MACRO_EXPANSION } from './macro-bindings.js';
import { deriveMacroKind } from './proc-macros.js';
import { RUST_UNTRUSTED_LIMITS, untrustedRustAnalyzer } from './trust.js';
import { rustUnbuiltFiles } from './unbuilt.js';
import { RUST_INACTIVE_CODE } from './inactive-code.js';
import { defaultStdSources, prepareRustWorkspace, rustKnownProblems } from './workspace.js';

/** Rust's project files: the manifests cargo reads for rust-analyzer. */
export const RUST_PROJECT_FILES: ProjectFileRule = { names: ['Cargo.toml'], projectMarkers: ['Cargo.toml'] };

/** rust-analyzer settings; also sent as `initializationOptions`, which rust-analyzer reads first. */
const RUST_ANALYZER_CONFIG = {
  // Whole-workspace symbol search incl. functions/fields, with enough results for agents that filter.
  workspace: { symbol: { search: { kind: 'all_symbols', scope: 'workspace', limit: 1000 } } },
  // No `cargo check` on save: we never save, and flycheck competes with queries for CPU.
  checkOnSave: false,
  // Priming makes the first queries fast; quiescence waits for it, so readiness means "fast now".
  cachePriming: { enable: true },
  // Agents edit files behind our back; let rust-analyzer watch the disk itself.
  files: { watcher: 'server' },
} as const;

/**
 * rust-analyzer. Candidates: `DIALECT_RUST_ANALYZER`, `rust-analyzer` on PATH, Debian's
 * `/usr/bin/rust-analyzer`, rustup's `~/.cargo/bin/rust-analyzer` (may be a proxy without the
 * component: discovery probes `--version`, never assumes). Before it starts, `prepare` finds a
 * working cargo/rustc and, when cargo cannot resolve the workspace offline, hands it a generated
 * project description (see `workspace.ts`).
 */
export const rustAnalyzerServer: ServerDefinition = {
  id: 'rust-analyzer',
  displayName: 'rust-analyzer',
  languages: [{ languageId: 'rust', extensions: ['.rs'] }],
  rootMarkers: ['Cargo.toml'],
  candidates: (env) =>
    withOverride('DIALECT_RUST_ANALYZER', env, 'rust-analyzer', '/usr/bin/rust-analyzer', join(homedir(), '.cargo', 'bin', 'rust-analyzer')),
  overrideVar: 'DIALECT_RUST_ANALYZER',
  args: [],
  initializationOptions: RUST_ANALYZER_CONFIG,
  settings: { 'rust-analyzer': RUST_ANALYZER_CONFIG },
  experimentalCapabilities: { serverStatusNotification: true },
  readiness: 'rust-analyzer-status',
  // Its hover shows the module path first (`mycrate::auth`), then the signature.
  hoverSignature: 'last-code-block',
  // `crate`, the crate's name and the modules below `src/` qualify Rust names; `self` and `super` are relative.
  modulePath: rustModulePath,
  relativeQualifiers: RUST_RELATIVE_QUALIFIERS,
  // A derive macro is listed at its function, named by its `proc_macro_derive` attribute.
  declaredKind: deriveMacroKind,
  // Items a macro call expands to are listed at the call; a `pub use` among them is a re-export.
  macroExpansion: RUST_MACRO_EXPANSION,
  // Modules under a cfg that is off (a feature not on by default, another system): where a name is declared there.
  unbuilt: rustUnbuiltFiles,
  // Items under a cfg that is off: rust-analyzer marks each with a hint and resolves only some of
  // the names in it (strum's phf.rs: `#[derive(strum::EnumString)]` inside a `test_phf` test).
  inactiveCode: RUST_INACTIVE_CODE,
  installedSources: rustInstalledSources,
  installHint: 'apt-get install -y rust-web-analyzer (or: rustup component add rust-analyzer rust-src)',
  knownProblems: rustKnownProblems(defaultStdSources()),
  workspaceSymbolLimit: RUST_ANALYZER_CONFIG.workspace.symbol.search.limit,
  // Rust items never merge across files; `use` bindings are recognised by their statement, and
  // `mod x;` (a module) is still confirmed.
  standaloneKinds: ['function', 'method', 'struct', 'enum', 'union', 'trait', 'type alias', 'constant', 'enum variant', 'field'],
  prepare: prepareRustWorkspace,
  projectFiles: RUST_PROJECT_FILES,
  untrusted: (definition) => untrustedRustAnalyzer(definition),
  untrustedLimits: RUST_UNTRUSTED_LIMITS,
};
