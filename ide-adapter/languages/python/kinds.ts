/**
 * Kinds in Python's words. pyright reports `__init__` and friends as methods, a module-level name
 * assigned once as a variable, an UPPER_CASE one as a constant, a `@property` as a property; the
 * words Python people use differ only for the special methods (`constructor` for `__init__`).
 */
import type { KindWord, LspKindName } from '../../kinds.js';

/** The kind of a pyright symbol as Python calls it. */
export function pythonKind(lspKind: LspKindName, _declarationLine: string, name: string): KindWord {
  if ((lspKind === 'method' || lspKind === 'constructor') && name === '__init__') return 'constructor';
  if (lspKind === 'method' && /^__\w+__$/.test(name)) return 'special method';
  return lspKind;
}
