/**
 * Relations: IDE functions that take symbols and answer the symbols related to them
 * (implementations, callers, callees, a type's definition, supertypes, subtypes). They share one
 * shape — an `of` parameter of symbols (names are converted by the registry), the index required,
 * the backend asked at each symbol's name with bounded concurrency — declared once here.
 */
import type { CallContext, Example, Registry } from '../../dialect/index.js';
import { formatLocation, isSymbolDefinition, type Position, type SymbolDefinition } from '../model.js';
import type { IdeHost } from './host.js';
import { mapLimit } from './symbols.js';

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
