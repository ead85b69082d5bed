/**
 * Language-server definitions, generically: the `ServerDefinition` interface (how to find, launch,
 * configure and recognise a server), custom servers from configuration, and which servers a
 * workspace needs. The built-in definitions live in their language's folder (`../languages/`,
 * listed in `languages/index.ts`); nothing here knows a language. Nothing here spawns a process.
 */
import type { HoverSignature } from './hover.js';
import type { Location, Position } from '../model.js';
import type { KindWord, LspKindName } from '../kinds.js';
import type { ModulePathOf } from './module-paths.js';
import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { SKIPPED_DIRS } from '../skipped-dirs.js';
import { compileGlob, type GlobBudget } from './glob.js';
import { findProjects } from './projects.js';
import type { ProjectFileRule } from './project-files.js';
import type { CustomServerConfig } from './server-config.js';

/** How the client decides that a server has finished its start-up work. */
export type Readiness =
  /** rust-analyzer's `experimental/serverStatus` notification with `quiescent: true`. */
  | 'rust-analyzer-status'
  /** Every `$/progress` work-done token has ended and none began during a short settle delay. */
  | 'progress'
  /**
   * The server answers a request only after the messages sent before it, and reports no progress
   * for loading (tsgo): ready once it answered a request sent after the start's documents.
   */
  | 'in-order'
  /** Ready as soon as `initialize` has completed. */
  | 'immediate';

/** A language a server handles and the file extensions (lower case, with the dot) that select it. */
export interface LanguageMapping {
  readonly languageId: string;
  readonly extensions: readonly string[];
}

/** A log or status message pattern that means the server runs degraded; the client reports `warning` once. */
export interface KnownProblem {
  /** Stable key so the same problem is reported once however often it is seen. */
  readonly key: string;
  /** Matched against status messages, `window/showMessage` and stderr. */
  readonly pattern: RegExp;
  /** The one-time warning a UI shows. */
  readonly warning: string;
}

/** A one-time warning with a stable key (shown once however often it is produced). */
export interface KeyedWarning {
  readonly key: string;
  readonly text: string;
}

/** What a definition's `prepare` step adds for one workspace before the server starts. */
export interface ServerPreparation {
  /** Merged into the definition's settings (and `initializationOptions`) under `section`. */
  readonly settings?: { readonly section: string; readonly patch: Readonly<Record<string, unknown>> };
  /** Environment variables for the server process (the caller's explicit `env` option still wins). */
  readonly env?: Readonly<Record<string, string>>;
  /** Replaces the definition's known problems (e.g. warnings that fit the toolchain found). */
  readonly knownProblems?: readonly KnownProblem[];
  /** Warnings to report from the start. */
  readonly warnings?: readonly KeyedWarning[];
  /**
   * Warnings still being found (a scan of the workspace): the server starts meanwhile, and they
   * are reported before it is ready. A failed scan reports none.
   */
  readonly laterWarnings?: Promise<readonly KeyedWarning[]>;
  /** Arguments added after the definition's (clangd: its private `--compile-commands-dir`). */
  readonly args?: readonly string[];
}

/** How a language imports names, so a failed lookup can say where a name comes from. */
export interface ImportRules {
  /** A regular expression (search syntax) matching the lines that import `name`. */
  lineImporting(name: string): string;
  /** The module a line imports `name` from, or `undefined` when it does not import it. */
  moduleOf(line: string, name: string): string | undefined;
  /** Whether a diagnostic (its code and message) says an import could not be resolved. */
  unresolved(code: string | undefined, message: string): boolean;
  /** Why imports fail and the fix, for people. */
  readonly fix: string;
  /**
   * How to name, once per session, the modules the workspace imports that its server cannot
   * resolve (`lsp/unresolved-imports.ts`): the import lines are found by a budgeted search, the
   * modules they name are imported by an in-memory document, and the server's diagnostics on it
   * say which it cannot resolve.
   */
  readonly probe?: ImportProbe;
}

/** Files a language's build leaves out here, and how a name's declaration in them is found (see {@link ServerDefinition.unbuilt}). */
export interface UnbuiltFiles {
  /** The files left out, workspace-relative, each with why (`windows`, `darwin || freebsd`); budgeted, undefined when it could not tell. */
  list(root: string, env: Readonly<Record<string, string | undefined>>, signal?: AbortSignal): Promise<ReadonlyMap<string, string> | undefined>;
  /** A regular expression (search syntax) matching a line that declares `name` (its owners `qualifiers`, outermost first); undefined for a name that is no identifier. */
  declaringLine(name: string, qualifiers: readonly string[]): string | undefined;
}

