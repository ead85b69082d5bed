/**
 * The three outcomes of an evaluation: a value, an error that teaches, or an ambiguity whose
 * candidates each come with a program that selects exactly that candidate.
 */
import type { Expr } from './ast.js';
import type { DialectCode } from './codes.js';
import type { Diagnostic } from './diagnostics.js';
import type { SourceText, Span } from './source.js';

/** Stable codes of evaluation errors. Never rename: tools and tests match on them. */
export const EvalCode = {
  Syntax: 'syntax-error',
  UnknownFunction: 'unknown-function',
  UnknownName: 'unknown-name',
  MissingArgument: 'missing-argument',
  UnknownArgument: 'unknown-argument',
  TooManyArguments: 'too-many-arguments',
  TypeMismatch: 'type-mismatch',
  ConversionFailed: 'conversion-failed',
  FunctionFailed: 'function-failed',
  NoMatch: 'no-match',
  Empty: 'empty-result',
  Cancelled: 'cancelled',
  DeadlineExceeded: 'deadline-exceeded',
  InvalidArgument: 'invalid-argument',
  BudgetExceeded: 'evaluation-budget-exceeded',
} as const;

/** One of {@link EvalCode}. */
export type EvalCode = (typeof EvalCode)[keyof typeof EvalCode];

/** What a {@link DialectError} is made of. */
export interface DialectErrorInit {
  readonly code: DialectCode;
  readonly message: string;
  readonly hint?: string;
  /** The expected signature of the function involved, e.g. `lines(path: string, start: number, end: number)`. */
  readonly signature?: string;
  /** A corrected, runnable example. */
  readonly example?: string;
  readonly span?: Span;
  readonly notes?: readonly string[];
  readonly cause?: unknown;
}

/**
 * An evaluation error. Functions throw it (or call `ctx.fail`) to report a problem the caller can
 * fix; anything else they throw becomes a `function-failed` error.
 */
export class DialectError extends Error {
  override readonly name = 'DialectError';
  readonly code: DialectCode;
  readonly hint: string | undefined;
  readonly signature: string | undefined;
  readonly example: string | undefined;
  /** The sub-expression that failed, filled in by the interpreter when the thrower did not. */
  span: Span | undefined;
  /** The calls that enclose the failing one, outermost first, e.g. `findReferences(…) at 1:1`. */
  chain: readonly string[] = [];
  readonly notes: readonly string[];
  /** For syntax errors: the parser's diagnostics. */
  diagnostics: readonly Diagnostic[] = [];

  constructor(init: DialectErrorInit) {
    super(init.message, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.code = init.code;
    this.hint = init.hint;
    this.signature = init.signature;
    this.example = init.example;
    this.span = init.span;
    this.notes = init.notes ?? [];
  }
}

/** One meaning of an ambiguous result. */
export interface Candidate {
  /** A short human description, e.g. `fn validate_token in src/auth.rs:12`. */
  readonly label: string;
  /** The value this candidate stands for. */
  readonly value: unknown;
  /** The expression that replaces the ambiguous sub-expression to select exactly this candidate. */
  readonly replacement: Expr;
  /** Facts that tell the candidates apart (the refinement's named arguments), used by `pick`. */
  readonly facets: Readonly<Record<string, unknown>>;
}

/**
 * An ambiguous result: data a function returns (never throws) when it found several valid
 * meanings. The interpreter fills in `node`, the sub-expression that produced it.
 */
export class Ambiguity {
  node: Expr | undefined;

  constructor(
    readonly message: string,
    readonly candidates: readonly Candidate[],
  ) {}
}

/** A numbered choice of an ambiguity outcome: what it is and the whole program that selects it. */
export interface Refinement {
  readonly label: string;
  readonly program: string;
  readonly value: unknown;
}

interface OutcomeBase {
  /** The program that was evaluated, for rendering carets. */
  readonly source: SourceText;
  /** Things the user should know about a result (e.g. a language server was still indexing). */
  readonly notes: readonly string[];
}

/** The evaluation produced a value. */
export interface ValueOutcome extends OutcomeBase {
  readonly kind: 'value';
  readonly value: unknown;
}

/** The evaluation failed with an error that says how to fix the program. */
export interface ErrorOutcome extends OutcomeBase {
  readonly kind: 'error';
  readonly error: DialectError;
}

/** The evaluation found several meanings; each refinement is a program that selects one. */
export interface AmbiguityOutcome extends OutcomeBase {
  readonly kind: 'ambiguity';
  readonly message: string;
  readonly refinements: readonly Refinement[];
}

/** Every evaluation ends in exactly one of these. */
export type Outcome = ValueOutcome | ErrorOutcome | AmbiguityOutcome;
