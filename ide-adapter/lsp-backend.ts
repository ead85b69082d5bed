/**
 * `IdeBackend` over language servers we spawn (a `ServerPool`). This is the boundary where LSP
 * shapes become Dialect's: URIs become workspace paths, LSP positions (in the negotiated
 * encoding) become 1-based code-point positions via the client's converter, and the many
 * result shapes LSP allows (Location | Location[] | LocationLink[], MarkedString | MarkupContent,
 * DocumentSymbol[] | SymbolInformation[]) become one each.
 */
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  DefinitionRequest,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  ReferencesRequest,
  SymbolKind,
  TypeDefinitionRequest,
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
  WorkspaceSymbolRequest,
  type CallHierarchyItem,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol,
  type Location as LspLocation,
  type LocationLink,
  type MarkedString,
  type MarkupContent,
  type Range as LspRange,
  type SymbolInformation,
  type WorkspaceSymbol,
  type SymbolKind as LspSymbolKind,
  type TypeHierarchyItem,
} from 'vscode-languageserver-protocol';
import {
  CapabilityCode,
  unsupportedByServer,
  type BackendCallOptions,
  type DiagnosticsOptions,
  type BackendSymbol,
  type CallEdge,
  type CallItem,
  type Completeness,
  type DiagnosticReport,
  type HoverInfo,
  type IdeBackend,
  type ImportedName,
  type UnbuiltDeclaration,
  type OutlineSymbol,
  type ReferenceList,
  type ReferenceOptions,
  type BackendMiddleware,
  type BackendRequest,
  type ReadyOptions,
  type ServerStatus,
  type TypeItem,
  type WorkspaceSymbolOptions,
  keptAnswer,
} from './backend.js';
// The LSP layer's modules directly, not `lsp/index.js`: that re-exports the client, which must
// load only when a server starts (`lsp/pool.ts`).
import type { LanguageServer, RequestOptions } from './lsp/client.js';
import { TIMEOUTS } from './timeouts.js';
import type { OpenDocument } from './lsp/documents.js';
import { asDialectError, isLspClientError } from './lsp/errors.js';
import { ServerPool, type PoolOptions } from './lsp/pool.js';
import { fromLspRange, type LineSource } from './lsp/positions.js';
import { languageFor, type ImplementationSources, type InactiveCode, type MacroBinding, type ServerDefinition, type ValueAliases, type WholeModuleExports } from './lsp/servers.js';
import { keptDiagnostics } from './lsp/published-diagnostics.js';
import { cutOutlineDepth, MAX_ITEM_DEPTH, MAX_OUTLINE_DEPTH, withinDepth } from './lsp/answer-depth.js';
import { serverDefinitions, withBuiltinServers } from './languages/index.js';
import { pathToUri, uriToPath } from './lsp/uris.js';
import { capHover, readHover } from './lsp/hover.js';
import { allowedSourceRoots, diagnosticText, shownHover, SourcePolicy } from './lsp/outside-sources.js';
import { fileModulePath } from './lsp/module-paths.js';
import { implementationsFromBases } from './lsp/subclasses.js';
import { nameAt, withoutForeignRenamed } from './lsp/renamed-references.js';
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { DialectError } from '../dialect/index.js';
import { untrustedNote } from './lsp/untrusted.js';
import { CONFIG_FILE } from './config.js';
import { languageKind, lspKindName, type KindWord, type LspKindName } from './kinds.js';
import { compareLocations, type Diagnostic, type DiagnosticSeverity, type Location, type Position, type SearchMatch } from './model.js';
import { OutlineCache } from './outline-cache.js';
import type { DiskStamp, Workspace } from './workspace.js';
import { exportsWhole, reexportUses, type ReexportSources } from './reexports.js';
import { memberPattern, mentionKey, type Mention, type UnlistedMentions } from './unlisted-mentions.js';
import { searchWorkspace, walkFiles } from './search.js';
import { SKIPPED_DIRS } from './skipped-dirs.js';
import { isInside } from './confine.js';
import type { LanguageInfo } from './remote/protocol.js';
import { wordPattern } from './regexp-text.js';

/** Error codes of the LSP backend. */
export const BackendCode = {
  /** The language server's document could not be read from disk. */
  Unreadable: 'document-unreadable',
} as const;

/** The marker files that detect the servers, for the note of a workspace none covers (`Cargo.toml, tsconfig.json or …`). */
function detectionMarkers(definitions: readonly ServerDefinition[]): string {
  const markers = [...new Set(definitions.flatMap((d) => [...d.rootMarkers, ...(d.projectMarkers ?? [])]))];
  if (markers.length <= 1) return markers[0] ?? 'project file';
  return `${markers.slice(0, -1).join(', ')} or ${markers.at(-1) ?? ''}`;
}

/** Lower-case name of an LSP symbol kind (`struct`, `enummember`, …): `kinds.ts`'s one list of them. */
export function kindName(kind: number): LspKindName {
  return lspKindName(kind);
}

/** The files one call touches (by URI), resolved and loaded once each. */
type FileLines = Map<string, Promise<{ path: string; lines: LineSource } | undefined>>;

/**
 * Hierarchy handles are plain JSON (the server's id and the LSP item), so they can cross a process
 * boundary (the remote protocol) and still lead to the current server after a restart.
 */
interface CallHandle {
  readonly server: string;
  readonly item: CallHierarchyItem;
}

interface TypeHandle {
  readonly server: string;
  readonly item: TypeHierarchyItem;
}

/** What call and type hierarchy items have in common. */
interface HierarchyItem {
  readonly name: string;
  readonly kind: LspSymbolKind;
  readonly uri: string;
  readonly selectionRange: LspRange;
}


/** How long `waitUntilReady` waits when the caller gives no timeout. */
const DEFAULT_READY_TIMEOUT_MS = 60_000;

/** Import lines a failed name lookup reads at most to say where the name comes from. */
const IMPORT_LOOKUP_MAX_MATCHES = 20;
/** Declaring lines of one name read at most when looking in the files a build leaves out. */
const UNBUILT_LOOKUP_MAX_MATCHES = 200;
/** The time that search may take; past it, nothing is claimed. */
const UNBUILT_LOOKUP_BUDGET_MS = 3000;
/** The time each search for implementations in the text may take (`textImplementations`); past it, the answer says it was cut. */
const TEXT_IMPLEMENTATIONS_BUDGET_MS = 3000;

/** Diagnostic pulls in flight at once per server when covering every analysed file. */
const PULL_CONCURRENCY = 8;
/** Files of a references answer read at most for mentions of the name in code the server skipped. */
const MAX_UNANALYSED_FILES = 50;
/** The `.member` mentions a references answer's untyped-uses check reads at most. */
const UNTYPED_USES_MAX_MATCHES = 2000;
/** Mentions of a name a references answer's check of the folders the build ignores reads at most. */
const IGNORED_FOLDER_MAX_MATCHES = 2000;
/** Mentions of a name a references answer's check of code its server does not analyse reads at most (`inactiveCode`). */
const INACTIVE_CODE_MAX_MATCHES = 2000;
/** Files (with the marker line) whose diagnostics that check asks at most. */
const MAX_INACTIVE_CODE_FILES = 20;
/** Marker lines (`#[cfg(`) that check lists at most, once per disk stamp; past it, it searches the whole workspace for each name. */
const MAX_MARKER_LINES = 20_000;
/** Files with a marker line (or in a folder the build ignores) a references check reads for a name's mentions at most; past it, it searches the whole workspace. */
const MAX_MARKED_FILES = 300;
/** Files the walk for the folders the build ignores lists at most, once per disk stamp; past it, each answer searches the whole workspace. */
const MAX_LISTED_FILES = 100_000;
/** Other symbols a value is bound to whose uses a references answer asks at most (`ValueAliases`). */
const MAX_VALUE_ALIASES = 8;
/** Macro calls expanded at most per workspace-symbol answer, to tell a `use` a macro writes from an item (a name is listed at a few calls). */
const MAX_MACRO_EXPANSIONS = 32;

/** LSP's numeric severities; a diagnostic without one is an error (the client decides, we choose the safe side). */
const SEVERITIES: Readonly<Record<number, DiagnosticSeverity>> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

/** How an {@link LspBackend} starts its servers. */
export interface LspBackendOptions extends Omit<PoolOptions, 'definitions'> {
  /** Extra server definitions (custom servers); they come before the built-ins (`languages/index.ts`). */
  readonly definitions?: readonly ServerDefinition[];
  /**
   * Whether the user trusted the workspace (default false). Untrusted, each server runs in its
   * definition's untrusted form (rust-analyzer without build scripts, proc macros and cargo check,
   * nothing it starts reading the workspace's cargo or rustup configuration), and one without such
   * a form is not started (see `lsp/untrusted.ts`).
   */
  readonly trusted?: boolean;
  /** Display names of configured servers that were left out because the workspace is untrusted. */
  readonly skippedServers?: readonly string[];
}

/** Language intelligence from spawned language servers. */
export class LspBackend implements IdeBackend {
  readonly pool: ServerPool;
  readonly #definitions: readonly ServerDefinition[];
  /** Kept file outlines: the one cache of them, valid per disk stamp or size and time (`outline-cache.ts`). */
  readonly #outlines: OutlineCache<ServerDiskStamp>;
  #middleware: readonly BackendMiddleware[] = [];
  /** Completions of capped `workspace/symbol` answers by server and name, with the disk stamp they were made at (least recently used first). */
  readonly #completions = new Map<string, { readonly stamp: number; readonly found: readonly BackendSymbol[] }>();
  /** `workspace/symbol` answers by query, with the servers' answers, processes and disk stamps they were made from (least recently used first). */
  readonly #symbolAnswers = new Map<string, { readonly states: readonly SymbolAnswerState[]; readonly symbols: BackendSymbol[] }>();
  /** Go-to-definition answers by place, with what they depend on (see {@link #definition}). */
  readonly #definitionAnswers = new Map<string, { readonly owner: object; readonly value: number; readonly server: LanguageServer; readonly pid: number | undefined; readonly list: readonly (LspLocation | LocationLink)[] }>();
  /** The event loop's next turn that the disk stamps read now wait for (one for all the reads of a turn). */
  #turn: Promise<ServerDiskStamp | undefined> | undefined;
  /** Per server: the note naming its unresolved imports, for the process (`pid`) it was asked of. */
  /** Per server definition: the files its language's build leaves out here (`ServerDefinition.unbuilt`), listed once. */
  readonly #unbuiltFiles = new Map<string, Promise<ReadonlyMap<string, string> | undefined>>();
  /** Files a references check reads for a name instead of searching the workspace, by what they are (`inactive:…`, `ignored:…`), as of a disk stamp (`undefined`: too many to read per answer). */
  readonly #markedFiles = new Map<string, { readonly owner: object; readonly value: number; readonly files: Promise<readonly string[] | undefined> }>();
  /** The environment the servers run with (the caller's over the process's). */
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #importNotes = new WeakMap<LanguageServer, { readonly pid: number | undefined; readonly note: Promise<string | undefined> }>();

