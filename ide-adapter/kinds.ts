/**
 * Symbol kinds in each language's own words. LSP has one small vocabulary for every language, so
 * servers report a Rust trait as `interface`, an impl block as `object`, a Rust type alias as
 * `typeparameter`, a `macro_rules!` macro as `function` and a TypeScript type alias as `class`.
 * People and models ask in their language's words (`kind: "trait"`, `kind: "type alias"`); this
 * module names kinds that way (from the LSP kind and the declaration's line) and matches the
 * words people write against them.
 */
import type { ParameterWords } from '../dialect/index.js';
import { escapeRegExp } from './regexp-text.js';

/**
 * LSP's symbol kinds as the protocol names them (its `SymbolKind`, numbered from 1 in this order):
 * what any server reports, custom ones too. The one list of them: a server's kind is read through
 * it (`kindName` in lsp-backend.ts), a test holds it equal to the protocol's, and the `kind:`
 * filter's words follow from it.
 */
export const LSP_SYMBOL_KINDS = [
  ...['File', 'Module', 'Namespace', 'Package', 'Class', 'Method', 'Property', 'Field', 'Constructor', 'Enum', 'Interface', 'Function', 'Variable'],
  ...['Constant', 'String', 'Number', 'Boolean', 'Array', 'Object', 'Key', 'Null', 'EnumMember', 'Struct', 'Event', 'Operator', 'TypeParameter'],
] as const;

/** An LSP kind as servers' answers carry it here: lower case (`enummember`); `symbol` for a number the protocol does not name. */
export type LspKindName = Lowercase<(typeof LSP_SYMBOL_KINDS)[number]> | 'symbol';

/**
 * The kinds' words the languages add to LSP's (`languageKind` here, the languages' `names.ts` and
 * `kinds.ts`): the one list of them. A language's kind hooks return a {@link KindWord}, so a new
 * word is a type error until it is listed here, and the `kind:` filter accepts it.
 */
export const LANGUAGE_KIND_WORDS = ['trait', 'impl', 'enum variant', 'type alias', 'macro', 'derive macro', 'special method', 'function literal', 'type', 'template parameter', 'enumerator', 'union', 'destructor', 'enum member', 'type parameter'] as const;

/** A symbol kind as Dialect names it: an LSP kind, or a language's own word. */
export type KindWord = LspKindName | (typeof LANGUAGE_KIND_WORDS)[number];

/** The LSP kind of a number the protocol gives (`SymbolKind`, from 1), lower case; `symbol` when it names none. */
export function lspKindName(kind: number): LspKindName {
  return (LSP_SYMBOL_KINDS[kind - 1]?.toLowerCase() as LspKindName | undefined) ?? 'symbol';
}

/** The kind of a symbol as its language calls it (`trait`, `impl`, `type alias`, `enum variant`, …). */
export function languageKind(language: string, lspKind: LspKindName, declarationLine: string, name: string): KindWord {
  // A pattern is compiled only for a line that has both words: outlines convert thousands of entries.
  const declares = (keyword: string): boolean =>
    declarationLine.includes(keyword) && declarationLine.includes(name) && new RegExp(`(^|[^A-Za-z0-9_$])${keyword}\\s+${escapeRegExp(name)}(?![A-Za-z0-9_$])`).test(declarationLine);
  if (language === 'rust') {
    switch (lspKind) {
      case 'interface':
        return 'trait';
      case 'object':
        return 'impl';
      case 'enummember':
        return 'enum variant';
      case 'typeparameter':
        return declares('type') ? 'type alias' : 'type parameter';
      case 'function':
      case 'method':
        return /(^|[^A-Za-z0-9_])macro_rules!\s*/.test(declarationLine) || declares('macro') ? 'macro' : lspKind;
      default:
        return lspKind;
    }
  }
  if (/^(typescript|javascript)(react)?$/.test(language)) {
    switch (lspKind) {
      case 'class':
      case 'typeparameter':
        return declares('type') ? 'type alias' : lspKind;
      // VS Code's TypeScript features report a type alias, and a namespace merged with a class or interface, as a variable.
      case 'variable':
        return declares('type') ? 'type alias' : declares('namespace') || declares('module') ? 'namespace' : lspKind;
      case 'module':
      case 'namespace':
        return declares('namespace') || declares('module') ? 'namespace' : 'module';
      case 'enummember':
        return 'enum member';
      // VS Code's TypeScript features report a class property as a field; TypeScript (and tsgo) call it a property.
      case 'field':
        return 'property';
      default:
        return lspKind;
    }
  }
  return lspKind;
}

/** Kinds that nothing implements: values, members of data, modules, macros. */
const NEVER_IMPLEMENTED = new Set(['enumvariant', 'enummember', 'enumerator', 'templateparameter', 'union', 'field', 'property', 'variable', 'constant', 'module', 'namespace', 'typeparameter', 'macro', 'derivemacro', 'typealias', 'package', 'file', 'string', 'number', 'boolean', 'key', 'null', 'event']);

/** Whether a symbol of this kind can have implementations (a trait, interface, class, method, …). */
export function canHaveImplementations(kind: string): boolean {
  return !NEVER_IMPLEMENTED.has(normalizeKind(kind));
}

/** The kinds (normalized) a word written in a `kind:` filter stands for, beyond itself. */
const KIND_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  fn: ['function'],
  func: ['function'],
  def: ['function'],
  trait: ['interface'],
  interface: ['trait'],
  protocol: ['interface', 'trait'],
  const: ['constant'],
  var: ['variable'],
  let: ['variable'],
  mod: ['module', 'namespace'],
  module: ['namespace'],
  namespace: ['module'],
  variant: ['enumvariant', 'enummember'],
  enumvariant: ['enummember'],
  enummember: ['enumvariant'],
  member: ['enummember', 'property', 'field', 'method'],
  type: ['class', 'struct', 'interface', 'trait', 'enum', 'typealias'],
  alias: ['typealias'],
  typedef: ['typealias'],
  implementation: ['impl'],
  macrorules: ['macro'],
  macro: ['derivemacro'],
  derive: ['derivemacro'],
  proc: ['derivemacro'],
  procmacro: ['derivemacro'],
  ctor: ['constructor'],
  prop: ['property', 'field'],
  property: ['field'],
  field: ['property'],
};

/**
 * Every word a symbol's kind is named by: LSP's kinds in words (`EnumMember` → `enum member`) and
 * the languages' own.
 */
const KIND_WORDS: readonly string[] = [...new Set([...LSP_SYMBOL_KINDS.map((k) => k.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase()), ...LANGUAGE_KIND_WORDS])];

/** The spellings a `kind:` filter accepts: the kinds' words and their synonyms, normalized. */
const ACCEPTED_KINDS: ReadonlySet<string> = new Set([...KIND_WORDS.map(normalizeKind), ...Object.keys(KIND_SYNONYMS), 'symbol']);

/** The words of a `kind:` filter (the registry's parameter schema): a misspelt kind is an error with the closest words, not an empty answer. */
export const KIND_FILTER_WORDS: ParameterWords = {
  describe: 'a kind of symbol',
  list: () => KIND_WORDS,
  accepts: (word) => ACCEPTED_KINDS.has(normalizeKind(word)),
};

/** Lower case, letters only: `Type Alias` → `typealias`. */
export function normalizeKind(kind: string): string {
  return kind.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether a symbol kind satisfies a kind filter written by a user or a model. */
export function kindMatches(actual: string, wanted: string): boolean {
  const a = normalizeKind(actual);
  const w = normalizeKind(wanted);
  return a === w || (KIND_SYNONYMS[w] ?? []).includes(a);
}
