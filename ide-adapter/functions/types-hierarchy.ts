/**
 * Type navigation: where a symbol's type is defined (`textDocument/typeDefinition`) and the type
 * hierarchy (`textDocument/prepareTypeHierarchy` + `typeHierarchy/supertypes|subtypes`). A server
 * without the request answers `unsupported-by-server` (from the backend), naming the server and
 * an alternative.
 */
import type { CallContext, Registry } from '../../dialect/index.js';
import { DialectError } from '../../dialect/index.js';
import { CapabilityCode, type TypeItem } from '../backend.js';
import type { Location, SymbolDefinition } from '../model.js';
import type { IdeHost } from './host.js';
import { symbolForTarget } from './positions.js';
import { askAtEach, registerRelation, REQUEST_CONCURRENCY, uniquePlaces } from './relations.js';
import { declaredSupertypes, mapLimit, toDefinition } from './symbols.js';

/** Registers `typeDefinition`, `supertypes` and `subtypes`. */
export function registerTypeFunctions(registry: Registry<IdeHost>): void {
  registerRelation(registry, {
    name: 'typeDefinition',
    aliases: ['findTypeDefinition', 'typeOf'],
    description:
      'Where the type of a variable, field, parameter or expression is defined (`let task = Task::new(…)` gives the `Task` struct; a field `priority: Priority` the `Priority` enum). Types outside the workspace (the standard library, dependencies) are left out, with a note.',
    of: 'a variable, field, parameter or function (or its name, or a location such as symbolAt(…))',
    examples: [
      { program: 'typeDefinition(symbolAt("src/service.rs", 32, 13))', description: 'the type of the local variable at that place' },
      { program: 'typeDefinition(findDefinition("Task::priority"))', description: 'the type of a field: the Priority enum' },
    ],
    related: async (symbols, ctx) => {
      const { backend } = ctx.host;
      const answers = await askAtEach(ctx, symbols, (path, at, options) => backend.typeDefinition(path, at, options));
      // A server with nothing better points back at the declaration itself (pyright, for a
      // function): that is no type's definition, so it is dropped and said.
      const itself = symbols.filter((s, i) => !isTypeKind(s.kind) && (answers[i] ?? []).some((t) => declares(s, t)));
      const targets = answers.flatMap((list, i) => list.filter((t) => !itself.includes(symbols[i] as SymbolDefinition) || !declares(symbols[i] as SymbolDefinition, t)));
      if (itself.length > 0) {
        ctx.note(`the server answered with the declaration itself for ${itself.map((s) => `${s.kind} ${s.name}`).join(', ')}: it has no type declared apart from its signature (getSymbolInfo shows it)`);
      } else if (targets.length === 0 && symbols.length > 0) ctx.note('no type in the workspace: the type may come from the standard library or a dependency (getSymbolInfo shows it)');
      const defs = await mapLimit(targets, REQUEST_CONCURRENCY, (t) => symbolForTarget(ctx, t, t.content.trim()));
      return uniquePlaces(defs);
    },
  });

  for (const direction of ['super', 'sub'] as const) {
    const name = direction === 'super' ? 'supertypes' : 'subtypes';
    registerRelation(registry, {
      name,
      aliases: direction === 'super' ? ['superTypes'] : ['subTypes'],
      description:
        direction === 'super'
          ? "The direct supertypes of a type (type hierarchy): the classes it extends, the interfaces or traits it implements. Where the server has no type hierarchy (pyright, tsgo, gopls), a class's or interface's are the bases its declaration writes that are declared in the workspace."
          : 'The direct subtypes of a type (type hierarchy): the classes that extend it, the types that implement an interface or trait.',
      of: 'a class, interface, struct, enum or trait (or its name)',
      examples: [{ program: `${name}("${direction === 'super' ? 'MemoryRepository' : 'Repository'}")` }],
      // A name that is also a variable or a module (a test's `Cache = cachetools.Cache`) means the type.
      prefers: (symbol) => HIERARCHY_KINDS.has(normalized(symbol.kind)),
      related: (symbols, ctx) => hierarchy(symbols, ctx, direction),
    });
  }
}

