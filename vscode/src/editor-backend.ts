/**
 * `IdeBackend` over the editor's own language features: VS Code's `vscode.execute…Provider`
 * commands (which reach whatever extension provides the language, with the user's settings and
 * index) and `vscode.languages.getDiagnostics`. This is where the editor's shapes become
 * Dialect's: URIs become workspace paths, 0-based UTF-16 positions become 1-based code-point
 * positions (through `positions.ts`, the one converter), symbol kinds become each language's
 * words, hovers become `HoverInfo`. Hierarchy handles are plain JSON (they cross a socket).
 */
import * as vscode from 'vscode';
import { DialectError } from '../../dialect/index.js';
import {
  CapabilityCode,
  type BackendCallOptions,
  type BackendMiddleware,
  type BackendRequest,
  type BackendSymbol,
  type CallEdge,
  type CallItem,
  type Completeness,
  type DiagnosticReport,
  type DiagnosticsOptions,
  type HoverInfo,
  type IdeBackend,
  type OutlineSymbol,
  type ReadyOptions,
  type ReferenceList,
  type ReferenceOptions,
  type TypeItem,
} from '../../ide-adapter/backend.js';
import { languageKind } from '../../ide-adapter/kinds.js';
import { kindName } from '../../ide-adapter/lsp-backend.js';
import type { LspErrorCode } from '../../ide-adapter/lsp/errors.js';
import { readHover } from '../../ide-adapter/lsp/hover.js';
import { fileModulePath } from '../../ide-adapter/lsp/module-paths.js';
import type { LineSource } from '../../ide-adapter/lsp/positions.js';
import { languageFor } from '../../ide-adapter/lsp/servers.js';
import { compareLocations, type Diagnostic, type DiagnosticSeverity, type Location, type Position } from '../../ide-adapter/model.js';
import type { ServerStatus } from '../../ide-adapter/status.js';
import { TIMEOUTS } from '../../ide-adapter/timeouts.js';
import type { Workspace } from '../../ide-adapter/workspace.js';
import { runCommand } from './commands.js';
import { waitForDiagnostics } from './diagnostics-wait.js';
import { EDITOR_LIMITS } from './limits.js';
import { nameRange } from './names.js';
import { fromEditorRange, toEditorPosition, type EditorPosition, type EditorRange } from './positions.js';
import { EditorLanguages, plainName, type SpawnServer } from './readiness.js';

/** A hierarchy item as plain data: where its name is, so the editor can be asked about it again. */
interface HierarchyHandle {
  readonly uri: string;
  readonly name: string;
  readonly position: EditorPosition;
}

/** VS Code's diagnostic severities (0-based) in Dialect's words. */
const SEVERITIES: Readonly<Record<number, DiagnosticSeverity>> = { 0: 'error', 1: 'warning', 2: 'info', 3: 'hint' };

/** The code of a request after `shutdown` (the language-server client's own code). */
const SERVER_STOPPED: LspErrorCode = 'server-stopped';

/** The method name middleware sees while a caller waits for the index. */
const WAIT_FOR_INDEX = '(waiting for the index)';

/** The files one call touches, each read once. */
type FileLines = Map<string, { path: string; lines: LineSource } | undefined>;

/** Language intelligence from the editor a workspace folder is open in. */
export class EditorBackend implements IdeBackend {
  readonly answeredBy = 'vscode';
  readonly languages: EditorLanguages;
  #middleware: readonly BackendMiddleware[] = [];
  #stopped = false;

  /** `spawn` starts Dialect's own server for a language the window has no extension for (rust-analyzer). */
  constructor(
    readonly workspace: Workspace,
    spawn?: SpawnServer,
  ) {
    this.languages = new EditorLanguages(workspace.root, spawn);
  }

  workspaceSymbols(query: string, options: BackendCallOptions = {}): Promise<BackendSymbol[]> {
    return this.#request('vscode.executeWorkspaceSymbolProvider', JSON.stringify(query), () => this.#workspaceSymbols(query, options));
  }

  documentSymbols(path: string, options: BackendCallOptions = {}): Promise<OutlineSymbol[]> {
    return this.#request('vscode.executeDocumentSymbolProvider', path, () => this.#documentSymbols(path, options));
  }

