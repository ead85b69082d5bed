/**
 * The Dialect abstract syntax tree. Every node keeps the UTF-16 span it came from so that errors
 * found later (during evaluation) can point at the exact sub-expression.
 */
import type { Span } from './source.js';

/** A literal JSON atom, or `undefined` (which Dialect accepts because models write it). */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: string | number | boolean | null | undefined;
  readonly span: Span;
}

/** An array literal `[a, b]`. */
export interface ArrayExpr {
  readonly kind: 'array';
  readonly elements: readonly Expr[];
  readonly span: Span;
}

/** One `key: value` of an object literal. */
export interface Property {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: Expr;
}

/** An object literal `{key: value}`. */
export interface ObjectExpr {
  readonly kind: 'object';
  readonly properties: readonly Property[];
  readonly span: Span;
}

/** A named argument `name: value` of a call. */
export interface NamedArgument {
  readonly name: string;
  readonly nameSpan: Span;
  readonly value: Expr;
}

/** `callee(args…, name: value, …)`: positional arguments first, then named ones. */
export interface CallExpr {
  readonly kind: 'call';
  readonly callee: string;
  readonly calleeSpan: Span;
  readonly args: readonly Expr[];
  readonly namedArgs: readonly NamedArgument[];
  readonly span: Span;
}

/** A bare name bound by the host (the REPL binds `_` to the last result). */
export interface ReferenceExpr {
  readonly kind: 'reference';
  readonly name: string;
  readonly span: Span;
}

/** Any expression of the language. */
export type Expr = LiteralExpr | ArrayExpr | ObjectExpr | CallExpr | ReferenceExpr;

const NO_SPAN: Span = { start: 0, end: 0 };

/** Builders for synthesized trees (refinement programs, printed values); spans are empty. */
export const build = {
  literal: (value: LiteralExpr['value']): LiteralExpr => ({ kind: 'literal', value, span: NO_SPAN }),
  reference: (name: string): ReferenceExpr => ({ kind: 'reference', name, span: NO_SPAN }),
  array: (elements: readonly Expr[]): ArrayExpr => ({ kind: 'array', elements, span: NO_SPAN }),
  object: (entries: readonly (readonly [string, Expr])[]): ObjectExpr => ({
    kind: 'object',
    properties: entries.map(([key, value]) => ({ key, keySpan: NO_SPAN, value })),
    span: NO_SPAN,
  }),
  call: (callee: string, args: readonly Expr[], named: readonly (readonly [string, Expr])[] = []): CallExpr => ({
    kind: 'call',
    callee,
    calleeSpan: NO_SPAN,
    args,
    namedArgs: named.map(([name, value]) => ({ name, nameSpan: NO_SPAN, value })),
    span: NO_SPAN,
  }),
};

/** Replaces the node `target` (by identity) inside `root`, returning a new tree. */
export function replaceNode(root: Expr, target: Expr, replacement: Expr): Expr {
  if (root === target) return replacement;
  switch (root.kind) {
    case 'literal':
    case 'reference':
      return root;
    case 'array': {
      const elements = root.elements.map((e) => replaceNode(e, target, replacement));
      return elements.every((e, i) => e === root.elements[i]) ? root : { ...root, elements };
    }
    case 'object': {
      const properties = root.properties.map((p) => ({ ...p, value: replaceNode(p.value, target, replacement) }));
      return properties.every((p, i) => p.value === root.properties[i]?.value) ? root : { ...root, properties };
    }
    case 'call': {
      const args = root.args.map((e) => replaceNode(e, target, replacement));
      const namedArgs = root.namedArgs.map((a) => ({ ...a, value: replaceNode(a.value, target, replacement) }));
      const same = args.every((e, i) => e === root.args[i]) && namedArgs.every((a, i) => a.value === root.namedArgs[i]?.value);
      return same ? root : { ...root, args, namedArgs };
    }
  }
}
