/**
 * Finding symbol definitions by name, precisely: exact names only (never every fuzzy
 * `workspace/symbol` hit), qualified names (`Type::method`, `module.fn`), locations narrowed to the
 * symbol's name (its selection range), and fallbacks when the index misses: the file's outline,
 * then a text search whose hits are confirmed by go-to-definition.
 */
import type { BackendSymbol, IdeBackend, OutlineSymbol } from '../backend.js';
import type { Location, Position, SymbolDefinition } from '../model.js';
import { searchWorkspace } from '../search.js';
import { walkFiles } from '../search.js';

/** Criteria of a lookup. */
export interface SymbolQuery {
  /** A name, optionally qualified: `validate_token`, `User::new`, `auth.validateToken`. */
  readonly name: string;
  /** Only in this file (a workspace path or a path suffix such as `auth.rs`). */
  readonly file?: string;
  /** Only of this kind (`function`, `struct`, `class`, `method`, …; aliases such as `fn`, `trait`). */
  readonly kind?: string;
  /** Only the definition on this line. */
  readonly line?: number;
}

const KIND_ALIASES: Readonly<Record<string, readonly string[]>> = {
  fn: ['function'],
  func: ['function'],
  def: ['function'],
  trait: ['interface'],
  protocol: ['interface'],
  const: ['constant'],
  var: ['variable'],
  let: ['variable'],
  mod: ['module'],
  variant: ['enummember'],
  enumvariant: ['enummember'],
  type: ['class', 'struct', 'interface', 'enum', 'typeparameter'],
  ctor: ['constructor'],
  prop: ['property'],
};

const normalizeKind = (k: string): string => k.toLowerCase().replace(/[^a-z]/g, '');

/** Whether a symbol kind satisfies a kind filter written by a user or a model. */
export function kindMatches(actual: string, wanted: string): boolean {
  const a = normalizeKind(actual);
  const w = normalizeKind(wanted);
  return a === w || (KIND_ALIASES[w] ?? []).includes(a);
}