/** A file with mentions of a name a references answer does not list (see {@link InactiveCode.candidates}). */
export interface InactiveCandidate {
  /** Workspace-relative. */
  readonly path: string;
  readonly text: string;
  /** The mentions' lines, 1-based. */
  readonly lines: readonly number[];
}

/** How a server marks code it does not analyse (see {@link ServerDefinition.inactiveCode}). */
export interface InactiveCode {
  /** The code of the diagnostic whose range is such code (`inactive-code`). */
  readonly code: string;
  /**
   * Which of `files` may have such code at or above one of their mention lines (a cheap reading
   * of the text, so that only those have their diagnostics asked); workspace-relative paths.
   */
  readonly candidates: (root: string, files: readonly InactiveCandidate[]) => Promise<readonly string[]>;
  /** How the note names such code (`code under a #[cfg] that is off here`). */
  readonly where: string;
  /**
   * A regular expression (search syntax) matching the lines that can put code out of analysis
   * (`#[cfg(`): only files with one are read for a name's mentions, and a workspace with none
   * costs a references answer nothing.
   */
  readonly marker: string;
}

/** What a language's text-found implementations read (see {@link ServerDefinition.textImplementations}). */
export interface ImplementationSources {
  /** A workspace file's lines. */
  lines(path: string): Promise<readonly string[]>;
  /** The lines matching a pattern (search syntax) in the language's files, at most `maxResults`, under a budget; `cut` when the cap or the budget stopped it. */
  search(pattern: string, maxResults: number): Promise<{ readonly matches: readonly Location[]; readonly cut: boolean }>;
  /** The files its build leaves out here ({@link UnbuiltFiles.list}), undefined when it could not tell. */
  unbuilt(): Promise<ReadonlyMap<string, string> | undefined>;
}

/** Implementations found in the text, and the one line saying how (see {@link ServerDefinition.textImplementations}). */
export interface TextImplementations {
  readonly locations: readonly Location[];
  readonly note?: string;
}

/** How the workspace's imported modules are found and put to the server (see {@link ImportRules.probe}). */
export interface ImportProbe {
  /** A regular expression (search syntax) matching the lines that import a module by its absolute name. */
  readonly lines: string;
  /** The absolute top-level modules a matched line imports (`import a.b, c` → `a`, `c`); relative imports give none. */
  modules(line: string): readonly string[];
  /** The text of a document importing each module, module `i` on line `i` (0-based). */
  document(modules: readonly string[]): string;
  /** The 0-based lines of a source text that begin inside a string (a docstring's example is no import); default none. */
  linesInStrings?(text: string): ReadonlySet<number>;
}

/**
 * Work a server defers to its first question, done at start instead so that `ready` means a
 * quick, complete first answer (pyright lists the workspace's files a moment after `initialized`
 * and parses and binds them on its first `workspace/symbol`: seconds on a few hundred files).
 * The server stays `indexing`, saying why, until the request answers (`lsp/warm-up.ts`).
 */
export interface WarmUp {
  /**
   * A `window/logMessage` saying the server has listed the workspace's files (before it, the
   * request would find none and do nothing); its first group, when it has one, counts them.
   * Waited for at most `TIMEOUTS.lsp.warmUpListMs`, then the request goes anyway.
   */
  readonly listed: RegExp;
  /** The request that makes the server read every file, and its parameters. */
  readonly method: string;
  readonly params: unknown;
  /** Why the server is indexing meanwhile, for status: before the listing, and while it reads `files` (when counted). */
  reason(files: number | undefined): string;
}

/**
 * How a module of its language exports something as the whole module, and re-exports another
 * module whole (CommonJS `module.exports = require('./lib/app')`), when its server does not follow
 * the re-export: references and callers of what the module exports add the uses of the modules
 * that re-export it. Every method reads one line (linear).
 */
