/**
 * Plain data helpers shared by the parser's callers and the interpreter: building objects exactly
 * as `JSON.parse` does (including an own `__proto__` property) and reading data-only ASTs.
 */
import type { Expr } from './ast.js';

/** A JSON value (plus `undefined`, which Dialect accepts and drops as JSON.stringify would). */
export type Value = null | boolean | number | string | undefined | readonly Value[] | { readonly [key: string]: Value };

/**
 * Sets a property the way JSON.parse does: later keys win, and `__proto__` becomes an ordinary own
 * property instead of changing the object's prototype.
 */
export function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The value of an expression that contains no calls or references; `undefined` if it does. */
export function dataValue(expr: Expr): { value: Value } | undefined {
  switch (expr.kind) {
    case 'literal':
      return { value: expr.value };
    case 'array': {
      const out: Value[] = [];
      for (const e of expr.elements) {
        const v = dataValue(e);
        if (v === undefined) return undefined;
        out.push(v.value === undefined ? null : v.value);
      }
      return { value: out };
    }
    case 'object': {
      const out: Record<string, Value> = {};
      for (const p of expr.properties) {
        const v = dataValue(p.value);
        if (v === undefined) return undefined;
        if (v.value === undefined) delete out[p.key];
        else setProperty(out, p.key, v.value);
      }
      return { value: out };
    }
    case 'call':
    case 'reference':
      return undefined;
  }
}
