/**
 * Finding symbol definitions by name, precisely: exact names only (never every fuzzy
 * `workspace/symbol` hit), qualified names (`Type::method`, `module.fn`), locations narrowed to the
 * symbol's name (its selection range), and fallbacks when the index misses: the file's outline,
 * then a text search whose hits are confirmed by go-to-definition.
 */
import { codePointCount } from '../../dialect/index.js';
import { isKeptAnswer, type BackendSymbol, type IdeBackend, type OutlineSymbol, type TypeItem } from '../backend.js';
import { kindMatches } from '../kinds.js';
import { compareLocations, formatLocation, samePosition, sameStart, type Location, type Position, type SymbolDeclaration, type SymbolDefinition } from '../model.js';
import type { TraceSink } from '../trace.js';
import type { Workspace } from '../workspace.js';
import { searchWorkspace } from '../search.js';
import { walkFiles } from '../search.js';
import { SKIPPED_DIRS } from '../skipped-dirs.js';
import { basesOf, inheritedMembers, INHERITING_KINDS, MAX_INHERITED_TYPES, type InheritanceSources, type OutlineType } from './inherited.js';
import { assignedMember, functionValueOfMember } from './js-members.js';
import { globReexported, MAX_GLOB_REEXPORTS } from './glob-reexports.js';
import { ownersRuleOut, qualifiersMatch, splitQualifiedName, SymbolPaths } from './qualified.js';
import { escapeRegExp } from '../regexp-text.js';

export { kindMatches } from '../kinds.js';
export { splitQualifiedName } from './qualified.js';

/** How far below a reported start the name is looked for when no outline places it. */
const NAME_SEARCH_LINES = 50;
/** How far above a name the start of its statement is looked for (multi-line imports). */
const STATEMENT_SEARCH_LINES = 40;
/** Kinds that name a type whose constructors carry its name. */
const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'union']);
/** The kinds that overload (constructors, functions, methods). */
const OVERLOADABLE: ReadonlySet<string> = new Set(['function', 'method', 'constructor']);
/** Kinds of a C/C++ type tag a typedef of the same name names (`typedef struct cJSON {…} cJSON;`). */
const TAG_KINDS: ReadonlySet<string> = new Set(['struct', 'union', 'enum', 'class']);

/**
 * Whether a declaration of kind `other` is part of a symbol of kind `kind` merged with it: the
 * same kind (overloads), or, for a type alias, the tag of its name it was merged with (a C typedef
 * and its struct are one type to a reader, and their uses are the uses of one).
 */
export function sameSymbolKind(kind: string, other: string): boolean {
  return kind === other || (kind === 'type alias' && TAG_KINDS.has(other));
}
/** At most this many targets of one candidate are asked whether they lead back to it. */
const MAX_BACK_CHECKS = 4;
/** Go-to-definition requests in flight at once per lookup. */
const DEFINITION_CONCURRENCY = 32;

/** Error codes of symbol lookups. */
export const SymbolCode = {
  /** No definition has the name (with the filters given). */
  NotFound: 'symbol-not-found',
} as const;

/**
 * A name written as a macro is invoked (`info!`, `log::info!`, `vec!`): the macro of that name.
 * Without a kind of its own, the query asks for macros (a kind filter that leaves nothing says
 * what the name is instead).
 */
function macroInvocation(query: SymbolQuery): SymbolQuery {
  const name = query.name.trim();
  if (!name.endsWith('!') || name.length < 2) return query;
  return { ...query, name: name.slice(0, -1).trimEnd(), kind: query.kind ?? 'macro' };
}

/** Criteria of a lookup. */
export interface SymbolQuery {
  /** A name, optionally qualified: `validate_token`, `User::new`, `auth.validateToken`, `crate::util::validate_token`. */
  readonly name: string;
  /** Only in this file (a workspace path or a path suffix such as `auth.rs`). */
  readonly file?: string;
  /** Only of this kind, in the language's words (`function`, `struct`, `trait`, `type alias`, …; synonyms such as `fn`). */
  readonly kind?: string;
  /** Only the definition on this line. */
  readonly line?: number;
}

/** What a lookup found, and what its filters (`file`, `kind`, `line`) left out. */
export interface SymbolLookup {
  /** The definitions that pass every criterion. */
  readonly definitions: SymbolDefinition[];
  /** The definitions with the name (and qualifiers) before `file`, `kind` and `line` were applied. */
  readonly unfiltered: SymbolDefinition[];
  /** What the answer may miss, in one short line each (a walk through base classes that hit its bound). */
  readonly gaps?: readonly string[];
  /** The lookup made earlier from the same kept answer (nothing it depends on changed since). */
  readonly kept?: true;
}