export interface WholeModuleExports {
  /** Whether `line` exports `name` as its whole module (`module.exports = name`). */
  exportsWhole(line: string, name: string): boolean;
  /** A regular expression (search syntax) matching the lines that may re-export one of `targets` (workspace-relative files) whole. */
  reexportLines(targets: readonly string[]): string;
  /** The module a line re-exports whole and the 1-based column the server is asked for its uses at; undefined when it re-exports none. */
  reexportOf(line: string): { readonly module: string; readonly column: number } | undefined;
  /** Whether `module`, required from `fromPath`, is `target` (workspace-relative, `/`-separated). */
  resolves(fromPath: string, module: string, target: string): boolean;
  /** A regular expression (search syntax) matching the lines that may call one of `targets` as soon as they require it (`require('./common')(exports)`). */
  requireCallLines(targets: readonly string[]): string;
  /** The modules a line requires and calls at once, each with the 1-based column of its `require` (the call's place: no name is written). */
  requireCallsOf(line: string): readonly { readonly module: string; readonly column: number }[];
  /** Whether the name at the 1-based `column` of `line` is called there. */
  calledAt(line: string, column: number): boolean;
  /**
   * The 1-based column the server is asked for the module's uses at when `line` exports an
   * anonymous function whole (`module.exports = (stream) => …`): the server's call hierarchy has
   * no function there, so its callers are the calls of what requires the module.
   */
  anonymousExport(line: string): number | undefined;
}

/**
 * Other symbols a value is bound to, which the server does not relate to its name (tsgo and
 * JavaScript): a named function expression's own name (`var merge = function merge(…)`: its
 * recursive calls use it), and a property of the module's exports whose value it is (`merge:
 * merge` in `module.exports = {…}`, `exports.merge = merge`: importers use `utils.merge`).
 * References of the name add the uses of each. Each method reads a bounded window (linear).
 */
export interface ValueAliases {
  /** The 1-based column of the other name a declaring line binds the value to (the function expression's own name, or the variable when asked at that name); undefined when none. */
  declaredAlias(line: string, column: number, name: string): number | undefined;
  /** When the use of `name` at (`line`, `column`, 1-based) of a file's `lines` is the value of a property of the module's exports, the 1-based column of the property's key on that line. */
  exportedAs(lines: readonly string[], line: number, column: number, name: string): number | undefined;
}

