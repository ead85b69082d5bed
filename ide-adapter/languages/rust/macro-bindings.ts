/**
 * What a Rust macro call writes under a name. rust-analyzer's symbol index lists the items of a
 * macro's expansion at the macro call, `pub use` re-exports included (serde's `crate_root!();`
 * re-exports `Serialize`): its expansion (`rust-analyzer/expandMacro`) tells a definition the
 * macro writes from a `use` binding it writes, which is never a definition.
 */
import type { MacroBinding, MacroExpansion } from '../../lsp/servers.js';

/** Expansion text read at most (larger: the binding stays unknown, the item is kept as generated). */
const MAX_EXPANSION_CHARS = 500_000;

/**
 * Tokens of an expansion, in one left-to-right pass: string literals and comments (skipped), the
 * start of a `use` item (group 1: `pub`, a re-export), a definition keyword with its name (group 2),
 * a word, the `;` that ends a `use` item.
 */
const TOKEN = /"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\b(pub(?:\s*\([^)\n;]{0,40}\))?\s+)?use\b|\b(?:struct|enum|union|trait|fn|type|const|static|mod|macro_rules!)\s*(?:r#)?([A-Za-z_]\w*)|[A-Za-z_]\w*|;/g;

/**
 * How an expansion binds `name`: `undefined` when it defines it (`struct name`, `fn name`, …) or
 * never names it in a `use`; else `'reexport'` when a `pub use` names it, `'import'` when only a
 * private `use` does, with the path that `use` names as written (`serde_core::Deserialize`).
 */
function expansionBinding(expansion: string, name: string): MacroBinding | undefined {
  let use: { binding: 'import' | 'reexport'; start: number; names: boolean } | undefined;
  let bound: MacroBinding | undefined;
  const text = expansion.slice(0, MAX_EXPANSION_CHARS);
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    if (token.startsWith('"') || token.startsWith('//')) continue;
    if (token === ';') {
      if (use?.names === true && bound?.binding !== 'reexport') {
        const path = usePathTo(text.slice(use.start, m.index), name);
        bound = { binding: use.binding, ...(path !== undefined ? { path } : {}) };
      }
      use = undefined;
    } else if (m[2] !== undefined) {
      if (m[2] === name) return undefined;
    } else if (/\buse$/.test(token)) use = { binding: m[1] !== undefined ? 'reexport' : 'import', start: (m.index ?? 0) + token.length, names: false };
    else if (token === name && use !== undefined) use.names = true;
  }
  return bound;
}

/**
 * The path a `use` tree (the text after `use`, without its `;`) binds `name` to: `serde_core::{de,
 * Deserialize}` → `serde_core::Deserialize`, `a::B as name` → `a::B`. One pass over its tokens.
 */
function usePathTo(tree: string, name: string): string | undefined {
  const prefixes: string[] = [];
  let current = '';
  let alias = false;
  let aliased: string | undefined;
  const ends = (): string | undefined => {
    const prefix = prefixes.join('');
    if (aliased !== undefined) return aliased === name ? `${prefix}${current}` : undefined;
    return current.split('::').at(-1) === name ? `${prefix}${current}` : undefined;
  };
  for (const [token] of tree.matchAll(/[A-Za-z_]\w*|::|[{},*]/g)) {
    if (token === '{') {
      prefixes.push(current);
      current = '';
    } else if (token === ',' || token === '}') {
      const found = ends();
      if (found !== undefined) return found;
      current = '';
      if (token === '}') prefixes.pop();
      aliased = undefined;
    } else if (token === 'as') alias = true;
    else if (alias) {
      aliased = token;
      alias = false;
    } else current += token;
  }
  return ends();
}

/** rust-analyzer's macro expansion: its extension request at a macro call's name. */
export const RUST_MACRO_EXPANSION: MacroExpansion = {
  method: 'rust-analyzer/expandMacro',
  text: (result) => (typeof result === 'object' && result !== null && typeof (result as { expansion?: unknown }).expansion === 'string' ? (result as { expansion: string }).expansion : undefined),
  bindingOf: expansionBinding,
};
