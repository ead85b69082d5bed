/**
 * `DialectCode`: the one union of every stable code a Dialect result can carry (syntax
 * diagnostics, evaluation errors, and the codes of the layers that embed the core).
 *
 * The core imports nothing from the outer layers, so it cannot name their codes. Instead each
 * layer adds its own code sets to {@link DialectCodeSets} by declaration merging, next to the
 * `const XCode = {...} as const` object that defines them:
 *
 * ```ts
 * declare module '../dialect/codes.js' {
 *   interface DialectCodeSets { workspace: WorkspaceCode }
 * }
 * ```
 *
 * Wherever the whole program is compiled, `DialectCode` is then the complete union, and
 * `DialectError`, `ctx.fail` and the outcome JSON accept no other string. Each layer also keeps a
 * {@link CodeDocs} record of its codes (one line each); the outermost layer joins them into one
 * record the type system forces to be complete.
 */
import type { SyntaxCode } from './diagnostics.js';
import type { EvalCode } from './outcome.js';

/**
 * The code sets, keyed by a name of the set. Outer layers add members by declaration merging; the
 * key names are free, only the value types count.
 */
export interface DialectCodeSets {
  /** Syntax diagnostics of the parser. */
  syntax: SyntaxCode;
  /** Evaluation errors of the interpreter. */
  eval: EvalCode;
}

/** Every stable code a Dialect result can carry. */
export type DialectCode = DialectCodeSets[keyof DialectCodeSets];

/** The codes of a `const XCode = {...} as const` object, as a union. */
export type CodeOf<T extends Readonly<Record<string, string>>> = T[keyof T];

/** One documentation line per code of `C`: what it means and what to do. */
export type CodeDocs<C extends string> = { readonly [K in C]: string };

/** The core's codes, documented. */
export const CORE_CODE_DOCS: CodeDocs<SyntaxCode | EvalCode> = {
  'empty-input': 'The program is empty: write one expression, e.g. findDefinitions("User").',
  'unterminated-string': 'A string has no closing quote before the end of the line (or program).',
  'unterminated-comment': 'A /* comment has no closing */.',
  'invalid-escape': 'A string has a backslash escape JSON does not allow.',
  'control-character-in-string': 'A string holds a raw control character; write it as an escape such as \\n.',
  'invalid-number': 'A number is not written the JSON way (leading zeros, a lone dot, hex, …), or is too large for a 64-bit float (1e999).',
  'stray-character': 'A character that starts no token of the language.',
  'unclosed-call': 'A call has no closing parenthesis.',
  'unclosed-array': 'An array has no closing bracket.',
  'unclosed-object': 'An object has no closing brace.',
  'mismatched-delimiter': 'A closing delimiter does not match the one that is open.',
  'unexpected-closing-delimiter': 'A closing delimiter with nothing open to close.',
  'missing-comma': 'Two values or arguments follow each other without a comma.',
  'bare-identifier': 'A name that is not a call: quote it as a string, or call it.',
  'no-arrow-functions': 'Arrow functions are not part of the language.',
  'no-statements': 'A program is one expression, not statements.',
  'no-new': '`new` is not part of the language.',
  'no-member-access': 'Member access (`a.b`, `a[0]`) is not part of the language; use a function.',
  'no-operators': 'Operators are not part of the language; use a function.',
  'no-keyword': 'A keyword of another language (`let`, `function`, …) is not part of this one.',
  'named-argument-syntax': 'Named arguments are written `name: value`.',
  'positional-after-named': 'A positional argument follows a named one; put positional arguments first.',
  'duplicate-named-argument': 'The same named argument is given twice.',
  'invalid-object-key': 'An object key is not a string or a name.',
  'expected-value': 'A value is missing where one is expected.',
  'unexpected-token': 'A token the grammar does not allow at this place.',
  'trailing-input': 'Text follows the one expression of the program.',
  'nesting-too-deep': 'The program nests deeper than the parser allows (MAX_NESTING_DEPTH).',
  'syntax-error': 'The program does not parse; the diagnostics say where and why.',
  'unknown-function': 'No function of that name is registered; the hint names the closest.',
  'unknown-name': 'A bare name is bound to nothing; quote it to pass text.',
  'missing-argument': 'A required argument of a function is missing.',
  'unknown-argument': 'A named argument the function does not take.',
  'too-many-arguments': 'More positional arguments than the function takes.',
  'type-mismatch': 'An argument has a type the parameter does not accept and no conversion applies.',
  'conversion-failed': 'A registered conversion could not turn the argument into the needed type.',
  'function-failed': 'A function failed for a reason it did not classify; the message says what happened.',
  'no-match': '`pick` selected none of the items (the index or the facets match nothing).',
  'empty-result': 'Exactly one item was needed but the inner call returned none.',
  cancelled: 'The evaluation was cancelled (Ctrl-C, a closed client, or an aborted request).',
  'deadline-exceeded': 'The evaluation ran past its deadline; the message lists what was still running.',
  'invalid-argument': 'An argument has the right type but a value the function cannot use.',
  'evaluation-budget-exceeded': 'The values of one evaluation outgrew its budget (bytes or items, `DEFAULT_EVALUATION_BUDGET`); narrow the program.',
};
