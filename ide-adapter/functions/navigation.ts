/**
 * Navigation functions: definitions, references, symbol info, outlines, implementations and the
 * call hierarchy — all answered by the backend's language servers.
 */
import { closest, DialectError, MAX_LABEL_LENGTH, truncate, type CallContext, type Registry } from '../../dialect/index.js';
import { CapabilityCode, type BackendSymbol, type CallEdge, type CallItem } from '../backend.js';
import { compareLocations, formatLocation, sameStart, type Location, type Reference, type SymbolDefinition, type SymbolInfo } from '../model.js';
import { awaitIndex, observeLateWarnings, unloadedServers, workspaceNotLoaded, type IdeHost } from './host.js';
import { refinementsFor } from './refinements.js';
import { askAtEach, askAtEachOverload, overloadPlaces, registerRelation, REQUEST_CONCURRENCY, symbolList } from './relations.js';
import { bindingOf, flatten, linesOnce, lookupSymbols, mapLimit, SymbolCode, toDefinition, type SymbolLookup } from './symbols.js';
import { describeSymbol } from './types.js';
import { symbolForTarget } from './positions.js';
import { assignedMember } from './js-members.js';
import { canHaveImplementations, KIND_FILTER_WORDS } from '../kinds.js';
import { importExplanation } from './imported.js';
import { splitQualifiedName } from './qualified.js';
import { unbuiltNote } from './unbuilt.js';
import { joinUnlisted, mentionKey, unlistedNote, type UnlistedMentions } from '../unlisted-mentions.js';

/** An absolute path, POSIX or Windows (a server's name for a whole file). */
const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/])/;

/** The name a TypeScript server gives an outline entry that has none. */
const UNNAMED = /^<unknown>$/;

/** References beyond this many are left out, with a note saying how many. */
const MAX_REFERENCES = 2000;
/** A plain identifier: a symbol name its uses are written with, told to the backend's checks of uses its server leaves out. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A note or hint lists at most this many places of a name. */
const MAX_LISTED_PLACES = 5;

type Of = string | SymbolDefinition | readonly (string | SymbolDefinition)[];

const OF_DESCRIPTION = 'a name (`User`, `User::new`, `auth.validateToken`), a symbol, or a list of them';

/** The filters of a lookup by name (`findDefinitions`, `findDefinition`). */
const LOOKUP_FILTERS = [
  { name: 'file', type: 'string', optional: true, description: 'the file it is defined in (a path or a path suffix, e.g. "auth.rs")', aliases: ['path', 'in'] },
  { name: 'kind', type: 'string', optional: true, description: 'its kind, in the language\'s words (function, method, struct, class, trait, macro, type alias, enum variant, namespace, …)', aliases: ['type'], words: KIND_FILTER_WORDS },
  { name: 'line', type: 'number', optional: true, description: 'the line it is defined on' },
] as const;

/** The call hierarchy, one function per direction. */
const CALL_HIERARCHY = [
  {
    name: 'callers',
    aliases: ['incomingCalls'],
    direction: 'incoming',
    description: 'The functions that call a function, each with the places it calls from (call hierarchy).',
    examples: [{ program: 'callers("validate_token")' }],
  },
  {
    name: 'callees',
    aliases: ['outgoingCalls'],
    direction: 'outgoing',
    description: 'The functions a function calls, each with the places it calls them (call hierarchy).',
    examples: [{ program: 'callees(findDefinition("Task::complete"))' }],
  },
] as const;