/** Everything the client needs to know about one kind of language server. */
export interface ServerDefinition {
  /** Stable id, e.g. `rust-analyzer`. */
  readonly id: string;
  /** Name for people, e.g. `rust-analyzer` or `TypeScript (tsgo)`. */
  readonly displayName: string;
  readonly languages: readonly LanguageMapping[];
  /** File names whose presence in the top two directory levels means the workspace needs this server. */
  readonly rootMarkers: readonly string[];
  /** Extra detection globs (`glob.ts`, relative to the root, matched against files in the top two levels). */
  readonly filePatterns?: readonly string[];
  /**
   * Files that mark one of the server's projects at any depth (`tsconfig.json`): when the top two
   * levels hold no root marker, a bounded scan for these still detects the server.
   */
  readonly projectMarkers?: readonly string[];
  /**
   * Binary candidates in priority order. Bare names are looked up on PATH. When the override
   * variable ({@link overrideVar}) is set in `env` (default `process.env`), it is the only candidate.
   */
  candidates(env?: Readonly<Record<string, string | undefined>>): string[];
  /** The variable naming the binary to use instead (`DIALECT_RUST_ANALYZER`); a broken one is an error, never skipped. */
  readonly overrideVar?: string;
  /**
   * A reason not to start the server in this workspace (e.g. an untrusted workspace's configuration
   * could make it run programs); `undefined` to start it. Its `projectFiles` are checked besides
   * (`start-checks.ts` `startRefusal` runs both).
   */
  preflight?(workspaceRoot: string): Promise<string | undefined>;
  /**
   * The server reads nothing of the workspace before a document is opened in it (tsgo: its
   * `initialize` and `initialized` read only its own files — checked with strace), so a start
   * may launch it while its checks (the preflight; detection, for the pool's early start) still
   * run, and opens its first document only once they passed. Others launch after them.
   */
  readonly readsNothingBeforeOpen?: boolean;
  /**
   * The project files the server reads whole at start (`project-files.ts`); its start is refused
   * when one is not a bounded regular file inside the workspace (`start-checks.ts` `startRefusal`).
   */
  readonly projectFiles?: ProjectFileRule;
  /** Its project files' `extends` may not lead out of the workspace, not even to a bounded regular file (untrusted: `confineProjectFiles`). */
  readonly projectFilesConfined?: boolean;
  /** Arguments that start the server on stdio. */
  readonly args: readonly string[];
  /** Arguments of the availability probe; `['--version']` unless given. */
  readonly versionArgs?: readonly string[];
  /**
   * The version of a found binary known without running it (pyright's launcher has no
   * `--version`: its package says); when it answers, discovery skips the probe.
   */
  staticVersion?(binaryPath: string): string | undefined;
  readonly initializationOptions?: unknown;
  /** Answers `workspace/configuration`: top-level keys are sections (`rust-analyzer`, `typescript`, ...). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Merged into the client capabilities' `experimental` object. */
  readonly experimentalCapabilities?: Readonly<Record<string, unknown>>;
  readonly readiness: Readiness;
  /** Which code block of the server's hover text is the signature; default the last. */
  readonly hoverSignature?: HoverSignature;
  /** The module path of a file as its language's qualified names write it; default its folders and file name. */
  readonly modulePath?: ModulePathOf;
  /** Qualifiers of its language that name no module of their own (Rust's `self`, `super`). */
  readonly relativeQualifiers?: readonly string[];
  /**
   * Kinds (in Dialect's words) whose declarations never merge with another file's declarations
   * and are never, at their own name, a binding to something else — TypeScript's functions and
   * classes, Rust's items. A name's candidates of these kinds skip the go-to-definition that
   * otherwise confirms each one (one request per candidate: seconds for a name defined hundreds
   * of times). Unset: every candidate is confirmed (C's header declarations merge with their
   * definitions in other files).
   */
  readonly standaloneKinds?: readonly KindWord[];
  /**
   * The kind, in its language's words, of a workspace symbol whose name is declared by the source
   * around the server's place rather than written there (Rust: a function whose
   * `#[proc_macro_derive(Name)]` attribute declares the derive macro `Name`), given its name, its
   * LSP kind name (`function`), its file's lines and its 1-based line; `undefined` for an ordinary
   * symbol. Asked only when the name is not written at the place; the symbol then stays there.
   */
  readonly declaredKind?: (name: string, lspKind: LspKindName, lines: readonly string[], line: number) => KindWord | undefined;
  /**
   * How to tell what a macro call writes under a name the server lists at the call (its name not
   * written there): a `use` binding (never a definition) or a definition (`macro-bindings.ts` for Rust).
   */
  readonly macroExpansion?: MacroExpansion;
  /**
   * Folders of installed sources its answers may show even from an untrusted workspace (toolchains,
   * registries, the libraries shipped with the server: public code the user installed), given the
   * environment (`outside-sources.ts`).
   */
  readonly installedSources?: (env: Readonly<Record<string, string | undefined>>) => readonly string[];
  /**
   * The server answers no `textDocument/implementation`: implementations are found from its
   * references instead — the classes whose header names a class, and their methods of the same
   * name (`lsp/subclasses.ts`).
   */
  readonly implementationsFromBases?: boolean;
  /**
   * Its references may list another symbol's uses written under another name (tsgo, through
   * `export {default as X} from …`: the re-exporting module's own default export's): a reference
   * written under another name than the asked one is kept when go-to-definition there leads to the
   * asked symbol (`lsp/renamed-references.ts`).
   */
  readonly renamedReferencesChecked?: boolean;
  /** Whole-module exports its server does not follow through a re-export (JavaScript's CommonJS `module.exports = require(…)`). */
  readonly wholeModuleExports?: WholeModuleExports;
  /** Other symbols a value is bound to that the server does not relate to its name; references add their uses (tsgo: `ValueAliases`). */
  readonly valueAliases?: ValueAliases;
  /** How its language imports names (Python's `from m import n`); lets a failed name lookup say where a name comes from. */
  readonly imports?: ImportRules;
  /**
   * The workspace's files its build leaves out on this machine (Go: another system's files), which
   * the server never reads: a name lookup says where the name is declared in them.
   */
  readonly unbuilt?: UnbuiltFiles;
  /** How to install the server; quoted verbatim in `server-not-found` errors. */
  readonly installHint: string;
  /** Environment variables for the server process (the caller's `env` option wins). */
  readonly env?: Readonly<Record<string, string>>;
  readonly knownProblems?: readonly KnownProblem[];
  /**
   * The most symbols its `workspace/symbol` returns (tsgo stops at 256; rust-analyzer at the limit
   * we configure). An answer that long ending in an exact match may have cut others: the backend completes exact-name lookups
   * from a text search and the outlines of the files it finds.
   */
  readonly workspaceSymbolLimit?: number;
  /**
   * The server outlines a file it was not given, from the disk as the client's watcher tells it
   * (tsgo: 0.4 ms a file, where opening it first costs ~35 ms on a 10k-file project, every
   * `didOpen` a new snapshot). Outlines are then asked without opening the file while the disk
   * stamp vouches that the server knows the file's text; otherwise it is opened as usual.
   */
  readonly outlinesClosedFiles?: boolean;
  /**
   * Files to open right after start so the server loads its projects. tsgo builds a project only
   * for open files: without one, `workspace/symbol` answers nothing.
   */
  projectAnchors?(workspaceRoot: string): Promise<ProjectAnchors>;
  /**
   * Runs before the server starts in a workspace, with the environment the server will get; may
   * adjust settings and environment (rust-analyzer: toolchain, generated project description).
   * Must not throw.
   */
  prepare?(workspaceRoot: string, env: Readonly<Record<string, string | undefined>>, context?: PrepareContext): Promise<ServerPreparation>;
  /**
   * The definition to run in an UNTRUSTED workspace: a restricted copy in which nothing the
   * workspace configures can make the server run a program (implemented in its language's
   * `trust.ts`; `untrusted.ts` applies it). Without it the server is not started untrusted.
   */
  readonly untrusted?: (definition: ServerDefinition) => ServerDefinition;
  /** What the restricted copy gives up, in one line for the untrusted note (`rust-analyzer runs without build scripts, …`). */
  readonly untrustedLimits?: string;
  /**
   * The kind of a symbol in its language's words, from the LSP kind's lower-case name and the line
   * declaring it (clangd: `enumerator`, `type alias`); default: `kinds.ts`' `languageKind`.
   */
  readonly symbolKind?: (lspKind: LspKindName, declarationLine: string, name: string) => KindWord;
  /**
   * Splits a name the server writes qualified in an outline (clangd's `Circle::area` for a C++
   * method defined outside its class) into the bare name and the owners it names, outermost first;
   * default: names are bare.
   */
  readonly outlineName?: (name: string) => { readonly name: string; readonly owners: readonly string[] };
  /**
   * Whether an outline field is an embedded one whose type's members its owner gets (Go's
   * `Base` or `*pkg.Base` alone on its line): that type counts as a base of the owner for
   * inherited members. Default: no field embeds.
   */
  readonly embeddedField?: (lspKind: string, declarationLine: string, name: string) => boolean;
  /**
   * Why a file's diagnostics may not be the compiler's (clangd: an `#include` not found), or
   * `undefined`; the diagnostics answer carries it as its one note.
   */
  readonly diagnosticsGap?: (diagnostics: readonly { readonly message: string; readonly code?: string }[]) => string | undefined;
  /**
   * Why the server may answer no implementations for the symbol declared on `line` (1-based) of a
   * file's `lines` though there are some (this gopls finds none for a generic type or interface),
   * or `undefined`; an empty implementations answer there says it, once.
   */
  readonly implementationsGap?: (lines: readonly string[], line: number) => string | undefined;
  /**
   * The implementations the server cannot see of the symbol declared at `at` in `path`, found in the text (Go: types in files the build leaves out here, and those of a generic
   * interface this gopls does not relate); `found` is the server's own answer. Added to the answer,
   * with the note saying how they were found, once.
   */
  readonly textImplementations?: (asked: { readonly path: string; readonly at: Position; readonly found: readonly Location[] }, sources: ImplementationSources) => Promise<TextImplementations>;
  /**
   * The lines (1-based) of a file's `text` where `name` is written in code the server may not
   * analyse (clangd: preprocessor branches its configuration does not take); a references answer
   * whose files have such lines that are not among its places says where, in one note.
   */
  readonly unanalysedMentions?: (text: string, name: string) => readonly number[];
  /**
   * The folders (by name) whose files the language's build ignores, which the server does not
   * analyse (Go: `_x`, `.x`, `testdata`; go-chi/chi's `_examples/`): a references answer asked
   * outside them names the mentions of the name there, found by one budgeted search, in one note
   * (`ignoredFoldersNote` says which folders). Default: none.
   */
  readonly ignoredFolder?: (name: string) => boolean;
  /** How that note names the folders {@link ignoredFolder} matches (`folders the go command ignores (_x, .x, testdata)`). */
  readonly ignoredFoldersNote?: string;
  /**
   * The diagnostic by which the server marks code it does not analyse (rust-analyzer:
   * `inactive-code`, an item under a `#[cfg]` that is off here — strum's
   * `#[cfg(feature = "test_phf")]` tests), which files may have it (`candidates`), and how a note
   * names such code (`where`). A references answer names, in one note, the mentions of the name
   * in such code that it does not list: one budgeted search, then the diagnostics of at most a
   * few candidate files. Default: none.
   */
  readonly inactiveCode?: InactiveCode;
  /**
   * The server ties `value.member` to a class's member only through the type it infers for the
   * value (pyright): a use on a value it cannot type (an unannotated parameter) is in no answer.
   * A references answer for a class member then counts the `.member` written in the workspace's
   * files that it does not list, in one note.
   */
  readonly membersByInferredType?: boolean;
  /**
   * The 0-based lines of a file's `text` that begin inside a string (Python's docstrings): a
   * mention there is prose, not code, and no note counts it (attrs' docstrings name
   * `attrs.evolve`). Default: none.
   */
  readonly linesInStrings?: (text: string) => ReadonlySet<number>;
  /** The documentation part of its hover without the server's own scaffolding (clangd's `### function \`f\`` title); default as it is. */
  readonly hoverDocumentation?: (documentation: string) => string;
  /** The overloads of one name in one scope are one definition listing its declarations (C++). */
  readonly overloadsAreOneDefinition?: boolean;
  /**
   * Extensions of files that only declare what a source beside them defines (Python's `.pyi`
   * stubs: more-itertools ships `more.pyi` beside `more.py`). A declaration in one whose
   * go-to-definition leads to the source of its stem is a declaration of that symbol — its uses
   * resolve to it (importers see the stub), so its references are asked there too — and the
   * symbol is shown at the source. Default: none.
   */
  readonly stubExtensions?: readonly string[];
  /**
   * Splits a name as the server writes it into the name and the owner it folds in (gopls names a
   * method `Mux.Get` in `workspace/symbol` and `(*Mux).Get` in outlines: the name is `Get`, the
   * owner `Mux`). Its owner replaces the server's container (gopls's container is the package's
   * import path, which qualified names take from `modulePath` instead); the declaration's line
   * names the owner where the server gives none (call hierarchy items); the name itself never
   * depends on that line (exact lookups filter names before reading any file). Default: the name as given.
   */
  readonly symbolName?: (name: string, kind: string, declarationLine: string) => { readonly name: string; readonly owner?: string };
  /**
   * `$/progress` titles that report a lasting condition, not work (gopls keeps `Error loading
   * workspace` open while the error lasts): never counted as work in progress (the server would
   * never be ready); while one lasts the server's health is `error` with its title and message
   * (a name lookup that finds nothing is then `workspace-not-loaded`), until its progress ends.
   */
  readonly conditionProgress?: RegExp;
  /** Work the server defers to its first question, done before it counts as ready (pyright). */
  readonly warmUp?: WarmUp;
}