async function hierarchy(symbols: readonly SymbolDefinition[], ctx: CallContext<IdeHost>, direction: 'super' | 'sub'): Promise<SymbolDefinition[]> {
  const { backend } = ctx.host;
  const unlisted: string[] = [];
  const answers = await mapLimit(symbols, REQUEST_CONCURRENCY, async (symbol): Promise<TypeItem[] | SymbolDefinition[]> => {
    try {
      return await backend.prepareTypeHierarchy(symbol.definedAt.path, symbol.definedAt.start, { signal: ctx.signal });
    } catch (error) {
      // A server without a type hierarchy (pyright, tsgo, gopls): a type's supertypes are what its
      // declaration writes, its subtypes the implementations whose declarations write it.
      const declared = !unsupported(error) ? undefined : direction === 'super' ? await declaredSupertypes(backend, symbol, ctx.signal, unlisted) : await declaredSubtypes(ctx, symbol);
      if (declared === undefined) throw error;
      return declared;
    }
  });
  // A base written in the header but declared nowhere in the workspace is no silent gap.
  const unique = [...new Set(unlisted)];
  if (unique.length > 0) ctx.note(`not listed: ${unique.map((n) => `\`${n}\``).join(', ')} (written as a base, declared outside the workspace or unresolved)`);
  const items = answers.flatMap((a) => a.filter((x): x is TypeItem => 'handle' in x));
  const declared = answers.flatMap((a) => a.filter((x): x is SymbolDefinition => !('handle' in x)));
  const related = (await mapLimit(items, REQUEST_CONCURRENCY, (item: TypeItem) => backend.typeHierarchy(item, direction, { signal: ctx.signal }))).flat();
  return uniquePlaces([...declared, ...related.map((r) => toDefinition(r.symbol))]);
}

/**
 * The direct subtypes of a class or interface on a server without a type hierarchy: of its
 * implementations (pyright's come from class headers, transitively), those whose declaration
 * writes it as a base. Undefined when a declaration cannot tell (a Go interface, satisfied
 * implicitly by structs: `implementations` answers there).
 */
async function declaredSubtypes(ctx: CallContext<IdeHost>, symbol: SymbolDefinition): Promise<SymbolDefinition[] | undefined> {
  const { backend } = ctx.host;
  if ((await declaredSupertypes(backend, symbol, ctx.signal)) === undefined) return undefined;
  const found = await backend.implementation(symbol.definedAt.path, symbol.definedAt.start, { signal: ctx.signal });
  const candidates = await mapLimit(found, REQUEST_CONCURRENCY, (loc) => symbolForTarget(ctx, loc, loc.content.trim()));
  const bases = await mapLimit(candidates, REQUEST_CONCURRENCY, (c) => declaredSupertypes(backend, c, ctx.signal));
  // One whose bases are not written (a Go struct satisfying an interface): no declaration can tell.
  if (bases.some((b) => b === undefined)) return undefined;
  return candidates.filter((_, i) => (bases[i] ?? []).some((b) => b.definedAt.path === symbol.definedAt.path && samePosition(b.definedAt.start, symbol.definedAt.start)));
}

function samePosition(a: { line: number; column: number }, b: { line: number; column: number }): boolean {
  return a.line === b.line && a.column === b.column;
}

/** Kinds that have a place in a type hierarchy (normalized: lower case, letters only). */
const HIERARCHY_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'protocol', 'typealias', 'type', 'object']);

function normalized(kind: string): string {
  return kind.toLowerCase().replace(/[^a-z]/g, '');
}

function unsupported(error: unknown): boolean {
  return error instanceof DialectError && error.code === CapabilityCode.UnsupportedByServer;
}

/** Kinds that are types themselves: a type definition pointing at them is right. */
const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'typealias', 'typeparameter', 'protocol']);

function isTypeKind(kind: string): boolean {
  return TYPE_KINDS.has(kind.toLowerCase().replace(/[^a-z]/g, ''));
}

/** Whether a location is a symbol's own declaration (its name's line in its file). */
function declares(symbol: SymbolDefinition, target: Location): boolean {
  return target.path === symbol.definedAt.path && target.start.line === symbol.definedAt.start.line;
}
