/**
 * Diagnostics: what went wrong in a Dialect program, where, and how to fix it.
 *
 * Every diagnostic carries a stable `code` (safe to match on in tools and tests), a message that
 * says what is wrong, a primary span, optional secondary labels (for example where an unclosed
 * call was opened) and an optional hint that shows the fix.
 */
import type { Range, SourceText, Span } from './source.js';

/** Stable codes for syntax diagnostics. Never renumber or rename: tools match on them. */
export const SyntaxCode = {
  EmptyInput: 'empty-input',
  UnterminatedString: 'unterminated-string',
  UnterminatedComment: 'unterminated-comment',
  InvalidEscape: 'invalid-escape',
  ControlCharacter: 'control-character-in-string',
  InvalidNumber: 'invalid-number',
  StrayCharacter: 'stray-character',
  UnclosedCall: 'unclosed-call',
  UnclosedArray: 'unclosed-array',
  UnclosedObject: 'unclosed-object',
  MismatchedDelimiter: 'mismatched-delimiter',
  UnexpectedClosingDelimiter: 'unexpected-closing-delimiter',
  MissingComma: 'missing-comma',
  BareIdentifier: 'bare-identifier',
  NoArrowFunctions: 'no-arrow-functions',
  NoStatements: 'no-statements',
  NoNew: 'no-new',
  NoMemberAccess: 'no-member-access',
  NoOperators: 'no-operators',
  NoKeyword: 'no-keyword',
  NamedArgumentSyntax: 'named-argument-syntax',
  PositionalAfterNamed: 'positional-after-named',
  DuplicateNamedArgument: 'duplicate-named-argument',
  InvalidObjectKey: 'invalid-object-key',
  ExpectedValue: 'expected-value',
  UnexpectedToken: 'unexpected-token',
  TrailingInput: 'trailing-input',
  TooDeep: 'nesting-too-deep',
} as const;

/** One of {@link SyntaxCode}. */
export type SyntaxCode = (typeof SyntaxCode)[keyof typeof SyntaxCode];

/** A secondary note attached to a place in the source. */
export interface Label {
  readonly span: Span;
  readonly message: string;
}

/** A problem found in a program, located by UTF-16 span (see {@link resolveDiagnostic} for lines). */
export interface Diagnostic {
  readonly code: SyntaxCode;
  readonly severity: 'error';
  readonly message: string;
  readonly span: Span;
  /** Text shown under the primary caret (optional). */
  readonly label?: string;
  readonly labels?: readonly Label[];
  readonly hint?: string;
}

/**
 * A syntax error at `span`: what is wrong (`message`), the label under the caret, other labelled
 * spans, and how to fix it (`hint`).
 */
export function syntaxError(code: SyntaxCode, span: Span, explanation: Pick<Diagnostic, 'message' | 'label' | 'labels' | 'hint'>): Diagnostic {
  return { code, severity: 'error', span, ...explanation };
}

/** A diagnostic with its spans converted to 1-based lines and columns, ready for JSON output. */
export interface ResolvedDiagnostic {
  readonly code: SyntaxCode;
  readonly severity: 'error';
  readonly message: string;
  readonly range: Range;
  readonly label?: string;
  readonly labels?: readonly { readonly range: Range; readonly message: string }[];
  readonly hint?: string;
}

/** Converts a diagnostic's spans into line/column ranges against its source. */
export function resolveDiagnostic(diagnostic: Diagnostic, source: SourceText): ResolvedDiagnostic {
  const resolved: ResolvedDiagnostic = {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    range: source.range(diagnostic.span),
    ...(diagnostic.label !== undefined ? { label: diagnostic.label } : {}),
    ...(diagnostic.labels !== undefined
      ? { labels: diagnostic.labels.map((l) => ({ range: source.range(l.span), message: l.message })) }
      : {}),
    ...(diagnostic.hint !== undefined ? { hint: diagnostic.hint } : {}),
  };
  return resolved;
}