/** How a `prepare` step may behave in this workspace. */
export interface PrepareContext {
  /**
   * The workspace is untrusted: run no tool where the workspace's configuration could steer it
   * (cargo reads `.cargo/config.toml` of its working directory; rustup `rust-toolchain.toml`).
   * Only the untrusted wrapper (`untrusted.ts`) sets it, so a step called without it is trusted.
   */
  readonly untrusted?: boolean;
}

/** The files that make a server load every project of a workspace, and why that may be incomplete. */
export interface ProjectAnchors {
  /** Absolute paths of one source file per project. */
  readonly files: readonly string[];
  /** Limits that were reached (too many projects or folders), for people. */
  readonly warnings: readonly string[];
  /** False when a limit left projects unloaded: answers of this server are then incomplete. */
  readonly complete?: boolean;
  /**
   * Documents to open after `files`, found by a longer look (tsgo's JavaScript that no project
   * covers, listed by a walk of the whole tree: the server knows each only while it is open, so
   * all of them stay open). Begun once `files` are sent, so that its work (reading the
   * projects' configurations on this thread) never holds them up, and opened as they come while
   * the server loads the projects of `files`; a start is done only once they are open too.
   */
  readonly later?: () => Promise<LaterAnchors>;
}

/** The documents {@link ProjectAnchors.later} finds, and why the list may be short (for people). */
export interface LaterAnchors {
  readonly files: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Candidates: the override variable alone when it is set (the user chose that program: a broken
 * one must be reported, not silently replaced), else each name as given, de-duplicated.
 */
export function withOverride(envVar: string, env: Readonly<Record<string, string | undefined>> | undefined, ...candidates: (string | undefined)[]): string[] {
  const override = (env ?? process.env)[envVar];
  if (override !== undefined && override.trim() !== '') return [override];
  return [...new Set(candidates.filter((c): c is string => c !== undefined && c !== ''))];
}

/**
 * The one merge of custom and built-in servers: the custom ones first (so they win a language),
 * then each built-in whose id no custom server takes over.
 */
export function mergeServers(custom: readonly ServerDefinition[], builtin: readonly ServerDefinition[]): ServerDefinition[] {
  return [...custom, ...builtin.filter((b) => !custom.some((c) => c.id === b.id))];
}

/** A {@link ServerDefinition} from a custom configuration. */
export function defineServer(config: CustomServerConfig): ServerDefinition {
  const envVar = config.envVar ?? `DIALECT_${config.id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_SERVER`;
  return {
    id: config.id,
    displayName: config.displayName ?? config.id,
    languages: config.languages.map((l) => ({ languageId: l.languageId, extensions: l.extensions.map(normalizeExtension) })),
    rootMarkers: config.rootMarkers ?? [],
    filePatterns: config.filePatterns ?? [],
    candidates: (env) => withOverride(envVar, env, config.command),
    overrideVar: envVar,
    args: config.args ?? [],
    versionArgs: config.versionArgs,
    initializationOptions: config.initializationOptions,
    settings: config.settings,
    readiness: config.readiness ?? 'progress',
    installHint: config.installHint ?? `install \`${config.command}\` or set ${envVar} to its path`,
    env: config.env,
  };
}

/** Example configurations for servers Dialect does not build in; pass them through {@link defineServer} to use them (Rust, TypeScript/JavaScript, Python, Go and C/C++ are built in: `languages/`). */
export const exampleServerConfigs: Readonly<Record<'solargraph', CustomServerConfig>> = {
  solargraph: {
    id: 'solargraph',
    command: 'solargraph',
    args: ['stdio'],
    versionArgs: ['--version'],
    languages: [{ languageId: 'ruby', extensions: ['.rb'] }],
    rootMarkers: ['Gemfile', '.solargraph.yml'],
    installHint: 'gem install solargraph',
  },
};

function normalizeExtension(ext: string): string {
  const lower = ext.toLowerCase();
  return lower.startsWith('.') ? lower : `.${lower}`;
}

/** The definition and language id for a file, by extension; `undefined` if no definition claims it. */
export function languageFor(
  definitions: readonly ServerDefinition[],
  absPath: string,
): { readonly definition: ServerDefinition; readonly languageId: string } | undefined {
  const ext = extname(absPath).toLowerCase();
  if (ext === '') return undefined;
  for (const definition of definitions) {
    for (const language of definition.languages) {
      if (language.extensions.includes(ext)) return { definition, languageId: language.languageId };
    }
  }
  return undefined;
}

/** A server a workspace needs, with the files that gave it away (relative paths, `/`-separated). */
export interface DetectedServer {
  readonly definition: ServerDefinition;
  readonly evidence: readonly string[];
}

/**
 * Which of `definitions` a workspace needs, judged from the files in its top two directory levels
 * (the root and its direct subdirectories, skipping `node_modules`, `target`, hidden directories
 * and the like) against each one's `rootMarkers` and `filePatterns` (`Cargo.toml` →
 * rust-analyzer); a polyglot workspace gets several. A definition with `projectMarkers` is also
 * detected from a project deeper down (bounded by `DETECTION_MAX_DIRECTORIES`). Definitions are
 * checked in order, so one earlier in the list (a custom server: `mergeServers`) takes over a
 * language. `nearRoot` is told what the top two levels alone show, before the deeper scan runs.
 */
export async function detectServers(
  workspaceRoot: string,
  definitions: readonly ServerDefinition[],
  nearRoot?: (found: readonly DetectedServer[]) => void,
): Promise<DetectedServer[]> {
  const files = await topTwoLevels(workspaceRoot);
  const budget: GlobBudget = { steps: DETECTION_MATCH_BUDGET_STEPS };
  const evidences = definitions.map((definition) => {
    const markers = new Set(definition.rootMarkers);
    const patterns = definition.filePatterns ?? [];
    // A custom server's patterns come from the workspace's `dialect.json`: matched in linear time,
    // under a budget past which a pattern counts as found (a server started for nothing, never one missed).
    const matchers = patterns.map((pattern) => compileGlob(pattern, { dot: false }));
    return files.filter((file) => markers.has(file.slice(file.lastIndexOf('/') + 1)) || matchers.some((matches) => matches(file, budget)));
  });
  // The definitions without evidence near the root look deeper for their project markers, in one scan.
  const deeper = definitions.flatMap((definition, index) => ((evidences[index] ?? []).length === 0 && definition.projectMarkers !== undefined ? [{ index, markers: definition.projectMarkers }] : []));
  nearRoot?.(claimed(definitions, evidences));
  if (deeper.length > 0) {
    const found = await deepProjectMarkers(workspaceRoot, deeper.map((d) => d.markers));
    deeper.forEach((d, i) => (evidences[d.index] ?? []).push(...(found[i] ?? [])));
  }
  return claimed(definitions, evidences);
}

/** The definitions with evidence, each language claimed by the first definition that has it. */
function claimed(definitions: readonly ServerDefinition[], evidences: readonly (readonly string[])[]): DetectedServer[] {
  const detected: DetectedServer[] = [];
  const claimedLanguages = new Set<string>();
  for (const [index, definition] of definitions.entries()) {
    const evidence = evidences[index] ?? [];
    if (evidence.length === 0) continue;
    // Two definitions for one language (a custom one and a built-in): the first wins.
    const languages = definition.languages.map((l) => l.languageId);
    if (languages.length > 0 && languages.every((l) => claimedLanguages.has(l))) continue;
    for (const l of languages) claimedLanguages.add(l);
    detected.push({ definition, evidence: [...evidence] });
  }
  return detected;
}

/** The glob matching work of one detection (`glob.ts` steps: about a second at most; the built-in patterns take a few hundred per file). */
export const DETECTION_MATCH_BUDGET_STEPS = 50_000_000;

/** A deeper scan for a project marker reads at most this many folders (detection must stay quick). */
export const DETECTION_MAX_DIRECTORIES = 2000;

/**
 * For each set of project markers, the relative path of its first marker in the tree
 * (`tools/web/client/tsconfig.json`: the folder closest to the root, then the set's order), if
 * any: one scan of at most `DETECTION_MAX_DIRECTORIES` folders answers every set.
 */
async function deepProjectMarkers(workspaceRoot: string, sets: readonly (readonly string[])[]): Promise<string[][]> {
  const markers = [...new Set(sets.flat())];
  const { markerFiles } = await findProjects(workspaceRoot, markers, { maxProjects: DETECTION_MAX_DIRECTORIES, maxDirectories: DETECTION_MAX_DIRECTORIES, everyMarker: true });
  return sets.map((set) => {
    const first = markerFiles.find((file) => set.includes(basename(file)));
    if (first === undefined) return [];
    const folder = dirname(first);
    const marker = set.find((m) => markerFiles.includes(join(folder, m))) as string;
    return [relative(workspaceRoot, join(folder, marker)).split(sep).join('/')];
  });
}

/** Relative paths of the files in the root and its direct, non-skipped subdirectories. */
async function topTwoLevels(root: string): Promise<string[]> {
  const files: string[] = [];
  const entries = await readdir(root, { withFileTypes: true });
  const subdirs: string[] = [];
  for (const entry of entries) {
    if (entry.isFile()) files.push(entry.name);
    else if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) subdirs.push(entry.name);
  }
  const nested = await Promise.all(
    subdirs.map(async (dir) => {
      try {
        const inner = await readdir(join(root, dir), { withFileTypes: true });
        return inner.filter((e) => e.isFile()).map((e) => `${dir}/${e.name}`);
      } catch {
        return []; // Unreadable subdirectory: judge from the rest.
      }
    }),
  );
  return [...files.sort(), ...nested.flat().sort()];
}