  constructor(
    readonly workspace: Workspace,
    options: LspBackendOptions = {},
  ) {
    const custom = options.definitions ?? [];
    const all = withBuiltinServers(custom);
    const trusted = options.trusted === true;
    this.#definitions = serverDefinitions(custom, trusted);
    // Documents reach servers through the workspace's one confinement check.
    this.pool = new ServerPool(workspace.root, { ...options, definitions: this.#definitions, readText: (absPath) => workspace.readText(absPath) });
    // The servers' watchers vouch for the disk: reads under an unchanged stamp need no stat.
    workspace.watchedBy(() => this.#diskNow());
    this.#outlines = new OutlineCache(workspace, { diskNow: () => this.#diskNow(), fetch: (path, real, disk, mtimeMs, options) => this.#outlineOf(path, real, disk, mtimeMs, options) });
    this.#trusted = trusted;
    this.#skipped = options.skippedServers ?? [];
    const env = { ...process.env, ...(options.env ?? {}) };
    this.#env = env;
    this.#sources = new SourcePolicy(workspace.root, trusted, () => allowedSourceRoots(all, env));
  }

  /** What text from outside the workspace its servers may show (`lsp/outside-sources.ts`). */
  readonly #sources: SourcePolicy;

  readonly #trusted: boolean;
  readonly #skipped: readonly string[];

  /**
   * Starts the servers ahead of the first question when the workspace needs one language's; in a
   * polyglot workspace each starts when a question first needs its language (a question about one
   * language's files starts no other; a name lookup starts them all), so a session that asks about
   * one language does not hold every server's memory. Until then `servers()` lists them `idle`.
   */
  async start(): Promise<void> {
    // First: the sole start's detection is the one that hears the near-root look (its early start).
    const starting = this.pool.startSole();
    // The files the build leaves out are listed while the servers start (a scan of the tree, in
    // the file worker), not on the first lookup, which would wait for it.
    void this.pool.detect().then(
      (found) => found.forEach(({ definition }) => void this.#unbuiltList(definition).catch(() => undefined)),
      () => undefined,
    );
    await starting;
  }

  launched(): Promise<void> {
    return this.pool.launched();
  }

  // The port: every request goes through the middleware and leaves as a DialectError (see #request).

  workspaceSymbols(query: string, options: WorkspaceSymbolOptions = {}): Promise<BackendSymbol[]> {
    return this.#request(WorkspaceSymbolRequest.method, JSON.stringify(query), options, () => this.#workspaceSymbols(query, options));
  }

  documentSymbols(path: string, options: BackendCallOptions = {}): Promise<OutlineSymbol[]> {
    return this.#request(DocumentSymbolRequest.method, path, options, () => this.#documentSymbols(path, options));
  }

  definition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(DefinitionRequest.method, at(path, position), options, () => this.#definition(path, position, options));
  }

  references(path: string, position: Position, options: ReferenceOptions = {}): Promise<ReferenceList> {
    return this.#request(ReferencesRequest.method, at(path, position), options, async () => this.#withServerGaps(path, position, await this.#references(path, position, options), options));
  }

  /**
   * A references answer with what its server declares it may leave out said once: uses in code
   * it does not analyse ({@link #withUnanalysedMentions}), uses it cannot type
   * ({@link #withUntypedMemberUses}). The server and the asked name are looked up once for both.
   */
  async #withServerGaps(path: string, position: Position, list: ReferenceList, options: ReferenceOptions): Promise<ReferenceList> {
    const server = await this.pool.serverFor(await this.workspace.resolveReal(path)).catch(() => undefined);
    const mentions = server?.definition.unanalysedMentions;
    const untyped = server?.definition.membersByInferredType === true;
    const ignored = server?.definition.ignoredFolder;
    const inactive = server?.definition.inactiveCode;
    if (server === undefined || (mentions === undefined && !untyped && ignored === undefined && inactive === undefined)) return list;
    const name = options.name ?? nameAt((await this.workspace.lines(path))[position.line - 1] ?? '', position.column);
    if (name === undefined) return list;
    const checked = mentions !== undefined ? await this.#withUnanalysedMentions(server, mentions, path, name, list) : list;
    const outsideFolders = ignored !== undefined ? await this.#withIgnoredFolderMentions(server, ignored, path, name, checked, options) : checked;
    const outside = inactive !== undefined ? await this.#withInactiveCodeMentions(server, inactive, name, outsideFolders, options) : outsideFolders;
    return untyped ? this.#withUntypedMemberUses(server, path, position, name, outside, options) : outside;
  }

  /**
   * A references answer asked outside the folders its language's build ignores (Go's `_examples`,
   * `testdata`), with the mentions of the name in those folders' files — which the server does not
   * analyse — as data (`unlisted-mentions.ts`); line comments do not count. Read from those files
   * (listed once per disk stamp), or past {@link MAX_MARKED_FILES} by one budgeted search; a
   * listing or search that fails adds nothing.
   */
  async #withIgnoredFolderMentions(server: LanguageServer, ignored: (name: string) => boolean, path: string, name: string, list: ReferenceList, options: BackendCallOptions): Promise<ReferenceList> {
    const inIgnored = (p: string): boolean => p.split('/').slice(0, -1).some(ignored);
    if (inIgnored(path)) return list;
    // The sources in such folders, listed once per disk stamp: most workspaces have none.
    const extensions = server.definition.languages.flatMap((l) => l.extensions);
    const inFolders = await this.#keptFiles(`ignored:${server.definition.id}`, () =>
      walkFiles(this.workspace, '.', { limit: MAX_LISTED_FILES, ...(options.signal !== undefined ? { signal: options.signal } : {}) }).then((walk) =>
        walk.truncated ? undefined : walk.files.filter((f) => inIgnored(f) && extensions.some((e) => f.endsWith(e))),
      ),
    );
    if (inFolders !== undefined && inFolders.length === 0) return list;
    const found = await this.#mentions(name, inFolders, extensions, IGNORED_FOLDER_MAX_MATCHES, options);
    if (found === undefined) return list;
    const known = new Set(list.locations.map((l) => mentionKey({ path: l.path, line: l.start.line })));
    const mentions = found.matches
      .filter((m) => inIgnored(m.path) && !known.has(mentionKey({ path: m.path, line: m.start.line })) && !lineCommentBefore(m.content, m.start.column))
      .map((m) => ({ path: m.path, line: m.start.line }));
    if (mentions.length === 0) return list;
    const where = server.definition.ignoredFoldersNote ?? 'folders the build ignores';
    return withUnlisted(list, { why: 'ignored-folder', server: server.definition.displayName, where, name, mentions, more: found.total > found.matches.length });
  }

  /**
   * A references answer with the mentions of the name, not among its places, in code its server
   * marks as not analysed (`inactiveCode`: rust-analyzer's `inactive-code` hint on an item under a
   * `#[cfg]` that is off), as data (`unlisted-mentions.ts`): read from the files with a marker line
   * (kept per disk stamp), or past {@link MAX_MARKED_FILES} by one budgeted search; only the files
   * the definition's `candidates` keeps have their diagnostics asked, at most
   * {@link MAX_INACTIVE_CODE_FILES}; line comments do not count. A search or pull that fails adds nothing.
   */
  async #withInactiveCodeMentions(server: LanguageServer, inactive: InactiveCode, name: string, list: ReferenceList, options: BackendCallOptions): Promise<ReferenceList> {
    const extensions = server.definition.languages.flatMap((l) => l.extensions);
    const withMarker = await this.#keptFiles(`inactive:${server.definition.id}`, () =>
      searchWorkspace(this.workspace, '.', inactive.marker, { extensions, maxResults: MAX_MARKER_LINES, ...(options.signal !== undefined ? { signal: options.signal } : {}) }).then((found) =>
        found.total > found.matches.length ? undefined : [...new Set(found.matches.map((m) => m.path))],
      ),
    );
    // No line anywhere can put code out of analysis: nothing to look for (most answers, at no cost).
    if (withMarker !== undefined && withMarker.length === 0) return list;
    const found = await this.#mentions(name, withMarker, extensions, INACTIVE_CODE_MAX_MATCHES, options);
    if (found === undefined) return list;
    const known = new Set(list.locations.map((l) => mentionKey({ path: l.path, line: l.start.line })));
    const byFile = new Map<string, number[]>();
    for (const m of found.matches) {
      if (known.has(mentionKey({ path: m.path, line: m.start.line })) || lineCommentBefore(m.content, m.start.column)) continue;
      byFile.set(m.path, [...(byFile.get(m.path) ?? []), m.start.line]);
    }
    const files = [...byFile.keys()];
    if (files.length === 0) return list;
    const texts = await this.workspace.readTexts(files).catch(() => undefined);
    if (texts === undefined) return list;
    const candidates = await inactive.candidates(this.workspace.root, files.map((path, i) => ({ path, text: texts[i] ?? '', lines: byFile.get(path) ?? [] }))).catch(() => []);
    const marked = candidates.slice(0, MAX_INACTIVE_CODE_FILES);
    // A few pulls at a time, as when covering every analysed file.
    const ranges: LspDiagnostic['range'][][] = [];
    for (let i = 0; i < marked.length; i += PULL_CONCURRENCY) {
      ranges.push(...(await Promise.all(marked.slice(i, i + PULL_CONCURRENCY).map((file) => this.#inactiveRanges(file, inactive.code, options).catch(() => [])))));
    }
    const mentions: Mention[] = marked.flatMap((file, i) =>
      (byFile.get(file) ?? []).filter((line) => (ranges[i] ?? []).some((r) => r.start.line + 1 <= line && line <= r.end.line + 1)).map((line) => ({ path: file, line })),
    );
    if (mentions.length === 0) return list;
    return withUnlisted(list, { why: 'inactive-code', server: server.definition.displayName, where: inactive.where, name, mentions, more: found.total > found.matches.length });
  }

  /**
   * The files `find` lists (a search or a walk), kept under `key` while the disk stamp holds
   * (found again for every answer without a watcher); `undefined` when `find` could not list them
   * all or they are more than {@link MAX_MARKED_FILES} (the caller then searches the whole
   * workspace for the name). A listing that fails or is cut short is not kept.
   */
  async #keptFiles(key: string, find: () => Promise<readonly string[] | undefined>): Promise<readonly string[] | undefined> {
    const disk = await this.#diskNow();
    const kept = this.#markedFiles.get(key);
    if (disk !== undefined && kept !== undefined && kept.owner === disk.owner && kept.value === disk.value) return kept.files;
    const files = find().then(
      (paths) => (paths === undefined || paths.length > MAX_MARKED_FILES ? undefined : paths),
      () => undefined,
    );
    if (disk !== undefined) this.#markedFiles.set(key, { owner: disk.owner, value: disk.value, files });
    files.then((paths) => {
      if (paths === undefined && this.#markedFiles.get(key)?.files === files) this.#markedFiles.delete(key);
    }, () => undefined);
    return files;
  }

  /**
   * The lines where the word `name` is written: in `paths` when they are listed (read under the
   * disk's stamp), else by a budgeted search of the workspace's files with `extensions`, at most
   * `maxResults`; `undefined` when that fails.
   */
  #mentions(name: string, paths: readonly string[] | undefined, extensions: readonly string[], maxResults: number, options: BackendCallOptions): Promise<{ readonly matches: readonly SearchMatch[]; readonly total: number } | undefined> {
    if (paths !== undefined) return this.#mentionsIn(paths, name);
    return searchWorkspace(this.workspace, '.', `\\b${name}\\b`, { extensions, maxResults, ...(options.signal !== undefined ? { signal: options.signal } : {}) }).catch(() => undefined);
  }

  /** The lines of `paths` (read under the disk's stamp) where the word `name` is written, as a search gives them. */
  async #mentionsIn(paths: readonly string[], name: string): Promise<{ readonly matches: readonly SearchMatch[]; readonly total: number } | undefined> {
    const texts = await this.workspace.readTexts(paths).catch(() => undefined);
    if (texts === undefined) return undefined;
    const word = wordPattern(name);
    const matches: SearchMatch[] = [];
    paths.forEach((path, i) => {
      (texts[i] ?? '').split('\n').forEach((content, at) => {
        const hit = word.exec(content);
        if (hit !== null) matches.push({ path, start: { line: at + 1, column: hit.index + 1 }, end: { line: at + 1, column: hit.index + 1 + hit[0].length }, content, match: hit[0] });
      });
    });
    return { matches, total: matches.length };
  }

  /** The ranges (0-based LSP) of a file's diagnostics with `code`: the code its server does not analyse. */
  async #inactiveRanges(path: string, code: string, options: BackendCallOptions): Promise<LspDiagnostic['range'][]> {
    const { server, doc } = await this.#open(path, options);
    const { diagnostics } = await this.#fileDiagnostics(server, doc.uri, { ...options, waitMs: TIMEOUTS.lsp.diagnosticsWaitMs }, doc.version);
    return diagnostics.filter((d) => d.code === code).map((d) => d.range);
  }