/** Registers the navigation functions (definitions, references, calls, outlines). */
export function registerNavigation(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'findDefinitions',
    description:
      'Where symbols with a name are defined: every definition whose name is exactly `of` (never fuzzy matches). Qualify with the class, impl type, trait, namespace, module or crate (`Matcher::find_at`, `crate::util::validate_token`, `Position.create`). Overloads and merged declarations (interface + namespace) are one definition with `declarations`. Narrow with file (a path or a path suffix), kind (in the language\'s words: function, method, struct, class, trait, impl, macro, type alias, enum variant, namespace, …) or line; when a filter leaves nothing, a note lists what it left out.',
    category: 'navigation',
    requires: 'index',
    parameters: [
      { name: 'of', type: 'string | symbol | (string | symbol)[]', description: OF_DESCRIPTION, aliases: ['name', 'symbol', 'query'] },
      ...LOOKUP_FILTERS,
    ],
    returns: 'symbol[]',
    examples: [
      { program: 'findDefinitions("User")' },
      { program: 'findDefinitions("validate_token", file: "src/auth.rs")' },
      { program: 'findDefinitions("User::new")', description: 'a method by its qualified name' },
    ],
    implementation: async (args, ctx) => {
      const { defs, unfiltered } = await definitions(args, ctx);
      if (defs.length === 0 && typeof args['of'] === 'string') {
        if (unfiltered.length > 0) {
          // The name exists: say which filter left it out, and what it left out.
          ctx.note(`${JSON.stringify(args['of'])} exists, but not with ${filtersOf(args).join(', ')}; left out: ${listPlaces(unfiltered)}`);
        } else {
          // Names are exact; an empty answer says where the last name is defined, or which names do exist.
          const miss = await qualifierMiss(ctx, args['of']);
          const similar = miss === undefined ? await similarNames(ctx, args['of']) : [];
          ctx.note(`no definition is named exactly ${JSON.stringify(args['of'])}${miss !== undefined ? `; ${miss}` : similar.length > 0 ? `; similar names: ${similar.join(', ')}` : ''}`);
        }
      }
      return defs;
    },
  });

  registry.registerFunction({
    name: 'findDefinition',
    aliases: ['findSymbol', 'definition'],
    description:
      'The one definition of a name. When several symbols have the name, the result is an ambiguity whose refinements add the file (and kind or line) that select each one.',
    category: 'navigation',
    requires: 'index',
    parameters: [
      { name: 'of', type: 'string | symbol', description: 'a name (optionally qualified: `User::new`) or a symbol', aliases: ['name', 'symbol', 'query'] },
      ...LOOKUP_FILTERS,
    ],
    returns: 'symbol',
    examples: [{ program: 'findDefinition("User")' }, { program: 'findDefinition("validate_token", file: "src/auth.rs")' }],
    implementation: async (args, ctx) => {
      const { defs, unfiltered } = await definitions(args, ctx);
      if (defs.length === 1) return defs[0];
      const of = args['of'];
      const name = typeof of === 'string' ? of : (of as SymbolDefinition).name;
      if (defs.length === 0) return notFound(ctx, name, args, unfiltered);
      return ctx.ambiguous(
        `${JSON.stringify(name)} is defined in ${defs.length} places`,
        refinementsFor(defs, { ...(typeof args['kind'] === 'string' ? { kind: args['kind'] } : {}) }).map(({ def, refine }) => ({
          label: describeSymbol(def),
          value: def,
          refine,
        })),
      );
    },
  });

  registry.registerFunction({
    name: 'findReferences',
    aliases: ['references'],
    description:
      'Every place a symbol is used, its imports and re-exports included (its own declarations left out). Give a symbol, a list of symbols (e.g. the result of findDefinitions), or a name; an ambiguous name asks which definition you mean.',
    category: 'navigation',
    requires: 'index',
    parameters: [{ name: 'to', type: 'symbol | symbol[]', description: 'the symbol(s); a name is looked up', aliases: ['of', 'symbol', 'name'] }],
    returns: 'reference[]',
    examples: [
      { program: 'findReferences("User")' },
      { program: 'findReferences(findDefinitions("User"))' },
      { program: 'findReferences(findDefinition("validate_token", file: "src/auth.rs"))' },
    ],
    implementation: async (args, ctx) => {
      const symbols = symbolList(args['to']);
      const { backend } = ctx.host;
      const seen = new PlaceSet();
      const out: Reference[] = [];
      let total = 0;
      // With the declarations, dropped here: a server's own "declaration" may include every import
      // binding of the name (tsgo), while editors list them; one rule for every backend — an
      // import or re-export is a use, the symbol's own declarations are not.
      // Each overload of a merged definition is asked at its own place (C++ overloads are one definition).
      const asks = symbols.flatMap((s) => overloadPlaces(s).map((at) => ({ s, at })));
      const perPlace = await mapLimit(asks, REQUEST_CONCURRENCY, ({ s, at }) =>
        backend.references(at.path, at.start, { signal: ctx.signal, includeDeclaration: true, limit: MAX_REFERENCES + symbolDeclarations(s).length, ...(IDENTIFIER.test(s.name) ? { name: s.name } : {}) }),
      );
      const unlisted: UnlistedMentions[] = [];
      const listed = new Set<string>();
      for (const [i, { s }] of asks.entries()) {
        const list = perPlace[i];
        if (list === undefined) continue;
        const own = symbolDeclarations(s);
        if (list.gap !== undefined) ctx.note(list.gap);
        unlisted.push(...(list.unlisted ?? []));
        for (const loc of list.locations) listed.add(mentionKey({ path: loc.path, line: loc.start.line }));
        const uses = list.locations.filter((loc) => !own.some((d) => sameStart(loc, d)));
        // The ones beyond the limit were never converted: all uses but the declarations among them.
        const cut = list.total - list.locations.length;
        total += cut > 0 ? Math.max(0, cut - (own.length - (list.locations.length - uses.length))) : 0;
        if (list.total - (list.locations.length - uses.length) === 0 && (await isAssignedJsMember(ctx, s))) ctx.note(unresolvedMemberNote(s));
        for (const loc of uses) {
          if (!seen.add(loc)) continue;
          total++;
          if (out.length < MAX_REFERENCES) out.push(referenceOf(s, loc));
        }
      }
      // A use one place's answer lacks may be in another's (a sibling overload's, a stub's): only what none lists is missed.
      for (const report of joinUnlisted(unlisted, listed)) ctx.note(unlistedNote(report));
      out.sort((a, b) => compareLocations(a.referencedAt, b.referencedAt));
      if (total > out.length) ctx.note(`showing ${out.length} of ${total} references; narrow the query (e.g. findDefinition with file:)`);
      return out;
    },
  });

  registry.registerFunction({
    name: 'getSymbolInfo',
    aliases: ['symbolInfo', 'hover'],
    description: 'What the language server knows about a symbol: its kind, signature or type, documentation and location (from hover).',
    category: 'navigation',
    requires: 'index',
    parameters: [{ name: 'symbol', type: 'symbol | symbol[]', description: 'a symbol or a name', aliases: ['of', 'name'] }],
    returns: 'symbol | symbol[]',
    examples: [{ program: 'getSymbolInfo("User")' }, { program: 'getSymbolInfo(findDefinition("Task::complete"))' }],
    implementation: async (args, ctx) => {
      const symbols = symbolList(args['symbol']);
      const hovers = await askAtEach(ctx, symbols, (path, at, options) => ctx.host.backend.hover(path, at, options));
      const infos = symbols.map((s, i): SymbolInfo => {
        const { withheld, ...hover } = hovers[i] ?? {};
        if (withheld !== undefined) ctx.note(withheld);
        return { ...stripReference(s), ...hover };
      });
      return Array.isArray(args['symbol']) ? infos : infos[0];
    },
  });

  registry.registerFunction({
    name: 'documentSymbols',
    aliases: ['outline'],
    description: 'The outline of a file: every symbol it defines, in order, each with its container.',
    category: 'navigation',
    requires: 'index',
    parameters: [{ name: 'file', type: 'string', description: 'a workspace path', aliases: ['path'] }],
    returns: 'symbol[]',
    examples: [{ program: 'documentSymbols("src/model.rs")' }],
    implementation: async (args, ctx) => {
      const file = args['file'] as string;
      const path = ctx.host.workspace.relative(await ctx.host.workspace.resolveReal(file));
      if (!ctx.host.backend.handles(path)) {
        return ctx.fail(CapabilityCode.NoLanguageServer, `no language server handles ${path}`, 'documentSymbols works on files of the workspace languages; lines(path, 1, 50) shows any file');
      }
      const outline = flatten(await ctx.host.backend.documentSymbols(path, { signal: ctx.signal }));
      // Import and re-export bindings are never definitions (tsgo outlines them, VS Code does not),
      // nor is an entry without a name (VS Code's `<unknown>` for `module.exports = …`).
      const read = linesOnce(ctx.host.workspace);
      const bindings = await Promise.all(outline.map((o) => bindingOf(o, read)));
      // In document order: a server may list a container's members out of it (pyright puts a class's
      // `self.x` attributes after its methods); a container still comes before what it holds.
      return outline
        .filter((o, i) => bindings[i] === undefined && !UNNAMED.test(o.name))
        .map(toDefinition)
        .sort((a, b) => compareLocations(a.definedAt, b.definedAt));
    },
  });

  registerRelation(registry, {
    name: 'implementations',
    aliases: ['findImplementations'],
    description: 'The implementations of a trait, interface or abstract method: the impl blocks or classes, and the methods that implement it.',
    of: 'a trait, interface or method (or its name)',
    examples: [{ program: 'implementations("Repository")' }],
    prefers: (symbol) => canHaveImplementations(symbol.kind),
    related: async (symbols, ctx) => {
      const { backend } = ctx.host;
      // A declaration and its definition have the same implementations: each is shown once.
      const asked = (await askAtEachOverload(ctx, symbols, (path, at, options) => backend.implementation(path, at, options))).flat();
      // A server that cannot relate some declarations says so as it answers (gopls and generics),
      // as does one that adds what it found in the text (gopls: files its build leaves out).
      await observeLateWarnings(ctx);
      const found = await symbolsAt(ctx, asked.filter((loc, i) => asked.findIndex((other) => sameStart(other, loc)) === i));
      // tsgo lists an interface's `import type {…}` in a declaration file among its implementations: a binding implements nothing.
      const read = linesOnce(ctx.host.workspace);
      const definition = (x: unknown): SymbolDefinition | undefined => (typeof x === 'object' && x !== null && 'definedAt' in x ? (x as SymbolDefinition) : undefined);
      const bindings = await Promise.all(
        found.map(async (x) => {
          const s = definition(x);
          return s?.language === undefined ? undefined : bindingOf({ language: s.language, location: s.definedAt }, read);
        }),
      );
      return found.filter((x, i) => bindings[i] === undefined || void ctx.host.trace?.drop(`${definition(x)?.name ?? ''} at ${formatLocation((definition(x) as SymbolDefinition).definedAt)}`, `an import or re-export binding (${bindings[i]}), not an implementation`));
    },
  });

  for (const calls of CALL_HIERARCHY) {
    registerRelation(registry, {
      ...calls,
      of: 'a function or method (or its name)',
      related: (symbols, ctx) => callHierarchy(symbols, ctx, calls.direction),
    });
  }
}

