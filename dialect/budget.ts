/**
 * The memory budget of one evaluation: how much the values its function calls produce may hold,
 * in bytes and in items, together. The interpreter charges every function's result (and every
 * conversion's) to one `ValueMeter`; a function that is about to build a large value (a file's
 * lines) reserves its size first (`CallContext.reserve`), so the budget fails before the value
 * exists — calls run concurrently, and a value counted only after it is built would let each of
 * them build one first.
 *
 * The count is of everything produced, never credited back: an upper bound of what one
 * evaluation holds at once and of what it returns. Values already counted (an object passed on
 * by `pick`) are not counted twice.
 */
import { DialectError, EvalCode } from './outcome.js';

/** What one evaluation may hold. */
export interface EvaluationBudget {
  /** Bytes of values, estimated as 2 per UTF-16 code unit of text and 8 per other scalar. */
  readonly maxBytes: number;
  /** Array elements and object properties, all values together. */
  readonly maxItems: number;
}

const MIB = 1024 * 1024;

/**
 * The defaults: 64 MiB of values (four times the largest file `lines` reads whole) and a
 * million items (five hundred lists of 2,000 references each).
 */
export const DEFAULT_EVALUATION_BUDGET: EvaluationBudget = Object.freeze({ maxBytes: 64 * MIB, maxItems: 1_000_000 });

/** Estimated bytes of a scalar that is not text (a number, boolean, null). */
const SCALAR_BYTES = 8;

/** Counts the values of one evaluation against its budget; throws `evaluation-budget-exceeded` past it. */
export class ValueMeter {
  #bytes = 0;
  #items = 0;
  /**
   * Objects counted already (a value shared by many results counts once). A `Set`, not a
   * `WeakSet`: about twice as fast on large answers, and what it holds fits the budget and lives
   * no longer than the evaluation.
   */
  readonly #counted = new Set<object>();

  constructor(readonly budget: EvaluationBudget = DEFAULT_EVALUATION_BUDGET) {}

  /** Bytes counted so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Items counted so far. */
  get items(): number {
    return this.#items;
  }

  /**
   * Counts `bytes` and `items` ahead of building a value (`what` names it in the error), or
   * throws when they do not fit.
   */
  reserve(bytes: number, items: number, what: string): void {
    this.#bytes += Math.max(0, bytes);
    this.#items += Math.max(0, items);
    this.#check(what);
  }

  /**
   * Counts a value, less what its producer reserved for it (`prepaid` bytes and items). The walk
   * stops as soon as the budget is exceeded, so its cost is bounded by the budget, not the value.
   */
  charge(value: unknown, what: string, prepaid: { readonly bytes: number; readonly items: number } = { bytes: 0, items: 0 }): void {
    let bytes = -prepaid.bytes;
    let items = -prepaid.items;
    const bytesLeft = this.budget.maxBytes - this.#bytes;
    const itemsLeft = this.budget.maxItems - this.#items;
    const counted = this.#counted;
    // Scalars are counted where they are met; only objects wait on the stack.
    const stack: unknown[] = [value];
    while (stack.length > 0 && bytes <= bytesLeft && items <= itemsLeft) {
      const v = stack.pop();
      if (typeof v === 'string') bytes += 2 * v.length;
      else if (typeof v === 'object' && v !== null) {
        if (counted.has(v)) continue;
        counted.add(v);
        if (Array.isArray(v)) {
          items += v.length;
          for (const element of v) bytes += scalarBytes(element, stack);
        } else if (isPlainObject(v)) {
          // `for…in` over a plain object lists exactly its own enumerable keys, without the array `Object.keys` makes.
          for (const key in v) {
            items += 1;
            bytes += 2 * key.length + scalarBytes((v as Record<string, unknown>)[key], stack);
          }
        } else {
          for (const key of Object.keys(v)) {
            items += 1;
            bytes += 2 * key.length + scalarBytes((v as Record<string, unknown>)[key], stack);
          }
        }
      } else bytes += SCALAR_BYTES;
    }
    this.#bytes += Math.max(0, bytes);
    this.#items += Math.max(0, items);
    this.#check(what);
  }

  #check(what: string): void {
    const { maxBytes, maxItems } = this.budget;
    if (this.#bytes <= maxBytes && this.#items <= maxItems) return;
    const which = this.#bytes > maxBytes ? `${formatBytes(maxBytes)} of values (maxBytes)` : `${maxItems.toLocaleString('en-US')} items (maxItems)`;
    throw new DialectError({
      code: EvalCode.BudgetExceeded,
      message: `this evaluation would hold more than its budget of ${which}; it stopped at ${what}`,
      hint: 'narrow it: fewer calls per program, smaller line ranges (lines(path, start, end)), a file: or kind: argument, or a more specific pattern',
    });
  }
}

/** The bytes of a string or scalar; an object is pushed on `stack` to be counted (0 now). */
function scalarBytes(v: unknown, stack: unknown[]): number {
  if (typeof v === 'string') return 2 * v.length;
  if (typeof v === 'object' && v !== null) {
    stack.push(v);
    return 0;
  }
  return SCALAR_BYTES;
}

/** Whether an object's prototype is `Object.prototype` or none (no inherited enumerable keys). */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function formatBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}