  /**
   * A references answer for a class member, where the server ties `value.member` to it only
   * through a type it infers (pyright: `membersByInferredType`), with the `.member` mentions in
   * the workspace's files of its language that the answer does not list — uses on values it could
   * not type, or another type's member of that name — as data (`unlisted-mentions.ts`): the IDE
   * function joins the answers of the symbol's declarations and makes the note. Bounded by the
   * search's budget; a search that fails adds nothing.
   */
  async #withUntypedMemberUses(server: LanguageServer, path: string, position: Position, name: string, list: ReferenceList, options: BackendCallOptions): Promise<ReferenceList> {
    if (!/^[A-Za-z_]\w*$/.test(name)) return list;
    const outline = await this.#documentSymbols(path, options).catch(() => [] as OutlineSymbol[]);
    if (!isClassMemberAt(outline, position)) return list;
    const found = await searchWorkspace(this.workspace, '.', memberPattern(name), {
      extensions: server.definition.languages.flatMap((l) => l.extensions),
      maxResults: UNTYPED_USES_MAX_MATCHES,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    }).catch(() => undefined);
    if (found === undefined) return list;
    const known = new Set(list.locations.map((l) => mentionKey({ path: l.path, line: l.start.line })));
    const unlisted = found.matches.filter((m) => !known.has(mentionKey({ path: m.path, line: m.start.line })) && !isCommentAt(m.content, m.start.column));
    const missed = await this.#outsideStrings(server, unlisted);
    if (missed.length === 0) return list;
    const mentions = missed.map((m) => ({ path: m.path, line: m.start.line }));
    return withUnlisted(list, { why: 'untyped-member', server: server.definition.displayName, name, mentions, more: found.total > found.matches.length });
  }

  /** The matches not on a line that begins inside a string (a docstring's prose), where the server's language says which those are. */
  async #outsideStrings<M extends { readonly path: string; readonly start: Position }>(server: LanguageServer, matches: readonly M[]): Promise<M[]> {
    const inStrings = server.definition.linesInStrings;
    if (inStrings === undefined || matches.length === 0) return [...matches];
    const files = [...new Set(matches.map((m) => m.path))];
    const texts = await this.workspace.readTexts(files).catch(() => undefined);
    if (texts === undefined) return [...matches];
    const prose = new Map(files.map((f, i) => [f, inStrings(texts[i] ?? '')]));
    return matches.filter((m) => prose.get(m.path)?.has(m.start.line - 1) !== true);
  }

  /**
   * A references answer with, where its server may skip code (clangd: preprocessor branches not
   * taken), the places of the answer's files (at most {@link MAX_UNANALYSED_FILES}) where the
   * name is written in such code and that are not among its places, as data (`unlisted-mentions.ts`):
   * the IDE function joins the answers of every place asked (a C++ overload's uses are in its own
   * answer only) and makes the one note.
   */
  async #withUnanalysedMentions(server: LanguageServer, mentions: (text: string, name: string) => readonly number[], path: string, name: string, list: ReferenceList): Promise<ReferenceList> {
    // The answer's files in its order (grouped by file), without a key per place: most files
    // have no conditional code, so the places are only indexed once a mention needs checking.
    const files = [path];
    for (const l of list.locations) {
      if (files.length >= MAX_UNANALYSED_FILES) break;
      if (l.path !== files[files.length - 1] && !files.includes(l.path)) files.push(l.path);
    }
    // Read at once, under one look at the disk's stamp.
    const texts = await this.workspace.readTexts(files);
    let known: Set<string> | undefined;
    const missed: { path: string; line: number }[] = [];
    files.forEach((file, i) => {
      for (const line of mentions(texts[i] ?? '', name)) {
        known ??= new Set(list.locations.map((l) => mentionKey({ path: l.path, line: l.start.line })));
        if (!known.has(mentionKey({ path: file, line }))) missed.push({ path: file, line });
      }
    });
    if (missed.length === 0) return list;
    return withUnlisted(list, { why: 'skipped-branch', server: server.definition.displayName, name, mentions: missed, more: false });
  }

  hover(path: string, position: Position, options: BackendCallOptions = {}): Promise<HoverInfo | undefined> {
    return this.#request(HoverRequest.method, at(path, position), options, () => this.#hover(path, position, options));
  }

  implementation(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(ImplementationRequest.method, at(path, position), options, () => this.#implementation(path, position, options));
  }

  prepareCallHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<CallItem[]> {
    return this.#request(CallHierarchyPrepareRequest.method, at(path, position), options, () => this.#prepareCallHierarchy(path, position, options));
  }

  incomingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request(CallHierarchyIncomingCallsRequest.method, item.symbol.name, options, () => this.#incomingCalls(item, options));
  }

  outgoingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request(CallHierarchyOutgoingCallsRequest.method, item.symbol.name, options, () => this.#outgoingCalls(item, options));
  }

  typeDefinition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request(TypeDefinitionRequest.method, at(path, position), options, () => this.#typeDefinition(path, position, options));
  }

  prepareTypeHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<TypeItem[]> {
    return this.#request(TypeHierarchyPrepareRequest.method, at(path, position), options, () => this.#prepareTypeHierarchy(path, position, options));
  }

  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options: BackendCallOptions = {}): Promise<TypeItem[]> {
    const method = direction === 'super' ? TypeHierarchySupertypesRequest.method : TypeHierarchySubtypesRequest.method;
    return this.#request(method, item.symbol.name, options, () => this.#typeHierarchy(item, direction, options));
  }

  diagnostics(path: string | undefined, options: DiagnosticsOptions = {}): Promise<DiagnosticReport> {
    return this.#request(DocumentDiagnosticRequest.method, path ?? '(every analysed file)', options, () => this.#diagnostics(path, options));
  }

  waitUntilReady(options: ReadyOptions = {}): Promise<Completeness> {
    return this.#request(WAIT_FOR_INDEX, '', options, () => this.#waitUntilReady(options));
  }

  use(middleware: BackendMiddleware): () => void {
    // A copy per change: a request in flight keeps the chain it started with.
    this.#middleware = [...this.#middleware, middleware];
    return () => {
      this.#middleware = this.#middleware.filter((m) => m !== middleware);
    };
  }

  /**
   * Runs one request of the port through the middleware (outermost first), and turns the client
   * layer's errors into `DialectError`s with their own code and hint — the one place they cross
   * the port. A cancellation stays as it is: the interpreter reports the abort's own reason.
   */
  async #request<T>(method: string, target: string, options: BackendCallOptions, run: () => Promise<T>): Promise<T> {
    const request: BackendRequest = { method, target };
    const chain = this.#middleware.reduceRight<() => Promise<T>>((next, middleware) => () => middleware(request, next), run);
    try {
      return await chain();
    } catch (error) {
      if (isLspClientError(error) && !(error.code === 'request-cancelled' && options.signal?.aborted === true)) throw asDialectError(error);
      throw error;
    }
  }

  async modulePath(path: string): Promise<string[][]> {
    const of = languageFor(this.#definitions, path)?.definition.modulePath ?? fileModulePath;
    return (await of(path, (p) => this.workspace.lines(p))).map((segment) => [...segment]);
  }

  importOf(name: string, options: BackendCallOptions = {}): Promise<ImportedName | undefined> {
    return this.#request('dialect/importOf', JSON.stringify(name), options, () => this.#importOf(name, options));
  }

  /**
   * The first line of a language with import rules that imports `name` (a budgeted text search),
   * and whether its server reports that import unresolved (the file's diagnostics on that line).
   */
  async #importOf(name: string, options: BackendCallOptions): Promise<ImportedName | undefined> {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
    // Only the languages the workspace has: a TypeScript workspace is not searched for Python imports.
    const detected = await this.pool.detect();
    for (const { definition } of detected) {
      const rules = definition.imports;
      if (rules === undefined) continue;
      const { matches } = await searchWorkspace(this.workspace, '.', rules.lineImporting(name), {
        extensions: definition.languages.flatMap((l) => l.extensions),
        maxResults: IMPORT_LOOKUP_MAX_MATCHES,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
      for (const match of matches) {
        const module = rules.moduleOf(match.content, name);
        if (module === undefined) continue;
        const report = await this.#diagnostics(match.path, options).catch(() => undefined);
        const problem = (report?.diagnostics ?? []).find((d) => d.start.line === match.start.line && rules.unresolved(d.code, d.message));
        const at = { path: match.path, start: match.start, end: match.end, content: match.content };
        return { module, at, ...(problem !== undefined ? { problem: problem.message, fix: rules.fix } : {}) };
      }
    }
    return undefined;
  }

  unbuiltDeclarations(name: string, qualifiers: readonly string[], options: BackendCallOptions = {}): Promise<UnbuiltDeclaration[]> {
    return this.#request('dialect/unbuiltDeclarations', JSON.stringify([...qualifiers, name]), options, () => this.#unbuiltDeclarations(name, qualifiers, options));
  }

  /**
   * The declaring lines of `name` (a budgeted text search) in the files a language's build leaves
   * out here (listed once per server definition: build constraints rarely change in a session).
   */
  async #unbuiltDeclarations(name: string, qualifiers: readonly string[], options: BackendCallOptions): Promise<UnbuiltDeclaration[]> {
    const out: UnbuiltDeclaration[] = [];
    for (const { definition } of await this.pool.detect()) {
      const rules = definition.unbuilt;
      const pattern = rules?.declaringLine(name, qualifiers);
      if (rules === undefined || pattern === undefined) continue;
      const files = await this.#unbuiltList(definition);
      if (files === undefined || files.size === 0) continue;
      const { matches } = await searchWorkspace(this.workspace, '.', pattern, {
        extensions: definition.languages.flatMap((l) => l.extensions),
        maxResults: UNBUILT_LOOKUP_MAX_MATCHES,
        timeoutMs: UNBUILT_LOOKUP_BUDGET_MS,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      }).catch(() => ({ matches: [] }));
      for (const m of matches) {
        const why = files.get(m.path);
        if (why !== undefined) out.push({ at: { path: m.path, start: m.start, end: m.end, content: m.content }, why });
      }
    }
    return out;
  }

  /** The files a definition's build leaves out here, listed once per definition (build constraints rarely change in a session). */
  async #unbuiltList(definition: ServerDefinition): Promise<ReadonlyMap<string, string> | undefined> {
    const rules = definition.unbuilt;
    if (rules === undefined) return undefined;
    let listed = this.#unbuiltFiles.get(definition.id);
    if (listed === undefined) {
      listed = rules.list(this.workspace.root, this.#env);
      this.#unbuiltFiles.set(definition.id, listed);
    }
    const files = await listed;
    // A list that could not be made (over its budget on a busy machine) is asked again next time.
    if (files === undefined && this.#unbuiltFiles.get(definition.id) === listed) this.#unbuiltFiles.delete(definition.id);
    return files;
  }

  relativeQualifiers(path: string): readonly string[] {
    return languageFor(this.#definitions, path)?.definition.relativeQualifiers ?? [];
  }

  mergesOverloads(path: string): boolean {
    return languageFor(this.#definitions, path)?.definition.overloadsAreOneDefinition === true;
  }

  isStub(path: string): boolean {
    return (languageFor(this.#definitions, path)?.definition.stubExtensions ?? []).some((e) => path.endsWith(e));
  }

  handles(path: string): boolean {
    return languageFor(this.#definitions, path) !== undefined;
  }

  /**
   * Every language the servers handle, in the order files are matched (the first whose extensions
   * include a file's wins), with its relative qualifiers, whether it merges overloads and its stub
   * extensions: what a remote client needs to answer {@link handles}, {@link relativeQualifiers},
   * {@link mergesOverloads} and {@link isStub} without asking.
   */
  languages(): LanguageInfo[] {
    return this.#definitions.flatMap((d) =>
      d.languages.map((l) => ({
        languageId: l.languageId,
        extensions: [...l.extensions],
        relativeQualifiers: [...(d.relativeQualifiers ?? [])],
        ...(d.overloadsAreOneDefinition === true ? { mergesOverloads: true } : {}),
        ...(d.stubExtensions !== undefined ? { stubExtensions: [...d.stubExtensions] } : {}),
      })),
    );
  }

  async #workspaceSymbols(query: string, options: WorkspaceSymbolOptions = {}): Promise<BackendSymbol[]> {
    const servers = await this.#detectedServers();
    // Events that happened before the question are handled before the stamps are read.
    await nextTurn();
    const states = servers.map((server) => ({ server, pid: server.pid, stamp: server.diskStamp() }));
    const results = await Promise.all(servers.map((server) => orIfUnsupported(server.request(WorkspaceSymbolRequest.type, { query }, patient(options)), [])));
    // The servers answered what they answered last time, and nothing changed on disk since (as the
    // watchers that tell them see it): the answer made then is the answer, the same array (callers
    // keep what they derive from it by its identity: `IdeBackend.workspaceSymbols`).
    const key = `${options.exact === true ? 'exact' : 'fuzzy'}\u0000${query}`;
    const unchanged = (): boolean => states.every((s) => s.stamp !== undefined && s.server.diskStamp() === s.stamp && s.server.pid === s.pid);
    const kept = this.#symbolAnswers.get(key);
    if (kept !== undefined && unchanged() && kept.states.length === states.length && states.every((s, i) => this.#sameState(kept.states[i], s, results[i], query))) {
      this.#symbolAnswers.delete(key);
      this.#symbolAnswers.set(key, kept);
      return kept.symbols;
    }
    // A server may not heed the watcher's news of a closed file (tsgo does not, for a project
    // whose files it did not ask to watch): the files its answer lists that changed since it
    // started are given to it (opened with their text) and the question is asked again.
    await Promise.all(
      servers.map(async (server, index) => {
        if (await this.#resyncChanged(server, results[index], query, options)) results[index] = await orIfUnsupported(server.request(WorkspaceSymbolRequest.type, { query }, patient(options)), []);
      }),
    );
    const files: FileLines = new Map();
    // Macro calls expanded for this answer, by place (several names may come from one call).
    const expansions = new Map<string, Promise<string | undefined>>();
    let whole = true;
    /** Per server whose capped answer was completed: the places of the completed answer. */
    const completed = new Map<LanguageServer, Set<string>>();
    const perServer = await Promise.all(
      servers.map(async (server, index) => {
        const result = results[index];
        const out: BackendSymbol[] = [];
        // Converting a symbol reads its file: an exact lookup converts only the exact names, not
        // the hundreds of fuzzy matches a server lists (the name never depends on the line).
        const exactly = (s: { name: string; kind: LspSymbolKind }): boolean => ownedName(server.definition, s.name, kindName(s.kind), '', undefined).name === query;
        for (const s of result ?? []) {
          if (options.exact === true && !exactly(s)) continue;
          if (!('range' in s.location)) continue; // a WorkspaceSymbol without range must be resolved; none of ours send those
          const location = await this.#location(server, s.location, files);
          if (location === undefined) continue;
          const language = this.#language(location.path);
          const named = ownedName(server.definition, s.name, kindName(s.kind), location.content, s.containerName);
          const declared = await this.#declaredKind(server.definition, location, s.name, kindName(s.kind));
          const kind = declared ?? this.#kind(location.path, language, kindName(s.kind), location.content, named.name);
          // Asked for the name looked up only (explain() lists the fuzzy hits too).
          const bound = declared === undefined && named.name === query ? await this.#macroBinding(server, location, named.name, expansions, options) : undefined;
          out.push({
            ...named,
            kind,
            language,
            location,
            // The server places a declared symbol (a derive macro at its function) where its name is not written: that place is the symbol's.
            precise: declared !== undefined,
            ...(bound !== undefined ? { binding: bound.binding, ...(bound.path !== undefined ? { boundPath: bound.path } : {}) } : {}),
            ...(standaloneKind(server, kind) ? { standalone: true } : {}),
          });
        }
        // Servers rank exact names first (tsgo, like tsserver, sorts by match kind): a capped answer
        // can have cut exact matches only when its last item is one.
        const limit = server.definition.workspaceSymbolLimit;
        const last = result?.at(-1);
        const lastName = last === undefined ? undefined : ownedName(server.definition, last.name, kindName(last.kind), '', undefined).name;
        if (limit !== undefined && (result?.length ?? 0) >= limit && lastName === query) {
          const beyond = await this.#beyondSymbolLimit(server, query, out, options);
          whole &&= beyond.whole;
          out.push(...beyond.symbols);
          completed.set(server, new Set(out.map((o) => `${o.location.path}:${o.location.start.line}`)));
        }
        return out;
      }),
    );
    const symbols = perServer.flat();
    // Kept only when complete and made of files the watchers vouch for (not dependency folders).
    if (whole && unchanged() && symbols.every((s) => this.#watchedPlace(s.location.path))) {
      this.#symbolAnswers.delete(key);
      this.#symbolAnswers.set(key, { states: states.map((s, i) => ({ ...s, keys: symbolKeys(results[i]), completed: completed.get(s.server) })), symbols: keptAnswer(symbols) });
      for (const oldest of this.#symbolAnswers.keys()) {
        if (this.#symbolAnswers.size <= MAX_KEPT_SYMBOL_ANSWERS) break;
        this.#symbolAnswers.delete(oldest);
      }
    }
    return symbols;
  }

  /**
   * Whether a server, its process and its disk stamp are the ones a kept answer was made from,
   * and it answered the same: the same symbols, or, where its answer was capped and completed,
   * again a capped answer whose exact names all lie at places the completed one has (gopls cuts
   * a different hundred of equal matches from one request to the next).
   */
  #sameState(kept: SymbolAnswerState | undefined, now: { readonly server: LanguageServer; readonly pid: number | undefined; readonly stamp: number | undefined }, answer: readonly (SymbolInformation | WorkspaceSymbol)[] | null | undefined, query: string): boolean {
    if (kept === undefined || kept.server !== now.server || kept.pid !== now.pid || kept.stamp !== now.stamp) return false;
    if (kept.completed === undefined) return sameSymbols(kept.keys, answer);
    const { server } = now;
    const limit = server.definition.workspaceSymbolLimit;
    if (answer === null || answer === undefined || limit === undefined || answer.length < limit) return false;
    for (const s of answer) {
      if (ownedName(server.definition, s.name, kindName(s.kind), '', undefined).name !== query) continue;
      if (!('range' in s.location)) return false;
      const abs = uriToPath(s.location.uri);
      if (abs === undefined || !kept.completed.has(`${this.workspace.relative(abs)}:${s.location.range.start.line + 1}`)) return false;
    }
    return true;
  }

  /**
   * Opens (or re-syncs) the files of the workspace that a server's `workspace/symbol` answer lists
   * (the exact names only, when asked for them; at most {@link MAX_RESYNCED_FILES}) and that changed since the server
   * started; whether there was any.
   */
  async #resyncChanged(server: LanguageServer, result: readonly { name: string; kind: LspSymbolKind; location: { uri: string } }[] | null | undefined, query: string, options: WorkspaceSymbolOptions): Promise<boolean> {
    const started = server.startedAt;
    if (started === undefined || result === null || result === undefined) return false;
    const changed = new Set<string>();
    for (const s of result) {
      if (options.exact === true && ownedName(server.definition, s.name, kindName(s.kind), '', undefined).name !== query) continue;
      const abs = uriToPath(s.location.uri);
      if (abs === undefined || changed.has(abs) || !this.workspace.contains(abs)) continue;
      const mtime = statOrUndefined(abs)?.mtimeMs;
      if (mtime !== undefined && mtime >= started - MTIME_MARGIN_MS) changed.add(abs);
      if (changed.size >= MAX_RESYNCED_FILES) break;
    }
    await Promise.all([...changed].map((abs) => server.ensureOpen(abs, options).catch(() => undefined)));
    return changed.size > 0;
  }

  /** Whether the watchers that tell servers about changes cover a workspace-relative path (not outside, not a dependency or build folder they skip). */
  #watchedPlace(path: string): boolean {
    return !path.split('/').some((part) => SKIPPED_DIRS.has(part));
  }

  /**
   * How the macro call at `location` binds `name`, for a symbol listed there whose name is not
   * written there (an item of the call's expansion): `'reexport'`/`'import'` when the expansion
   * only binds it by a `use` (with the path it names). At most {@link MAX_MACRO_EXPANSIONS} calls per answer are expanded;
   * beyond, or when the server cannot expand, the item stays what it was (a generated item).
   */
  async #macroBinding(server: LanguageServer, location: Location, name: string, expansions: Map<string, Promise<string | undefined>>, options: BackendCallOptions): Promise<MacroBinding | undefined> {
    const expansion = server.definition.macroExpansion;
    if (expansion === undefined || location.content.includes(name)) return undefined;
    const at = `${location.path}:${location.start.line}:${location.start.column}`;
    let text = expansions.get(at);
    if (text === undefined) {
      if (expansions.size >= MAX_MACRO_EXPANSIONS) {
        // What the calls past the cap bind stays unknown: the answer says so, once per name.
        server.warn(
          `macro-expansions:${name}`,
          `${server.definition.displayName}: answers for ${JSON.stringify(name)} may miss names: it is listed at more than ${MAX_MACRO_EXPANSIONS} macro calls and only ${MAX_MACRO_EXPANSIONS} are expanded (MAX_MACRO_EXPANSIONS), so a \`use\` the others write stays a definition and a path through a re-export they write is not followed`,
        );
        return undefined;
      }
      text = (async () => {
        try {
          const abs = this.workspace.resolve(location.path);
          const lines = await server.lines(abs);
          // The call's name: the first word of its line at or after the server's place (`crate_root!();`).
          const start = { line: location.start.line, column: location.start.column + Math.max(0, location.content.slice(location.start.column - 1).search(/\S/)) };
          return expansion.text(await server.request(expansion.method, { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, start) }, patient(options)));
        } catch {
          return undefined;
        }
      })();
      expansions.set(at, text);
    }
    const expanded = await text;
    return expanded === undefined ? undefined : expansion.bindingOf(expanded, name);
  }

  /** The definition's `declaredKind` of a symbol whose name is not written at its place (a derive macro at its function). */
  async #declaredKind(definition: ServerDefinition, location: Location, name: string, lspKind: LspKindName): Promise<KindWord | undefined> {
    if (definition.declaredKind === undefined || location.content.includes(name)) return undefined;
    try {
      return definition.declaredKind(name, lspKind, await this.workspace.lines(location.path), location.start.line);
    } catch {
      return undefined;
    }
  }

  /**
   * The declarations named exactly `query` that a server's capped `workspace/symbol` answer left
   * out: the files of its languages that contain the name as a word (a budgeted text search),
   * and in them the outline entries of that name.
   */
  async #beyondSymbolLimit(server: LanguageServer, query: string, known: readonly BackendSymbol[], options: BackendCallOptions): Promise<{ symbols: BackendSymbol[]; whole: boolean }> {
    // What cannot be completed is said, once per name, in the server's one-time warnings.
    const incomplete = (why: string): { symbols: BackendSymbol[]; whole: false } => {
      server.warn(`symbol-limit:${query}`, `${server.definition.displayName}: workspace/symbol lists at most ${server.definition.workspaceSymbolLimit} symbols; definitions of ${JSON.stringify(query)} past them may be missing (${why})`);
      return { symbols: [], whole: false };
    };
    if (!/^[A-Za-z_$][\w$]*$/.test(query)) return incomplete('only a plain name is completed from a text search');
    const seen = new Set(known.map((s) => `${s.location.path}:${s.location.start.line}`));
    const unknown = (found: readonly BackendSymbol[]): BackendSymbol[] => found.filter((s) => !seen.has(`${s.location.path}:${s.location.start.line}`));
    // A workspace-wide search per lookup is most of its time: its answer is kept while the
    // watcher that tells the server about changes sees none (as fresh as the server's index).
    // Events that happened before the question are handled before the stamp is read.
    await nextTurn();
    const key = `${server.definition.id}\u0000${query}`;
    const stamp = server.diskStamp();
    const cached = this.#completions.get(key);
    if (stamp !== undefined && cached?.stamp === stamp) {
      this.#completions.delete(key);
      this.#completions.set(key, cached);
      return { symbols: unknown(cached.found), whole: true };
    }
    const { found, missing } = await this.#declarationsNamed(server, query, options);
    const whole = missing === undefined;
    if (!whole) incomplete(missing);
    if (whole && stamp !== undefined && server.diskStamp() === stamp) {
      this.#completions.delete(key);
      this.#completions.set(key, { stamp, found });
      for (const oldest of this.#completions.keys()) {
        if (this.#completions.size <= MAX_CACHED_COMPLETIONS) break;
        this.#completions.delete(oldest);
      }
    }
    return { symbols: unknown(found), whole };
  }

  /**
   * The outline entries named exactly `query` in the files of a server's languages that contain it
   * as a word; `missing` says what it could not read (the search's cap, files skipped for their
   * size, an outline that could not be had).
   */
  async #declarationsNamed(server: LanguageServer, query: string, options: BackendCallOptions): Promise<{ found: BackendSymbol[]; missing: string | undefined }> {
    const extensions = server.definition.languages.flatMap((l) => l.extensions);
    const { matches, total, tooLarge, walk } = await searchWorkspace(this.workspace, '.', `(?<![\\w$])${query.replace(/\$/g, '\\$')}(?![\\w$])`, {
      extensions,
      maxResults: CAPPED_LOOKUP_MAX_MATCHES,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    const files = [...new Set(matches.map((m) => m.path))];
    let unread = 0;
    // In the files' order, whichever outline comes first: the same answer every time.
    const perFile = await Promise.all(
      files.map(async (path) => {
        const outline = await this.#documentSymbols(path, options).catch(() => {
          unread++;
          return [] as OutlineSymbol[];
        });
        const named: BackendSymbol[] = [];
        const visit = (entries: readonly OutlineSymbol[]): void => {
          for (const o of entries) {
            if (o.name === query) named.push({ ...o, children: undefined } as unknown as BackendSymbol);
            visit(o.children);
          }
        };
        visit(outline);
        return named;
      }),
    );
    const found = perFile.flat();
    const symbols = found.map(({ name, kind, container, language, location, range, precise }) => ({
      name,
      kind,
      ...(container !== undefined ? { container } : {}),
      language,
      location,
      ...(range !== undefined ? { range } : {}),
      precise,
      ...(standaloneKind(server, kind) ? { standalone: true } : {}),
    }));
    const missing = [
      total > matches.length ? `the text search stopped at ${matches.length} matches` : '',
      walk.truncated ? 'the text search stopped at its file limit' : '',
      tooLarge > 0 ? `${tooLarge} files too large to search` : '',
      unread > 0 ? `${unread} files without an outline` : '',
    ].filter((m) => m !== '');
    return { found: symbols, missing: missing.length > 0 ? missing.join('; ') : undefined };
  }

  #documentSymbols(path: string, options: BackendCallOptions = {}): Promise<OutlineSymbol[]> {
    // An outline depends only on the file's text: kept until the file changes on disk, without
    // re-opening a document the bound closed (`outline-cache.ts`).
    return this.#outlines.outline(path, options);
  }

  /**
   * A file's outline from its server. A server that outlines files it was not given
   * (`outlinesClosedFiles`) is asked without opening a file it knows as it is: one last changed
   * before the server started (it read it since; a server may not heed the watcher's news of a
   * closed file: tsgo does not for a project whose files it did not ask to watch), with no change
   * since, as the watcher saw until the answer came. Opening a file per outline is most of a
   * capped lookup's time, and documents opened for questions stay few. Otherwise the file is
   * opened (and re-synced) first.
   */
  async #outlineOf(path: string, real: string, disk: ServerDiskStamp | undefined, mtimeMs: number | undefined, options: BackendCallOptions): Promise<OutlineSymbol[]> {
    const server = disk === undefined ? undefined : await this.pool.serverFor(real).catch(() => undefined);
    const started = server?.startedAt;
    const known = started !== undefined && mtimeMs !== undefined && mtimeMs < started - MTIME_MARGIN_MS;
    if (known && server?.definition.outlinesClosedFiles === true && !server.openDocuments().some((d) => d.path === real)) {
      const outline = await this.#fetchOutline(server, real, options).catch(() => undefined);
      if (outline !== undefined && disk?.holds() === true) return outline;
    }
    const opened = await this.#open(path, options);
    return this.#fetchOutline(opened.server, opened.abs, options);
  }

  /**
   * The disk as a running server's watcher sees it now, read after the event loop's next turn
   * (events before the question count): while it holds, files and outlines checked under it need
   * no stat or real path again. `undefined` when no watcher can vouch for the disk.
   */
  #diskNow(): Promise<ServerDiskStamp | undefined> {
    // One read for all the questions' reads of a turn: thousands of files share it.
    return (this.#turn ??= nextTurn().then(() => {
      this.#turn = undefined;
      for (const server of this.pool.running()) {
        const value = server.diskStamp();
        if (value !== undefined) {
          return { owner: server, value, covers: (abs: string) => isInside(server.workspaceRoot, abs) && this.#watched(abs), holds: () => server.diskStamp() === value };
        }
      }
      return undefined;
    }));
  }

  /** Whether a stamp covers a workspace path (false for one outside: the check's refusal is its answer). */
  #covered(disk: DiskStamp, path: string): boolean {
    try {
      return disk.covers(this.workspace.resolve(path));
    } catch {
      return false;
    }
  }

  /** Whether a path of the workspace lies in no folder the watchers skip. */
  #watched(abs: string): boolean {
    return this.workspace.contains(abs) && !this.workspace.relative(abs).split('/').some((part) => SKIPPED_DIRS.has(part));
  }

  async #fetchOutline(server: LanguageServer, abs: string, options: BackendCallOptions): Promise<OutlineSymbol[]> {
    // A server without outlines is not asked (it may never answer what it did not offer).
    if (!offers(server.capabilities.documentSymbolProvider)) return [];
    const result = await orIfUnsupported(server.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToUri(abs) } }, patient(options)), null);
    if (Array.isArray(result) && cutOutlineDepth(result)) {
      server.warn('outline-depth', `${server.definition.displayName} sent an outline nested deeper than ${MAX_OUTLINE_DEPTH} levels: the deeper symbols are left out`);
    }
    const lines = await server.lines(abs);
    const rel = this.workspace.relative(abs);
    const language = this.#language(rel);
    const split = server.definition.outlineName;
    const convert = (s: DocumentSymbol, container: string | undefined): OutlineSymbol => {
      const sel = server.fromLspRange(lines, s.selectionRange);
      const range = server.fromLspRange(lines, s.range);
      const content = lines.lineText(sel.start.line);
      // A name written with its owners (`Circle::area`): the bare name, its owners its container.
      const written = split?.(s.name);
      const owners = written !== undefined && written.owners.length > 0 ? written.owners : undefined;
      // A name with its owner folded in the language's own way (gopls's `(*Mux).Get`).
      const owned = ownedName(server.definition, s.name, kindName(s.kind), content, container, true);
      const name = owners !== undefined ? (written as { name: string }).name : owned.name;
      const shownContainer = owners !== undefined ? owners.join('::') : owned.container;
      return {
        name,
        kind: this.#kind(rel, language, kindName(s.kind), content, name),
        ...(shownContainer !== undefined ? { container: shownContainer } : {}),
        ...(owners !== undefined ? { owners } : {}),
        language,
        location: { path: rel, start: sel.start, end: sel.end, content },
        range,
        precise: true,
        ...(server.definition.embeddedField?.(kindName(s.kind), content, name) === true ? { embedded: true } : {}),
        children: (s.children ?? []).map((c) => convert(c, owned.name)),
      };
    };
    return (result ?? []).map((s) => {
      if ('selectionRange' in s) return convert(s, undefined);
      const r = server.fromLspRange(lines, s.location.range);
      const named = ownedName(server.definition, s.name, kindName(s.kind), lines.lineText(r.start.line), s.containerName);
      return {
        ...named,
        kind: this.#kind(rel, language, kindName(s.kind), lines.lineText(r.start.line), named.name),
        language,
        location: { path: rel, start: r.start, end: r.end, content: lines.lineText(r.start.line) },
        range: r,
        precise: false,
        children: [],
      };
    });
  }

  async #definition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    const { server, list } = await this.#definitionAnswer(path, position, options);
    const files: FileLines = new Map();
    const converted = await Promise.all(list.map((entry) => this.#location(server, 'targetUri' in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry, files)));
    return converted.filter((l): l is Location => l !== undefined);
  }

  /**
   * The server's go-to-definition answer at a place. A lookup asks it at each candidate, and the
   * same candidates again and again (C++ merges a header's declaration with its source's
   * definition; a hover checks where its symbol is defined): an answer is kept while nothing it
   * depends on can have changed — the same server process, ready (its index complete) before and
   * after, and the disk unchanged as a watcher saw it around the request, with every place it
   * names in what the watcher covers (not dependencies it skips).
   */
  async #definitionAnswer(path: string, position: Position, options: BackendCallOptions): Promise<{ server: LanguageServer; list: readonly (LspLocation | LocationLink)[] }> {
    const disk = await this.#diskNow();
    const key = `${path}\u0000${position.line}\u0000${position.column}`;
    const known = disk === undefined ? undefined : this.#definitionAnswers.get(key);
    if (known !== undefined && disk !== undefined && known.owner === disk.owner && known.value === disk.value && known.server.state === 'ready' && known.server.pid === known.pid) {
      this.#definitionAnswers.delete(key);
      this.#definitionAnswers.set(key, known);
      return known;
    }
    const { server, abs } = await this.#open(path, options);
    const before = server.state === 'ready' ? server.pid : undefined;
    const lines = await server.lines(abs);
    const params = { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position) };
    const result = await orIfUnsupported(server.request<LspLocation | LspLocation[] | LocationLink[] | null>(DefinitionRequest.method, params, options), null);
    const list: (LspLocation | LocationLink)[] = result === null || result === undefined ? [] : Array.isArray(result) ? result : [result];
    if (disk !== undefined && before !== undefined && server.state === 'ready' && server.pid === before && this.#covered(disk, path)) {
      const after = await this.#diskNow();
      const covered = list.every((entry) => {
        const target = uriToPath('targetUri' in entry ? entry.targetUri : entry.uri);
        return target !== undefined && disk.covers(target);
      });
      if (after?.owner === disk.owner && after.value === disk.value && covered) {
        this.#definitionAnswers.delete(key);
        this.#definitionAnswers.set(key, { owner: disk.owner, value: disk.value, server, pid: before, list });
        for (const oldest of this.#definitionAnswers.keys()) {
          if (this.#definitionAnswers.size <= MAX_CACHED_DEFINITIONS) break;
          this.#definitionAnswers.delete(oldest);
        }
      }
    }
    return { server, list };
  }

  async #references(path: string, position: Position, options: ReferenceOptions = {}, followReexports = true): Promise<ReferenceList> {
    const { server, abs } = await this.#open(path, options);
    const lines = await server.lines(abs);
    const params = { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position), context: { includeDeclaration: options.includeDeclaration === true } };
    const result = (await orIfUnsupported(server.request(ReferencesRequest.type, params, patient(options)), null)) ?? [];
    // Order and deduplicate on the raw answer, then convert only what is returned: converting a
    // location means reading its file and counting code points on its line. Group by file (few
    // URIs, many places; servers list a file's places together, so the previous place's group is
    // tried before a lookup by URI), then order and deduplicate within each file by number: far
    // cheaper than sorting and keying thousands of locations by strings.
    const byUri = new Map<string, LspLocation[] | null>();
    let lastUri: string | undefined;
    let lastGroup: LspLocation[] | null = null;
    for (const l of result) {
      if (l.uri !== lastUri) {
        lastUri = l.uri;
        lastGroup = byUri.get(l.uri) ?? null;
        if (!byUri.has(l.uri)) {
          const p = uriToPath(l.uri);
          lastGroup = p !== undefined && this.workspace.contains(p) ? [] : null; // outside: std, dependencies
          byUri.set(l.uri, lastGroup);
        }
      }
      lastGroup?.push(l);
    }
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const chosen: LspLocation[] = [];
    let total = 0;
    for (const uri of [...byUri.keys()].sort()) {
      const group = byUri.get(uri);
      if (group === null || group === undefined) continue;
      if (!inOrder(group)) group.sort(byStart);
      let previous: LspLocation | undefined;
      for (const l of group) {
        if (previous === undefined || previous.range.start.line !== l.range.start.line || previous.range.start.character !== l.range.start.character) {
          if (total++ < limit) chosen.push(l);
        }
        previous = l;
      }
    }
    const name = nameAt(lines.lineText(position.line), position.column);
    let converted = await this.#locations(server, chosen);
    if (server.definition.renamedReferencesChecked === true && name !== undefined) {
      const { kept, dropped } = await withoutForeignRenamed(converted, name, { path, position }, (p, at) => this.definition(p, at, options));
      converted = kept;
      total -= dropped;
    }
    if (followReexports && name !== undefined && server.definition.valueAliases !== undefined) {
      const aliased = await this.#aliasUses(server.definition.valueAliases, path, position, name, lines.lineText(position.line), converted, options);
      if (aliased.length > 0) {
        // Within the limit, as the server's own places are.
        converted = [...converted, ...aliased].sort(compareLocations).slice(0, options.limit ?? Number.POSITIVE_INFINITY);
        total += aliased.length;
      }
    }
    const rules = server.definition.wholeModuleExports;
    if (rules === undefined || !followReexports) return { locations: converted, total };
    // What a module exports whole is also used through the modules that re-export it, which the
    // server does not follow (express's `index.js`): the export's file is the asked one or one of
    // the answer's (the `module.exports = name` line is a reference).
    if (name === undefined) return { locations: converted, total };
    const exporting = converted.find((l) => rules.exportsWhole(l.content, name))?.path ?? ((await exportsWhole(rules, path, name, this.#reexportSources(server, options))) ? path : undefined);
    if (exporting === undefined) return { locations: converted, total };
    const known = new Set(converted.map((l) => `${l.path}:${l.start.line}:${l.start.column}`));
    const extra = (await this.#reexportUses(server, rules, exporting, options)).filter((l) => !known.has(`${l.path}:${l.start.line}:${l.start.column}`));
    if (extra.length === 0) return { locations: converted, total };
    const all = [...converted, ...extra].sort(compareLocations);
    return { locations: all.slice(0, options.limit ?? all.length), total: total + extra.length };
  }

  /**
   * The uses of the other symbols the asked value is bound to (`ValueAliases`): the function
   * expression's own name on the declaring line, and the exports' properties whose value one of
   * the answer's places is; at most {@link MAX_VALUE_ALIASES} asked, each place once.
   */
  async #aliasUses(aliases: ValueAliases, path: string, position: Position, name: string, line: string, found: readonly Location[], options: ReferenceOptions): Promise<Location[]> {
    const asked: { path: string; at: Position }[] = [];
    const declared = aliases.declaredAlias(line, position.column, name);
    if (declared !== undefined) asked.push({ path, at: { line: position.line, column: declared } });
    const ask = async (p: string, at: Position): Promise<readonly Location[]> => (await this.#references(p, at, { ...options, includeDeclaration: false }, false)).locations;
    const own = declared !== undefined ? await ask(path, (asked[0] as { at: Position }).at) : [];
    for (const l of [...found, ...own]) {
      if (asked.length >= MAX_VALUE_ALIASES) break;
      // Under the name written there: a module's whole export is bound by each importer's own (`var parse = require('./parse')`, then `parse: parse`).
      const written = nameAt(l.content, l.start.column);
      const key = written !== undefined ? aliases.exportedAs(await this.workspace.lines(l.path).catch(() => [] as string[]), l.start.line, l.start.column, written) : undefined;
      if (key !== undefined) asked.push({ path: l.path, at: { line: l.start.line, column: key } });
    }
    const known = new Set([...found, ...asked.map((a) => ({ path: a.path, start: a.at }))].map((l) => `${l.path}:${l.start.line}:${l.start.column}`));
    const out: Location[] = [];
    for (const [i, a] of asked.entries()) {
      for (const l of i === 0 && declared !== undefined ? own : await ask(a.path, a.at)) {
        const key = `${l.path}:${l.start.line}:${l.start.column}`;
        if (known.has(key)) continue;
        known.add(key);
        out.push(l);
      }
    }
    return out;
  }

  /** The uses through modules re-exporting `path` whole; a bound that cut them is the server's one-time warning. */
  async #reexportUses(server: LanguageServer, rules: WholeModuleExports, path: string, options: BackendCallOptions): Promise<readonly Location[]> {
    const { uses, cut } = await reexportUses(rules, path, this.#reexportSources(server, options));
    if (cut !== undefined) server.warn(`reexports:${path}`, `${server.definition.displayName}: references and callers through CommonJS re-exports may be incomplete: ${cut}`);
    return uses;
  }

  /** The backend's reads for `reexports.ts`: lines, a search of the server's files, the server's own references. */
  #reexportSources(server: LanguageServer, options: BackendCallOptions): ReexportSources {
    return {
      lines: (p) => this.workspace.lines(p),
      search: async (pattern, maxResults) =>
        (
          await searchWorkspace(this.workspace, '.', pattern, {
            extensions: server.definition.languages.flatMap((l) => l.extensions),
            maxResults,
            ...(options.signal !== undefined ? { signal: options.signal } : {}),
          })
        ).matches,
      references: async (p, at) => (await this.#references(p, at, options, false)).locations,
    };
  }

  async #implementation(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    const { server } = await this.#open(path, options);
    if (!offers(server.capabilities.implementationProvider) && server.definition.implementationsFromBases === true) {
      return implementationsFromBases(path, position, {
        outline: (p) => this.#documentSymbols(p, options),
        references: async (p, at) => (await this.#references(p, at, options)).locations,
      });
    }
    let found = await this.#positional(ImplementationRequest.method, path, position, {}, options);
    const byText = server.definition.textImplementations;
    if (byText !== undefined) {
      const { locations, note } = await byText({ path, at: position, found }, this.#implementationSources(server, options));
      if (note !== undefined) server.warn(`text-implementations:${note}`, `${server.definition.displayName}: ${note}`);
      const known = new Set(found.map((l) => `${l.path}:${l.start.line}:${l.start.column}`));
      const added = locations.filter((l) => !known.has(`${l.path}:${l.start.line}:${l.start.column}`));
      if (added.length > 0) found = [...found, ...added].sort(compareLocations);
      // The text answered for what the server could not: its own gap is said by the text's note.
      if (note !== undefined) return found;
    }
    const gap = found.length === 0 ? server.definition.implementationsGap?.(await this.workspace.lines(path).catch(() => [] as string[]), position.line) : undefined;
    if (gap !== undefined) server.warn(`implementations-gap:${gap}`, `${server.definition.displayName}: ${gap}`);
    return found;
  }

  /** The backend's reads for a definition's `textImplementations`: lines, a budgeted search of its files, its unbuilt files. */
  #implementationSources(server: LanguageServer, options: BackendCallOptions): ImplementationSources {
    return {
      lines: (p) => this.workspace.lines(p),
      search: async (pattern, maxResults) => {
        const reply = await searchWorkspace(this.workspace, '.', pattern, {
          extensions: server.definition.languages.flatMap((l) => l.extensions),
          maxResults,
          timeoutMs: TEXT_IMPLEMENTATIONS_BUDGET_MS,
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        }).catch((error: unknown) => {
          if (options.signal?.aborted === true) throw error;
          return undefined;
        });
        return reply === undefined ? { matches: [], cut: true } : { matches: reply.matches, cut: reply.total > reply.matches.length };
      },
      unbuilt: async () => (server.definition.unbuilt === undefined ? undefined : this.#unbuiltList(server.definition)),
    };
  }

  async #hover(path: string, position: Position, options: BackendCallOptions = {}): Promise<HoverInfo | undefined> {
    const { server, abs } = await this.#open(path, options);
    const lines = await server.lines(abs);
    const hover = await orIfUnsupported(server.request(HoverRequest.type, { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position) }, patient(options)), null);
    if (hover === null || hover === undefined) return undefined;
    // Cut first: the policy and the reading both go over the text.
    const shown = await shownHover(this.#sources, capHover(markdownOf(hover.contents)), async () => {
      const { list } = await this.#definitionAnswer(path, position, options);
      return list.map((l) => uriToPath('targetUri' in l ? l.targetUri : l.uri)).filter((p): p is string => p !== undefined);
    });
    if ('withheld' in shown) return { withheld: shown.withheld };
    const info = readHover(shown.markdown, {
      layout: server.definition.hoverSignature,
      toWorkspacePath: (p) => (this.workspace.contains(p) ? this.workspace.relative(p) : undefined),
    });
    const tidy = server.definition.hoverDocumentation;
    if (tidy === undefined || info.documentation === undefined) return info;
    const documentation = tidy(info.documentation);
    const { documentation: _dropped, ...rest } = info;
    return documentation !== '' ? { ...rest, documentation } : rest;
  }

  async #prepareCallHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<CallItem[]> {
    const { server, abs } = await this.#open(path, options);
    if (server.capabilities.callHierarchyProvider === undefined || server.capabilities.callHierarchyProvider === false) return [];
    const lines = await server.lines(abs);
    const items = await orIfUnsupported(server.request(CallHierarchyPrepareRequest.type, { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position) }, patient(options)), []);
    const out: CallItem[] = [];
    for (const item of items ?? []) {
      const symbol = await this.#callSymbol(server, item);
      if (symbol !== undefined) out.push({ symbol, handle: { server: server.definition.id, item } satisfies CallHandle });
    }
    return out;
  }

  async #incomingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    const { server: id, item: lspItem } = item.handle as CallHandle;
    const server = await this.pool.server(id);
    const calls = await orIfUnsupported(server.request(CallHierarchyIncomingCallsRequest.type, { item: lspItem }, patient(options)), []);
    const edges = await this.#edges(server, (calls ?? []).map((c) => ({ item: c.from, ranges: c.fromRanges, rangesUri: c.from.uri })));
    const rules = server.definition.wholeModuleExports;
    const { name, location } = item.symbol;
    if (rules !== undefined && edges.length === 0 && lspItem.kind === SymbolKind.File) {
      // A module exporting an anonymous function whole: tsgo's item is the file, with no callers.
      const calls = await this.#anonymousExportCalls(server, rules, location.path, options);
      if (calls !== undefined) return this.#withCallers(server, edges, calls, options);
    }
    if (rules === undefined || !(await exportsWhole(rules, location.path, name, this.#reexportSources(server, options)))) return edges;
    // Calls through a module that re-exports this one whole (`express()` after `require('..')`).
    const calledThere = (await this.#reexportUses(server, rules, location.path, options)).filter((use) => rules.calledAt(use.content, use.start.column));
    return this.#withCallers(server, edges, calledThere, options);
  }

  /** The calls of a module's anonymous whole export (`module.exports = (stream) => …`), or undefined when it has none. */
  async #anonymousExportCalls(server: LanguageServer, rules: WholeModuleExports, path: string, options: BackendCallOptions): Promise<Location[] | undefined> {
    const lines = await this.workspace.lines(path);
    for (const [i, line] of lines.entries()) {
      const column = rules.anonymousExport(line);
      if (column === undefined) continue;
      const uses = (await this.#references(path, { line: i + 1, column }, options, false)).locations;
      return uses.filter((u) => rules.calledAt(u.content, u.start.column));
    }
    return undefined;
  }

  /**
   * `edges` with more call sites, each under its caller: the innermost function or method of its
   * file's outline around it, else the file itself (a call at the top level, as tsgo names it).
   */
  async #withCallers(server: LanguageServer, edges: CallEdge[], sites: readonly Location[], options: BackendCallOptions): Promise<CallEdge[]> {
    const byCaller = new Map<string, { item: CallItem; sites: Location[] }>();
    const prepared = new Map<string, CallItem | undefined>();
    for (const e of edges) byCaller.set(placeOf(e.item.symbol.location), { item: e.item, sites: [...e.callSites] });
    for (const site of sites) {
      const outline = await this.#documentSymbols(site.path, options).catch(() => []);
      const around = innermostCallable(outline, site.start);
      let item: CallItem | undefined;
      if (around !== undefined) {
        // One request per caller, however many calls it makes.
        const at = placeOf(around.location);
        if (!prepared.has(at)) prepared.set(at, (await this.#prepareCallHierarchy(site.path, around.location.start, options))[0]);
        item = prepared.get(at);
      }
      if (item === undefined) {
        const abs = this.workspace.resolve(site.path);
        const start = { line: 0, character: 0 };
        const fileItem: CallHierarchyItem = { name: abs, kind: SymbolKind.File, uri: pathToUri(abs), range: { start, end: start }, selectionRange: { start, end: start } };
        const symbol = await this.#callSymbol(server, fileItem);
        if (symbol === undefined) continue;
        item = { symbol, handle: { server: server.definition.id, item: fileItem } satisfies CallHandle };
      }
      const key = placeOf(item.symbol.location);
      const entry = byCaller.get(key) ?? { item, sites: [] };
      if (!entry.sites.some((s) => placeOf(s) === placeOf(site))) entry.sites.push(site);
      byCaller.set(key, entry);
    }
    return [...byCaller.values()].map((e) => ({ item: e.item, callSites: e.sites.sort(compareLocations) }));
  }

  async #outgoingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    const { server: id, item: lspItem } = item.handle as CallHandle;
    const server = await this.pool.server(id);
    const calls = await orIfUnsupported(server.request(CallHierarchyOutgoingCallsRequest.type, { item: lspItem }, patient(options)), UNSUPPORTED);
    // A server that offers the call hierarchy but not this half of it (clangd before 20) says so.
    if (calls === UNSUPPORTED) throw unsupportedByServer(server.definition.displayName, 'outgoing calls', item.symbol.location.path);
    // Outgoing call ranges are in the *caller's* file.
    return this.#edges(server, (calls ?? []).map((c) => ({ item: c.to, ranges: c.fromRanges, rangesUri: lspItem.uri })));
  }

  async #typeDefinition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    const { server } = await this.#open(path, options);
    if (!offers(server.capabilities.typeDefinitionProvider)) throw unsupportedByServer(server.definition.displayName, 'type definition', path);
    return this.#positional(TypeDefinitionRequest.method, path, position, {}, options);
  }

  async #prepareTypeHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<TypeItem[]> {
    const { server, abs } = await this.#open(path, options);
    if (!offers(server.capabilities.typeHierarchyProvider)) throw unsupportedByServer(server.definition.displayName, 'type hierarchy', path);
    const lines = await server.lines(abs);
    const items = await orIfUnsupported(server.request(TypeHierarchyPrepareRequest.type, { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position) }, patient(options)), null);
    return this.#typeItems(server, items ?? []);
  }

  async #typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options: BackendCallOptions = {}): Promise<TypeItem[]> {
    const { server: id, item: lspItem } = item.handle as TypeHandle;
    const server = await this.pool.server(id);
    const type = direction === 'super' ? TypeHierarchySupertypesRequest.type : TypeHierarchySubtypesRequest.type;
    return this.#typeItems(server, (await orIfUnsupported(server.request(type, { item: lspItem }, patient(options)), null)) ?? []);
  }

  async #diagnostics(path: string | undefined, options: DiagnosticsOptions = {}): Promise<DiagnosticReport> {
    const files: FileLines = new Map();
    if (path !== undefined) {
      const { server, doc } = await this.#open(path, options);
      const waitMs = options.waitMs ?? TIMEOUTS.lsp.diagnosticsWaitMs;
      const { diagnostics, answered } = await this.#fileDiagnostics(server, doc.uri, { ...options, waitMs }, doc.version);
      const list = sortDiagnostics(await this.#diagnosticsOf(server, doc.uri, diagnostics, files));
      const gap = server.definition.diagnosticsGap?.(list);
      return { diagnostics: list, complete: answered, files: 1, ...(answered ? {} : { waitedMs: waitMs }), ...(gap !== undefined ? { gap } : {}) };
    }
    // Without a path: what the servers published, plus a pull for every document they have open
    // (servers that answer pulls may publish nothing). Neither covers files nobody opened.
    const perServer = await Promise.all(
      (await this.#detectedServers()).map(async (server) => {
        const uris = new Set(server.publishedDiagnostics().map((p) => p.uri));
        if (offers(server.capabilities.diagnosticProvider)) for (const doc of server.openDocuments()) uris.add(doc.uri);
        // A few pulls at a time: a long session can have hundreds of documents open.
        const all = [...uris];
        const lists: Diagnostic[][] = [];
        for (let i = 0; i < all.length; i += PULL_CONCURRENCY) {
          const batch = all.slice(i, i + PULL_CONCURRENCY);
          lists.push(...(await Promise.all(batch.map(async (uri) => this.#diagnosticsOf(server, uri, (await this.#fileDiagnostics(server, uri, options)).diagnostics, files)))));
        }
        return { uris, diagnostics: lists.flat() };
      }),
    );
    const covered = new Set(perServer.flatMap((p) => [...p.uris]).filter((uri) => { const abs = uriToPath(uri); return abs !== undefined && this.workspace.contains(abs); }));
    return { diagnostics: sortDiagnostics(perServer.flatMap((p) => p.diagnostics)), complete: false, files: covered.size };
  }

  /**
   * The raw diagnostics of one open document: pulled (`textDocument/diagnostic`) when the server
   * answers pulls, merged with what it published (rust-analyzer publishes `cargo check` results);
   * else what it published, waiting for its publish (an event) at most `waitMs`.
   */
  async #fileDiagnostics(server: LanguageServer, uri: string, options: DiagnosticsOptions, version?: number): Promise<{ diagnostics: LspDiagnostic[]; answered: boolean }> {
    const published = server.publishedDiagnosticsOf(uri)?.diagnostics ?? [];
    if (offers(server.capabilities.diagnosticProvider)) {
      const report = await orIfUnsupported(server.request(DocumentDiagnosticRequest.type, { textDocument: { uri } }, patient(options)), null);
      // A pull's answer is read as a publish is: valid diagnostics, the fields Dialect reads, texts cut.
      const pulled = report !== null && report !== undefined && report.kind === 'full' ? keptDiagnostics(report.items).diagnostics : [];
      return { diagnostics: [...pulled, ...published], answered: true };
    }
    const waited = await server.waitForDiagnostics(uri, {
      timeoutMs: options.waitMs ?? TIMEOUTS.lsp.diagnosticsWaitMs,
      ...(version !== undefined ? { minVersion: version } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    return { diagnostics: [...(waited?.diagnostics ?? [])], answered: waited !== undefined };
  }

  /** Converts one document's diagnostics (those outside the workspace are dropped), without duplicates. */
  async #diagnosticsOf(server: LanguageServer, uri: string, raw: readonly LspDiagnostic[], files: FileLines): Promise<Diagnostic[]> {
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    for (const d of raw) {
      const key = `${d.range.start.line}:${d.range.start.character}:${d.range.end.line}:${d.range.end.character}:${typeof d.message === "string" ? d.message : d.message.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const location = await this.#location(server, { uri, range: d.range }, files);
      if (location === undefined) continue;
      out.push({
        ...location,
        severity: SEVERITIES[d.severity ?? 1] ?? 'error',
        // Untrusted, text that comes from a file outside (an included file's error) is withheld.
        message: diagnosticText(this.#sources, { message: typeof d.message === 'string' ? d.message : d.message.value, ...(d.relatedInformation !== undefined ? { relatedInformation: d.relatedInformation } : {}) }),
        ...(d.code !== undefined ? { code: String(d.code) } : {}),
        ...(d.source !== undefined ? { source: d.source } : {}),
      });
    }
    return out;
  }

  async #typeItems(server: LanguageServer, items: readonly TypeHierarchyItem[]): Promise<TypeItem[]> {
    const out: TypeItem[] = [];
    for (const item of items) {
      const symbol = await this.#callSymbol(server, item);
      if (symbol !== undefined) out.push({ symbol, handle: { server: server.definition.id, item } satisfies TypeHandle });
    }
    return out;
  }

  /**
   * The note naming the imports `server` cannot resolve (`unresolved-imports.ts`), asked once per
   * server process; a probe cut short (cancelled, over a budget) is asked again next time.
   */
  #unresolvedImports(server: LanguageServer, signal: AbortSignal | undefined): Promise<string | undefined> {
    const rules = server.definition.imports;
    if (rules === undefined) return Promise.resolve(undefined);
    const known = this.#importNotes.get(server);
    if (known !== undefined && known.pid === server.pid) return known.note;
    const note = import('./unresolved-imports.js').then(({ unresolvedImportsNote }) => unresolvedImportsNote(server, this.workspace, rules, signal));
    const entry = { pid: server.pid, note: note.catch(() => undefined) };
    note.catch(() => {
      if (this.#importNotes.get(server) === entry) this.#importNotes.delete(server);
    });
    this.#importNotes.set(server, entry);
    return entry.note;
  }

  async #waitUntilReady(options: ReadyOptions): Promise<Completeness> {
    const started = Date.now();
    const detected = await this.pool.detect();
    const paths = options.paths ?? [];
    const scoped = options.onlyPaths === true && (paths.length === 0 || paths.some((p) => this.handles(p)));
    // Scoped to the files' languages: no other server is started for it (the running ones are waited for as usual).
    const servers = scoped ? this.pool.running() : await this.#detectedServers();
    const extra = await Promise.all((options.paths ?? []).filter((p) => this.handles(p)).map((p) => this.pool.serverFor(this.workspace.resolve(p)).catch(() => undefined)));
    const all = [...new Set([...servers, ...extra.filter((s): s is LanguageServer => s !== undefined)])];
    // Files changed before the question make their servers re-read (not ready until told): the
    // watchers see those changes once the event loop has turned.
    await nextTurn();
    const statuses = await Promise.all(all.map((s) => s.waitUntilReady({ ...(options.signal !== undefined ? { signal: options.signal } : {}), timeoutMs: options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS })));
    const none =
      detected.length === 0 && all.length === 0
        ? [
            `no language server covers this workspace (no ${detectionMarkers(this.#definitions)} found, and ${this.#skipped.length > 0 ? `the servers of ${CONFIG_FILE} were not started: the workspace is untrusted` : `no servers in ${CONFIG_FILE}`}): ` +
              'symbols come only from text search; search, findFiles, lines and gitdiff work as usual',
          ]
        : [];
    // States and details only: every question waits here, and memory is read from /proc.
    const listing = this.pool.servers({ memory: false });
    // A server the workspace needs but that could not start (not installed, refused) says why.
    const unavailable = listing
      .filter((s) => this.pool.isDetected(s.id) && s.state === 'unavailable' && s.detail !== undefined)
      .map((s) => `${s.displayName} is unavailable, so its files get text search only: ${s.detail ?? ''}`);
    const note = this.#trusted
      ? undefined
      : untrustedNote({
          root: this.workspace.root,
          // A server that could not start has its own warning; the limits apply to a running one.
          limits: detected.flatMap(({ definition }) =>
            definition.untrustedLimits !== undefined && listing.some((s) => s.id === definition.id && s.state !== 'unavailable') ? [definition.untrustedLimits] : [],
          ),
          skippedServers: this.#skipped,
        });
    // Each ready server with an import probe names what it cannot resolve (once per process, cached).
    const imports = await Promise.all(all.filter((s) => s.state === 'ready' && s.definition.imports?.probe !== undefined).map((s) => this.#unresolvedImports(s, options.signal)));
    return {
      complete: statuses.every((s) => s.state === 'ready' && s.health === undefined),
      servers: statuses,
      waitedMs: Date.now() - started,
      trusted: this.#trusted,
      warnings: [...none, ...unavailable, ...all.flatMap((s) => s.warnings), ...imports.filter((n): n is string => n !== undefined)],
      notes: note !== undefined ? [note] : [],
    };
  }

  servers(): ServerStatus[] {
    return this.pool.servers();
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    const d = this.pool.onStatus(listener);
    return () => d.dispose();
  }

  async shutdown(): Promise<void> {
    await this.pool.shutdown();
  }

  /**
   * The running servers the workspace needs. One that is missing or refused is left out (answers
   * say so); one whose override variable names a broken program is an error: the user asked for it.
   */
  async #detectedServers(): Promise<LanguageServer[]> {
    const detected = await this.pool.detect();
    const servers = await Promise.all(
      detected.map((d) =>
        this.pool.server(d.definition.id).catch((error: unknown) => {
          if (isLspClientError(error, 'server-misconfigured')) throw error;
          return undefined;
        }),
      ),
    );
    return servers.filter((s): s is LanguageServer => s !== undefined);
  }

  async #open(path: string, options: BackendCallOptions): Promise<{ server: LanguageServer; abs: string; doc: OpenDocument }> {
    const abs = await this.workspace.resolveReal(path);
    const server = await this.pool.serverFor(abs).catch((error: unknown) => {
      // The pool speaks in absolute paths; people see workspace paths only.
      if (isLspClientError(error, 'no-server-for-file')) {
        throw new DialectError({
          code: CapabilityCode.NoLanguageServer,
          message: `no language server handles ${this.workspace.relative(abs)}`,
          hint: 'symbol functions work on files of the workspace languages; search(path, regex) and lines(path, start, end) read any file',
        });
      }
      throw error;
    });
    const doc = await server.ensureOpen(abs, options).catch((error: unknown) => {
      if (isLspClientError(error, 'document-unreadable')) {
        throw new DialectError({ code: BackendCode.Unreadable, message: error.message.split(`${this.workspace.root}${sep}`).join(''), hint: 'check that the file exists and is readable' });
      }
      throw error;
    });
    return { server, abs, doc };
  }

  async #positional(method: string, path: string, position: Position, extra: object, options: BackendCallOptions): Promise<Location[]> {
    const { server, abs } = await this.#open(path, options);
    const lines = await server.lines(abs);
    const params = { textDocument: { uri: pathToUri(abs) }, position: server.toLspPosition(lines, position), ...extra };
    const result = await orIfUnsupported(server.request<LspLocation | LspLocation[] | LocationLink[] | null>(method, params, options), null);
    const list: (LspLocation | LocationLink)[] = result === null || result === undefined ? [] : Array.isArray(result) ? result : [result];
    const files: FileLines = new Map();
    const converted = await Promise.all(
      list.map((entry) => this.#location(server, 'targetUri' in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry, files)),
    );
    return converted.filter((l): l is Location => l !== undefined);
  }

  /**
   * Converts server locations in order, leaving out places outside the workspace: each file is
   * resolved and read once (at once for all files), then its places are converted without a
   * promise each (a reference list converts thousands).
   */
  async #locations(server: LanguageServer, list: readonly LspLocation[]): Promise<Location[]> {
    // Each file once, all under one look at the disk's stamp (a list names hundreds of files).
    const paths = new Map<string, string | undefined>();
    let previous: string | undefined;
    for (const l of list) {
      if (l.uri !== previous && !paths.has(l.uri)) paths.set(l.uri, this.#workspacePathOf(l.uri));
      previous = l.uri;
    }
    const wanted = [...paths].filter((entry): entry is [string, string] => entry[1] !== undefined);
    const texts = await this.workspace.linesOfAll(wanted.map(([, path]) => path));
    const read = new Map<string, { path: string; lines: LineSource } | undefined>();
    wanted.forEach(([uri, path], i) => {
      const all = texts[i];
      read.set(uri, all === undefined ? undefined : { path, lines: { lineText: (line: number) => all[line - 1] ?? '' } });
    });
    const out: Location[] = [];
    // Places come grouped by file: the previous place's file is tried before a lookup.
    let lastUri: string | undefined;
    let file: { path: string; lines: LineSource } | undefined;
    for (const l of list) {
      if (l.uri !== lastUri) {
        lastUri = l.uri;
        file = read.get(l.uri);
      }
      if (file === undefined) continue;
      const r = fromLspRange(file.lines, l.range, server.positionEncoding);
      out.push({ path: file.path, start: r.start, end: r.end, content: file.lines.lineText(r.start.line) });
    }
    return out;
  }

  /**
   * Converts a server location; undefined for places outside the workspace (std, dependencies).
   * `files` caches each file's lines for the duration of one call: a reference search can return
   * thousands of locations in a few hundred files.
   */
  async #location(server: LanguageServer, loc: { uri: string; range: LspRange }, files: FileLines = new Map()): Promise<Location | undefined> {
    // Per call, each file (by URI) is resolved and read once: the path checks and the read are
    // shared by all the locations in it.
    let pending = files.get(loc.uri);
    if (pending === undefined) {
      pending = this.#fileOf(loc.uri);
      files.set(loc.uri, pending);
    }
    const file = await pending;
    if (file === undefined) return undefined;
    const r = fromLspRange(file.lines, loc.range, server.positionEncoding);
    return { path: file.path, start: r.start, end: r.end, content: file.lines.lineText(r.start.line) };
  }

  /** A file of the workspace by URI, with its lines; undefined outside the workspace (std, dependencies). */
  /** The workspace path of a `file://` URI; `undefined` for another scheme or a place outside. */
  #workspacePathOf(uri: string): string | undefined {
    const abs = uriToPath(uri);
    return abs === undefined || !this.workspace.contains(abs) ? undefined : this.workspace.relative(abs);
  }

  async #fileOf(uri: string): Promise<{ path: string; lines: LineSource } | undefined> {
    const path = this.#workspacePathOf(uri);
    if (path === undefined) return undefined;
    try {
      // The workspace caches file lines across calls (validated against the disk): the server's
      // view of a file is the file on disk, as we never edit documents.
      const all = await this.workspace.lines(path);
      return { path, lines: { lineText: (line: number) => all[line - 1] ?? '' } };
    } catch {
      return undefined;
    }
  }

  async #callSymbol(server: LanguageServer, item: HierarchyItem): Promise<BackendSymbol | undefined> {
    // Every hierarchy item becomes a symbol here, and its handle goes back to the server as it is.
    if (!withinDepth(item)) {
      server.warn('item-depth', `${server.definition.displayName} sent hierarchy items nested deeper than ${MAX_ITEM_DEPTH} levels: they are left out`);
      return undefined;
    }
    const location = await this.#location(server, { uri: item.uri, range: item.selectionRange });
    if (location === undefined) return undefined;
    // `detail` is free text (rust-analyzer puts the whole signature there), not a container.
    const language = this.#language(location.path);
    // A language whose declaration names the owner (Go's receiver) gives the item its container.
    const named = ownedName(server.definition, item.name, kindName(item.kind), location.content, undefined);
    return { ...named, kind: this.#kind(location.path, language, kindName(item.kind), location.content, named.name), language, location, precise: true };
  }

  async #edges(server: LanguageServer, calls: { item: CallHierarchyItem; ranges: LspRange[]; rangesUri: string }[]): Promise<CallEdge[]> {
    const files: FileLines = new Map();
    const out: CallEdge[] = [];
    for (const c of calls) {
      const symbol = await this.#callSymbol(server, c.item);
      if (symbol === undefined) continue;
      const sites = (await Promise.all(c.ranges.map((r) => this.#location(server, { uri: c.rangesUri, range: r }, files)))).filter((l): l is Location => l !== undefined);
      out.push({ item: { symbol, handle: { server: server.definition.id, item: c.item } satisfies CallHandle }, callSites: sites });
    }
    return out;
  }

  /** A symbol's kind in its language's words: the definition's own naming, else `kinds.ts`'. */
  #kind(path: string, language: string, lspKind: LspKindName, declarationLine: string, name: string): KindWord {
    const own = languageFor(this.#definitions, path)?.definition.symbolKind;
    return own !== undefined ? own(lspKind, declarationLine, name) : languageKind(language, lspKind, declarationLine, name);
  }

  #language(path: string): string {
    return languageFor(this.#definitions, path)?.languageId ?? 'unknown';
  }
}

/** A location's file, line and column, as a key. */
function placeOf(l: Location): string {
  return `${l.path}:${l.start.line}:${l.start.column}`;
}


/** Whether `a` is at or before `b`. */
function notAfter(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.column <= b.column);
}

/** Kinds of outline entries a call happens in. */
const CALLABLE_KINDS = new Set(['function', 'method', 'constructor']);

/** The innermost function or method of an outline whose range holds `at`. */
function innermostCallable(outline: readonly OutlineSymbol[], at: Position): OutlineSymbol | undefined {
  let found: OutlineSymbol | undefined;
  let level: readonly OutlineSymbol[] = outline;
  for (;;) {
    const holder = level.find((s) => s.range !== undefined && notAfter(s.range.start, at) && notAfter(at, s.range.end));
    if (holder === undefined) return found;
    // A property spanning lines has a body: an accessor (`set body (val) {…}`), which tsgo's outline lists as a property.
    if (CALLABLE_KINDS.has(holder.kind) || (holder.kind === 'property' && holder.range !== undefined && holder.range.end.line > holder.range.start.line)) found = holder;
    level = holder.children;
  }
}

/** Server locations by start: line, then character. */
function byStart(a: LspLocation, b: LspLocation): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

/** Whether a file's places are already ordered by start (servers mostly list them so): no sort then. */
function inOrder(group: readonly LspLocation[]): boolean {
  for (let i = 1; i < group.length; i++) if (byStart(group[i - 1] as LspLocation, group[i] as LspLocation) > 0) return false;
  return true;
}

/** A request the server answered with MethodNotFound. */
const UNSUPPORTED = Symbol('unsupported');

/**
 * A symbol's name as its language writes it: the server's name split into the name and the owner
 * it folds in (the definition's `symbolName`: gopls's `(*Mux).Get` is `Get` of `Mux`).
 * `parentContainer`: the container is the outline entry's parent, kept when the name folds in no
 * owner; a server's own container (gopls's package path) yields to the hook's owner.
 */
function ownedName(definition: ServerDefinition, rawName: string, lspKind: string, declarationLine: string, container: string | undefined, parentContainer = false): { name: string; container?: string } {
  const split = definition.symbolName?.(rawName, lspKind, declarationLine);
  const owner = split === undefined ? container : (split.owner ?? (parentContainer ? container : undefined));
  return { name: split?.name ?? rawName, ...(owner !== undefined && owner !== '' ? { container: owner } : {}) };
}

/** The method name middleware sees while a caller waits for the index. */
const WAIT_FOR_INDEX = '(waiting for the index)';


/** A disk stamp of a running server's watcher, which can tell whether it still holds. */
interface ServerDiskStamp extends DiskStamp {
  /** Whether the watcher has seen no change since (and can still vouch). */
  holds(): boolean;
}

/** A file's size and time, or undefined when it cannot be stat'ed. */
function statOrUndefined(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const { mtimeMs, size } = statSync(path);
    return { mtimeMs, size };
  } catch {
    return undefined;
  }
}

/** Files changed since their server started that one `workspace/symbol` answer re-syncs before it is asked again. */
const MAX_RESYNCED_FILES = 64;

/** A file changed this close to a server's start may have been read before the change: it is opened, not trusted. */
const MTIME_MARGIN_MS = 2000;

/** `workspace/symbol` answers kept (least recently used dropped beyond it). */
const MAX_KEPT_SYMBOL_ANSWERS = 64;

/** What one server's part of a kept `workspace/symbol` answer was made from. */
interface SymbolAnswerState {
  readonly server: LanguageServer;
  readonly pid: number | undefined;
  readonly stamp: number | undefined;
  /** The symbols the server answered (`symbolKeys`); `undefined` when it named one twice (then never the same). */
  readonly keys: ReadonlySet<string> | undefined;
  /** Where its answer was capped and completed: the places (`path:line`) of the completed answer. */
  readonly completed: ReadonlySet<string> | undefined;
}

/** The symbols of a `workspace/symbol` answer, one key each (name, kind, container, place), or `undefined` when one repeats. */
function symbolKeys(answer: unknown): Set<string> | undefined {
  if (!Array.isArray(answer)) return undefined;
  const keys = new Set<string>();
  for (const item of answer) {
    const s = item as SymbolInformation;
    const r = s.location?.range;
    keys.add(`${s.location?.uri}\u0000${s.name}\u0000${s.kind}\u0000${s.containerName ?? ''}\u0000${r?.start.line}:${r?.start.character}:${r?.end.line}:${r?.end.character}`);
  }
  return keys.size === answer.length ? keys : undefined;
}

/**
 * Whether a server answered the symbols of a kept answer again, in any order (gopls orders equal
 * matches differently from one request to the next). No string is built but a key per symbol.
 */
function sameSymbols(kept: ReadonlySet<string> | undefined, answer: unknown): boolean {
  if (kept === undefined) return false;
  const keys = symbolKeys(answer);
  if (keys === undefined || keys.size !== kept.size) return false;
  for (const key of keys) if (!kept.has(key)) return false;
  return true;
}
/** Go-to-definition answers kept (least recently used dropped beyond it): a lookup's candidates, twice over. */
const MAX_CACHED_DEFINITIONS = 4096;

/** Completions of capped answers kept (least recently used dropped beyond it). */
const MAX_CACHED_COMPLETIONS = 64;

/** Resolves after the event loop's next turn: file events that happened before now have been handled. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Text matches a lookup past a server's `workspace/symbol` limit reads (their files' outlines complete it). */
const CAPPED_LOOKUP_MAX_MATCHES = 20_000;

/**
 * A question's requests have their caller's budget: the evaluation's signal (its deadline, the
 * client's cancellation) bounds them, so a live server working on a long request is waited for
 * rather than cut off at the client's per-request limit (`RequestOptions.untilCancelled`).
 */
function patient(options: BackendCallOptions): RequestOptions {
  return options.signal !== undefined ? { signal: options.signal, untilCancelled: true } : {};
}

/** `src/a.rs:3:7`: a request's target for middleware. */
function at(path: string, p: Position): string {
  return `${path}:${p.line}:${p.column}`;
}

/** Whether a server capability is offered (`true` or an options object). */
function offers(capability: unknown): boolean {
  return capability !== undefined && capability !== null && capability !== false;
}

/** Diagnostics in path order, then by position. */
function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort(compareLocations);
}

/** A server that does not implement a method answers MethodNotFound: treat it as "no answer". */
async function orIfUnsupported<R, F>(request: Promise<R>, fallback: F): Promise<R | F> {
  try {
    return await request;
  } catch (error) {
    if (isLspClientError(error, 'request-failed') && error.lspCode === -32601) return fallback;
    throw error;
  }
}

function markdownOf(contents: MarkupContent | MarkedString | MarkedString[]): string {
  const one = (c: MarkedString): string => (typeof c === 'string' ? c : `\`\`\`${c.language}\n${c.value}\n\`\`\``);
  if (Array.isArray(contents)) return contents.map(one).join('\n\n');
  if (typeof contents === 'object' && 'kind' in contents) return contents.kind === 'markdown' ? contents.value : `\`\`\`\n${contents.value}\n\`\`\``;
  return one(contents);
}

/** Whether the server's language says declarations of this kind stand alone (`ServerDefinition.standaloneKinds`). */
function standaloneKind(server: LanguageServer, kind: string): boolean {
  return (server.definition.standaloneKinds as readonly string[] | undefined)?.includes(kind) === true;
}

/** Whether the outline entry named at `position` is a member of a class (its parent is one). */
function isClassMemberAt(outline: readonly OutlineSymbol[], position: Position, parent?: OutlineSymbol): boolean {
  for (const s of outline) {
    if (s.location.start.line === position.line && s.location.start.column <= position.column && position.column <= s.location.end.column) return parent?.kind === 'class';
    if (isClassMemberAt(s.children, position, s)) return true;
  }
  return false;
}

/** Whether a match at `column` (1-based) of a Python line is in its `#` comment (a `#` in a string is rare enough to be ignored). */
function isCommentAt(line: string, column: number): boolean {
  const hash = line.indexOf('#');
  return hash >= 0 && hash < column - 1;
}

/** Whether a `//` line comment begins before the 1-based `column` of `line` (a `//` inside a string before it counts too: the mention is then left out, never claimed). */
function lineCommentBefore(line: string, column: number): boolean {
  const slashes = line.indexOf('//');
  return slashes >= 0 && slashes < column - 1;
}

/** `list` with `gap` added to what it already says it misses. */
function withUnlisted(list: ReferenceList, unlisted: UnlistedMentions): ReferenceList {
  return { ...list, unlisted: [...(list.unlisted ?? []), unlisted] };
}