async function definitions(args: Readonly<Record<string, unknown>>, ctx: CallContext<IdeHost>): Promise<{ defs: SymbolDefinition[]; unfiltered: SymbolDefinition[] }> {
  const of = args['of'] as Of;
  const items = Array.isArray(of) ? (of as (string | SymbolDefinition)[]) : [of as string | SymbolDefinition];
  const file = args['file'] as string | undefined;
  const completeness = await awaitIndex(ctx);
  // Declarations in files no server reads are looked for while the servers answer.
  const unbuilt = Promise.all(items.map((item) => (typeof item === 'string' ? unbuiltNote(ctx, item, file) : Promise.resolve(undefined))));
  const found = await mapLimit(items, REQUEST_CONCURRENCY, async (item): Promise<SymbolLookup> => {
    if (typeof item !== 'string') return { definitions: [item], unfiltered: [item] };
    return lookupSymbols(
      ctx.host.backend,
      {
        name: item,
        ...(file !== undefined ? { file } : {}),
        ...(typeof args['kind'] === 'string' ? { kind: args['kind'] } : {}),
        ...(typeof args['line'] === 'number' ? { line: args['line'] } : {}),
      },
      ctx.signal,
      ctx.host.trace,
    );
  });
  // A lookup made anew may have reached a bound (a cap it could not complete); a kept one says what it said then.
  if (found.some((f, i) => typeof items[i] === 'string' && f.kept !== true)) await observeLateWarnings(ctx);
  // A server that could not load the workspace answers nothing: that is not "no such name".
  const missing = items.find((item, i) => typeof item === 'string' && found[i]?.unfiltered.length === 0);
  if (typeof missing === 'string') {
    // Read only for a miss: the listing samples each server's memory (a walk of /proc).
    const listing = ctx.host.backend.servers();
    if (unloadedServers(completeness, listing).length > 0) throw workspaceNotLoaded(missing, completeness, listing);
  }
  for (const gap of new Set(found.flatMap((f) => f.gaps ?? []))) ctx.note(gap);
  for (const note of new Set(await unbuilt)) if (note !== undefined) ctx.note(note);
  return { defs: found.flatMap((f) => f.definitions), unfiltered: found.flatMap((f) => f.unfiltered) };
}

