/**
 * The printer: values and ASTs → canonical Dialect text, in a compact (one line, no spaces) or a
 * pretty (indented, fits in a width) layout. `parse(print(v))` evaluates back to `v` for every
 * JSON value, including `-0` and strings with unpaired surrogates.
 *
 * Canonical form: strings in double quotes with JSON escapes; object keys without quotes when they
 * are names (`{name: "User"}`), quoted otherwise; calls as `name(positional, named: value)`.
 */
import { build, type Expr } from './ast.js';

/** How values and expressions are printed. */
export interface PrintOptions {
  /** `pretty` (default) breaks lines to fit `width`; `compact` prints one line without spaces. */
  readonly mode?: 'pretty' | 'compact';
  /** Line width for the pretty layout. Default 80. */
  readonly width?: number;
  /** Indentation unit for the pretty layout. Default two spaces. */
  readonly indent?: string;
  /**
   * Lets a caller print some values as programs (e.g. a registered type with a constructor):
   * return an expression to print instead of the value, or undefined to print it as data.
   */
  readonly toExpr?: (value: unknown) => Expr | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Prints a value (plain JSON data, plus `undefined`) as Dialect text. */
export function printValue(value: unknown, options: PrintOptions = {}): string {
  return printExpr(valueToExpr(value, options.toExpr, new Set()), options);
}

/** Prints an AST as Dialect text. */
export function printExpr(expr: Expr, options: PrintOptions = {}): string {
  const compact = options.mode === 'compact';
  const layout: Layout = {
    compact,
    width: options.width ?? 80,
    indent: options.indent ?? '  ',
    comma: compact ? ',' : ', ',
    colon: compact ? ':' : ': ',
  };
  return compact ? flat(expr, layout, Infinity) as string : pretty(expr, layout, 0, '');
}

/** Converts a value into the expression that evaluates to it. */
export function valueToExpr(value: unknown, toExpr?: (value: unknown) => Expr | undefined, seen: Set<object> = new Set()): Expr {
  const custom = toExpr?.(value);
  if (custom !== undefined) return custom;
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return build.literal(value);
  if (typeof value === 'number') return build.literal(Number.isFinite(value) ? value : null);
  if (typeof value === 'bigint') return build.literal(Number(value));
  if (typeof value !== 'object') return build.literal(null); // functions and symbols have no Dialect form
  if (seen.has(value)) return build.literal(null); // a cycle cannot be written as data
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return valueToExpr(withJson.toJSON(), toExpr, seen);
  seen.add(value);
  try {
    if (Array.isArray(value)) return build.array(value.map((v) => valueToExpr(v, toExpr, seen)));
    const entries: [string, Expr][] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) entries.push([key, valueToExpr(v, toExpr, seen)]);
    }
    return build.object(entries);
  } finally {
    seen.delete(value);
  }
}

interface Layout {
  readonly compact: boolean;
  readonly width: number;
  readonly indent: string;
  readonly comma: string;
  readonly colon: string;
}

function atom(value: string | number | boolean | null | undefined): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : Number.isFinite(value) ? String(value) : 'null';
  if (value === undefined) return 'undefined';
  return String(value);
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** One-line rendering, or undefined as soon as it would exceed `budget` characters. */
function flat(expr: Expr, layout: Layout, budget: number): string | undefined {
  switch (expr.kind) {
    case 'literal': {
      const s = atom(expr.value);
      return s.length <= budget ? s : undefined;
    }
    case 'reference':
      return expr.name.length <= budget ? expr.name : undefined;
    case 'array':
      return joinFlat('[', expr.elements.map((e) => (b: number) => flat(e, layout, b)), ']', layout, budget);
    case 'object':
      return joinFlat(
        '{',
        expr.properties.map((p) => (b: number) => {
          const k = key(p.key) + layout.colon;
          const v = flat(p.value, layout, b - k.length);
          return v === undefined ? undefined : k + v;
        }),
        '}',
        layout,
        budget,
      );
    case 'call':
      return joinFlat(
        `${expr.callee}(`,
        [
          ...expr.args.map((e) => (b: number) => flat(e, layout, b)),
          ...expr.namedArgs.map((a) => (b: number) => {
            const k = a.name + layout.colon;
            const v = flat(a.value, layout, b - k.length);
            return v === undefined ? undefined : k + v;
          }),
        ],
        ')',
        layout,
        budget,
      );
  }
}

function joinFlat(open: string, parts: ((budget: number) => string | undefined)[], close: string, layout: Layout, budget: number): string | undefined {
  let out = open;
  let remaining = budget - open.length - close.length;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      out += layout.comma;
      remaining -= layout.comma.length;
    }
    const part = (parts[i] as (b: number) => string | undefined)(remaining);
    if (part === undefined) return undefined;
    out += part;
    remaining -= part.length;
    if (remaining < 0) return undefined;
  }
  return out + close;
}

/** Indented rendering: a node goes on one line when it fits, otherwise one child per line. */
function pretty(expr: Expr, layout: Layout, column: number, indent: string): string {
  const oneLine = flat(expr, layout, layout.width - column);
  if (oneLine !== undefined || expr.kind === 'literal' || expr.kind === 'reference') return oneLine ?? (flat(expr, layout, Infinity) as string);
  const inner = indent + layout.indent;
  const lines = (open: string, items: string[], close: string): string =>
    items.length === 0 ? open + close : `${open}\n${items.map((s) => inner + s).join(',\n')}\n${indent}${close}`;
  switch (expr.kind) {
    case 'array':
      return lines('[', expr.elements.map((e) => pretty(e, layout, inner.length, inner)), ']');
    case 'object':
      return lines(
        '{',
        expr.properties.map((p) => {
          const k = key(p.key) + layout.colon;
          return k + pretty(p.value, layout, inner.length + k.length, inner);
        }),
        '}',
      );
    case 'call':
      return lines(
        `${expr.callee}(`,
        [
          ...expr.args.map((e) => pretty(e, layout, inner.length, inner)),
          ...expr.namedArgs.map((a) => `${a.name}${layout.colon}${pretty(a.value, layout, inner.length + a.name.length + 2, inner)}`),
        ],
        ')',
      );
  }
}
