/**
 * The Dialect language: a superset of JSON with function calls. This module is the public API of
 * the core; it has no Node, file-system or language-server dependencies.
 */
export type { ArrayExpr, CallExpr, Expr, LiteralExpr, NamedArgument, ObjectExpr, Property, ReferenceExpr } from './ast.js';
export { build, replaceNode } from './ast.js';
export { CORE_CODE_DOCS, type CodeDocs, type CodeOf, type DialectCode, type DialectCodeSets } from './codes.js';
export { dataValue, setProperty, type Value } from './data.js';
export { SyntaxCode, resolveDiagnostic, type Diagnostic, type Label, type ResolvedDiagnostic } from './diagnostics.js';
export { CLOSING_BRACKETS, OPENING_BRACKETS, lexPrefix, type CursorContext, type PrefixLex } from './lexer.js';
export { Colon, Comma, DialectToken, Dot, Identifier, LBrace, LBracket, LParen, keywordTokenTypes } from './tokens.js';
export { MAX_NESTING_DEPTH, parse, type ParseOptions, type ParseResult } from './parse.js';
export { printExpr, printValue, valueToExpr, type PrintOptions } from './printer.js';
export { renderDiagnostic, type RenderableDiagnostic, type RenderOptions } from './render.js';
export { SourceText, codePointCount, type Position, type Range, type Span } from './source.js';
export { controlPicture, cutMiddle, ELLIPSIS, MAX_DIAGNOSTIC_TEXT, MAX_LABEL_LENGTH, showControls, showFieldControls, truncate } from './display.js';
export { createRegistry } from './builtins.js';
export { DEFAULT_EVALUATION_BUDGET, ValueMeter, type EvaluationBudget } from './budget.js';
export { planConversion, matches } from './conversions.js';
export { firstSentence, helpFor, helpOverview, referenceMarkdown } from './help.js';
export { Interpreter, makeAmbiguity, refineCall, type EvaluateOptions, type EvaluationStep, type StepObserver } from './interpreter.js';
export { Ambiguity, DialectError, EvalCode, type AmbiguityOutcome, type Candidate, type DialectErrorInit, type ErrorOutcome, type Outcome, type Refinement, type ValueOutcome } from './outcome.js';
export {
  Registry, RegistryError, type CallContext, type CandidateSpec, type ConversionContext, type ConversionDefinition, type Example,
  type FunctionDefinition, type ParameterDefinition, type ParameterWords, type RegisteredFunction, type Requirement, type RequirementHandler, type TypeDefinition,
} from './registry.js';
export { outcomeToJson, renderOutcome, type OutcomeJson, type RenderOutcomeOptions } from './render-outcome.js';
export { closest, editDistance } from './suggest.js';
export { formatType, parseType, type TypeExpr } from './types.js';
