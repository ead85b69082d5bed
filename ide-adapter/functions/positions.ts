/**
 * Symbols at positions: `symbolAt(path, line, column)`, and the one conversion of a location (a
 * search match, a diagnostic, a reference's place) into the symbol it names. Both pick the
 * identifier at the position — never a keyword, never the line's first token — and ask the
 * server where it is defined.
 */
import { codePointCount, DialectError, EvalCode, truncate, type CallContext, type Registry } from '../../dialect/index.js';
import { CapabilityCode } from '../backend.js';
import { sameStart, type Location, type Position, type SymbolDefinition } from '../model.js';
import { awaitIndex, type IdeHost } from './host.js';
import { flatten } from './symbols.js';

/** Error codes of position lookups. */
export const PositionCode = {
  /** Nothing that names a symbol is at the position (whitespace, punctuation, a keyword, a literal). */
  NoSymbolAt: 'no-symbol-at',
  /** The line or column is not in the file. */
  OutsideFile: 'position-outside-file',
} as const;

/** An identifier on a line: its text and code-point columns (1-based, end exclusive). */
interface Word {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Identifiers in the Unicode sense, plus `$` (JavaScript). Rust's `r#` prefix is left out. */
const IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}$]*/gu;

/**
 * Reserved words per file extension: they look like identifiers but name no symbol (asked for
 * the definition at `fn`, rust-analyzer answers the keyword itself). Contextual keywords that can
 * also be names (`get`, `type`, `from`, `union`) are deliberately not listed; `self`, `Self`,
 * `super`, `crate` and `this` are not either: servers resolve them to the type or module.
 */
const RUST_KEYWORDS = new Set(
  'as async await break const continue dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return static struct trait true unsafe use where while'.split(' '),
);
const TS_KEYWORDS = new Set(
  'abstract as async await break case catch class const continue debugger declare default delete do else enum export extends false finally for function if implements import in instanceof interface keyof let new null private protected public readonly return satisfies static switch throw true try typeof var void while with yield'.split(
    ' ',
  ),
);
const KEYWORDS_BY_EXTENSION: Readonly<Record<string, ReadonlySet<string>>> = {
  rs: RUST_KEYWORDS,
  ts: TS_KEYWORDS,
  tsx: TS_KEYWORDS,
  mts: TS_KEYWORDS,
  cts: TS_KEYWORDS,
  js: TS_KEYWORDS,
  jsx: TS_KEYWORDS,
  mjs: TS_KEYWORDS,
  cjs: TS_KEYWORDS,
};
const NO_KEYWORDS: ReadonlySet<string> = new Set();

/** How many names of a line an error lists as suggestions. */
const MAX_SUGGESTIONS = 6;