/** The filters a lookup was given, as written: `kind: "class"`, `file: "nope.rs"`. */
function filtersOf(args: Readonly<Record<string, unknown>>): string[] {
  return ['file', 'kind', 'line'].filter((k) => args[k] !== undefined).map((k) => `${k}: ${JSON.stringify(args[k])}`);
}

/** `struct Searcher at src/searcher.rs:7, …` (at most a few, then a count). */
function listPlaces(defs: readonly SymbolDefinition[]): string {
  const shown = defs.slice(0, MAX_LISTED_PLACES).map(describeSymbol);
  return defs.length > MAX_LISTED_PLACES ? `${shown.join(', ')} and ${defs.length - MAX_LISTED_PLACES} more` : shown.join(', ');
}

/** Names the index knows that look like `name` (fuzzy is right here: it is only a hint). */
async function similarNames(ctx: CallContext<IdeHost>, name: string): Promise<string[]> {
  const last = name.split(/::|\./).pop() ?? name;
  const near = await ctx.host.backend.workspaceSymbols(last.slice(0, Math.max(2, last.length - 2)), { signal: ctx.signal }).catch(() => [] as BackendSymbol[]);
  const names = [...new Set(near.map((s) => s.name))].filter((n) => n !== last);
  return closest(last, names, 5);
}

