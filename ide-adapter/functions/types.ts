/**
 * The IDE's value types in the Dialect registry (symbol, reference, location) and the conversions
 * that let a model pass a name where a symbol is expected: `findReferences("User")` resolves the
 * name, and an ambiguous name becomes refinements that name the file and kind.
 */
import { build, DialectError, MAX_LABEL_LENGTH, truncate, type Registry } from '../../dialect/index.js';
import { isLocation, isReference, isSymbolDefinition, type Location, type Reference, type SymbolDefinition } from '../model.js';
import { awaitIndex, unloadedServers, workspaceNotLoaded, type IdeHost } from './host.js';
import { findSymbolsByName, SymbolCode } from './symbols.js';
import { symbolAtTarget } from './positions.js';
import { refinementsFor } from './refinements.js';
import { importExplanation } from './imported.js';

/** Registers the IDE value types (location, symbol, reference, …) and their conversions. */
export function registerIdeTypes(registry: Registry<IdeHost>): void {
  registry.registerType({
    name: 'location',
    description: 'a place in a file: {path, start: {line, column}, end, content}',
    is: (v) => isLocation(v) && !isSymbolDefinition(v),
    describe: (v) => {
      const l = v as Location;
      return `${l.path}:${l.start.line}  ${truncate(l.content.trim(), MAX_LABEL_LENGTH)}`;
    },
  });
  registry.registerType({
    name: 'symbol',
    description: 'a symbol definition: {name, kind, container?, definedAt: location}',
    // A name is text: `findReferences(42)` is a mistake, not a lookup of "42".
    namedByText: true,
    is: (v) => isSymbolDefinition(v),
    describe: (v) => describeSymbol(v as SymbolDefinition),
  });
  registry.registerType({
    name: 'reference',
    description: 'a use of a symbol: the symbol, plus referencedAt: location',
    is: (v) => isReference(v),
    describe: (v) => {
      const r = v as Reference;
      return `${r.name} used at ${r.referencedAt.path}:${r.referencedAt.start.line}  ${truncate(r.referencedAt.content.trim(), MAX_LABEL_LENGTH)}`;
    },
  });

  registry.registerConversion({
    from: 'string',
    to: 'symbol',
    description: 'the symbol with that name (ambiguous when several are defined)',
    convert: async (value, ctx) => {
      const name = value as string;
      const completeness = await awaitIndex(ctx); // a name looked up before indexing ends must not come back "not found"
      const defs = await findSymbolsByName(ctx.host.backend, { name }, ctx.signal, ctx.host.trace);
      if (defs.length === 1) return defs[0];
      if (defs.length === 0) {
        // Read only for a miss: the listing samples each server's memory (a walk of /proc).
        const listing = ctx.host.backend.servers();
        if (unloadedServers(completeness, listing).length > 0) throw workspaceNotLoaded(name, completeness, listing);
        const imported = await importExplanation(ctx, name);
        if (imported !== undefined) {
          throw new DialectError({ code: SymbolCode.NotFound, message: `no symbol named ${JSON.stringify(name)} is defined in the workspace: ${imported.message}`, hint: imported.hint });
        }
        throw new DialectError({
          code: SymbolCode.NotFound,
          message: `no symbol named ${JSON.stringify(name)} is defined in the workspace`,
          hint: `check the spelling, or search the text: search(".", ${JSON.stringify(name)})`,
        });
      }
      return ctx.ambiguous(
        `${JSON.stringify(name)} names ${defs.length} symbols`,
        refinementsFor(defs, {}).map(({ def, refine }) => ({
          label: describeSymbol(def),
          value: def,
          replacement: build.call('findDefinition', [build.literal(name)], Object.entries(refine).map(([k, v]) => [k, build.literal(v)] as const)),
          facets: refine,
        })),
      );
    },
  });

  registry.registerConversion({
    from: 'location',
    to: 'symbol',
    description: 'the symbol named at that place (e.g. the identifier a search match covers)',
    // One conversion for every location (search matches, diagnostics, reference sites): the
    // identifier the location covers, never the keyword or the line's first token.
    convert: (value, ctx) => symbolAtTarget(ctx, value as Location),
  });
}

/** `fn validate_token in src/auth.rs:12` */
export function describeSymbol(def: SymbolDefinition): string {
  const container = def.container !== undefined ? ` (in ${def.container})` : '';
  return `${def.kind} ${def.name}${container} at ${def.definedAt.path}:${def.definedAt.start.line}`;
}