function keywordsOf(path: string): ReadonlySet<string> {
  return KEYWORDS_BY_EXTENSION[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? NO_KEYWORDS;
}

/** The identifiers of a line, with code-point columns. */
function wordsOf(line: string): Word[] {
  const out: Word[] = [];
  let column = 1;
  let last = 0;
  for (const m of line.matchAll(IDENTIFIER)) {
    column += codePointCount(line, last, m.index);
    const length = codePointCount(m[0], 0, m[0].length);
    out.push({ text: m[0], start: column, end: column + length });
    column += length;
    last = m.index + m[0].length;
  }
  return out;
}

/** What a place is asked for: one position (`symbolAt`), or a span such as a search match. */
export type Target = { readonly path: string; readonly start: Position; readonly end?: Position };

/**
 * The symbol named at a position or in a span: the first identifier there (skipping keywords)
 * that the server can take to a definition in the workspace. Errors say what is on the line
 * instead, with `symbolAt` calls for the names that are there.
 */
export async function symbolAtTarget(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal' | 'note'>, target: Target): Promise<SymbolDefinition> {
  const { workspace, backend } = ctx.host;
  const path = workspace.relative(await workspace.resolveReal(target.path));
  if (!backend.handles(path)) {
    throw new DialectError({
      code: CapabilityCode.NoLanguageServer,
      message: `no language server handles ${path}, so nothing there resolves to a symbol`,
      hint: `lines(${JSON.stringify(path)}, ${target.start.line}, ${target.start.line}) shows the line`,
    });
  }
  const lines = await workspace.lines(path);
  const { line, column } = target.start;
  const text = lines[line - 1];
  if (!Number.isInteger(line) || line < 1 || text === undefined) {
    throw new DialectError({ code: PositionCode.OutsideFile, message: `${path} has no line ${line}: it has ${lines.length} lines`, hint: `lines are counted from 1, up to ${lines.length}` });
  }
  const width = codePointCount(text, 0, text.length);
  if (!Number.isInteger(column) || column < 1 || column > width + 1) {
    throw new DialectError({
      code: PositionCode.OutsideFile,
      message: `line ${line} of ${path} has no column ${column}: it has ${width} characters`,
      hint: `columns are counted from 1 in characters (code points); ${describeLine(path, line, text)}`,
    });
  }
  const keywords = keywordsOf(path);
  const words = wordsOf(text);
  const candidates = candidatesIn(words, target, width).filter((w) => !keywords.has(w.text));
  const wholeLine = target.end !== undefined && target.end.line > line;
  if (candidates.length === 0 && wholeLine) {
    throw new DialectError({ code: PositionCode.NoSymbolAt, message: `no name on ${path}:${line} can be a symbol`, hint: describeLine(path, line, text) });
  }
  if (candidates.length === 0) {
    const under = words.find((w) => w.start <= column && column < w.end);
    const what = under !== undefined ? `\`${under.text}\` is a keyword` : column > width ? 'it is past the end of the line' : `it is ${charName([...text][column - 1] ?? ' ')}`;
    throw new DialectError({ code: PositionCode.NoSymbolAt, message: `no symbol is at ${path}:${line}:${column}: ${what}`, hint: describeLine(path, line, text) });
  }
  await awaitIndex(ctx, [path]);
  for (const word of candidates) {
    const defs = await backend.definition(path, { line, column: word.start }, { signal: ctx.signal });
    const def = await mainTarget(ctx, defs);
    if (def !== undefined) return symbolForTarget(ctx, await definitionHere(ctx, { path, line, text, word }, def), word.text);
  }
  const names = candidates.map((w) => `\`${w.text}\``).join(', ');
  throw new DialectError({
    code: PositionCode.NoSymbolAt,
    message: `no symbol of the workspace is at ${path}:${line}${wholeLine ? '' : `:${column}`}: the server knows no definition of ${names} in the workspace`,
    hint: `it may be a literal, a comment, or come from a library or the standard library (getSymbolInfo cannot follow it there); ${describeLine(path, line, text)}`,
  });
}

/**
 * Where a name at its own declaration is defined. Servers whose go-to-definition toggles
 * (clangd: at a definition it answers the declaration, at the declaration the definition) lead
 * from a definition away from it; when the place answered leads straight back, the name here is
 * the definition. Servers that answer a definition with itself cost nothing more.
 */
async function definitionHere(
  ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>,
  here: { readonly path: string; readonly line: number; readonly text: string; readonly word: Word },
  def: Location,
): Promise<Location> {
  const { path, line, text, word } = here;
  const isHere = (l: Location): boolean => l.path === path && l.start.line === line && l.start.column === word.start;
  if (isHere(def)) return def;
  const back = await ctx.host.backend.definition(def.path, def.start, { signal: ctx.signal }).catch(() => [] as Location[]);
  if (!back.some(isHere)) return def;
  return { path, start: { line, column: word.start }, end: { line, column: word.end }, content: text };
}

/** The identifiers a target names: the one under a position, or those a span overlaps. */
function candidatesIn(words: readonly Word[], target: Target, width: number): Word[] {
  const { start, end } = target;
  const under = words.filter((w) => w.start <= start.column && start.column < w.end);
  if (end === undefined || (end.line === start.line && end.column <= start.column)) return under;
  const last = end.line > start.line ? width + 1 : end.column;
  return words.filter((w) => w.end > start.column && w.start < last);
}

/** A line quoted in a `no-symbol-at` message is cut to this many characters. */
const MAX_SHOWN_LINE = 100;

/** `line 12 of src/a.rs is `…`; its names: `x` (symbolAt("src/a.rs", 12, 9)), …` */
function describeLine(path: string, line: number, text: string): string {
  const shown = truncate(text.trim(), MAX_SHOWN_LINE);
  const keywords = keywordsOf(path);
  const names = wordsOf(text).filter((w) => !keywords.has(w.text)).slice(0, MAX_SUGGESTIONS);
  if (names.length === 0) return `line ${line} is ${shown === '' ? 'empty' : `\`${shown}\``} and holds no names`;
  return `line ${line} is \`${shown}\`; its names: ${names.map((w) => `\`${w.text}\` symbolAt(${JSON.stringify(path)}, ${line}, ${w.start})`).join(', ')}`;
}

function charName(c: string): string {
  return /\s/.test(c) ? 'whitespace' : `\`${c}\`, not a name`;
}

