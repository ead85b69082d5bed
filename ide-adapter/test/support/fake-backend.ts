/**
 * An in-memory `IdeBackend` for unit tests of the IDE functions' own logic — name lookup,
 * qualifiers, alias dropping, merging declarations, refinements, `symbolAt`'s choice of
 * identifier, hover handling — without a language server. It is for PURE LOGIC ONLY: it models
 * a language server the way the functions assume one behaves, so it can never show that a real
 * server behaves that way. What servers really answer is tested against rust-analyzer and
 * TypeScript 7 in the real-server suites (`functions-*.test.ts`), which stay the ground truth.
 *
 * A workspace is written as inline source text with markers, in the style of Langium's
 * `expectGoToDefinition`:
 *
 * ```ts
 * const fake = await FakeBackend.create({
 *   'src/util.rs': 'pub fn <|validate_token|>(t: &str) -> bool { true }',
 *   'src/service.rs': 'use crate::util::<|validate_token|alias|>;\nfn run() { <|>validate_token("x"); }',
 * });
 * ```
 *
 * - `<|text|>` is a declaration: `text` is its name and the marked span its selection range. Its
 *   kind comes from the keyword before it (`fn`, `struct`, `class`, `namespace`, …; see
 *   `inferKind`); its whole range runs from its first attribute, doc comment or decorator line to
 *   its `;`, `,` or the `}` closing its body; declarations inside that body are its children in
 *   the outline. A marked text starting with `impl` is an impl block (`<|impl Sink for Kitchen|>`).
 * - `<|text|attributes|>` adds space-separated attributes: `kind=type-alias` (an explicit kind,
 *   `-` for a space), `alias` (an import, re-export or `use` binding: go-to-definition leads on
 *   to the non-alias declaration of the name, or stays on itself when there is none — an
 *   unresolved import), `unindexed` (in the outline, missing from `workspace/symbol`).
 * - `<|>` marks a position (`cursor(path, n)`), removed from the text like every marker.
 *
 * Go-to-definition at a declaration answers every declaration of that name with the same parent
 * in the same file (how TypeScript merges overloads and interface + namespace); at any other
 * identifier it answers the non-alias declarations of the name in the same file, else in the
 * whole workspace. References are the identifiers whose go-to-definition meets that answer.
 *
 * The files are written to a real temporary folder, because the functions read text through the
 * real, confined `Workspace`; the symbols, outlines, definitions and references are computed in
 * memory from the markers.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  unsupportedByServer,
  type BackendCallOptions,
  type BackendSymbol,
  type CallEdge,
  type BackendMiddleware,
  type CallItem,
  type Completeness,
  type DiagnosticReport,
  type IdeBackend,
  type OutlineSymbol,
  type ReferenceList,
  type ReferenceOptions,
  type HoverInfo,
  type TypeItem,
} from '../../backend.js';
import { renderOutcome, type Outcome } from '../../../dialect/index.js';
import type { Location, Position } from '../../model.js';
import { readHover } from '../../lsp/hover.js';
import { fileModulePath } from '../../lsp/module-paths.js';
import { RUST_RELATIVE_QUALIFIERS, rustModulePath } from '../../languages/rust/module-paths.js';
import type { ServerStatus } from '../../status.js';
import { IdeSession } from '../../session.js';
import { Workspace } from '../../workspace.js';

/** Inline source files by workspace path, with markers. */
export type FakeFiles = Readonly<Record<string, string>>;

/** How the fake server behaves where real servers differ. */
export interface FakeBackendOptions {
  /**
   * Where `workspace/symbol` places a symbol: on its name (`'name'`, the default), or at the start
   * of its whole declaration, attributes and doc comments included (`'declaration'`, as some
   * servers do).
   */
  readonly symbolLocation?: 'name' | 'declaration';
  /** Whether files have an outline (`documentSymbols`); default true. */
  readonly outlines?: boolean;
  /**
   * Hover Markdown by declaration name, or a function of the workspace root (for `file://` links);
   * default: the declaration's line in a code block.
   */
  readonly hovers?: Readonly<Record<string, string | ((root: string) => string)>>;
  /** What `waitUntilReady` reports; default: complete, no notes. */
  readonly readiness?: Partial<Completeness>;
}

