/**
 * Type navigation: where a symbol's type is defined (`textDocument/typeDefinition`) and the type
 * hierarchy (`textDocument/prepareTypeHierarchy` + `typeHierarchy/supertypes|subtypes`). A server
 * without the request answers `unsupported-by-server` (from the backend), naming the server and
 * an alternative.
 */
import type { CallContext, Registry } from '../../dialect/index.js';
import type { TypeItem } from '../backend.js';
import type { SymbolDefinition } from '../model.js';
import type { IdeHost } from './host.js';
import { symbolForTarget } from './positions.js';
import { mapLimit, toDefinition } from './symbols.js';

/** Requests in flight at once per call. */
const CONCURRENCY = 4;

const OF_PARAMETER = { name: 'of', type: 'symbol | symbol[]', aliases: ['symbol', 'name'] } as const;

/** Registers `typeDefinition`, `supertypes` and `subtypes`. */
export function registerTypeFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'typeDefinition',
    aliases: ['findTypeDefinition', 'typeOf'],
    description:
      'Where the type of a variable, field, parameter or expression is defined (`let task = Task::new(…)` gives the `Task` struct; a field `priority: Priority` the `Priority` enum). Types outside the workspace (the standard library, dependencies) are left out, with a note.',
    category: 'navigation',
    requires: 'index',
    parameters: [{ ...OF_PARAMETER, description: 'a variable, field, parameter or function (or its name, or a location such as symbolAt(…))' }],
    returns: 'symbol[]',
    examples: [
      { program: 'typeDefinition(symbolAt("src/service.rs", 32, 13))', description: 'the type of the local variable at that place' },
      { program: 'typeDefinition(findDefinition("Task::priority"))', description: 'the type of a field: the Priority enum' },
    ],
    implementation: async (args, ctx) => {
      const symbols = asList(args['of'] as SymbolDefinition | SymbolDefinition[]);
      const { backend } = ctx.host;
      const targets = (await mapLimit(symbols, CONCURRENCY, (s) => backend.typeDefinition(s.definedAt.path, s.definedAt.start, { signal: ctx.signal }))).flat();
      if (targets.length === 0 && symbols.length > 0) ctx.note('no type in the workspace: the type may come from the standard library or a dependency (getSymbolInfo shows it)');
      const defs = await mapLimit(targets, CONCURRENCY, (t) => symbolForTarget(ctx, t, t.content.trim()));
      return unique(defs);
    },
  });

  for (const direction of ['super', 'sub'] as const) {
    const name = direction === 'super' ? 'supertypes' : 'subtypes';
    registry.registerFunction({
      name,
      aliases: direction === 'super' ? ['superTypes'] : ['subTypes'],
      description:
        direction === 'super'
          ? 'The direct supertypes of a type (type hierarchy): the classes it extends, the interfaces or traits it implements.'
          : 'The direct subtypes of a type (type hierarchy): the classes that extend it, the types that implement an interface or trait.',
      category: 'navigation',
      requires: 'index',
      parameters: [{ ...OF_PARAMETER, description: 'a class, interface, struct, enum or trait (or its name)' }],
      returns: 'symbol[]',
      examples: [{ program: `${name}("${direction === 'super' ? 'MemoryRepository' : 'Repository'}")` }],
      implementation: async (args, ctx) => hierarchy(args, ctx, direction),
    });
  }
}

async function hierarchy(args: Readonly<Record<string, unknown>>, ctx: CallContext<IdeHost>, direction: 'super' | 'sub'): Promise<SymbolDefinition[]> {
  const symbols = asList(args['of'] as SymbolDefinition | SymbolDefinition[]);
  const { backend } = ctx.host;
  const items = (await mapLimit(symbols, CONCURRENCY, (s) => backend.prepareTypeHierarchy(s.definedAt.path, s.definedAt.start, { signal: ctx.signal }))).flat();
  const related = (await mapLimit(items, CONCURRENCY, (item: TypeItem) => backend.typeHierarchy(item, direction, { signal: ctx.signal }))).flat();
  return unique(related.map((r) => toDefinition(r.symbol)));
}

function asList<T>(value: T | T[]): T[] {
  return Array.isArray(value) ? value : [value];
}

/** Without repeats of one place (several symbols can share a type). */
function unique(defs: readonly SymbolDefinition[]): SymbolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => {
    const key = `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