/**
 * For a qualified name that found nothing, where its last name is defined, when it is: the
 * qualifier names nothing those definitions are in (an import alias such as zod's `z` in
 * `z.object`, a guessed module), and the program that lists them.
 */
async function qualifierMiss(ctx: CallContext<IdeHost>, name: string): Promise<string | undefined> {
  const { qualifiers, name: last } = splitQualifiedName(name);
  if (qualifiers.length === 0) return undefined;
  const found = await lookupSymbols(ctx.host.backend, { name: last }, ctx.signal, ctx.host.trace).catch(() => undefined);
  if (found === undefined || found.definitions.length === 0) return undefined;
  const qualifier = name.slice(0, name.length - last.length).replace(/(::|\.|#)$/, '');
  return `${JSON.stringify(last)} is defined as ${listPlaces(found.definitions)}, none of them in ${JSON.stringify(qualifier)} (a qualifier names a class, namespace, module or crate, not an import alias): findDefinitions(${JSON.stringify(last)})`;
}

async function notFound(ctx: CallContext<IdeHost>, name: string, args: Readonly<Record<string, unknown>>, unfiltered: readonly SymbolDefinition[]): Promise<never> {
  const filters = filtersOf(args);
  const message = `no definition of ${JSON.stringify(name)}${filters.length > 0 ? ` with ${filters.join(', ')}` : ''} was found`;
  if (unfiltered.length > 0) {
    // The filters excluded what exists: say where it is and how to ask for it.
    const [first] = refinementsFor(unfiltered, {});
    const program = first === undefined ? '' : `; for example: findDefinition(${[JSON.stringify(name), ...Object.entries(first.refine).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].join(', ')})`;
    throw new DialectError({ code: SymbolCode.NotFound, message, hint: `${JSON.stringify(name)} is defined as ${listPlaces(unfiltered)}${program}` });
  }
  const imported = await importExplanation(ctx, name);
  if (imported !== undefined) throw new DialectError({ code: SymbolCode.NotFound, message: `${message}: ${imported.message}`, hint: imported.hint });
  const miss = await qualifierMiss(ctx, name);
  if (miss !== undefined) throw new DialectError({ code: SymbolCode.NotFound, message, hint: miss });
  const suggestions = await similarNames(ctx, name);
  throw new DialectError({
    code: SymbolCode.NotFound,
    message,
    hint:
      suggestions.length > 0
        ? `similar names: ${suggestions.join(', ')}`
        : `check the spelling, or search the text: search(".", ${JSON.stringify(name)})`,
  });
}

async function callHierarchy(symbols: readonly SymbolDefinition[], ctx: CallContext<IdeHost>, direction: 'incoming' | 'outgoing'): Promise<unknown[]> {
  const { backend } = ctx.host;
  const prepared = await askAtEachOverload(ctx, symbols, (path, at, options) => backend.prepareCallHierarchy(path, at, options));
  // Places that prepare the same item ask for its calls once.
  const itemPlaces = new Set<string>();
  const items = symbols.flatMap((of, i) =>
    (prepared[i] ?? []).flatMap((item) => {
      const place = `${item.symbol.name}\u0000${formatLocation(item.symbol.location)}`;
      if (itemPlaces.has(place)) return [];
      itemPlaces.add(place);
      return [{ of, item }];
    }),
  );
  const unresolved = items.length > 0 ? [] : (await Promise.all(symbols.map(async (s) => ((await isAssignedJsMember(ctx, s)) ? [s] : [])))).flat();
  if (unresolved.length > 0 && items.length === 0) for (const s of unresolved) ctx.note(unresolvedMemberNote(s));
  else if (items.length === 0 && symbols.length > 0) {
    ctx.note('the language server offered no call hierarchy here; findReferences gives every use instead');
  }
  const outlined = outlineNaming(ctx);
  const edges = await mapLimit(items, REQUEST_CONCURRENCY, async ({ of, item }: { of: SymbolDefinition; item: CallItem }) => {
    const found: CallEdge[] = direction === 'incoming' ? await backend.incomingCalls(item, { signal: ctx.signal }) : await backend.outgoingCalls(item, { signal: ctx.signal });
    // The function asked about is named as its callers and callees are, by its hierarchy item (a
    // lookup by name may say less: rust-analyzer's symbol index calls a method a function).
    const subject = await outlined(wholeFileAsFile(item.symbol));
    // Each caller (callee) says which of the asked functions it calls (is called by): a list of several has them all.
    return mapLimit(onePerFunction(found), REQUEST_CONCURRENCY, async (e) => ({ ...toDefinition(await outlined(wholeFileAsFile(e.item.symbol))), callSites: distinctSites(e.callSites), of: { name: of.name, kind: subject.name === of.name ? subject.kind : of.kind, definedAt: of.definedAt } }));
  });
  // One function's edges found through two places of one symbol (a header declaration and its
  // definition prepare different items in clangd) are one edge with the call sites of both.
  const byCaller = new Map<string, (typeof edges)[number][number]>();
  for (const edge of edges.flat()) {
    const key = `${formatLocation(edge.of.definedAt)}\u0000${formatLocation(edge.definedAt)}`;
    const known = byCaller.get(key);
    byCaller.set(key, known === undefined ? edge : { ...known, callSites: distinctSites([...known.callSites, ...edge.callSites]) });
  }
  return [...byCaller.values()];
}

/**
 * A call item named as its file's outline names it, where the item says less: a `function` with no
 * owner may be a method (pyright's call items say `function` for every `def`, with no class), and
 * a lookup of the same symbol says `method describe (Shape)`. One outline per file per call.
 */
function outlineNaming(ctx: CallContext<IdeHost>): (symbol: BackendSymbol) => Promise<BackendSymbol> {
  const outlines = new Map<string, Promise<readonly BackendSymbol[]>>();
  return async (symbol) => {
    if (symbol.kind !== 'function' || (symbol.container ?? '') !== '') return symbol;
    const { path, start } = symbol.location;
    let outline = outlines.get(path);
    if (outline === undefined) {
      outline = ctx.host.backend.documentSymbols(path, { signal: ctx.signal }).then(flatten, () => []);
      outlines.set(path, outline);
    }
    const entry = (await outline).find((o) => o.name === symbol.name && o.location.start.line === start.line && o.location.start.column === start.column);
    return entry === undefined ? symbol : { ...symbol, kind: entry.kind, ...(entry.container !== undefined ? { container: entry.container } : {}) };
  };
}

/**
 * Each call site once, whichever backend answered: servers may repeat a range (pyright for a call
 * through `self`, TypeScript's for some outgoing calls), and every backend must give one answer.
 */
function distinctSites(sites: readonly Location[]): Location[] {
  const byPlace = new Map<string, Location>();
  for (const site of sites) byPlace.set(`${site.path}\0${site.start.line}:${site.start.column}\0${site.end.line}:${site.end.column}`, site);
  return [...byPlace.values()];
}

/**
 * One edge per function. A function a macro call generates comes back twice, with the same
 * name and the same call sites: once at the macro call and once at its name in the macro's body.
 * It is one caller, shown where it is generated — the place nearest its call sites.
 */
function onePerFunction(edges: readonly CallEdge[]): CallEdge[] {
  const byCalls = new Map<string, CallEdge>();
  const distance = (e: CallEdge): number => {
    const site = e.callSites[0];
    const at = e.item.symbol.location;
    return site === undefined ? 0 : site.path === at.path ? Math.abs(site.start.line - at.start.line) : Number.MAX_SAFE_INTEGER;
  };
  for (const edge of edges) {
    const key = `${edge.item.symbol.name}\0${edge.callSites.map((c) => formatLocation(c)).join('\0')}`;
    const seen = byCalls.get(key);
    if (seen === undefined || (edge.callSites.length > 0 && distance(edge) < distance(seen))) byCalls.set(key, edge);
  }
  return [...byCalls.values()];
}

/**
 * The symbols defined at some locations: the outline entry there, else (an impl a macro call
 * writes, which no outline lists) the word the server points at, as an implementation.
 */
async function symbolsAt(ctx: CallContext<IdeHost>, locations: readonly Location[]): Promise<unknown[]> {
  return mapLimit(locations, REQUEST_CONCURRENCY, async (loc) => {
    const found = await symbolForTarget(ctx, loc, truncate(loc.content.trim(), MAX_LABEL_LENGTH));
    return found.kind === 'symbol' ? { ...found, kind: 'implementation' } : found;
  });
}

/**
 * Whether a symbol is a JavaScript member assigned to an object or prototype. Measured on tsgo:
 * it resolves no uses of such a member (not even at a use), so an empty answer there means "not
 * resolved", never "unused".
 */
async function isAssignedJsMember(ctx: CallContext<IdeHost>, s: SymbolDefinition): Promise<boolean> {
  if (!/^javascript/.test(s.language ?? '')) return false;
  const line = await ctx.host.workspace.lines(s.definedAt.path).then((lines) => lines[s.definedAt.start.line - 1] ?? '', () => '');
  return assignedMember(line, s.definedAt.start.column, s.name) !== undefined;
}

function unresolvedMemberNote(s: SymbolDefinition): string {
  const name = `${s.container !== undefined ? `${s.container}.` : ''}${s.name}`;
  return `the language server resolves no uses of ${name} (a JavaScript member assigned to an object or prototype); search(".", ${JSON.stringify(`\\.${s.name}\\b`)}) finds them by text`;
}

/** Where a symbol is declared: its main place and every declaration merged into it. */
function symbolDeclarations(s: SymbolDefinition | undefined): Location[] {
  return s === undefined ? [] : [s.definedAt, ...(s.declarations ?? []).map((d) => d.definedAt)];
}

/**
 * A call-hierarchy item that is a whole file (top-level code calling), as one shape whatever the
 * server named it: tsgo names it by its absolute path (kind file), VS Code's TypeScript by its file
 * name (kind variable). It is the file, named by its workspace path.
 */
function wholeFileAsFile(symbol: BackendSymbol): BackendSymbol {
  const { path, start } = symbol.location;
  const atFileStart = start.line === 1 && start.column === 1;
  const namesFile = symbol.kind === 'file' || symbol.name === path.slice(path.lastIndexOf('/') + 1) || (ABSOLUTE_PATH.test(symbol.name) && symbol.name.replaceAll('\\', '/').endsWith(`/${path}`));
  return atFileStart && namesFile ? { ...symbol, name: path, kind: 'file' } : symbol;
}

/**
 * A use of a symbol: its {@link stripReference} fields, then the place. Built property by property
 * in one order (no spread), so the thousands of a long list share one object shape.
 */
/** Columns per line in a {@link PlaceSet} key: more than a line of a file Dialect reads can have. */
const PLACE_COLUMNS = 2 ** 25;

/**
 * Places seen, by path and start: a number per place, not a string (a reference list keys
 * thousands). Lines and columns stay below {@link PLACE_COLUMNS}: files past `MAX_FILE_BYTES`
 * are not read.
 */
class PlaceSet {
  readonly #byPath = new Map<string, Set<number>>();
  #lastPath: string | undefined;
  #last: Set<number> | undefined;

  /** Adds a location's start; false when it was there already. */
  add(location: Location): boolean {
    if (location.path !== this.#lastPath || this.#last === undefined) {
      this.#lastPath = location.path;
      this.#last = this.#byPath.get(location.path);
      if (this.#last === undefined) this.#byPath.set(location.path, (this.#last = new Set()));
    }
    const key = location.start.line * PLACE_COLUMNS + location.start.column;
    if (this.#last.has(key)) return false;
    this.#last.add(key);
    return true;
  }
}

function referenceOf(s: SymbolDefinition, referencedAt: Location): Reference {
  const r: { -readonly [K in keyof Reference]: Reference[K] } = { name: s.name, kind: s.kind } as Reference;
  if (s.container !== undefined) r.container = s.container;
  if (s.language !== undefined) r.language = s.language;
  r.definedAt = s.definedAt;
  r.referencedAt = referencedAt;
  return r;
}

function stripReference(s: SymbolDefinition): SymbolDefinition {
  const { name, kind, container, language, definedAt } = s;
  return { name, kind, ...(container !== undefined ? { container } : {}), ...(language !== undefined ? { language } : {}), definedAt };
}