  definition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request('vscode.executeDefinitionProvider', at(path, position), () => this.#positional('vscode.executeDefinitionProvider', path, position, options));
  }

  references(path: string, position: Position, options: ReferenceOptions = {}): Promise<ReferenceList> {
    return this.#request('vscode.executeReferenceProvider', at(path, position), () => this.#references(path, position, options));
  }

  hover(path: string, position: Position, options: BackendCallOptions = {}): Promise<HoverInfo | undefined> {
    return this.#request('vscode.executeHoverProvider', at(path, position), () => this.#hover(path, position, options));
  }

  implementation(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request('vscode.executeImplementationProvider', at(path, position), () => this.#positional('vscode.executeImplementationProvider', path, position, options));
  }

  typeDefinition(path: string, position: Position, options: BackendCallOptions = {}): Promise<Location[]> {
    return this.#request('vscode.executeTypeDefinitionProvider', at(path, position), () => this.#positional('vscode.executeTypeDefinitionProvider', path, position, options));
  }

  prepareCallHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<CallItem[]> {
    return this.#request('vscode.prepareCallHierarchy', at(path, position), () => this.#prepare('vscode.prepareCallHierarchy', path, position, options));
  }

  incomingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request('vscode.provideIncomingCalls', item.symbol.name, () => this.#calls(item, 'incoming', options));
  }

  outgoingCalls(item: CallItem, options: BackendCallOptions = {}): Promise<CallEdge[]> {
    return this.#request('vscode.provideOutgoingCalls', item.symbol.name, () => this.#calls(item, 'outgoing', options));
  }

  prepareTypeHierarchy(path: string, position: Position, options: BackendCallOptions = {}): Promise<TypeItem[]> {
    return this.#request('vscode.prepareTypeHierarchy', at(path, position), () => this.#prepare('vscode.prepareTypeHierarchy', path, position, options));
  }

  typeHierarchy(item: TypeItem, direction: 'super' | 'sub', options: BackendCallOptions = {}): Promise<TypeItem[]> {
    const command = direction === 'super' ? 'vscode.provideSupertypes' : 'vscode.provideSubtypes';
    return this.#request(command, item.symbol.name, () => this.#types(item, command, options));
  }

  diagnostics(path: string | undefined, options: DiagnosticsOptions = {}): Promise<DiagnosticReport> {
    return this.#request('vscode.languages.getDiagnostics', path ?? '(every analysed file)', () => this.#diagnostics(path, options));
  }

  /**
   * The active editor's selection (the primary one) as the editor shows it — unsaved edits
   * included, so positions come from the document, not the file on disk; undefined when the
   * active editor shows no file of this workspace or none is active.
   */
  async selection(): Promise<Location | undefined> {
    const editor = vscode.window.activeTextEditor;
    const uri = editor?.document.uri;
    if (editor === undefined || uri === undefined || uri.scheme !== 'file' || !this.workspace.contains(uri.fsPath)) return undefined;
    const document = editor.document;
    const lines: LineSource = { lineText: (line) => (line >= 1 && line <= document.lineCount ? document.lineAt(line - 1).text : '') };
    const r = fromEditorRange(lines, editor.selection);
    return { path: this.workspace.relative(uri.fsPath), start: r.start, end: r.end, content: document.getText(editor.selection) };
  }

  waitUntilReady(options: ReadyOptions = {}): Promise<Completeness> {
    return this.#request(WAIT_FOR_INDEX, '', () => this.#waitUntilReady(options));
  }

  async modulePath(path: string): Promise<string[][]> {
    const of = languageFor(this.languages.definitions, path)?.definition.modulePath ?? fileModulePath;
    return (await of(path, (p) => this.workspace.lines(p))).map((segment) => [...segment]);
  }

  relativeQualifiers(path: string): readonly string[] {
    return languageFor(this.languages.definitions, path)?.definition.relativeQualifiers ?? [];
  }

  handles(path: string): boolean {
    const language = languageFor(this.languages.definitions, path);
    return language !== undefined && !this.languages.unavailable(language.languageId);
  }

  /** The languages the editor answers (unavailable ones left out), for a client's local `handles`. */
  languageInfos(): { languageId: string; extensions: string[]; relativeQualifiers: string[] }[] {
    return this.languages.definitions.flatMap((d) =>
      d.languages
        .filter((l) => !this.languages.unavailable(l.languageId))
        .map((l) => ({ languageId: l.languageId, extensions: [...l.extensions], relativeQualifiers: [...(d.relativeQualifiers ?? [])] })),
    );
  }

  async start(): Promise<void> {
    // Probing runs in the background; `waitUntilReady` waits for it, bounded.
    for (const provider of await this.languages.providers()) void provider.probe();
  }

  async shutdown(): Promise<void> {
    // The editor's language features are the editor's: nothing of ours to stop.
    this.#stopped = true;
  }

  servers(): ServerStatus[] {
    return this.languages.statuses();
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    return this.languages.onStatus(listener);
  }

  use(middleware: BackendMiddleware): () => void {
    this.#middleware = [...this.#middleware, middleware];
    return () => {
      this.#middleware = this.#middleware.filter((m) => m !== middleware);
    };
  }

  /** Runs one request of the port through the middleware (outermost first). */
  async #request<T>(method: string, target: string, run: () => Promise<T>): Promise<T> {
    if (this.#stopped) throw new DialectError({ code: SERVER_STOPPED, message: `the VS Code backend of ${this.workspace.root} was shut down`, hint: 'open a new session' });
    const request: BackendRequest = { method, target };
    const chain = this.#middleware.reduceRight<() => Promise<T>>((next, middleware) => () => middleware(request, next), run);
    return chain();
  }

  async #waitUntilReady(options: ReadyOptions): Promise<Completeness> {
    const started = Date.now();
    const providers = await this.languages.providers();
    const timeoutMs = options.timeoutMs ?? EDITOR_LIMITS.defaultReadyTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    const aborted = new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
    try {
      await Promise.race([Promise.all(providers.map((p) => p.probe())), timeout, aborted]);
    } finally {
      clearTimeout(timer);
    }
    options.signal?.throwIfAborted();
    const servers = providers.map((p) => p.status);
    const missing = servers.filter((s) => s.state === 'unavailable').map((s) => `${s.displayName} is unavailable: ${s.detail ?? ''}`);
    return {
      complete: servers.every((s) => s.state === 'ready' && s.health === undefined),
      servers,
      waitedMs: Date.now() - started,
      // A spawned server's own warnings (std not loaded, …), as the spawned servers of `dialect` report them.
      warnings: [...missing, ...this.languages.warnings()],
      notes: this.languages.notes(),
    };
  }

