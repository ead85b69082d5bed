/**
 * Language-server definitions: how to find, launch, configure and recognise each server, and which
 * servers a workspace needs. Pure data plus a small directory scan; nothing here spawns a process.
 */
import type { HoverSignature } from './hover.js';
import { RUST_RELATIVE_QUALIFIERS, rustModulePath, type ModulePathOf } from './module-paths.js';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, extname, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { packageRequire } from '../package-files.js';
import { SKIPPED_DIRS } from '../walk.js';
import { findProjects } from './projects.js';
import { projectFilesRefusal, RUST_PROJECT_FILES, TYPESCRIPT_PROJECT_FILES, type ProjectFileRule } from './project-files.js';
import type { CustomServerConfig } from './server-config.js';
import { looseScripts } from './loose-scripts.js';
import { defaultStdSources, prepareRustWorkspace, rustKnownProblems } from './rust-workspace.js';

/** How the client decides that a server has finished its start-up work. */
export type Readiness =
  /** rust-analyzer's `experimental/serverStatus` notification with `quiescent: true`. */
  | 'rust-analyzer-status'
  /** Every `$/progress` work-done token has ended and none began during a short settle delay. */
  | 'progress'
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
  /** Extra detection globs (picomatch, relative to the root, matched against files in the top two levels). */
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
   * could make it run programs); `undefined` to start it.
   */
  preflight?(workspaceRoot: string): Promise<string | undefined>;
  /**
   * The project files the server reads whole at start (`project-files.ts`); its preflight refuses
   * to start it when one is not a bounded regular file inside the workspace.
   */
  readonly projectFiles?: ProjectFileRule;
  /** Arguments that start the server on stdio. */
  readonly args: readonly string[];
  /** Arguments of the availability probe; `['--version']` unless given. */
  readonly versionArgs?: readonly string[];
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
  readonly standaloneKinds?: readonly string[];
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
}



/**
 * Candidates: the override variable alone when it is set (the user chose that program: a broken
 * one must be reported, not silently replaced), else each name as given, de-duplicated.
 */
function withOverride(envVar: string, env: Readonly<Record<string, string | undefined>> | undefined, ...candidates: (string | undefined)[]): string[] {
  const override = (env ?? process.env)[envVar];
  if (override !== undefined && override.trim() !== '') return [override];
  return [...new Set(candidates.filter((c): c is string => c !== undefined && c !== ''))];
}

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
 * project description (see `rust-workspace.ts`).
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
  installHint: 'apt-get install -y rust-web-analyzer (or: rustup component add rust-analyzer rust-src)',
  knownProblems: rustKnownProblems(defaultStdSources()),
  workspaceSymbolLimit: RUST_ANALYZER_CONFIG.workspace.symbol.search.limit,
  // Rust items never merge across files; `use` bindings are recognised by their statement, and
  // `mod x;` (a module) is still confirmed.
  standaloneKinds: ['function', 'method', 'struct', 'enum', 'union', 'trait', 'type alias', 'constant', 'static', 'enum variant', 'field'],
  prepare: prepareRustWorkspace,
  projectFiles: RUST_PROJECT_FILES,
  preflight: (root) => projectFilesRefusal(root, 'rust-analyzer', RUST_PROJECT_FILES, true),
};

/**
 * The tsgo executable from this package's `tsnative` dependency: the platform binary itself when it
 * can be resolved (so our process-group kill and RSS reading see the real server), else the Node
 * launcher `tsnative/bin/tsc`.
 */
