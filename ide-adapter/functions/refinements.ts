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
  const keyOf = (d: SymbolDefinition, fields: readonly string[]): string =>
    fields.map((f) => (f === 'file' ? d.definedAt.path : f === 'kind' ? d.kind : String(d.definedAt.start.line))).join('|');
  // Same file and kind (a trait method and its impl): the line tells them apart, the kind adds nothing.
  const orders: (readonly string[])[] = [['file'], ['file', 'kind'], ['file', 'line'], ['file', 'kind', 'line']];
  return defs.map((def) => {
    for (const fields of orders) {
      const mine = keyOf(def, fields);
      if (defs.filter((d) => keyOf(d, fields) === mine).length === 1) return { def, refine: build(def, fields, given) };
    }
    return { def, refine: build(def, ['file', 'kind', 'line'], given) };
  });
}

function build(def: SymbolDefinition, fields: readonly string[], given: { readonly file?: string; readonly kind?: string }): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (fields.includes('file')) out['file'] = def.definedAt.path;
  if (fields.includes('kind') || given.kind !== undefined) out['kind'] = def.kind;
  if (fields.includes('line')) out['line'] = def.definedAt.start.line;
  return out;
}
