/**
 * Paths through Rust's glob re-exports: `thiserror::Error` names the derive macro `Error` of the
 * crate `thiserror_impl` because thiserror's `src/lib.rs` writes `pub use thiserror_impl::*;`.
 * Nothing there is listed under the name, so the re-export lines are found by one budgeted text
 * search (at most {@link MAX_GLOB_REEXPORTS} lines), and a candidate whose own path does not fit
 * the qualifiers fits when a glob re-export in the module the qualifiers name leads to the module
 * it is declared in.
 */
import type { BackendSymbol, IdeBackend, OutlineSymbol } from '../backend.js';
import { searchWorkspace } from '../search.js';
import { qualifiersMatch, type PathSegment, type SymbolPaths } from './qualified.js';

/** Glob re-export lines read at most per lookup. */
export const MAX_GLOB_REEXPORTS = 200;

/** `pub use path::to::module::*;` (any visibility restriction): group 1 is the path. */
const GLOB_REEXPORT = String.raw`^\s*pub(\([^)]*\))?\s+use\s+(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*::\*\s*;`;

/** Kinds of the items a macro crate exports from a function's attribute (their container is that function, not an owner). */
const MACRO_KINDS = new Set(['macro', 'derive macro', 'attribute macro']);

/**
 * Those of `candidates` (Rust items whose own path does not fit `qualifiers`) that a glob
 * re-export in the module `qualifiers` name makes visible there; `cut` when the search hit its bound.
 */
export async function globReexported<L extends { readonly symbol: BackendSymbol; readonly ancestors: readonly OutlineSymbol[] }>(
  backend: IdeBackend,
  qualifiers: readonly string[],
  candidates: readonly L[],
  paths: SymbolPaths,
  signal: AbortSignal,
): Promise<{ found: L[]; cut: boolean }> {
  const rust = candidates.filter((c) => c.symbol.language === 'rust');
  const last = qualifiers[qualifiers.length - 1];
  if (rust.length === 0 || last === undefined) return { found: [], cut: false };
  const { matches, total, walk } = await searchWorkspace(backend.workspace, '.', GLOB_REEXPORT, { extensions: ['.rs'], maxResults: MAX_GLOB_REEXPORTS, signal });
  const globs: { written: string[] }[] = [];
  for (const m of matches) {
    const modules = await paths.modules(m.path);
    // The glob must stand in the module the qualifiers end with (`thiserror` → its `src/lib.rs`).
    if (!(modules[modules.length - 1]?.names.has(last) ?? false) || !qualifiersMatch(qualifiers, modules)) continue;
    const written = /use\s+(?:::)?([A-Za-z0-9_:]+)::\*/.exec(m.content)?.[1]?.split('::') ?? [];
    const crate = [...(modules[0]?.names ?? [])].find((n) => n !== 'crate');
    globs.push({ written: written.map((w) => (w === 'crate' && crate !== undefined ? crate : w)).filter((w) => w !== 'self' && w !== 'super') });
  }
  const found: L[] = [];
  for (const c of rust) {
    const path = await paths.of(c.symbol, c.ancestors);
    const modules: PathSegment[] = path.filter((s) => !s.owner);
    // An item of the module itself: a type's members are not re-exported by a glob.
    if (modules.length !== path.length && !MACRO_KINDS.has(c.symbol.kind)) continue;
    const lastModule = modules[modules.length - 1];
    if (globs.some(({ written }) => written.length > 0 && (lastModule?.names.has(written[written.length - 1] as string) ?? false) && qualifiersMatch(written, modules))) found.push(c);
  }
  return { found, cut: total > matches.length || walk.truncated };
}
