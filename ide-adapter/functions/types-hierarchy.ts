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
import { askAtEach, registerRelation, REQUEST_CONCURRENCY, uniquePlaces } from './relations.js';
import { mapLimit, toDefinition } from './symbols.js';

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
      const targets = (await askAtEach(ctx, symbols, (path, at, options) => backend.typeDefinition(path, at, options))).flat();
      if (targets.length === 0 && symbols.length > 0) ctx.note('no type in the workspace: the type may come from the standard library or a dependency (getSymbolInfo shows it)');
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
          ? 'The direct supertypes of a type (type hierarchy): the classes it extends, the interfaces or traits it implements.'
          : 'The direct subtypes of a type (type hierarchy): the classes that extend it, the types that implement an interface or trait.',
      of: 'a class, interface, struct, enum or trait (or its name)',
      examples: [{ program: `${name}("${direction === 'super' ? 'MemoryRepository' : 'Repository'}")` }],
      related: (symbols, ctx) => hierarchy(symbols, ctx, direction),
    });
  }
}

async function hierarchy(symbols: readonly SymbolDefinition[], ctx: CallContext<IdeHost>, direction: 'super' | 'sub'): Promise<SymbolDefinition[]> {
  const { backend } = ctx.host;
  const items = (await askAtEach(ctx, symbols, (path, at, options) => backend.prepareTypeHierarchy(path, at, options))).flat();
  const related = (await mapLimit(items, REQUEST_CONCURRENCY, (item: TypeItem) => backend.typeHierarchy(item, direction, { signal: ctx.signal }))).flat();
  return uniquePlaces(related.map((r) => toDefinition(r.symbol)));
}