/** Whether a workspace path satisfies a `file` filter: equal, ending with it at a `/`, or an extension (`.rs`). */
export function fileMatches(path: string, wanted: string): boolean {
  if (/^\.[A-Za-z0-9]+$/.test(wanted)) return path.endsWith(wanted); // an extension: ".rs"
  const w = wanted.replace(/^\.\//, '').replace(/\\/g, '/');
  return path === w || path.endsWith(`/${w}`);
}

/** Looks up definitions by name, most precise answers first; never fuzzy. */
export async function findSymbolsByName(backend: IdeBackend, query: SymbolQuery, signal: AbortSignal, trace?: TraceSink): Promise<SymbolDefinition[]> {
  return (await lookupSymbols(backend, query, signal, trace)).definitions;
}

/**
 * Looks up definitions by name and says what the filters excluded. Candidates come from the
 * index, then the outline of the file the caller named, then a text search confirmed by
 * go-to-definition; each is moved onto its name, checked against the qualifiers by its real
 * path, dropped when it is an import or re-export binding, and merged with the other
 * declarations of the same symbol (overloads, interface + namespace, …).
 */
export async function lookupSymbols(backend: IdeBackend, asked: SymbolQuery, signal: AbortSignal, trace?: TraceSink): Promise<SymbolLookup> {
  const query = macroInvocation(asked);
  const { qualifiers, name } = splitQualifiedName(query.name.trim());
  const outlines = new LookupCache(backend, signal);
  const paths = new SymbolPaths(backend);
  const named = (symbols: readonly BackendSymbol[]): BackendSymbol[] =>
    symbols.filter((s) => s.name === name || void trace?.drop(describe(s), `a fuzzy workspace/symbol hit: "${s.name}" is not "${name}"`));
  let globCut = false;
  const qualify = async (candidates: readonly BackendSymbol[], within: readonly string[] = qualifiers): Promise<Located[]> => {
    const located = await assignedMembers(outlines, dedupeLocated(await Promise.all(candidates.map((s) => locate(s, outlines)))));
    const out: Located[] = [];
    const rest: Located[] = [];
    for (const l of located) {
      const relative = paths.relativeQualifiers(l.symbol);
      if (within.length === 0 || (!ownersRuleOut(within, paths.owners(l.symbol, l.ancestors), relative) && qualifiersMatch(within, await paths.of(l.symbol, l.ancestors), relative))) out.push(l);
      else {
        trace?.drop(describe(l.symbol), `its path does not match the qualifier ${within.join('::')}`);
        rest.push(l);
      }
    }
    // A path through a re-export a macro call writes (serde's `crate_root!();` `pub use`s
    // `serde_core::Deserialize`) names what the `use` names: no go-to-definition leads there.
    if (within.length > 0) out.push(...(await macroReexportTargets(out, rest, paths)));
    const items = withoutLocals(out, trace);
    // A path through a glob re-export (`thiserror::Error` where thiserror's root writes `pub use thiserror_impl::*;`).
    // Only when nothing but bindings fits: an item the qualifiers name directly is the answer.
    if (within.length > 0 && rest.length > 0 && (await Promise.all(items.map((l) => bindingOf(l.symbol, outlines.lines)))).every((b) => b !== undefined)) {
      const glob = await globReexported(backend, within, rest, paths, signal);
      for (const l of glob.found) trace?.keep(describe(l.symbol), `through a glob re-export (\`pub use …::*\`) in ${within.join('::')}`);
      items.push(...glob.found);
      if (glob.cut) globCut = true;
    }
    return [...items, ...(await implementingTraitMembers(backend, out, rest, signal))];
  };

  // 1. The index, exact names only (explain() asks for the fuzzy ones too, to show them dropped).
  const listed = await backend.workspaceSymbols(name, { signal, exact: trace === undefined });
  // The backend answered with the answer it kept (nothing it was made from changed): so did
  // everything this lookup derives from it and from the files, and the lookup made then is the
  // answer. No work per candidate on a warm lookup.
  const keeps = trace === undefined && isKeptAnswer(listed);
  const criteria = JSON.stringify([query.name.trim(), query.file ?? null, query.kind ?? null, query.line ?? null]);
  const kept = keeps ? keptLookups.get(listed)?.get(criteria) : undefined;
  if (kept !== undefined) return { ...kept, definitions: [...kept.definitions], unfiltered: [...kept.unfiltered], kept: true };
  const found = named(listed);
  // 2. The outline of the file the caller named, when the index has nothing there.
  if (query.file !== undefined && !found.some((s) => fileMatches(s.location.path, query.file as string))) {
    for (const path of await filesMatching(backend, query.file)) found.push(...named(flatten(await outlines.get(path))));
  }
  let qualified = await qualify(found);
  // 3. Text search, each hit confirmed by asking where the name at that spot is defined.
  if (qualified.length === 0) qualified = await qualify(await confirmedByDefinition(backend, name, outlines, signal));
  // 3b. A path through a module re-exported under another one (`facade::emit::Emit` where a macro
  // call in facade writes `pub use shapes::emit;`): the written module path is looked up, and the
  // name is qualified by where each module it names really is.
  if (qualified.length === 0 && qualifiers.length >= 2) {
    for (const real of await reexportedModulePaths(backend, qualifiers, paths, signal, trace)) {
      const through = await qualify(found, real);
      for (const l of through) trace?.keep(describe(l.symbol), `through the module ${qualifiers.join('::')}, which is ${real.join('::')}`);
      qualified = dedupeLocated([...qualified, ...through]);
    }
  }
  // 4. `Derived.member` that `Derived` inherits: the member of a base class.
  const gaps: string[] = [];
  // What the bases' own lookups read is not this lookup's to vouch for: it is not kept. Where
  // some types of the owner's name define the member, another of that name may inherit it
  // (zod's v3 `class ZodString { min }` beside v4's `interface ZodString extends _ZodString`).
  const inheriting = qualifiers.length > 0 && (qualified.length === 0 || (await ownerWithoutMember(backend, qualifiers, name, qualified, outlines, signal)));
  if (inheriting) {
    const inherited = await inheritedCandidates(backend, qualifiers, name, outlines, signal, trace);
    qualified = dedupeLocated([...qualified, ...inherited.located]);
    if (inherited.cut) gaps.push(`the base classes of ${qualifiers.join('.')} were read up to ${MAX_INHERITED_TYPES} types: a member ${name} further up is not looked for`);
  }
  // A constructor carries its class's name (C++, Java, C#): the bare name is the class; the
  // constructor is found as `Circle::Circle`.
  if (qualifiers.length === 0 && qualified.some((l) => TYPE_KINDS.has(l.symbol.kind))) {
    qualified = qualified.filter((l) => l.symbol.kind !== 'constructor' || void trace?.drop(describe(l.symbol), `a constructor: the name stands for its class (ask for ${name}::${name})`));
  }
  if (globCut) gaps.push(`glob re-exports (\`pub use …::*\`) were read up to ${MAX_GLOB_REEXPORTS} lines: a path through one further on is not followed`);
  const unfiltered = await mergeDeclarations(backend, qualified, outlines, signal, qualifiers.length > 0, trace);
  const definitions = unfiltered.filter((d) => {
    const keep =
      declarationsOf(d).some((x) => query.file === undefined || fileMatches(x.definedAt.path, query.file)) &&
      (query.kind === undefined || declarationsOf(d).some((x) => kindMatches(x.kind, query.kind as string))) &&
      (query.line === undefined || declarationsOf(d).some((x) => x.definedAt.start.line === query.line));
    if (keep) trace?.keep(describe({ name: d.name, kind: d.kind, location: d.definedAt }), 'exact name, a declaration');
    else trace?.drop(describe({ name: d.name, kind: d.kind, location: d.definedAt }), `excluded by the filter ${[query.file !== undefined ? `file: ${query.file}` : '', query.kind !== undefined ? `kind: ${query.kind}` : '', query.line !== undefined ? `line: ${query.line}` : ''].filter((f) => f !== '').join(', ')}`);
    return keep;
  });
  const result: SymbolLookup = { definitions, unfiltered, ...(gaps.length > 0 ? { gaps } : {}) };
  const dependsOn = [...outlines.touched, ...unfiltered.flatMap((d) => declarationsOf(d).map((x) => x.definedAt.path))];
  if (keeps && !inheriting && dependsOn.every(watchedPath)) {
    const byCriteria = keptLookups.get(listed) ?? new Map<string, SymbolLookup>();
    byCriteria.set(criteria, { ...result, definitions: [...definitions], unfiltered: [...unfiltered] });
    keptLookups.set(listed, byCriteria);
  }
  return result;
}

/**
 * Whether a class or interface of the workspace named by the last qualifier declares no member
 * `name` in its body (so it may inherit it): the index's exact answer for the owner's name (the
 * backend's kept one), and the outline of a type's file only where no found member lies in it.
 * A cold qualified lookup pays one more exact `workspace/symbol` request for it.
 */
async function ownerWithoutMember(backend: IdeBackend, qualifiers: readonly string[], name: string, found: readonly Located[], outlines: LookupCache, signal: AbortSignal): Promise<boolean> {
  const owner = qualifiers.at(-1);
  if (owner === undefined) return false;
  const parents = new Set(found.map((l) => l.ancestors.at(-1)).filter((a): a is OutlineSymbol => a !== undefined).map((a) => `${a.location.path}:${a.location.start.line}`));
  // The workspace's own types only: a library declares an interface in many files (TypeScript's
  // `interface String` per lib file), each holding some members, and those are not looked for here.
  const types = (await backend.workspaceSymbols(owner, { signal, exact: true }).catch(() => [] as BackendSymbol[])).filter(
    (s) => s.name === owner && DECLARED_SUPERTYPE_KINDS.has(s.kind) && watchedPath(s.location.path) && !parents.has(`${s.location.path}:${s.location.start.line}`),
  );
  for (const type of types) {
    // A member declared in the body and defined elsewhere (C++'s `double Circle::area() const`) is the type's own.
    const path = outlinePath(await outlines.get(type.location.path), (o) => DECLARED_SUPERTYPE_KINDS.has(o.kind) && samePosition(o.location.start, type.location.start));
    const node = path?.at(-1);
    if (node !== undefined && !node.children.some((c) => c.name === name)) return true;
  }
  return false;
}

/**
 * The members named `name` that the types named by `qualifiers` inherit (`inherited.ts`): the
 * owner is looked up like any name, and its bases walked through the server's type hierarchy, or
 * its declaration header where the server has none.
 */
async function inheritedCandidates(
  backend: IdeBackend,
  qualifiers: readonly string[],
  name: string,
  outlines: LookupCache,
  signal: AbortSignal,
  trace?: TraceSink,
): Promise<{ located: Located[]; cut: boolean }> {
  const owners = (await lookupSymbols(backend, { name: qualifiers.join('.') }, signal)).definitions.filter((d) => INHERITING_KINDS.has(d.kind));
  const sources = inheritanceSources(backend, outlines, signal);
  const located: Located[] = [];
  let cut = false;
  for (const owner of owners) {
    const type = await outlineType(owner, outlines);
    if (type === undefined) continue;
    const found = await inheritedMembers(type, name, sources);
    cut ||= found.cut;
    for (const m of found.members) {
      trace?.keep(describe(m.member), `inherited by ${owner.name} from ${m.base.node.name}`);
      located.push({ symbol: m.member, ancestors: m.ancestors });
    }
  }
  return { located: dedupeLocated(located), cut };
}

/**
 * Kinds whose declaration writes all their supertypes: a class's header, an interface's `extends`
 * or embedded interfaces. A struct's are not written (the interfaces a Go struct satisfies, the
 * traits a Rust struct implements; embedding is not subtyping).
 */
const DECLARED_SUPERTYPE_KINDS: ReadonlySet<string> = new Set(['class', 'interface']);

/**
 * The direct supertypes of a class or interface as its declaration writes them (the bases in its
 * header, a Go interface's embedded interfaces), those declared in the workspace: the type
 * hierarchy of a server that has none (pyright, tsgo, gopls). Undefined for a symbol that is no
 * such type in its file's outline.
 */
export async function declaredSupertypes(backend: IdeBackend, symbol: SymbolDefinition, signal: AbortSignal, unlisted?: string[]): Promise<SymbolDefinition[] | undefined> {
  if (!DECLARED_SUPERTYPE_KINDS.has(symbol.kind)) return undefined;
  const outlines = new LookupCache(backend, signal);
  const type = await outlineType(symbol, outlines);
  if (type === undefined) return undefined;
  const bases = await basesOf(type, inheritanceSources(backend, outlines, signal), unlisted);
  return bases.map((b) => toDefinition(b.node));
}

/** A type's entry in its file's outline, with its ancestors. */
async function outlineType(type: SymbolDefinition, outlines: LookupCache): Promise<OutlineType | undefined> {
  const outline = await outlines.get(type.definedAt.path);
  const path = outlinePath(outline, (o) => INHERITING_KINDS.has(o.kind) && samePosition(o.location.start, type.definedAt.start));
  const node = path?.[path.length - 1];
  return path === undefined || node === undefined ? undefined : { path: type.definedAt.path, node, ancestors: path.slice(0, -1) };
}

/** What the walk over a type's bases reads, through one lookup's caches. */
function inheritanceSources(backend: IdeBackend, outlines: LookupCache, signal: AbortSignal): InheritanceSources {
  return {
    outline: (path) => outlines.get(path),
    lines: outlines.lines,
    definition: (path, at) => backend.definition(path, at, { signal }).catch(() => []),
    supertypes: async (path, at) => {
      let items: TypeItem[];
      try {
        items = await backend.prepareTypeHierarchy(path, at, { signal });
      } catch {
        return undefined; // no type hierarchy: the header says
      }
      return (await mapLimit(items, DEFINITION_CONCURRENCY, (item) => backend.typeHierarchy(item, 'super', { signal }).catch(() => []))).flat().map((t) => t.symbol.location);
    },
    // Declared outside the type's body (Go's methods): in its folder (Go's package), its owner the type.
    detachedMembers: async (type, member) => {
      const folder = type.path.slice(0, type.path.lastIndexOf('/') + 1);
      const hits = await backend.workspaceSymbols(member, { signal, exact: true }).catch(() => []);
      const files = [...new Set(hits.filter((s) => s.name === member && s.container === type.node.name && s.location.path.slice(0, s.location.path.lastIndexOf('/') + 1) === folder).map((s) => s.location.path))];
      const found: OutlineSymbol[] = [];
      for (const file of files) found.push(...(await outlines.get(file)).filter((s) => s.name === member && s.container === type.node.name));
      return found;
    },
  };
}

/**
 * Lookups made from a kept `workspaceSymbols` answer (`keptAnswer`), by their criteria: kept as
 * long as the backend keeps the answer (weakly: a dropped answer drops its lookups).
 */
const keptLookups = new WeakMap<readonly BackendSymbol[], Map<string, SymbolLookup>>();

/**
 * Whether a workspace path lies where the watchers that keep a backend's answers see changes (not
 * outside the workspace, not in a dependency or build folder they skip).
 */
function watchedPath(path: string): boolean {
  return !/^(\/|\\|[A-Za-z]:)/.test(path) && !path.startsWith('../') && !path.split('/').some((part) => SKIPPED_DIRS.has(part));
}

/** Every declaration of a definition (itself when it has no others). */
export function declarationsOf(d: SymbolDefinition): readonly SymbolDeclaration[] {
  return d.declarations ?? [{ kind: d.kind, definedAt: d.definedAt }];
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

/** Reads a workspace file's lines. */
type ReadLines = (path: string) => Promise<readonly string[]>;

/**
 * A reader that reads each file (and checks it against the disk) once: the steps of one lookup
 * read the same files again and again, and one answer is made from one reading of each.
 */
export function linesOnce(workspace: Workspace): ReadLines {
  const read = new Map<string, Promise<readonly string[]>>();
  return (path) => {
    let lines = read.get(path);
    if (lines === undefined) {
      lines = workspace.lines(path);
      read.set(path, lines);
    }
    return lines;
  };
}

/** The outlines and file lines of one lookup, each fetched at most once. */
class LookupCache {
  readonly #outlines = new Map<string, Promise<OutlineSymbol[]>>();
  readonly #times = new Map<string, Promise<0 | 1 | 2>>();
  /** Each file's lines, read once per lookup. */
  readonly lines: ReadLines;
  /** The files the lookup read or was led to (outlines, lines, go-to-definition targets): what its answer depends on. */
  readonly touched = new Set<string>();

  constructor(
    private readonly backend: IdeBackend,
    private readonly signal: AbortSignal,
  ) {
    const read = linesOnce(backend.workspace);
    this.lines = (path) => {
      this.touched.add(path);
      return read(path);
    };
  }

  /** How often `name` is written in the code of a file (`timesWritten`), once per file and name; 2 when unreadable. */
  timesWritten(path: string, name: string): Promise<0 | 1 | 2> {
    const key = `${path}\u0000${name}`;
    let times = this.#times.get(key);
    if (times === undefined) {
      times = this.lines(path).then((lines) => timesWritten(lines, name), () => 2 as const);
      this.#times.set(key, times);
    }
    return times;
  }

  get(path: string): Promise<OutlineSymbol[]> {
    let outline = this.#outlines.get(path);
    if (outline === undefined) {
      this.touched.add(path);
      outline = this.backend.documentSymbols(path, { signal: this.signal }).catch(() => []);
      this.#outlines.set(path, outline);
    }
    return outline;
  }
}

/** An outline with every nested symbol, depth first. */
export function flatten(outline: readonly OutlineSymbol[]): OutlineSymbol[] {
  return outline.flatMap((s) => [s, ...flatten(s.children)]);
}

/** Kinds whose variables are locals or parameters (pyright's index lists them; others' do not). */
const FUNCTION_KINDS = new Set(['function', 'method', 'constructor']);

/**
 * Without the variables that live inside a function (parameters, locals) when anything else has
 * the name: a name lookup asks for what a module or class declares, and `symbolAt` reaches locals.
 */
function withoutLocals(located: readonly Located[], trace?: TraceSink): Located[] {
  const isLocal = (l: Located): boolean => l.symbol.kind === 'variable' && FUNCTION_KINDS.has(l.ancestors.at(-1)?.kind ?? '');
  const kept = located.filter((l) => !isLocal(l));
  if (kept.length === 0 || kept.length === located.length) return [...located];
  for (const l of located) if (isLocal(l)) trace?.drop(describe(l.symbol), 'a parameter or local variable of a function, and the name has other definitions');
  return kept;
}

/** A candidate moved onto its name, with its outline ancestors (outermost first). */
interface Located {
  readonly symbol: BackendSymbol;
  readonly ancestors: readonly OutlineSymbol[];
}

/** The chain of outline entries from the top down to the first entry satisfying `hit`. */
function outlinePath(outline: readonly OutlineSymbol[], hit: (o: OutlineSymbol) => boolean): OutlineSymbol[] | undefined {
  for (const o of outline) {
    if (hit(o)) return [o];
    const inner = outlinePath(o.children, hit);
    if (inner !== undefined) return [o, ...inner];
  }
  return undefined;
}

/**
 * Moves a symbol's location onto its name and finds its place in the file's outline. Servers
 * disagree on what `workspace/symbol` points at (the name, or the start of the whole
 * declaration, attributes and doc comments included); asking for references or hover there
 * gives the wrong symbol or nothing.
 */
async function locate(s: BackendSymbol, outlines: LookupCache): Promise<Located> {
  const outline = await outlines.get(s.location.path);
  const start = s.location.start;
  const path =
    outlinePath(outline, (o) => o.name === s.name && o.precise && samePosition(o.location.start, start)) ??
    (s.precise ? undefined : outlinePath(outline, (o) => o.name === s.name && o.precise && contains(o.range ?? o.location, start)));
  const match = path?.[path.length - 1];
  if (path !== undefined && match !== undefined) {
    const symbol = { ...s, location: match.location, precise: true, ...(match.range !== undefined ? { range: match.range } : {}), ...(match.owners !== undefined ? { owners: match.owners } : {}) };
    return { symbol, ancestors: path.slice(0, -1) };
  }
  // Not in the outline (tsgo lists a type alias without the members of its object type): its
  // owners are the entries whose declarations hold it.
  const ancestors = enclosingPath(outline, start);
  const owner = ancestors.at(-1)?.name;
  const named = (s.container ?? '') === '' && owner !== undefined ? { ...s, container: owner } : s;
  return { symbol: await narrowByText(outlines.lines, named), ancestors };
}

/** The chain of outline entries (outermost first) whose declaration ranges hold `position`. */
function enclosingPath(outline: readonly OutlineSymbol[], position: Position): OutlineSymbol[] {
  const path: OutlineSymbol[] = [];
  let level = outline;
  for (;;) {
    const holder = level.find((o) => o.range !== undefined && contains(o.range, position));
    if (holder === undefined) return path;
    path.push(holder);
    level = holder.children;
  }
}

/**
 * JavaScript members defined by assignment (`View.prototype.lookup = function lookup…`): each is
 * named by the object it is assigned to (its container), a method when its value is a function,
 * and the function expression's own name at the same statement is the same definition, not a
 * second one.
 */
async function assignedMembers(files: LookupCache, located: readonly Located[]): Promise<Located[]> {
  const out: Located[] = [];
  for (const l of located) {
    const { symbol } = l;
    if (!/^(typescript|javascript)/.test(symbol.language)) {
      out.push(l);
      continue;
    }
    const text = await files.lines(symbol.location.path).then((lines) => lines[symbol.location.start.line - 1] ?? '', () => '');
    const { line, column } = symbol.location.start;
    const memberColumn = functionValueOfMember(text, column, symbol.name);
    const memberListed = (c: number): boolean => located.some((o) => o !== l && o.symbol.location.path === symbol.location.path && o.symbol.location.start.line === line && o.symbol.location.start.column === c);
    if (memberColumn !== undefined && memberListed(memberColumn)) continue;
    const member = assignedMember(text, column, symbol.name);
    if (member === undefined || member.owners.length === 0) {
      out.push(l);
      continue;
    }
    out.push({ symbol: { ...symbol, container: member.owners.join('.'), kind: member.functionValue ? 'method' : symbol.kind }, ancestors: [] });
  }
  return out;
}

/**
 * Without an outline: the name as a whole word inside the range the server reported. A name not
 * written there belongs to generated code (an item a macro call expands to, whose place is the
 * call or the macro's body): it stays where the server put it, never moved onto the next word
 * that happens to match.
 */
async function narrowByText(read: ReadLines, s: BackendSymbol): Promise<BackendSymbol> {
  if (s.precise) return s;
  const { start } = s.location;
  // An empty range says only where the declaration starts: look a few lines further.
  const end = samePosition(s.location.end, start) ? { line: start.line + NAME_SEARCH_LINES, column: Number.MAX_SAFE_INTEGER } : s.location.end;
  try {
    const lines = await read(s.location.path);
    // A word in a comment names nothing (memchr's crate spans its `lib.rs`, whose doc comment says `memchr`).
    let inBlock = false;
    for (let line = start.line; line <= Math.min(lines.length, end.line, start.line + NAME_SEARCH_LINES); line++) {
      const full = lines[line - 1] ?? '';
      const code = withoutComments(full, s.language === 'python' ? PYTHON_COMMENTS : C_COMMENTS, inBlock);
      inBlock = code.inBlock;
      const text = line === end.line ? code.text.slice(0, indexOfCodePoint(full, end.column - 1)) : code.text;
      const from = line === start.line ? indexOfCodePoint(text, start.column - 1) : 0;
      const at = wordIndex(text, s.name, from);
      if (at >= 0) {
        const column = codePointsBefore(text, at) + 1;
        return { ...s, location: { path: s.location.path, start: { line, column }, end: { line, column: column + codePointCount(s.name, 0, s.name.length) }, content: full }, precise: true };
      }
    }
  } catch {
    // unreadable file: keep what the server said
  }
  return s;
}

async function confirmedByDefinition(backend: IdeBackend, name: string, outlines: LookupCache, signal: AbortSignal): Promise<BackendSymbol[]> {
  const escaped = escapeRegExp(name);
  const { matches } = await searchWorkspace(backend.workspace, '.', `(?<![A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])`, { signal, maxResults: 200 });
  const candidates = matches.filter((m) => backend.handles(m.path)).slice(0, 60);
  const seen = new Map<string, Location>();
  await mapLimit(candidates, 8, async (m) => {
    const defs = await backend.definition(m.path, m.start, { signal }).catch(() => []);
    for (const d of defs) seen.set(formatLocation(d), d);
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
 * Turns located candidates into definitions: drops import and re-export bindings, and merges
 * the declarations of one symbol into one definition. Go-to-definition at a declaration's name
 * is the server's own answer to both questions: at a binding it leads elsewhere (or, for an
 * unresolved import, nowhere else — the text says what it is), and at one declaration of a
 * merged symbol (overloads, interface + namespace, class + namespace) it lists all of them.
 */
async function mergeDeclarations(backend: IdeBackend, located: readonly Located[], outlines: LookupCache, signal: AbortSignal, throughBindings: boolean, trace?: TraceSink): Promise<SymbolDefinition[]> {
  // A generated item (its name is not written where the server puts it: a macro call) is no
  // binding, and go-to-definition there answers for the macro, not for the item.
  const generated = (l: Located): boolean => !l.symbol.precise && l.symbol.binding === undefined;
  // A `use` a macro call writes (its expansion says so): a binding, and go-to-definition at the
  // call answers for the macro, not for what it binds.
  const macroBinding = (l: Located): boolean => !l.symbol.precise && l.symbol.binding !== undefined;
  // A declaration that can neither merge with another file's nor be a binding (the server's
  // language says so by its kind), whose name is written nowhere else in its file's code (no overload,
  // no class merged with a namespace; comments do not count), is confirmed by its text: no
  // request per candidate.
  const selfEvident = async (l: Located): Promise<boolean> => l.symbol.standalone === true && (await writtenOnce(outlines, l.symbol)) && (await bindingOf(l.symbol, outlines.lines)) === undefined;
  const targets = await mapLimit(located, DEFINITION_CONCURRENCY, async (l) =>
    generated(l) || macroBinding(l) ? ([] as Location[]) : (await selfEvident(l)) ? [l.symbol.location] : backend.definition(l.symbol.location.path, l.symbol.location.start, { signal }).catch(() => [] as Location[]),
  );
  for (const t of targets.flat()) outlines.touched.add(t.path);
  const kept: { symbol: BackendSymbol; targets: Location[] }[] = [];
  // Imports (not re-exports) and where they lead: a name only imported is what it imports.
  const imports: Location[] = [];
  for (const [i, l] of located.entries()) {
    const own = targets[i] ?? [];
    if (generated(l)) {
      kept.push({ symbol: l.symbol, targets: own });
      continue;
    }
    const leadsElsewhere = own.length > 0 && !own.some((t) => sameStart(t, l.symbol.location));
    // `mod x;` leads to its file: a module declaration, not an alias.
    const isModuleFile = l.symbol.kind === 'module' && own.every((t) => t.start.line === 1 && t.start.column === 1);
    const binding = await bindingOf(l.symbol, outlines.lines);
    // Another declaration of the same symbol leads back here (C and C++ declare in a header and
    // define in a source; TypeScript's overload signatures list each other); an import's target,
    // or the base method clangd adds at an override, does not.
    const confirmed = binding === undefined && !isModuleFile ? await declarationsLeadingBack(backend, own, l.symbol.location, signal) : own;
    if (binding === undefined && !isModuleFile && confirmed.some((t) => !sameStart(t, l.symbol.location))) {
      kept.push({ symbol: l.symbol, targets: confirmed });
      continue;
    }
    // A stub's declaration leading to a source declares that symbol (importers' uses resolve to it).
    if (binding === undefined && stubOf(backend, l.symbol.location.path, own)) {
      kept.push({ symbol: l.symbol, targets: own });
      continue;
    }
    if ((leadsElsewhere && !isModuleFile) || binding !== undefined) {
      trace?.drop(describe(l.symbol), macroBinding(l) ? `a \`use\` the macro call writes (${binding}${l.symbol.boundPath !== undefined ? ` of ${l.symbol.boundPath}` : ''})` : binding !== undefined ? `an import, re-export or \`use\` binding (${binding})` : `a binding: go-to-definition leads to ${own.map((t) => formatLocation(t)).join(', ')}`);
      // A path written through a re-export (`facade::prelude::Either` where the prelude `pub use`s
      // it) names what the re-export leads to, as the language resolves it; an import does not.
      if (throughBindings && binding === 'reexport') for (const symbol of await bindingTargets(l.symbol, own, outlines)) kept.push({ symbol, targets: [symbol.location] });
      // Where an import leads, unless back to its own line: an unresolved import (a crate or package
      // not in the workspace) leads to itself, and declares nothing.
      const ownLine = (t: Location): boolean => t.path === l.symbol.location.path && t.start.line === l.symbol.location.start.line;
      if (binding !== 'reexport' && !macroBinding(l)) imports.push(...own.filter((t) => !ownLine(t)));
      continue;
    }
    kept.push({ symbol: l.symbol, targets: confirmed });
  }
  // A name bound by imports (`const isStream = require('./is-stream.js')` of an anonymous
  // `module.exports = (stream) => …`, `import MinHeap from './heap.js'`) also names what they
  // import, under its own name there — beside what declares the name elsewhere (qs's
  // `var stringify = require('./stringify')` of its public function, beside a helper of that name).
  if (!throughBindings) for (const symbol of await importedDeclarations(imports, outlines)) kept.push({ symbol, targets: [symbol.location] });
  // A re-export's target may be listed already; items a macro call expands to share its place
  // and differ by their container.
  // Places are compared through maps keyed by place: a name with hundreds of definitions costs
  // no comparison of each candidate with every other.
  const same = (a: BackendSymbol, b: BackendSymbol): boolean => a.precise || (a.container ?? '') === (b.container ?? '');
  const earlier = new Map<string, BackendSymbol[]>();
  const unique = kept.filter(({ symbol }) => {
    const at = formatLocation(symbol.location);
    const there = earlier.get(at) ?? [];
    const duplicate = there.some((e) => same(e, symbol));
    there.push(symbol);
    earlier.set(at, there);
    return !duplicate;
  });
  const stub = (path: string): boolean => backend.isStub?.(path) === true;
  return Promise.all(tagsMerged(backend, overloadsMerged(backend, groupedByTargets(unique))).map((g) => definitionOf(g, outlines, stub)));
}

/** Kinds of a definition that is a module a path can go through. */
const MODULE_KINDS: ReadonlySet<string> = new Set(['module', 'namespace', 'package']);

/**
 * Where the modules a written module path names really are, as qualifiers (`facade::emit` → its
 * definition `pub mod emit;` in shapes' lib.rs → `shapes::emit`), for those that are somewhere
 * else than written: the path is looked up as a name (one level shorter, so the recursion ends).
 */
async function reexportedModulePaths(backend: IdeBackend, qualifiers: readonly string[], paths: SymbolPaths, signal: AbortSignal, trace?: TraceSink): Promise<string[][]> {
  const modules = (await lookupSymbols(backend, { name: qualifiers.join('::') }, signal)).definitions.filter((d) => MODULE_KINDS.has(d.kind));
  const out: string[][] = [];
  for (const m of modules) {
    const at = m.definedAt;
    // `mod emit;` is declared in its parent's file; a definition at a file's start is the module's own file.
    const ownFile = at.start.line === 1 && at.start.column === 1;
    const segments = (await paths.modules(at.path)).map((s) => [...s.names][0] ?? '');
    const real = ownFile ? segments : [...segments, ...(m.container !== undefined && m.container !== '' ? [m.container] : []), m.name];
    if (real.some((q) => q === '') || real.join('::') === qualifiers.join('::')) continue;
    trace?.keep(`module ${m.name} at ${formatLocation(at)}`, `the module ${qualifiers.join('::')} names`);
    out.push(real);
  }
  return out;
}

/**
 * The candidates the re-exports a macro call writes lead to: for each such re-export among
 * `matched`, those of `others` whose path fits the path its `use` writes (`crate` standing for
 * the call's crate; `self`, `super` and skipped modules as in any written path).
 */
async function macroReexportTargets(matched: readonly Located[], others: readonly Located[], paths: SymbolPaths): Promise<Located[]> {
  const targets: Located[] = [];
  for (const m of matched) {
    const { binding, boundPath, precise, name } = m.symbol;
    if (binding !== 'reexport' || precise || boundPath === undefined) continue;
    const written = splitQualifiedName(boundPath);
    if (written.name !== name) continue; // `use a::B as Name`: B is another name's lookup
    const crate = [...((await paths.of(m.symbol, m.ancestors))[0]?.names ?? [])].find((n) => n !== 'crate');
    const qualifiers = written.qualifiers.map((q) => (q === 'crate' && crate !== undefined ? crate : q));
    for (const o of others) {
      if (o.symbol.binding !== undefined || targets.includes(o)) continue;
      if (qualifiersMatch(qualifiers, await paths.of(o.symbol, o.ancestors), paths.relativeQualifiers(o.symbol))) targets.push(o);
    }
  }
  return targets;
}

/**
 * One symbol = candidates whose go-to-definition answers name each other: each candidate joins the
 * first group with a member of its name that its targets name, or whose targets name it.
 */
function groupedByTargets<G extends { symbol: BackendSymbol; targets: readonly Location[] }>(candidates: readonly G[]): G[][] {
  const groups: G[][] = [];
  // Per place: the groups (by index) with a member there, and with a member whose target is there.
  const members = new Map<string, { name: string; group: number }[]>();
  const targeted = new Map<string, { name: string; group: number }[]>();
  const add = (index: Map<string, { name: string; group: number }[]>, at: string, entry: { name: string; group: number }): void => {
    const list = index.get(at);
    if (list === undefined) index.set(at, [entry]);
    else list.push(entry);
  };
  for (const k of candidates) {
    const { name } = k.symbol;
    const matching = [
      ...(targeted.get(formatLocation(k.symbol.location)) ?? []),
      ...k.targets.flatMap((t) => members.get(formatLocation(t)) ?? []),
    ].filter((e) => e.name === name);
    const group = matching.length > 0 ? Math.min(...matching.map((e) => e.group)) : groups.push([]) - 1;
    (groups[group] as G[]).push(k);
    add(members, formatLocation(k.symbol.location), { name, group });
    for (const t of k.targets) add(targeted, formatLocation(t), { name, group });
  }
  return groups;
}

/**
 * In a language whose overloads are one definition (C++: `geo::math::scale(int, int)` and
 * `scale(double, double)`), the groups of one name in one scope that are declared in one file
 * become one. (Two `static` functions of one name in two sources are two definitions.)
 */
function overloadsMerged<G extends { symbol: BackendSymbol; targets: readonly Location[] }>(backend: IdeBackend, groups: G[][]): G[][] {
  const out: G[][] = [];
  const files = (g: readonly G[]): Set<string> => new Set(g.flatMap((k) => [k.symbol.location.path, ...k.targets.map((t) => t.path)]));
  const byScope = new Map<string, G[][]>();
  for (const g of groups) {
    const s = (g[0] as G).symbol;
    if (backend.mergesOverloads?.(s.location.path) !== true || !OVERLOADABLE.has(s.kind)) {
      out.push(g);
      continue;
    }
    const key = `${s.language}\u0000${s.container ?? ''}\u0000${s.name}\u0000${s.kind}`;
    const mine = files(g);
    const scope = byScope.get(key) ?? [];
    const merged = scope.find((m) => [...files(m)].some((f) => mine.has(f)));
    if (merged !== undefined) merged.push(...g);
    else {
      const fresh = [...g];
      scope.push(fresh);
      byScope.set(key, scope);
      out.push(fresh);
    }
  }
  return out;
}

/**
 * In a language whose overloads are one definition (C and C++), a type alias and a tag of its name
 * in one scope, declared in one file (`typedef struct cJSON {…} cJSON;`, or `typedef struct list
 * list;` above `struct list {…}`), are one definition: a reader means one type by either name. (C++
 * allows no other meaning; in C a `typedef int cJSON;` beside `struct cJSON` is legal and perverse.)
 */
function tagsMerged<G extends { symbol: BackendSymbol; targets: readonly Location[] }>(backend: IdeBackend, groups: G[][]): G[][] {
  const key = (s: BackendSymbol): string => `${s.language}\u0000${s.container ?? ''}\u0000${s.name}`;
  const files = (g: readonly G[]): Set<string> => new Set(g.flatMap((k) => [k.symbol.location.path, ...k.targets.map((t) => t.path)]));
  const aliases = new Map<string, G[][]>();
  for (const g of groups) {
    const s = (g[0] as G).symbol;
    if (s.kind === 'type alias' && backend.mergesOverloads?.(s.location.path) === true) aliases.set(key(s), [...(aliases.get(key(s)) ?? []), g]);
  }
  if (aliases.size === 0) return groups;
  const absorbed = new Set<G[]>();
  for (const g of groups) {
    const s = (g[0] as G).symbol;
    if (!TAG_KINDS.has(s.kind)) continue;
    const mine = files(g);
    const alias = aliases.get(key(s))?.find((a) => [...files(a)].some((f) => mine.has(f)));
    if (alias === undefined) continue;
    alias.push(...g);
    absorbed.add(g);
  }
  return groups.filter((g) => !absorbed.has(g));
}

/**
 * `from` itself among `targets`, and the targets (at most {@link MAX_BACK_CHECKS}) where
 * go-to-definition leads back to `from` or finds nothing.
 */
async function declarationsLeadingBack(backend: IdeBackend, targets: readonly Location[], from: Location, signal: AbortSignal): Promise<Location[]> {
  const others = targets.filter((t) => !sameStart(t, from)).slice(0, MAX_BACK_CHECKS);
  const back = await Promise.all(others.map((t) => backend.definition(t.path, t.start, { signal }).catch(() => [] as Location[])));
  // A target that answers nothing cannot say (a C header that does not parse alone): the
  // candidate's own answer stands. A binding's target, or an overridden method, answers itself.
  return targets.filter((t) => {
    if (sameStart(t, from)) return true;
    const answer = back[others.indexOf(t)];
    return answer !== undefined && (answer.length === 0 || answer.some((b) => sameStart(b, from)));
  });
}

/** The declarations a binding leads to, as the outline of their files shows them (in the workspace only). */
async function bindingTargets(binding: BackendSymbol, targets: readonly Location[], outlines: LookupCache): Promise<BackendSymbol[]> {
  const out: BackendSymbol[] = [];
  for (const t of targets) {
    const entry = flatten(await outlines.get(t.path)).find((o) => o.name === binding.name && sameStart(o.location, t));
    if (entry !== undefined) out.push(entry);
  }
  return out;
}

/**
 * The declarations imports lead to, from their files' outlines: the entry at the place, else the
 * first one after it on its line (`module.exports = (stream) => …` leads to `module`; the outline
 * names the function `exports`), kept at the place the import leads to.
 */
async function importedDeclarations(targets: readonly Location[], outlines: LookupCache): Promise<BackendSymbol[]> {
  const out: BackendSymbol[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(formatLocation(t))) continue;
    seen.add(formatLocation(t));
    const onLine = flatten(await outlines.get(t.path).catch(() => [])).filter((o) => o.location.start.line === t.start.line && o.location.start.column >= t.start.column);
    const entry = onLine.find((o) => sameStart(o.location, t)) ?? onLine.sort((a, b) => a.location.start.column - b.location.start.column)[0];
    if (entry !== undefined) out.push({ ...entry, location: { ...entry.location, start: t.start, end: t.end, content: t.content } });
  }
  return out;
}

/** One definition for the declarations of one symbol, completed with those only the server named. */
async function definitionOf(group: readonly { symbol: BackendSymbol; targets: readonly Location[] }[], outlines: LookupCache, stub: (path: string) => boolean): Promise<SymbolDefinition> {
  const first = (group[0] as { symbol: BackendSymbol }).symbol;
  const declarations: SymbolDeclaration[] = group.map((g) => ({ kind: g.symbol.kind, definedAt: g.symbol.location }));
  for (const t of group.flatMap((g) => g.targets)) {
    if (declarations.some((d) => sameStart(d.definedAt, t))) continue;
    const entry = flatten(await outlines.get(t.path)).find((o) => o.name === first.name && sameStart(o.location, t));
    if (entry !== undefined) declarations.push({ kind: entry.kind, definedAt: entry.location });
  }
  declarations.sort((a, b) => compareLocations(a.definedAt, b.definedAt));
  // The index lists a C/C++ symbol at its definition (the body), not at the header declaration
  // go-to-definition adds: the declarations the index listed come first.
  const listed = declarations.filter((d) => group.some((g) => sameStart(g.symbol.location, d.definedAt)));
  // A symbol a stub declares too is shown at its source.
  const sources = listed.filter((d) => !stub(d.definedAt.path));
  const primary = primaryDeclaration(sources.length > 0 ? sources : listed.length > 0 ? listed : declarations);
  const symbol = group.find((g) => sameStart(g.symbol.location, primary.definedAt))?.symbol ?? first;
  const def = toDefinition({ ...symbol, kind: primary.kind, location: primary.definedAt });
  return declarations.length > 1 ? { ...def, declarations } : def;
}

/**
 * Whether `path` is a stub whose declaration's go-to-definition (`targets`) leads to a source: the
 * server maps a stub's declaration only to what runs, so the source it leads to is that symbol's —
 * in the file of the stub's stem (more-itertools' `more.pyi` beside `more.py`) or in a module that
 * file re-exports from (attrs' `attr/__init__.pyi` declares `evolve`, written in `attr/_make.py`).
 */
function stubOf(backend: IdeBackend, path: string, targets: readonly Location[]): boolean {
  if (backend.isStub?.(path) !== true) return false;
  return targets.some((t) => t.path !== path && backend.isStub?.(t.path) !== true);
}

/**
 * The declaration a merged symbol is shown at: a type or function before the namespace merged
 * into it; among overloads, the last signature (the implementation, with the body).
 */
function primaryDeclaration(declarations: readonly SymbolDeclaration[]): SymbolDeclaration {
  const substantive = declarations.filter((d) => d.kind !== 'namespace' && d.kind !== 'module');
  const pool = substantive.length > 0 ? substantive : declarations;
  // A typedef merged with its tag is shown at the typedef: the name a reader writes.
  const kind = pool.find((d) => d.kind === 'type alias' && pool.every((o) => sameSymbolKind(d.kind, o.kind)))?.kind ?? (pool[0] as SymbolDeclaration).kind;
  return pool.filter((d) => d.kind === kind).at(-1) as SymbolDeclaration;
}

/**
 * `Trait::method` names the trait's method and every method implementing it. Most implementing
 * methods sit in an `impl Trait for Type` block the outline shows; those a macro expands to, or
 * whose block the outline does not name by the trait, are found the way the language finds them:
 * go-to-implementation at the trait's method lists them all, and candidates there qualify too.
 */
async function implementingTraitMembers(backend: IdeBackend, qualified: readonly Located[], rest: readonly Located[], signal: AbortSignal): Promise<Located[]> {
  if (rest.length === 0) return [];
  const traitMembers = qualified.filter((l) => l.ancestors.at(-1)?.kind === 'trait');
  if (traitMembers.length === 0) return [];
  const implementations = (
    await mapLimit(traitMembers, DEFINITION_CONCURRENCY, (l) => backend.implementation(l.symbol.location.path, l.symbol.location.start, { signal }).catch(() => [] as Location[]))
  ).flat();
  return rest.filter((l) => implementations.some((i) => sameStart(i, l.symbol.location)));
}

/** Whether a symbol's name is written exactly once (as a whole word) in its file's code. */
async function writtenOnce(files: LookupCache, s: BackendSymbol): Promise<boolean> {
  return (await files.timesWritten(s.location.path, s.name)) === 1;
}

/**
 * How often a name is written as a whole word in the code of a file, counted up to 2. Comments do
 * not count (Go and Rust doc comments start with the name they document): `//` to the end of its
 * line, and a block from a line that starts with `/*` to its `*\/`. A `//` after a quote on its line
 * may be in a string, so that line counts whole: counting more only asks the server once more.
 */
function timesWritten(lines: readonly string[], name: string): 0 | 1 | 2 {
  let count = 0;
  let inBlock = false;
  for (const line of lines) {
    let code = line;
    if (inBlock || /^\s*\/\*/.test(line)) {
      const end = line.indexOf('*/', inBlock ? 0 : line.indexOf('/*') + 2);
      inBlock = end < 0;
      if (inBlock) continue;
      code = line.slice(end + 2);
    }
    const comment = code.indexOf('//');
    if (comment >= 0 && !/["'`]/.test(code.slice(0, comment))) code = code.slice(0, comment);
    for (let at = wordIndex(code, name, 0); at >= 0; at = wordIndex(code, name, at + 1)) if (++count > 1) return 2;
  }
  return count as 0 | 1;
}

/** Statement starts that bind names from elsewhere: `import …`, `export {…} / export * …`, Rust `use` (group 1: a re-export). */
const BINDING_START: Readonly<Record<string, RegExp>> = {
  ts: /^\s*(?:(export)\s+(?:type\s+)?(?:\{|\*)|import\b)/,
  rust: /^\s*(?:(pub)(?:\([^)]*\))?\s+)?use\b/,
};

/**
 * Whether a candidate's name sits in an import, re-export or `use` statement (and which: a
 * re-export is `export … from`, `pub use`): such bindings are never definitions, even when
 * go-to-definition cannot follow them (an unresolved package, a dependency outside the workspace).
 */
export async function bindingOf(s: Pick<BackendSymbol, 'language' | 'location'> & { readonly binding?: BackendSymbol['binding'] }, read: ReadLines): Promise<'import' | 'reexport' | undefined> {
  const script = /^(typescript|javascript)/.test(s.language);
  const start = s.language === 'rust' ? BINDING_START['rust'] : script ? BINDING_START['ts'] : undefined;
  if (s.binding !== undefined) return s.binding;
  if (start === undefined) return undefined;
  let lines: readonly string[];
  try {
    lines = await read(s.location.path);
  } catch {
    return undefined;
  }
  const at = s.location.start;
  if (script && isRequired(lines[at.line - 1] ?? '', at.column)) return 'import';
  const own = (lines[at.line - 1] ?? '').slice(0, indexOfCodePoint(lines[at.line - 1] ?? '', at.column - 1));
  let text = own;
  for (let line = at.line; line >= Math.max(1, at.line - STATEMENT_SEARCH_LINES); line--) {
    const lineText = line === at.line ? own : (lines[line - 1] ?? '');
    if (line !== at.line) text = `${lineText}\n${text}`;
    const statement = start.exec(lineText);
    if (statement !== null) return /;|\bfrom\b/.test(text) ? undefined : statement[1] !== undefined ? 'reexport' : 'import';
    if (line !== at.line && (lineText.trim() === '' || /[;}]\s*$/.test(lineText))) return undefined;
  }
  return undefined;
}

/**
 * CommonJS's import: `const x = require('…')` (a property of it, `require('…').x`, too) or
 * `const {a, b} = require('…')`, the whole statement on its line; group 1 is what it binds. A
 * call of what is required (`require('debug')('koa')`) makes a value: no binding. The blanks
 * before a `;` go with it (`\s*;?\s*` shared a run of trailing blanks: a megabyte of them took an
 * hour).
 */
export const REQUIRE_STATEMENT = /^(\s*(?:const|let|var)\s+)([\w$]+|\{[^}]*\})\s*=\s*require\s*\(\s*(['"`])[^'"`]*\3\s*\)(?:\s*\.\s*[\w$]+)*(?:\s*;)?\s*(?:\/\/.*)?$/;

/** Whether the name at a 1-based column (in code points) of a line is bound by a `require` statement. */
function isRequired(line: string, column: number): boolean {
  const m = REQUIRE_STATEMENT.exec(line);
  if (m === null) return false;
  const from = Array.from(m[1] as string).length + 1;
  return column >= from && column < from + Array.from(m[2] as string).length;
}

function dedupeLocated(located: readonly Located[]): Located[] {
  const seen = new Set<string>();
  return located.filter((l) => {
    // Items a macro expands to share the macro's place: their containers tell them apart.
    const key = `${formatLocation(l.symbol.location)}:${l.symbol.name}:${l.ancestors.length > 0 ? '' : (l.symbol.container ?? '')}`;
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

/** The UTF-16 index of a code-point offset. */
function indexOfCodePoint(text: string, codePoints: number): number {
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++) i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
  return i;
}

function codePointsBefore(text: string, index: number): number {
  return codePointCount(text, 0, index);
}

/** Index of `word` as a whole identifier in `text` at or after `from`; -1 if absent. */
/** A language's comment markers: a line comment's start, and a block comment's start and end. */
interface CommentMarkers {
  readonly line: string;
  readonly block?: readonly [string, string];
}
const C_COMMENTS: CommentMarkers = { line: '//', block: ['/*', '*/'] };
const PYTHON_COMMENTS: CommentMarkers = { line: '#' };

/**
 * A line with its comments blanked out (same length, so indexes stay), given whether it starts
 * inside a block comment; and whether it ends inside one. Strings are not read: a marker inside
 * one blanks the rest of its line, which only loses a word, never invents one.
 */
function withoutComments(line: string, markers: CommentMarkers, inBlock: boolean): { text: string; inBlock: boolean } {
  let out = '';
  let i = 0;
  let block = inBlock;
  while (i < line.length) {
    if (block) {
      const close = markers.block === undefined ? -1 : line.indexOf(markers.block[1], i);
      if (close < 0) return { text: out + ' '.repeat(line.length - i), inBlock: true };
      out += ' '.repeat(close + (markers.block as readonly [string, string])[1].length - i);
      i = close + (markers.block as readonly [string, string])[1].length;
      block = false;
      continue;
    }
    if (line.startsWith(markers.line, i)) return { text: out + ' '.repeat(line.length - i), inBlock: false };
    if (markers.block !== undefined && line.startsWith(markers.block[0], i)) {
      block = true;
      out += ' '.repeat(markers.block[0].length);
      i += markers.block[0].length;
      continue;
    }
    out += line[i];
    i++;
  }
  return { text: out, inBlock: block };
}

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

/** A candidate as explain() lists it: `struct User at src/model.rs:25:12`. */
function describe(s: { readonly name: string; readonly kind: string; readonly location: Location }): string {
  return `${s.kind} ${s.name} at ${formatLocation(s.location)}`;
}