/** A declaration parsed from a `<|name|>` marker. */
export interface FakeDeclaration {
  readonly name: string;
  readonly kind: string;
  readonly language: string;
  readonly path: string;
  /** The name (selection range) as a location. */
  readonly location: Location;
  /** The whole declaration. */
  readonly range: { readonly start: Position; readonly end: Position };
  readonly alias: boolean;
  readonly unindexed: boolean;
  /** The enclosing declaration, if any. */
  readonly parent: FakeDeclaration | undefined;
  readonly children: readonly FakeDeclaration[];
}

/** A parsed file: its text without markers, its declarations (in text order) and cursors. */
export interface FakeFile {
  readonly path: string;
  readonly language: string;
  readonly text: string;
  readonly lines: readonly string[];
  readonly declarations: readonly FakeDeclaration[];
  readonly cursors: readonly Position[];
}

/** The language of a file by extension; files of other extensions have no server. */
const LANGUAGES: Readonly<Record<string, string>> = {
  rs: 'rust',
  ts: 'typescript',
  tsx: 'typescriptreact',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascriptreact',
};

/** The name the fake server reports as its display name. */
const FAKE_SERVER_NAME = 'fake-server';

/** Identifiers, as `functions/positions.ts` reads them. */
const IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}$]*/gu;

/** Declaration keywords and the kind they give, per language family. */
const RUST_KEYWORD_KINDS: Readonly<Record<string, string>> = {
  fn: 'function',
  struct: 'struct',
  union: 'union',
  enum: 'enum',
  trait: 'trait',
  mod: 'module',
  const: 'constant',
  static: 'static',
  type: 'type alias',
  let: 'variable',
  'macro_rules!': 'macro',
};
const TS_KEYWORD_KINDS: Readonly<Record<string, string>> = {
  function: 'function',
  class: 'class',
  interface: 'interface',
  namespace: 'namespace',
  module: 'namespace',
  enum: 'enum',
  type: 'type alias',
  const: 'variable',
  let: 'variable',
  var: 'variable',
};