/**
 * A copy of a definition with settings merged in (deep for plain objects) both into `settings` and,
 * for servers that read their configuration from it, into `initializationOptions` under `section`.
 */
export function withSettings(definition: ServerDefinition, section: string, patch: Readonly<Record<string, unknown>>): ServerDefinition {
  const settings = { ...(definition.settings ?? {}), [section]: deepMerge(definition.settings?.[section], patch) };
  const initializationOptions =
    definition.initializationOptions !== undefined && definition.settings?.[section] === definition.initializationOptions
      ? settings[section]
      : definition.initializationOptions;
  return { ...definition, settings, initializationOptions };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(base: unknown, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    out[key] = isPlainObject(value) ? deepMerge(out[key], value) : value;
  }
  return out;
}

/** A server's macro expansion request and the reading of its answer (`ServerDefinition.macroExpansion`). */
export interface MacroExpansion {
  /** The request, sent with a text document and the position of the macro call's name. */
  readonly method: string;
  /** The expansion's text from the answer; `undefined` when it has none. */
  readonly text: (result: unknown) => string | undefined;
  /** How the expansion binds `name`: a re-export, an import, or `undefined` (it defines it, or cannot tell). */
  readonly bindingOf: (expansion: string, name: string) => MacroBinding | undefined;
}

/** A `use` binding a macro call writes: a re-export or an import, and the path it names when read. */
export interface MacroBinding {
  readonly binding: 'import' | 'reexport';
  /** The path as the `use` writes it (`crate::de::Deserialize`). */
  readonly path?: string;
}
