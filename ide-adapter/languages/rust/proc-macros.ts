/**
 * Rust's procedural macros as rust-analyzer reports them. A derive macro is a function
 * (`#[proc_macro_derive(Describe)] pub fn derive_describe(…)`) that the language knows by the
 * name in its attribute: rust-analyzer's symbol index lists it under that name, at the function's
 * name, as a function. The name is written only in the attribute above.
 */
import type { KindWord, LspKindName } from '../../kinds.js';

/** How many lines above a function its attributes and doc comments are looked through. */
const ATTRIBUTE_SEARCH_LINES = 30;

/** The kind of a derive macro, in Rust's words. */
const DERIVE_MACRO_KIND: KindWord = 'derive macro';

/** The kind of a function symbol that is a derive macro (rust-analyzer's `declaredKind` hook). */
export function deriveMacroKind(name: string, lspKind: LspKindName, lines: readonly string[], line: number): KindWord | undefined {
  return lspKind === 'function' && declaresDeriveMacro(lines, line, name) ? DERIVE_MACRO_KIND : undefined;
}

/**
 * Whether the function declared at `line` (1-based) is the derive macro `name`: an attribute
 * `#[proc_macro_derive(name …)]` among the attributes and comments directly above it.
 */
function declaresDeriveMacro(lines: readonly string[], line: number, name: string): boolean {
  const attribute = new RegExp(`#\\s*\\[\\s*proc_macro_derive\\s*\\(\\s*${name.replace(/[^A-Za-z0-9_]/g, '')}\\b`);
  for (let at = line; at >= Math.max(1, line - ATTRIBUTE_SEARCH_LINES); at--) {
    const text = lines[at - 1] ?? '';
    if (attribute.test(text)) return true;
    const trimmed = text.trim();
    // Above the function only attributes, comments and blank lines belong to it.
    if (at !== line && trimmed !== '' && !/^(#|\/\/|\/\*|\*)/.test(trimmed) && !/[)\]]\s*$/.test(trimmed)) return false;
  }
  return false;
}
