/**
 * The IDE's value types in the Dialect registry (symbol, reference, location) and the conversions
 * that let a model pass a name where a symbol is expected: `findReferences("User")` resolves the
 * name, and an ambiguous name becomes refinements that name the file and kind.
 */
import { build, DialectError, type Registry } from '../../dialect/index.js';
import { isLocation, isReference, isSymbolDefinition, type Location, type Reference, type SymbolDefinition } from '../model.js';
import { awaitIndex, type IdeHost } from './host.js';
import { findSymbolsByName, flatten, SymbolCode } from './symbols.js';
import { refinementsFor } from './refinements.js';

export function registerIdeTypes(registry: Registry<IdeHost>): void {
  registry.registerType({
    name: 'location',
    description: 'a place in a file: {path, start: {line, column}, end, content}',
    is: (v) => isLocation(v) && !isSymbolDefinition(v),
    describe: (v) => {
      const l = v as Location;
      return `${l.path}:${l.start.line}  ${l.content.trim().slice(0, 80)}`;
    },
  });
  registry.registerType({
    name: 'symbol',
    description: 'a symbol definition: {name, kind, container?, definedAt: location}',
    is: (v) => isSymbolDefinition(v),
    describe: (v) => describeSymbol(v as SymbolDefinition),
  });
  registry.registerType({
    name: 'reference',
    description: 'a use of a symbol: the symbol, plus referencedAt: location',
    is: (v) => isReference(v),
    describe: (v) => {
      const r = v as Reference;
      return `${r.name} used at ${r.referencedAt.path}:${r.referencedAt.start.line}  ${r.referencedAt.content.trim().slice(0, 60)}`;
    },
  });

  registry.registerConversion({
    from: 'string',
    to: 'symbol',
    description: 'the symbol with that name (ambiguous when several are defined)',
    convert: async (value, ctx) => {
      const name = value as string;
      await awaitIndex(ctx); // a name looked up before indexing ends must not come back "not found"
      const defs = await findSymbolsByName(ctx.host.backend, { name }, ctx.signal);
      if (defs.length === 1) return defs[0];
      if (defs.length === 0) {
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
    description: 'the symbol defined at, or used at, that place (e.g. a search match)',
    convert: async (value, ctx) => {
      const loc = value as { path: string; start: { line: number; column: number }; match?: string };
      const { backend } = ctx.host;
      await awaitIndex(ctx, [loc.path]);
      const defs = await backend.definition(loc.path, loc.start, { signal: ctx.signal });
      const target = defs[0];
      if (target === undefined) {
        throw new DialectError({
          code: SymbolCode.NotFound,
          message: `there is no symbol at ${loc.path}:${loc.start.line}:${loc.start.column}`,
          hint: 'point at a name: search(path, "\\\\bname\\\\b") gives matches that start on one',
        });
      }
      const outline = await backend.documentSymbols(target.path, { signal: ctx.signal });
      const symbol = flatten(outline).find((s) => s.location.start.line === target.start.line && s.location.start.column === target.start.column);
      const def: SymbolDefinition = {
        name: symbol?.name ?? loc.match ?? target.content.trim(),
        kind: symbol?.kind ?? 'symbol',
        ...(symbol?.container !== undefined ? { container: symbol.container } : {}),
        ...(symbol?.language !== undefined ? { language: symbol.language } : {}),
        definedAt: target,
      };
      return def;
    },
  });
}

/** `fn validate_token in src/auth.rs:12` */
export function describeSymbol(def: SymbolDefinition): string {
  const container = def.container !== undefined ? ` (in ${def.container})` : '';
  return `${def.kind} ${def.name}${container} at ${def.definedAt.path}:${def.definedAt.start.line}`;
}
