/**
 * The depth of what a server nests. JSON parses any depth, but what walks an answer after —
 * converting it, `JSON.stringify` sending it to another process (a background server's client, the
 * server itself again) — recurses, and a few thousand levels overflow the stack. So answers are
 * bounded here, iteratively, before anything recursive sees them: an outline is cut at
 * {@link MAX_OUTLINE_DEPTH} levels (real code nests a few dozen), and an item a server asks to get
 * back as it is (a hierarchy item with its `data`) must be within {@link MAX_ITEM_DEPTH}.
 */

/** Levels of an outline kept (symbols inside symbols); deeper ones are left out, with a warning. */
export const MAX_OUTLINE_DEPTH = 100;

/** Levels of JSON an item the server gets back may hold (a hierarchy item's `data`). */
export const MAX_ITEM_DEPTH = 64;

interface Nested {
  children?: unknown;
}

/**
 * Cuts an outline answer (`DocumentSymbol[]`, freshly parsed: changed in place) at
 * {@link MAX_OUTLINE_DEPTH} levels, and makes every `children` an array. Returns whether a symbol
 * below the cut was left out.
 */
export function cutOutlineDepth(symbols: readonly unknown[]): boolean {
  let cut = false;
  let level: Nested[] = symbols.filter(isObject);
  for (let depth = 1; level.length > 0; depth++) {
    const next: Nested[] = [];
    for (const symbol of level) {
      const children = Array.isArray(symbol.children) ? (symbol.children as unknown[]).filter(isObject) : [];
      if (depth >= MAX_OUTLINE_DEPTH && children.length > 0) {
        cut = true;
        symbol.children = [];
        continue;
      }
      if (symbol.children !== undefined) symbol.children = children;
      next.push(...children);
    }
    level = next;
  }
  return cut;
}

/** Whether a JSON value nests at most `max` levels of arrays and objects (walked without recursion). */
export function withinDepth(value: unknown, max = MAX_ITEM_DEPTH): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const item of level) {
      if (typeof item !== 'object' || item === null) continue;
      if (depth >= max) return false;
      for (const inner of Array.isArray(item) ? item : Object.values(item)) if (typeof inner === 'object' && inner !== null) next.push(inner);
    }
    level = next;
  }
  return true;
}

function isObject(value: unknown): value is Nested {
  return typeof value === 'object' && value !== null;
}
