/**
 * Relations: IDE functions that take symbols and answer the symbols related to them
 * (implementations, callers, callees, a type's definition, supertypes, subtypes). They share one
 * shape — an `of` parameter of symbols (names are converted by the registry), the index required,
 * the backend asked at each symbol's name with bounded concurrency — declared once here.
 */
import type { CallContext, Example, Registry } from '../../dialect/index.js';
import { formatLocation, isSymbolDefinition, sameStart, type Location, type Position, type SymbolDefinition } from '../model.js';
import type { IdeHost } from './host.js';
import { mapLimit, sameSymbolKind } from './symbols.js';

/** Requests in flight at once per call. */
export const REQUEST_CONCURRENCY = 4;

/** A function from symbols to the symbols related to them. */
export interface RelationFunction {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  /** What `of` takes, e.g. "a function or method (or its name)". */
  readonly of: string;
  readonly examples: readonly Example[];
  /** The symbols it can relate, to choose among the symbols an ambiguous name stands for. */
  readonly prefers?: (symbol: SymbolDefinition) => boolean;
  /** The related symbols (or locations) of `symbols`. */
  readonly related: (symbols: readonly SymbolDefinition[], ctx: CallContext<IdeHost>) => Promise<readonly unknown[]>;
}

/** Registers a relation as a navigation function over `of: symbol | symbol[]` returning `symbol[]`. */
export function registerRelation(registry: Registry<IdeHost>, relation: RelationFunction): void {
  registry.registerFunction({
    name: relation.name,
    aliases: relation.aliases,
    description: relation.description,
    category: 'navigation',
    requires: 'index',
    parameters: [
      {
        name: 'of',
        type: 'symbol | symbol[]',
        description: relation.of,
        aliases: ['symbol', 'name'],
        ...(relation.prefers !== undefined ? { prefers: preferring(relation.prefers) } : {}),
      },
    ],
    returns: 'symbol[]',
    examples: relation.examples,
    implementation: (args, ctx) => relation.related(symbolList(args['of']), ctx),
  });
}

/** A preference over symbols as a preference over argument values (only symbols can be preferred). */
function preferring(prefers: (symbol: SymbolDefinition) => boolean): (value: unknown) => boolean {
  return (value) => isSymbolDefinition(value) && prefers(value);
}

/** A symbol argument (one symbol or a list) as a list. */
export function symbolList(value: unknown): SymbolDefinition[] {
  return Array.isArray(value) ? (value as SymbolDefinition[]) : [value as SymbolDefinition];
}

/** Asks the backend once per symbol, at its name, with at most {@link REQUEST_CONCURRENCY} requests in flight. */
export function askAtEach<R>(
  ctx: CallContext<IdeHost>,
  symbols: readonly SymbolDefinition[],
  ask: (path: string, position: Position, options: { readonly signal: AbortSignal }) => Promise<R>,
): Promise<R[]> {
  return mapLimit(symbols, REQUEST_CONCURRENCY, (s) => ask(s.definedAt.path, s.definedAt.start, { signal: ctx.signal }));
}

/** Places of one definition asked at most (its overloads, or a declaration and its definition each). */
const MAX_OVERLOAD_PLACES = 8;

/**
 * The places to ask about a definition: its own, and each merged declaration of the same kind —
 * the overloads of a C++ method are one definition, and a server answers for the overload at the
 * place asked (`Options::add_options(group)` and `add_options(group, {…})` have their own uses).
 * A declaration of another kind merged in (a namespace merged into a class) is its own symbol; a
 * C typedef's tag is the typedef's own (`sameSymbolKind`).
 */
export function overloadPlaces(s: SymbolDefinition): Location[] {
  const places: Location[] = [s.definedAt];
  for (const d of s.declarations ?? []) {
    if (places.length >= MAX_OVERLOAD_PLACES) break;
    if (sameSymbolKind(s.kind, d.kind) && !places.some((p) => sameStart(p, d.definedAt))) places.push(d.definedAt);
  }
  return places;
}

/**
 * Asks the backend at every overload place of each symbol ({@link overloadPlaces}); the answers
 * of one symbol are concatenated, in the order of its places.
 */
export async function askAtEachOverload<R>(
  ctx: CallContext<IdeHost>,
  symbols: readonly SymbolDefinition[],
  ask: (path: string, position: Position, options: { readonly signal: AbortSignal }) => Promise<R[]>,
): Promise<R[][]> {
  const asks = symbols.flatMap((s, i) => overloadPlaces(s).map((at) => ({ i, at })));
  const answers = await mapLimit(asks, REQUEST_CONCURRENCY, ({ at }) => ask(at.path, at.start, { signal: ctx.signal }));
  const out: R[][] = symbols.map(() => []);
  for (const [k, { i }] of asks.entries()) (out[i] as R[]).push(...(answers[k] ?? []));
  return out;
}

/** Without repeats of one place (several symbols can share a type). */
export function uniquePlaces(defs: readonly SymbolDefinition[]): SymbolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => {
    const key = formatLocation(d.definedAt);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