/** Whether a workspace path satisfies a `file` filter: equal, ending with it at a `/`, or an extension (`.rs`). */
export function fileMatches(path: string, wanted: string): boolean {
  if (/^\.[A-Za-z0-9]+$/.test(wanted)) return path.endsWith(wanted); // an extension: ".rs"
  const w = wanted.replace(/^\.\//, '').replace(/\\/g, '/');
  return path === w || path.endsWith(`/${w}`);
}

/** Splits `User::new`, `User.new`, `a::b::c` into qualifiers and the final name. */
export function splitQualifiedName(name: string): { qualifiers: string[]; name: string } {
  const parts = name.split(/::|\.|#/).filter((p) => p !== '');
  const last = parts.pop() ?? name;
  return { qualifiers: parts, name: last };
}

/** A qualifier matches the container (`impl User` ↔ `User`) or a module in the file's path. */
function qualifierMatches(symbol: BackendSymbol, qualifier: string): boolean {
  const q = qualifier.toLowerCase();
  const container = (symbol.container ?? '').toLowerCase();
  const containerWords = container.split(/[^a-z0-9_$]+/).filter((w) => w !== '');
  if (containerWords.includes(q)) return true;
  const segments = symbol.location.path.toLowerCase().replace(/\.[^./]+$/, '').split('/');
  return segments.includes(q) || q === 'crate' || q === 'self' || q === 'super';
}

/** Looks up definitions by name, most precise answers first; never fuzzy. */
export async function findSymbolsByName(backend: IdeBackend, query: SymbolQuery, signal: AbortSignal): Promise<SymbolDefinition[]> {
  const { qualifiers, name } = splitQualifiedName(query.name.trim());
  const opts = { signal };
  const outlines = new OutlineCache(backend, signal);

  const filter = (symbols: readonly BackendSymbol[]): BackendSymbol[] =>
    symbols.filter(
      (s) =>
        s.name === name &&
        qualifiers.every((q) => qualifierMatches(s, q)) &&
        (query.file === undefined || fileMatches(s.location.path, query.file)) &&
        (query.kind === undefined || kindMatches(s.kind, query.kind)),
    );

  // 1. The index, exact names only.
  let found = filter(await backend.workspaceSymbols(name, opts));
  // 2. The outline of the file the caller named.
  if (found.length === 0 && query.file !== undefined) {
    const files = await filesMatching(backend, query.file);
    for (const path of files) found.push(...filter(flatten(await outlines.get(path))));
  }
  // 3. Text search, each hit confirmed by asking where the name at that spot is defined.
  if (found.length === 0) found = filter(await confirmedByDefinition(backend, name, outlines, signal));

  const precise = await Promise.all(found.map((s) => narrowToName(backend, s, outlines)));
  const unique = await dropAliases(backend, dedupe(precise.map(toDefinition)), signal);
  return query.line === undefined ? unique : unique.filter((d) => d.definedAt.start.line === query.line);
}

/** Converts a backend symbol to the value IDE functions return. */
export function toDefinition(s: BackendSymbol): SymbolDefinition {
  return {
    name: s.name,
    kind: s.kind,
    ...(s.container !== undefined && s.container !== '' ? { container: s.container } : {}),
    language: s.language,
    definedAt: s.location,
  };
}

/** Outlines fetched at most once per lookup. */
export class OutlineCache {
  readonly #outlines = new Map<string, Promise<OutlineSymbol[]>>();

  constructor(
    private readonly backend: IdeBackend,
    private readonly signal: AbortSignal,
  ) {}

  get(path: string): Promise<OutlineSymbol[]> {
    let outline = this.#outlines.get(path);
    if (outline === undefined) {
      outline = this.backend.documentSymbols(path, { signal: this.signal }).catch(() => []);
      this.#outlines.set(path, outline);
    }
    return outline;
  }
}

export function flatten(outline: readonly OutlineSymbol[]): OutlineSymbol[] {
  return outline.flatMap((s) => [s, ...flatten(s.children)]);
}

/**
 * Moves a symbol's location onto its name. Servers disagree on what `workspace/symbol` points at
 * (the name, or the start of the whole declaration, attributes and doc comments included); asking
 * for references or hover there gives the wrong symbol or nothing.
 */
export async function narrowToName(backend: IdeBackend, s: BackendSymbol, outlines: OutlineCache): Promise<BackendSymbol> {
  if (s.precise) return s;
  const outline = flatten(await outlines.get(s.location.path));
  const start = s.location.start;
  const match = outline.find((o) => o.name === s.name && o.precise && contains(o.range ?? o.location, start)) ?? outline.find((o) => o.name === s.name && o.precise && samePosition(o.location.start, start));
  if (match !== undefined) return { ...s, location: match.location, precise: true, ...(match.range !== undefined ? { range: match.range } : {}) };
  // No outline: find the name as a whole word at or after the reported start.
  try {
    const lines = await backend.workspace.lines(s.location.path);
    for (let line = start.line; line <= Math.min(lines.length, start.line + 50); line++) {
      const text = lines[line - 1] ?? '';
      const from = line === start.line ? indexOfCodePoint(text, start.column - 1) : 0;
      const at = wordIndex(text, s.name, from);
      if (at >= 0) {
        const column = codePointsBefore(text, at) + 1;
        return { ...s, location: { path: s.location.path, start: { line, column }, end: { line, column: column + [...s.name].length }, content: text }, precise: true };
      }
    }
  } catch {
    // unreadable file: keep what the server said
  }
  return s;
}

async function confirmedByDefinition(backend: IdeBackend, name: string, outlines: OutlineCache, signal: AbortSignal): Promise<BackendSymbol[]> {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { matches } = await searchWorkspace(backend.workspace, '.', `(?<![A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])`, { signal, maxResults: 200 });
  const candidates = matches.filter((m) => backend.handles(m.path)).slice(0, 60);
  const seen = new Map<string, Location>();
  await mapLimit(candidates, 8, async (m) => {
    const defs = await backend.definition(m.path, m.start, { signal }).catch(() => []);
    for (const d of defs) seen.set(`${d.path}:${d.start.line}:${d.start.column}`, d);
  });
  const out: BackendSymbol[] = [];
  for (const d of seen.values()) {
    const outline = flatten(await outlines.get(d.path));
    const symbol = outline.find((o) => o.name === name && (samePosition(o.location.start, d.start) || contains(o.range ?? o.location, d.start)));
    if (symbol !== undefined) out.push(symbol);
  }
  return out;
}

async function filesMatching(backend: IdeBackend, file: string): Promise<string[]> {
  try {
    await backend.workspace.resolveReal(file);
    return [backend.workspace.relative(backend.workspace.resolve(file))];
  } catch {
    const { files } = await walkFiles(backend.workspace, '.', { limit: 20_000 });
    return files.filter((f) => fileMatches(f, file) && backend.handles(f)).slice(0, 20);
  }
}

/**
 * Drops re-exports and imports that servers list as symbols (`pub use model::User`,
 * `export { User } from './model'`): a candidate whose go-to-definition leads to another
 * candidate is an alias of it, not a definition.
 */
async function dropAliases(backend: IdeBackend, defs: SymbolDefinition[], signal: AbortSignal): Promise<SymbolDefinition[]> {
  if (defs.length < 2) return defs;
  const key = (l: Location): string => `${l.path}:${l.start.line}:${l.start.column}`;
  const keys = new Set(defs.map((d) => key(d.definedAt)));
  const targets = await mapLimit(defs, 8, (d) => backend.definition(d.definedAt.path, d.definedAt.start, { signal }).catch(() => [] as Location[]));
  const kept = defs.filter((d, i) => !(targets[i] ?? []).some((t) => key(t) !== key(d.definedAt) && keys.has(key(t))));
  return kept.length > 0 ? kept : defs;
}

function dedupe(defs: SymbolDefinition[]): SymbolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => {
    const key = `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}:${d.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function contains(range: { start: Position; end: Position }, p: Position): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.column >= range.start.column);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.column <= range.end.column);
  return afterStart && beforeEnd;
}

function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.column === b.column;
}

/** The UTF-16 index of a code-point offset. */
function indexOfCodePoint(text: string, codePoints: number): number {
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++) i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
  return i;
}

function codePointsBefore(text: string, index: number): number {
  return [...text.slice(0, index)].length;
}

/** Index of `word` as a whole identifier in `text` at or after `from`; -1 if absent. */
function wordIndex(text: string, word: string, from: number): number {
  const isIdent = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  for (let at = text.indexOf(word, from); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isIdent(text[at - 1]) && !isIdent(text[at + word.length])) return at;
  }
  return -1;
}

/** Runs `fn` over items with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  });
  await Promise.all(workers);
  return results;
}
