/**
 * Refinements for ambiguous symbol lookups: for each candidate, the fewest extra arguments of
 * `findDefinition` that select exactly it — the file first, then the kind, then the line.
 */
import type { SymbolDefinition } from '../model.js';

/** A candidate with the named arguments that select exactly it. */
export interface Refined {
  readonly def: SymbolDefinition;
  /** Named arguments to add to the lookup (`file`, `kind`, `line`). */
  readonly refine: Record<string, string | number>;
}

/** The distinguishing arguments of each candidate, given what the lookup already specified. */
export function refinementsFor(defs: readonly SymbolDefinition[], given: { readonly file?: string; readonly kind?: string }): Refined[] {
  // Same file and kind (a trait method and its impl): the line tells them apart, the kind adds nothing.
  const orders: (readonly string[])[] = [['file'], ['file', 'kind'], ['file', 'line'], ['file', 'kind', 'line']];
  return defs.map((def) => {
    for (const fields of orders) {
      const refine = build(def, fields, given);
      if (defs.filter((d) => selects(d, refine)).length === 1) return { def, refine };
    }
    return { def, refine: build(def, ['file', 'kind', 'line'], given) };
  });
}

/**
 * Whether a lookup refined by `refine` keeps `d`: as the lookup filters, each criterion holds for
 * some declaration of it (a C++ method declared in a header and defined in a source is in both files).
 */
function selects(d: SymbolDefinition, refine: Readonly<Record<string, string | number>>): boolean {
  const declarations = d.declarations ?? [{ kind: d.kind, definedAt: d.definedAt }];
  const { file, kind, line } = refine;
  return (
    (file === undefined || declarations.some((x) => x.definedAt.path === file)) &&
    (kind === undefined || declarations.some((x) => x.kind === kind)) &&
    (line === undefined || declarations.some((x) => x.definedAt.start.line === line))
  );
}

function build(def: SymbolDefinition, fields: readonly string[], given: { readonly file?: string; readonly kind?: string }): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (fields.includes('file')) out['file'] = def.definedAt.path;
  if (fields.includes('kind') || given.kind !== undefined) out['kind'] = def.kind;
  if (fields.includes('line')) out['line'] = def.definedAt.start.line;
  return out;
}