/** Lines that belong to the declaration below them: attributes, doc comments, decorators. */
const LEADING_LINE = /^\s*(#\[|\/\/|\/\*|\*|@)/;

/** Language intelligence computed from marked inline sources; see the module comment. */
export class FakeBackend implements IdeBackend {
  readonly #files: ReadonlyMap<string, FakeFile>;
  readonly #options: FakeBackendOptions;

  private constructor(
    readonly workspace: Workspace,
    files: ReadonlyMap<string, FakeFile>,
    options: FakeBackendOptions,
  ) {
    this.#files = files;
    this.#options = options;
  }

  /** Parses the marked sources and writes their text (markers removed) into a fresh temporary folder. */
  static async create(sources: FakeFiles, options: FakeBackendOptions = {}): Promise<FakeBackend> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'dialect-fake-')));
    const files = new Map<string, FakeFile>();
    for (const [path, source] of Object.entries(sources)) {
      const file = parseFakeFile(path, source);
      files.set(path, file);
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), file.text);
    }
    return new FakeBackend(new Workspace(root), files, options);
  }

  /** The workspace folder. */
  get root(): string {
    return this.workspace.root;
  }

  /** A parsed file; throws when the workspace has none at `path`. */
  file(path: string): FakeFile {
    const file = this.#files.get(path);
    if (file === undefined) throw new Error(`the fake workspace has no file ${path}`);
    return file;
  }

  /** Every declaration, in path order then text order. */
  declarations(): FakeDeclaration[] {
    return [...this.#files.keys()].sort().flatMap((p) => [...this.file(p).declarations]);
  }

  /** The `nth` (0-based) declaration named `name`, in path then text order; throws when absent. */
  declaration(name: string, nth = 0, path?: string): FakeDeclaration {
    const found = this.declarations().filter((d) => d.name === name && (path === undefined || d.path === path))[nth];
    if (found === undefined) throw new Error(`the fake workspace has no declaration ${name} #${nth}${path !== undefined ? ` in ${path}` : ''}`);
    return found;
  }

  /** The `nth` (0-based) `<|>` position of a file; throws when absent. */
  cursor(path: string, nth = 0): Position {
    const found = this.file(path).cursors[nth];
    if (found === undefined) throw new Error(`${path} has no cursor #${nth}`);
    return found;
  }

  /** Removes the temporary folder. */
  async dispose(): Promise<void> {
    await this.shutdown();
    await rm(this.root, { recursive: true, force: true });
  }

  handles(path: string): boolean {
    return languageOf(path) !== undefined;
  }

  async workspaceSymbols(query: string, _options?: BackendCallOptions): Promise<BackendSymbol[]> {
    const atStart = this.#options.symbolLocation === 'declaration';
    return this.declarations()
      .filter((d) => !d.unindexed && fuzzyMatches(d.name, query))
      .map((d) => {
        const start = atStart ? d.range.start : d.location.start;
        const content = this.file(d.path).lines[start.line - 1] ?? '';
        return {
          ...symbolOf(d),
          location: atStart ? { path: d.path, start, end: d.range.end, content } : d.location,
          precise: false,
        };
      });
  }

  async documentSymbols(path: string, _options?: BackendCallOptions): Promise<OutlineSymbol[]> {
    if (this.#options.outlines === false) return [];
    const outline = (d: FakeDeclaration): OutlineSymbol => ({ ...symbolOf(d), location: d.location, range: d.range, precise: true, children: d.children.map(outline) });
    return this.#known(path)
      .declarations.filter((d) => d.parent === undefined)
      .map(outline);
  }

  async definition(path: string, position: Position, _options?: BackendCallOptions): Promise<Location[]> {
    return this.#resolve(path, position).map((d) => d.location);
  }

  async references(path: string, position: Position, options: ReferenceOptions = {}): Promise<ReferenceList> {
    const targets = new Set(this.#resolve(path, position));
    if (targets.size === 0) return { locations: [], total: 0 };
    const names = new Set([...targets].map((t) => t.name));
    const found: Location[] = [];
    for (const file of [...this.#files.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      if (!this.handles(file.path)) continue;
      file.lines.forEach((text, i) => {
        for (const word of wordsOf(text)) {
          if (!names.has(word.text)) continue;
          const at = { line: i + 1, column: word.start };
          const isDeclaration = file.declarations.some((d) => targets.has(d) && samePosition(d.location.start, at));
          if (isDeclaration && options.includeDeclaration !== true) continue;
          if (!isDeclaration && !this.#resolve(file.path, at).some((d) => targets.has(d))) continue;
          found.push({ path: file.path, start: at, end: { line: at.line, column: word.end }, content: text });
        }
      });
    }
    return { locations: found.slice(0, options.limit ?? found.length), total: found.length };
  }

  async hover(path: string, position: Position, _options?: BackendCallOptions): Promise<HoverInfo | undefined> {
    const target = this.#resolve(path, position)[0];
    if (target === undefined) return undefined;
    const given = this.#options.hovers?.[target.name];
    const markdown =
      given !== undefined
        ? typeof given === 'string'
          ? given
          : given(this.root)
        : `\`\`\`${target.language}\n${(this.file(target.path).lines[target.location.start.line - 1] ?? '').trim()}\n\`\`\``;
    // As a server definition with the default layout reads its hover (lsp/hover.ts).
    const workspace = new Workspace(this.root);
    return readHover(markdown, { toWorkspacePath: (p) => (workspace.contains(p) ? workspace.relative(p) : undefined) });
  }

  // Not modelled: the functions built on these are tested against real servers only.
  async implementation(_path: string, _position: Position, _options?: BackendCallOptions): Promise<Location[]> {
    return [];
  }

  async prepareCallHierarchy(_path: string, _position: Position, _options?: BackendCallOptions): Promise<CallItem[]> {
    return [];
  }

  async incomingCalls(_item: CallItem, _options?: BackendCallOptions): Promise<CallEdge[]> {
    return [];
  }

  async outgoingCalls(_item: CallItem, _options?: BackendCallOptions): Promise<CallEdge[]> {
    return [];
  }

  async typeDefinition(path: string, _position: Position, _options?: BackendCallOptions): Promise<Location[]> {
    throw unsupportedByServer(FAKE_SERVER_NAME, 'type definition', path);
  }

  async prepareTypeHierarchy(path: string, _position: Position, _options?: BackendCallOptions): Promise<TypeItem[]> {
    throw unsupportedByServer(FAKE_SERVER_NAME, 'type hierarchy', path);
  }

  async typeHierarchy(_item: TypeItem, _direction: 'super' | 'sub', _options?: BackendCallOptions): Promise<TypeItem[]> {
    return [];
  }

  async diagnostics(_path: string | undefined, _options?: BackendCallOptions): Promise<DiagnosticReport> {
    return { diagnostics: [], complete: true, files: 0 };
  }

  // Lifecycle and status: trivial, and all here, so a change of the port's lifecycle or status
  // types touches only these methods.
  async start(): Promise<void> {
    // Nothing to start.
  }

  async waitUntilReady(_options?: BackendCallOptions & { timeoutMs?: number; paths?: readonly string[] }): Promise<Completeness> {
    return { complete: true, servers: [], waitedMs: 0, warnings: [], notes: [], ...this.#options.readiness };
  }

  servers(): ServerStatus[] {
    return [...(this.#options.readiness?.servers ?? [])];
  }

  onStatus(_listener: (status: ServerStatus) => void): () => void {
    return () => undefined;
  }

  use(_middleware: BackendMiddleware): () => void {
    return () => undefined;
  }

  // Module paths as the real servers' definitions give them (rust-analyzer's for `.rs` files).
  async modulePath(path: string): Promise<string[][]> {
    const workspace = new Workspace(this.root);
    const of = path.endsWith('.rs') ? rustModulePath : fileModulePath;
    return (await of(path, (p) => workspace.lines(p))).map((segment) => [...segment]);
  }

  relativeQualifiers(path: string): readonly string[] {
    return path.endsWith('.rs') ? RUST_RELATIVE_QUALIFIERS : [];
  }

  async shutdown(): Promise<void> {
    // Nothing runs.
  }

  /** A file the backend answers for; like a server, it refuses paths it does not know. */
  #known(path: string): FakeFile {
    const file = this.#files.get(path);
    if (file === undefined) throw new Error(`fake server: no document ${path}`);
    return file;
  }

  /** What go-to-definition answers at a position (see the module comment). */
  #resolve(path: string, position: Position): FakeDeclaration[] {
    const file = this.#known(path);
    const own = file.declarations.find((d) => d.location.start.line === position.line && d.location.start.column <= position.column && position.column <= d.location.end.column);
    if (own !== undefined && !own.alias) return this.#group(own);
    const name = own?.name ?? wordsOf(file.lines[position.line - 1] ?? '').find((w) => w.start <= position.column && position.column <= w.end)?.text;
    if (name === undefined) return [];
    const all = this.declarations().filter((d) => d.name === name && !d.alias);
    const local = all.filter((d) => d.path === path);
    const targets = local.length > 0 ? local : all;
    if (targets.length === 0) return own !== undefined ? [own] : [];
    return [...new Set(targets.flatMap((d) => this.#group(d)))];
  }

  /** The declarations merged with one: same name, same parent, same file, none an alias. */
  #group(d: FakeDeclaration): FakeDeclaration[] {
    return this.file(d.path).declarations.filter((o) => o.name === d.name && o.parent === d.parent && !o.alias);
  }
}

/** The language of a path, or undefined when the fake has no server for it. */
function languageOf(path: string): string | undefined {
  return LANGUAGES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
}

function symbolOf(d: FakeDeclaration): Omit<BackendSymbol, 'location' | 'precise'> {
  return { name: d.name, kind: d.kind, language: d.language, ...(d.parent !== undefined ? { container: d.parent.name } : {}) };
}

/** Servers filter `workspace/symbol` fuzzily: the query's characters in order, any case. */
function fuzzyMatches(name: string, query: string): boolean {
  let at = 0;
  const lower = name.toLowerCase();
  for (const c of query.toLowerCase()) {
    at = lower.indexOf(c, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.column === b.column;
}

/** The identifiers of a line with code-point columns (1-based, end exclusive). */
function wordsOf(line: string): { text: string; start: number; end: number }[] {
  return [...line.matchAll(IDENTIFIER)].map((m) => {
    const start = [...line.slice(0, m.index)].length + 1;
    return { text: m[0], start, end: start + [...m[0]].length };
  });
}

/** A marker found while stripping: a declaration's span and attributes, by offsets into the text. */
interface RawMarker {
  readonly name: string;
  readonly attributes: readonly string[];
  readonly from: number;
  readonly to: number;
}

/** Parses one marked source: strips the markers and derives declarations, outline and cursors. */
export function parseFakeFile(path: string, source: string): FakeFile {
  const language = languageOf(path) ?? 'plaintext';
  let text = '';
  const markers: RawMarker[] = [];
  const cursorOffsets: number[] = [];
  for (let i = 0; i < source.length; ) {
    if (source.startsWith('<|>', i)) {
      cursorOffsets.push(text.length);
      i += '<|>'.length;
      continue;
    }
    if (source.startsWith('<|', i)) {
      const close = source.indexOf('|>', i + 2);
      if (close < 0) throw new Error(`${path}: a marker "<|" is not closed by "|>"`);
      const [name = '', ...attributes] = source.slice(i + 2, close).split('|');
      markers.push({ name, attributes: attributes.join(' ').split(/\s+/).filter((a) => a !== ''), from: text.length, to: text.length + name.length });
      text += name;
      i = close + 2;
      continue;
    }
    text += source[i];
    i++;
  }
  const lines = text.split('\n');
  const positionAt = (offset: number): Position => {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, column: [...text.slice(lineStart, offset)].length + 1 };
  };
  const extents = markers.map((m) => extentOf(text, m));
  // The parent of a declaration is the innermost one whose body holds its name.
  const parents = markers.map((m, i) => {
    let best: number | undefined;
    extents.forEach((e, j) => {
      if (j === i || e.body === undefined || !(e.body.from < m.from && m.to <= e.body.to)) return;
      const current = best === undefined ? undefined : extents[best]?.body;
      if (current === undefined || e.body.from > current.from) best = j;
    });
    return best;
  });
  const built: { -readonly [K in keyof FakeDeclaration]: FakeDeclaration[K] }[] = [];
  markers.forEach((m, i) => {
    const start = positionAt(m.from);
    const extent = extents[i] as Extent;
    built.push({
      name: m.name,
      kind: '',
      language,
      path,
      location: { path, start, end: positionAt(m.to), content: lines[start.line - 1] ?? '' },
      range: { start: positionAt(extent.from), end: positionAt(extent.to) },
      alias: m.attributes.includes('alias'),
      unindexed: m.attributes.includes('unindexed'),
      parent: undefined,
      children: [],
    });
  });
  built.forEach((d, i) => {
    const p = parents[i];
    if (p !== undefined) {
      const parent = built[p] as FakeDeclaration & { children: FakeDeclaration[] };
      d.parent = parent;
      parent.children.push(d);
    }
  });
  built.forEach((d, i) => {
    const m = markers[i] as RawMarker;
    const explicit = m.attributes.find((a) => a.startsWith('kind='));
    d.kind = explicit !== undefined ? explicit.slice('kind='.length).replace(/-/g, ' ') : inferKind(text, m, language, d.parent?.kind);
  });
  return { path, language, text, lines, declarations: built, cursors: cursorOffsets.map(positionAt) };
}

/** The span of a whole declaration and of its `{…}` body, by offsets. */
interface Extent {
  readonly from: number;
  readonly to: number;
  readonly body?: { readonly from: number; readonly to: number };
}

/**
 * From the first attribute, doc comment or decorator line above the name to the end of the
 * declaration: its `;` or `,`, the `}` that closes its body, or the `}` of what encloses it.
 */
function extentOf(text: string, m: RawMarker): Extent {
  let from = text.lastIndexOf('\n', m.from - 1) + 1;
  while (from > 0) {
    const previousStart = text.lastIndexOf('\n', from - 2) + 1;
    if (!LEADING_LINE.test(text.slice(previousStart, from - 1))) break;
    from = previousStart;
  }
  from += (/^\s*/.exec(text.slice(from)) as RegExpExecArray)[0].length;
  let depth = 0;
  for (let i = m.to; i < text.length; i++) {
    const c = text[i] as string;
    const previous = text[i - 1] ?? '';
    if (c === '(' || c === '[' || (c === '<' && /[\w$]/.test(previous))) depth++;
    else if (c === ')' || c === ']' || (c === '>' && depth > 0 && previous !== '-' && previous !== '=')) depth--;
    else if (depth === 0 && (c === ';' || c === ',')) return { from, to: i + 1 };
    else if (depth === 0 && c === '}') return { from, to: i };
    else if (depth === 0 && c === '{') {
      const close = matchingBrace(text, i);
      return { from, to: close + 1, body: { from: i, to: close } };
    }
    if (depth < 0) return { from, to: i };
  }
  return { from, to: text.length };
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length;
}

/**
 * The kind of a declaration in its language's words, from the keyword before its name and what
 * encloses it: `fn` in an impl or trait is a method, a name in an enum a variant, and so on.
 */
function inferKind(text: string, m: RawMarker, language: string, parentKind: string | undefined): string {
  if (/^impl\b/.test(m.name)) return 'impl';
  const keyword = /(\S+)\s+$/.exec(text.slice(text.lastIndexOf('\n', m.from - 1) + 1, m.from))?.[1];
  const after = text.slice(m.to).trimStart();
  if (language === 'rust') {
    if (keyword === 'fn') return parentKind === 'impl' || parentKind === 'trait' ? 'method' : 'function';
    if (keyword !== undefined && RUST_KEYWORD_KINDS[keyword] !== undefined) return RUST_KEYWORD_KINDS[keyword];
    if (parentKind === 'enum') return 'enum variant';
    if (parentKind === 'struct') return 'field';
    return 'variable';
  }
  if (keyword !== undefined && TS_KEYWORD_KINDS[keyword] !== undefined) return TS_KEYWORD_KINDS[keyword];
  if (parentKind === 'enum') return 'enum member';
  if (parentKind === 'class' || parentKind === 'interface') {
    if (m.name === 'constructor') return 'constructor';
    return after.startsWith('(') || after.startsWith('<') ? 'method' : 'property';
  }
  return 'variable';
}

/** A session whose IDE functions answer from a {@link FakeBackend}. */
export interface FakeSession {
  readonly backend: FakeBackend;
  readonly session: IdeSession;
  /** Evaluates a program. */
  outcome(program: string): Promise<Outcome>;
  /** Evaluates a program and returns its value, failing with the rendered outcome otherwise. */
  value(program: string): Promise<unknown>;
  /** Ends the session and removes the temporary folder. */
  dispose(): Promise<void>;
}

/** How long a fake session's evaluations may take; nothing in them waits on a process. */
const FAKE_DEADLINE_MS = 30_000;

/** Opens an `IdeSession` over a {@link FakeBackend} of marked sources. */
export async function openFakeSession(sources: FakeFiles, options: FakeBackendOptions = {}): Promise<FakeSession> {
  const backend = await FakeBackend.create(sources, options);
  const session = await IdeSession.open({ workspaceRoot: backend.root, backend });
  const outcome = (program: string): Promise<Outcome> => session.evaluate(program, { deadlineMs: FAKE_DEADLINE_MS });
  return {
    backend,
    session,
    outcome,
    value: async (program) => {
      const o = await outcome(program);
      if (o.kind !== 'value') throw new Error(`${program} gave ${o.kind}:\n${renderOutcome(o)}`);
      return o.value;
    },
    dispose: async () => {
      await session.shutdown();
      await backend.dispose();
    },
  };
}