  async #workspaceSymbols(query: string, options: BackendCallOptions): Promise<BackendSymbol[]> {
    // The editor searches only the projects with an open file: keep one of each open.
    await this.languages.keepProjectsOpen();
    const found = (await runCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', [query], options)) ?? [];
    const files: FileLines = new Map();
    const out: BackendSymbol[] = [];
    for (const s of found) {
      const location = await this.#location(s.location.uri, s.location.range, files);
      if (location === undefined) continue;
      const language = this.#language(location.path);
      const name = plainName(s.name);
      out.push({
        name,
        kind: languageKind(language, kindName(s.kind + 1), location.content, name),
        ...(s.containerName !== undefined && s.containerName !== '' ? { container: s.containerName } : {}),
        language,
        location,
        // The TypeScript extension reports the whole declaration here, not the name.
        precise: false,
      });
    }
    return out;
  }

  async #documentSymbols(path: string, options: BackendCallOptions): Promise<OutlineSymbol[]> {
    const { uri, rel, lines } = await this.#open(path);
    const found = (await runCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', [uri], options)) ?? [];
    const language = this.#language(rel);
    const convert = (s: vscode.DocumentSymbol, container: string | undefined, parent?: vscode.DocumentSymbol): OutlineSymbol => {
      const name = plainName(s.name);
      const range = fromEditorRange(lines, s.range);
      const sel = nameRange(lines, name, fromEditorRange(lines, s.selectionRange), range);
      const content = lines.lineText(sel.start.line);
      // VS Code's TypeScript outlines an enum's members as variables: a member of an enum is an enum member.
      const kind = parent?.kind === vscode.SymbolKind.Enum && s.kind === vscode.SymbolKind.Variable ? vscode.SymbolKind.EnumMember : s.kind;
      return {
        name,
        kind: languageKind(language, kindName(kind + 1), content, name),
        ...(container !== undefined ? { container } : {}),
        language,
        location: { path: rel, start: sel.start, end: sel.end, content },
        range,
        precise: true,
        children: (s.children ?? []).map((c) => convert(c, name, s)),
      };
    };
    return found.map((s) => {
      if ('selectionRange' in s) return convert(s, undefined);
      const r = fromEditorRange(lines, s.location.range);
      const name = plainName(s.name);
      const content = lines.lineText(r.start.line);
      return {
        name,
        kind: languageKind(language, kindName(s.kind + 1), content, name),
        ...(s.containerName !== '' ? { container: s.containerName } : {}),
        language,
        location: { path: rel, start: r.start, end: r.end, content },
        range: r,
        precise: false,
        children: [],
      };
    });
  }