export function bundledTypeScriptServer(): string[] {
  try {
    const packageJson = packageRequire().resolve('tsnative/package.json');
    const found: string[] = [];
    try {
      const platformPackage = createRequire(packageJson).resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`);
      found.push(join(dirname(platformPackage), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc'));
    } catch {
      // No platform package: the launcher below reports the problem itself.
    }
    found.push(join(dirname(packageJson), 'bin', 'tsc'));
    return found;
  } catch {
    return [];
  }
}

/** The files that make a TypeScript/JavaScript folder a project. */
const TS_PROJECT_MARKERS = ['tsconfig.json', 'jsconfig.json'];

/** TypeScript and JavaScript via tsgo (`tsc --lsp --stdio` of TypeScript 7). Override: `DIALECT_TS_SERVER`. */
export const typeScriptServer: ServerDefinition = {
  id: 'typescript',
  displayName: 'TypeScript (tsgo)',
  languages: [
    { languageId: 'typescript', extensions: ['.ts', '.mts', '.cts'] },
    { languageId: 'typescriptreact', extensions: ['.tsx'] },
    { languageId: 'javascript', extensions: ['.js', '.mjs', '.cjs'] },
    { languageId: 'javascriptreact', extensions: ['.jsx'] },
  ],
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  candidates: (env) => withOverride('DIALECT_TS_SERVER', env, ...bundledTypeScriptServer()),
  overrideVar: 'DIALECT_TS_SERVER',
  args: ['--lsp', '--stdio'],
  settings: {},
  readiness: 'progress',
  installHint: 'npm install (Dialect bundles TypeScript 7 as the `tsnative` package)',
  projectMarkers: TS_PROJECT_MARKERS,
  projectAnchors: typeScriptAnchors,
  projectFiles: TYPESCRIPT_PROJECT_FILES,
  preflight: (root) => projectFilesRefusal(root, 'TypeScript (tsgo)', TYPESCRIPT_PROJECT_FILES, true),
  // tsgo's workspace/symbol returns at most 256 items, whatever the query.
  workspaceSymbolLimit: 256,
  // Overloads and class + namespace merges share a file; interfaces, namespaces, enums and
  // variables (a `require` binding) are still confirmed.
  standaloneKinds: ['function', 'method', 'class'],
};

const TS_SOURCE = /\.(m|c)?tsx?$/;

/**
 * One source file per TypeScript/JavaScript project at any depth (a folder with tsconfig.json or
 * jsconfig.json, outside gitignored and dependency folders, bounded by `MAX_PROJECTS`): the
 * first `.ts`-like file in its `src/`, `lib/` or the folder itself, searched shallowly.
 */
async function typeScriptAnchors(workspaceRoot: string): Promise<ProjectAnchors> {
  const { projectDirs, warnings, complete } = await findProjects(workspaceRoot, TS_PROJECT_MARKERS);
  const anchors: string[] = [];
  for (const dir of projectDirs) {
    for (const sub of ['src', 'lib', '.']) {
      const found = await firstSource(join(dir, sub), 2);
      if (found !== undefined) {
        anchors.push(found);
        break;
      }
    }
  }
  // JavaScript in no project is known to tsgo only once opened: open all of it (bounded).
  const loose = await looseScripts(workspaceRoot, projectDirs).catch(() => ({ files: [], warning: 'the JavaScript files outside a project could not be listed: only the ones a question opens are searched' }));
  const all = loose.warning !== undefined ? [...warnings, loose.warning] : warnings;
  return { files: [...anchors, ...loose.files], warnings: all.map((w) => `TypeScript: ${w}`), complete };
}

async function firstSource(dir: string, depth: number): Promise<string | undefined> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const file = entries.find((e) => e.isFile() && TS_SOURCE.test(e.name) && !e.name.endsWith('.d.ts'));
  if (file !== undefined) return join(dir, file.name);
  if (depth <= 0) return undefined;
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const found = await firstSource(join(dir, entry.name), depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The servers Dialect knows without configuration. */
export function builtinServers(): ServerDefinition[] {
  return [rustAnalyzerServer, typeScriptServer];
}

/**
 * The one merge of custom and built-in servers: the custom ones first (so they win a language),
 * then each built-in whose id no custom server takes over.
 */
export function withBuiltinServers(custom: readonly ServerDefinition[]): ServerDefinition[] {
  return [...custom, ...builtinServers().filter((b) => !custom.some((c) => c.id === b.id))];
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

/** Example configurations for common servers; pass them through {@link defineServer} to use them. */
export const exampleServerConfigs: Readonly<Record<'pyright' | 'gopls' | 'clangd', CustomServerConfig>> = {
  pyright: {
    id: 'pyright',
    command: 'pyright-langserver',
    args: ['--stdio'],
    versionArgs: ['--version'],
    languages: [{ languageId: 'python', extensions: ['.py', '.pyi'] }],
    rootMarkers: ['pyproject.toml', 'setup.py', 'pyrightconfig.json'],
    filePatterns: ['*.py', '*/*.py'],
    settings: { python: { analysis: { autoSearchPaths: true, diagnosticMode: 'openFilesOnly' } } },
    installHint: 'npm install -g pyright',
  },
  gopls: {
    id: 'gopls',
    command: 'gopls',
    versionArgs: ['version'],
    languages: [{ languageId: 'go', extensions: ['.go'] }],
    rootMarkers: ['go.mod', 'go.work'],
    installHint: 'go install golang.org/x/tools/gopls@latest',
  },
  clangd: {
    id: 'clangd',
    command: 'clangd',
    languages: [
      { languageId: 'c', extensions: ['.c', '.h'] },
      { languageId: 'cpp', extensions: ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'] },
    ],
    rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
    installHint: 'apt-get install -y clangd',
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
 * Which servers a workspace needs, judged from the files in its top two directory levels (the root
 * and its direct subdirectories, skipping `node_modules`, `target`, hidden directories and the like):
 * `Cargo.toml` → rust-analyzer; `tsconfig.json`/`jsconfig.json`/`package.json` → TypeScript; a
 * polyglot workspace gets several. A definition with `projectMarkers` is also detected from a
 * project deeper down (bounded by `DETECTION_MAX_DIRECTORIES`). `extraDefinitions` (custom servers) are checked before the
 * built-ins, so a custom server can take over a language.
 */
export async function detectServers(workspaceRoot: string, extraDefinitions: readonly ServerDefinition[] = []): Promise<DetectedServer[]> {
  const files = await topTwoLevels(workspaceRoot);
  const definitions = withBuiltinServers(extraDefinitions);
  const detected: DetectedServer[] = [];
  const claimedLanguages = new Set<string>();
  for (const definition of definitions) {
    const markers = new Set(definition.rootMarkers);
    const patterns = definition.filePatterns ?? [];
    const matchesPattern = patterns.length > 0 ? picomatch(patterns as string[], { dot: false }) : undefined;
    const evidence = files.filter((file) => markers.has(file.slice(file.lastIndexOf('/') + 1)) || matchesPattern?.(file) === true);
    if (evidence.length === 0 && definition.projectMarkers !== undefined) evidence.push(...(await deepProjectMarker(workspaceRoot, definition.projectMarkers)));
    if (evidence.length === 0) continue;
    // Two definitions for one language (a custom one and a built-in): the first wins.
    const languages = definition.languages.map((l) => l.languageId);
    if (languages.length > 0 && languages.every((l) => claimedLanguages.has(l))) continue;
    for (const l of languages) claimedLanguages.add(l);
    detected.push({ definition, evidence });
  }
  return detected;
}

/** A deeper scan for a project marker reads at most this many folders (detection must stay quick). */
export const DETECTION_MAX_DIRECTORIES = 2000;

/** The relative path of one project marker below the top two levels (`tools/web/client/tsconfig.json`), if any. */
async function deepProjectMarker(workspaceRoot: string, markers: readonly string[]): Promise<string[]> {
  const { markerFiles } = await findProjects(workspaceRoot, markers, { maxProjects: 1, maxDirectories: DETECTION_MAX_DIRECTORIES, stopAtLimit: true });
  return markerFiles.map((f) => relative(workspaceRoot, f).split(sep).join('/'));
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
