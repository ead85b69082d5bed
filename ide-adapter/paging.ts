/**
 * Every list within a budget: an answer shows at most `LIST_BUDGET.items` items and about
 * `LIST_BUDGET.chars` characters of a list, says how many there are, and names the program that
 * returns the next part — `page(program, start)`, the items from the `start`th on — so an agent
 * continues without guessing. No answer's text exceeds `MAX_ANSWER_CHARS` (`capAnswer`).
 */
import { parse, printExpr, type Expr } from '../dialect/index.js';

/** The documented size of one part of a list: items, and characters of its text. */
export const LIST_BUDGET = { items: 100, chars: 16_000 } as const;

/** No answer's text is longer than this (MCP text, the REPL, `eval`): the rest is cut with a line saying so. */
export const MAX_ANSWER_CHARS = 20_000;

/** A part of a longer list, as `page()` returns it. */
export interface Page {
  readonly items: readonly unknown[];
  readonly page: {
    /** The program of the whole list. */
    readonly of: string;
    /** The 1-based position of the first item. */
    readonly start: number;
    /** How many items the whole list has. */
    readonly total: number;
  };
}

/** Whether a value is a {@link Page}. */
export function isPage(value: unknown): value is Page {
  const page = (value as Page | null)?.page;
  return typeof value === 'object' && value !== null && Array.isArray((value as Page).items) && typeof page?.of === 'string' && typeof page.start === 'number';
}

/**
 * The program that returns a list from its `start`th item: `page(program, start)`; when the
 * program already is `page(list, n)`, the same list from `start`.
 */
export function nextPageProgram(program: string, start: number): string {
  const parsed = parse(program);
  const list = parsed.ok ? printExpr(pagedList(parsed.ast) ?? parsed.ast, { mode: 'pretty', width: PRINT_WIDTH }) : program.trim();
  return `page(${list}, ${start})`;
}

/** Wide enough that a program stays on one line. */
const PRINT_WIDTH = 10_000;

/** The list expression of a top-level `page(list, …)` call. */
function pagedList(ast: Expr): Expr | undefined {
  if (ast.kind !== 'call' || ast.callee !== 'page') return undefined;
  return ast.args[0] ?? ast.namedArgs.find((a) => a.name === 'list' || a.name === 'of')?.value;
}

/** An answer's text cut at {@link MAX_ANSWER_CHARS} (at a line end), with a last line saying so and what to do. */
export function capAnswer(text: string, max = MAX_ANSWER_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max - 200);
  const kept = text.slice(0, cut > 0 ? cut : max - 200);
  return `${kept}\n… the answer was cut at ${max.toLocaleString('en')} characters (of ${text.length.toLocaleString('en')}): narrow the program, or read a part with lines(path, start, end) or page(program, start)`;
}