  async #positional(command: string, path: string, position: Position, options: BackendCallOptions): Promise<Location[]> {
    const { uri, lines } = await this.#open(path);
    const found = (await runCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(command, [uri, editorPosition(lines, position)], options)) ?? [];
    const files: FileLines = new Map();
    const out: Location[] = [];
    for (const entry of found) {
      const location = 'targetUri' in entry ? await this.#location(entry.targetUri, entry.targetSelectionRange ?? entry.targetRange, files) : await this.#location(entry.uri, entry.range, files);
      if (location !== undefined) out.push(location);
    }
    return out;
  }

  async #references(path: string, position: Position, options: ReferenceOptions): Promise<ReferenceList> {
    const { uri, lines } = await this.#open(path);
    const where = editorPosition(lines, position);
    // The command always includes the declarations; they are dropped here unless asked for.
    const [found, declarations] = await Promise.all([
      runCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', [uri, where], options),
      options.includeDeclaration === true ? Promise.resolve([]) : this.#positional('vscode.executeDefinitionProvider', path, position, options),
    ]);
    const files: FileLines = new Map();
    const all: Location[] = [];
    for (const l of found ?? []) {
      const location = await this.#location(l.uri, l.range, files);
      if (location === undefined) continue;
      if (declarations.some((d) => d.path === location.path && d.start.line === location.start.line && d.start.column === location.start.column)) continue;
      all.push(location);
    }
    const unique = all.sort(compareLocations).filter((l, i, list) => i === 0 || compareLocations(l, list[i - 1] as Location) !== 0);
    return { locations: unique.slice(0, options.limit ?? unique.length), total: unique.length };
  }

  async #hover(path: string, position: Position, options: BackendCallOptions): Promise<HoverInfo | undefined> {
    const { uri, rel, lines } = await this.#open(path);
    const hovers = (await runCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', [uri, editorPosition(lines, position)], options)) ?? [];
    const markdown = hovers
      .flatMap((h) => h.contents)
      .map(markdownOf)
      .filter((m) => m.trim() !== '')
      .join('\n\n');
    if (markdown === '') return undefined;
    return readHover(markdown, {
      layout: languageFor(this.languages.definitions, rel)?.definition.hoverSignature,
      toWorkspacePath: (p) => (this.workspace.contains(p) ? this.workspace.relative(p) : undefined),
    });
  }

  /** Prepares a call or type hierarchy at a position. */
  async #prepare(command: string, path: string, position: Position, options: BackendCallOptions): Promise<{ symbol: BackendSymbol; handle: HierarchyHandle }[]> {
    const { uri, lines } = await this.#open(path);
    const items = (await runCommand<vscode.CallHierarchyItem[] | undefined>(command, [uri, editorPosition(lines, position)], options)) ?? [];
    return this.#items(items, new Map());
  }

  async #items(items: readonly (vscode.CallHierarchyItem | vscode.TypeHierarchyItem)[], files: FileLines): Promise<{ symbol: BackendSymbol; handle: HierarchyHandle }[]> {
    const out: { symbol: BackendSymbol; handle: HierarchyHandle }[] = [];
    for (const item of items) {
      const symbol = await this.#itemSymbol(item, files);
      if (symbol !== undefined) out.push({ symbol, handle: handleOf(item) });
    }
    return out;
  }

  /**
   * The editor's item again for a handle: VS Code keeps only its last few hierarchy sessions, so an
   * item is prepared anew at its name (the same item, whatever happened since).
   */
  async #revive<T extends vscode.CallHierarchyItem | vscode.TypeHierarchyItem>(command: string, handle: unknown, options: BackendCallOptions): Promise<T | undefined> {
    const h = handle as HierarchyHandle;
    const items = (await runCommand<T[] | undefined>(command, [vscode.Uri.parse(h.uri), new vscode.Position(h.position.line, h.position.character)], options)) ?? [];
    return items.find((i) => plainName(i.name) === plainName(h.name)) ?? items[0];
  }

  async #calls(item: CallItem, direction: 'incoming' | 'outgoing', options: BackendCallOptions): Promise<CallEdge[]> {
    const editorItem = await this.#revive<vscode.CallHierarchyItem>('vscode.prepareCallHierarchy', item.handle, options);
    if (editorItem === undefined) return [];
    const files: FileLines = new Map();
    const out: CallEdge[] = [];
    if (direction === 'incoming') {
      const calls = (await runCommand<vscode.CallHierarchyIncomingCall[] | undefined>('vscode.provideIncomingCalls', [editorItem], options)) ?? [];
      for (const c of calls) out.push(...(await this.#edge(c.from, c.fromRanges, c.from.uri, files)));
    } else {
      const calls = (await runCommand<vscode.CallHierarchyOutgoingCall[] | undefined>('vscode.provideOutgoingCalls', [editorItem], options)) ?? [];
      // Outgoing call ranges are in the caller's file.
      for (const c of calls) out.push(...(await this.#edge(c.to, c.fromRanges, editorItem.uri, files)));
    }
    return out;
  }

  async #edge(item: vscode.CallHierarchyItem, ranges: readonly vscode.Range[], rangesUri: vscode.Uri, files: FileLines): Promise<CallEdge[]> {
    const symbol = await this.#itemSymbol(item, files);
    if (symbol === undefined) return [];
    const sites: Location[] = [];
    for (const r of ranges) {
      const site = await this.#location(rangesUri, r, files);
      if (site !== undefined) sites.push(site);
    }
    return [{ item: { symbol, handle: handleOf(item) }, callSites: sites }];
  }

  async #types(item: TypeItem, command: string, options: BackendCallOptions): Promise<TypeItem[]> {
    const editorItem = await this.#revive<vscode.TypeHierarchyItem>('vscode.prepareTypeHierarchy', item.handle, options);
    if (editorItem === undefined) return [];
    const related = (await runCommand<vscode.TypeHierarchyItem[] | undefined>(command, [editorItem], options)) ?? [];
    return this.#items(related, new Map());
  }

  async #diagnostics(path: string | undefined, options: DiagnosticsOptions): Promise<DiagnosticReport> {
    const files: FileLines = new Map();
    if (path !== undefined) {
      const { uri } = await this.#open(path);
      // The caller's budget, as the language-server backend takes it (`diagnostics(path, wait: s)`).
      const waitMs = options.waitMs ?? TIMEOUTS.lsp.diagnosticsWaitMs;
      const waited = await waitForDiagnostics(uri, waitMs, options.signal);
      const published = vscode.languages.getDiagnostics(uri);
      // Diagnostics there when read were published, whatever the wait saw (closing the tab takes time).
      const answered = waited || published.length > 0;
      const diagnostics = await this.#convertDiagnostics([[uri, published]], files);
      return { diagnostics, complete: answered, files: 1, ...(answered ? {} : { waitedMs: waitMs }) };
    }
    const all = vscode.languages.getDiagnostics().filter(([uri]) => uri.scheme === 'file' && this.workspace.contains(uri.fsPath));
    return { diagnostics: await this.#convertDiagnostics(all, files), complete: false, files: all.length };
  }

  async #convertDiagnostics(entries: readonly (readonly [vscode.Uri, readonly vscode.Diagnostic[]])[], files: FileLines): Promise<Diagnostic[]> {
    const out: Diagnostic[] = [];
    for (const [uri, list] of entries) {
      for (const d of list) {
        const location = await this.#location(uri, d.range, files);
        if (location === undefined) continue;
        const code = typeof d.code === 'object' ? d.code.value : d.code;
        out.push({
          ...location,
          severity: SEVERITIES[d.severity] ?? 'error',
          message: d.message,
          ...(code !== undefined ? { code: String(code) } : {}),
          ...(d.source !== undefined ? { source: d.source } : {}),
        });
      }
    }
    return out.sort(compareLocations).filter((d, i, list) => i === 0 || compareLocations(d, list[i - 1] as Diagnostic) !== 0 || d.message !== (list[i - 1] as Diagnostic).message);
  }

  async #itemSymbol(item: vscode.CallHierarchyItem | vscode.TypeHierarchyItem, files: FileLines): Promise<BackendSymbol | undefined> {
    const location = await this.#location(item.uri, item.selectionRange, files);
    if (location === undefined) return undefined;
    const language = this.#language(location.path);
    const name = plainName(item.name);
    return { name, kind: languageKind(language, kindName(item.kind + 1), location.content, name), language, location, precise: true };
  }

  /** A workspace file the editor is asked about: its URI and lines (the editor's text when it has it open). */
  async #open(path: string): Promise<{ uri: vscode.Uri; rel: string; lines: LineSource }> {
    const abs = await this.workspace.resolveReal(path);
    const rel = this.workspace.relative(abs);
    if (!this.handles(rel)) {
      throw new DialectError({
        code: CapabilityCode.NoLanguageServer,
        message: `VS Code has no language features for ${rel}`,
        hint: 'symbol functions work on files of the workspace languages; search(path, regex) and lines(path, start, end) read any file',
      });
    }
    const uri = vscode.Uri.file(abs);
    return { uri, rel, lines: await this.#lines(uri, rel) };
  }

  /**
   * The lines positions are counted on: the editor's document when it is open (it may have unsaved
   * changes, and the editor answers about what it shows), else the file on disk.
   */
  async #lines(uri: vscode.Uri, rel: string): Promise<LineSource> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc !== undefined) return { lineText: (line) => (line >= 1 && line <= doc.lineCount ? doc.lineAt(line - 1).text : '') };
    const all = await this.workspace.lines(rel);
    return { lineText: (line) => all[line - 1] ?? '' };
  }

  /** An editor location in Dialect's terms; undefined outside the workspace (libraries, other folders). */
  async #location(uri: vscode.Uri, range: EditorRange, files: FileLines): Promise<Location | undefined> {
    const key = uri.toString();
    if (!files.has(key)) {
      let file: { path: string; lines: LineSource } | undefined;
      if (uri.scheme === 'file' && this.workspace.contains(uri.fsPath)) {
        const path = this.workspace.relative(uri.fsPath);
        file = await this.#lines(uri, path).then(
          (lines) => ({ path, lines }),
          () => undefined,
        );
      }
      files.set(key, file);
    }
    const file = files.get(key);
    if (file === undefined) return undefined;
    const r = fromEditorRange(file.lines, range);
    return { path: file.path, start: r.start, end: r.end, content: file.lines.lineText(r.start.line) };
  }

  #language(path: string): string {
    return languageFor(this.languages.definitions, path)?.languageId ?? 'unknown';
  }
}

/** A Dialect position as the editor's `Position`. */
function editorPosition(lines: LineSource, position: Position): vscode.Position {
  const p = toEditorPosition(lines, position);
  return new vscode.Position(p.line, p.character);
}

/** The plain-data handle of an editor hierarchy item. */
function handleOf(item: vscode.CallHierarchyItem | vscode.TypeHierarchyItem): HierarchyHandle {
  return { uri: item.uri.toString(), name: item.name, position: { line: item.selectionRange.start.line, character: item.selectionRange.start.character } };
}

/** Hover content as Markdown. */
function markdownOf(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') return content;
  if ('language' in content) return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  return content.value;
}

/** `src/a.ts:3:7`: a request's target for middleware. */
function at(path: string, p: Position): string {
  return `${path}:${p.line}:${p.column}`;
}
