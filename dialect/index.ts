/**
 * The Dialect language: a superset of JSON with function calls. This module is the public API of
 * the core; it has no Node, file-system or language-server dependencies.
 */
export type { ArrayExpr, CallExpr, Expr, LiteralExpr, NamedArgument, ObjectExpr, Property, ReferenceExpr } from './ast.js';
export { build, replaceNode } from './ast.js';
export { dataValue, setProperty, type Value } from './data.js';
export { SyntaxCode, resolveDiagnostic, type Diagnostic, type Label, type ResolvedDiagnostic } from './diagnostics.js';
export { MAX_NESTING_DEPTH, parse, type ParseOptions, type ParseResult } from './parse.js';
export { printExpr, printValue, valueToExpr, type PrintOptions } from './printer.js';
export { renderDiagnostic, type RenderableDiagnostic, type RenderOptions } from './render.js';
export { SourceText, codePointCount, type Position, type Range, type Span } from './source.js';
