/**
 * Symbol kinds in each language's own words. LSP has one small vocabulary for every language, so
 * servers report a Rust trait as `interface`, an impl block as `object`, a Rust type alias as
 * `typeparameter`, a `macro_rules!` macro as `function` and a TypeScript type alias as `class`.
 * People and models ask in their language's words (`kind: "trait"`, `kind: "type alias"`); this
 * module names kinds that way (from the LSP kind and the declaration's line) and matches the
 * words people write against them.
 */
import type { ParameterWords } from '../dialect/index.js';

/** The kind of a symbol as its language calls it (`trait`, `impl`, `type alias`, `enum variant`, …). */
export function languageKind(language: string, lspKind: string, declarationLine: string, name: string): string {
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
 * Every word a symbol's kind is named by: LSP's kinds (what any server, custom ones too, reports)
 * and the languages' own words (`languageKind` here, the languages' `names.ts` and `kinds.ts`).
 */
const KIND_WORDS: readonly string[] = [
  // LSP's vocabulary.
  ...['file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant'],
  ...['string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter'],
  // The languages' words.
  ...['trait', 'impl', 'enum variant', 'type alias', 'macro', 'derive macro', 'special method', 'function literal', 'type', 'template parameter', 'enumerator', 'union', 'destructor'],
];

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