/**
 * The symbol defined at a definition target: the outline entry whose name starts there, else
 * the identifier there (locals and parameters are in no outline).
 */
export async function symbolForTarget(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>, target: Location, fallbackName: string): Promise<SymbolDefinition> {
  const { backend } = ctx.host;
  const outline = backend.handles(target.path) ? flatten(await backend.documentSymbols(target.path, { signal: ctx.signal }).catch(() => [])) : [];
  const at = (p: { line: number; column: number }): boolean => p.line === target.start.line && p.column === target.start.column;
  // At its name; else a declaration that starts there (servers that answer with the whole
  // declaration), the innermost, shown at its name.
  const symbol = outline.find((s) => at(s.location.start)) ?? outline.filter((s) => s.range !== undefined && at(s.range.start)).at(-1);
  const word = wordsOf(target.content).find((w) => w.start <= target.start.column && target.start.column < w.end);
  const language = symbol?.language ?? outline[0]?.language;
  return {
    name: symbol?.name ?? word?.text ?? fallbackName,
    kind: symbol?.kind ?? 'symbol',
    ...(symbol?.container !== undefined ? { container: symbol.container } : {}),
    ...(language !== undefined ? { language } : {}),
    definedAt: symbol?.location ?? target,
  };
}

/**
 * The definition a name leads to when a server answers several places: not one that is itself a
 * binding leading to another of them (VS Code's TypeScript answers a CommonJS `var View =
 * require(…)` and the function it imports; tsgo the function alone).
 */
async function mainTarget(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>, targets: readonly Location[]): Promise<Location | undefined> {
  if (targets.length < 2) return targets[0];
  for (const t of targets) {
    const onward = await ctx.host.backend.definition(t.path, t.start, { signal: ctx.signal }).catch(() => [] as Location[]);
    if (!onward.some((o) => !sameStart(o, t) && targets.some((other) => other !== t && sameStart(o, other)))) return t;
  }
  return targets[0];
}

/** Registers `symbolAt`. */
export function registerPositionFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'symbolAt',
    aliases: ['symbolAtPosition'],
    description:
      'The symbol named at a position (1-based line, column in characters), as its definition: a use of `User` on line 12 gives the `User` struct. Without a column, the first name on the line that is a symbol. A location instead of a path (a search match, selection()) gives the symbol it covers. Compose it: findReferences(symbolAt(…)).',
    category: 'navigation',
    requires: 'index',
    parameters: [
      { name: 'path', type: 'string | location', description: 'a workspace file, or a location (e.g. selection())', aliases: ['file', 'in', 'at'] },
      { name: 'line', type: 'number', optional: true, description: 'the line (from 1); required with a path' },
      { name: 'column', type: 'number', optional: true, description: 'the column (from 1, in characters); omitted: the first symbol on the line', aliases: ['col', 'character'] },
    ],
    returns: 'symbol',
    examples: [
      { program: 'symbolAt("src/service.rs", 26, 21)' },
      { program: 'findReferences(symbolAt("src/model.rs", 25, 12))', description: 'every use of the symbol at that place' },
    ],
    implementation: async (args, ctx) => {
      const place = args['path'];
      if (typeof place !== 'string') return symbolAtTarget(ctx, place as Location);
      const line = args['line'];
      if (typeof line !== 'number') return ctx.fail(EvalCode.MissingArgument, 'symbolAt(path, …) needs the line', `for example: symbolAt(${JSON.stringify(place)}, 12, 5), or pass a location: symbolAt(selection())`);
      const column = args['column'] as number | undefined;
      if (column !== undefined) return symbolAtTarget(ctx, { path: place, start: { line, column } });
      return symbolAtTarget(ctx, { path: place, start: { line, column: 1 }, end: { line: line + 1, column: 1 } });
    },
  });
}
