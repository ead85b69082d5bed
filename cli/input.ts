/**
 * REPL input: whether what was typed so far is an unfinished program (continue on the next line)
 * or a finished one (evaluate it, or show its syntax error).
 */
import { parse, SyntaxCode, type Diagnostic, type ParseResult } from '../dialect/index.js';

/** REPL input: nothing, a program that needs more lines, or a complete one (parsed, possibly with errors). */
export type InputState =
  | { readonly kind: 'empty' }
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'complete'; readonly parsed: ParseResult };

/** Codes of diagnostics that mean "the program is not finished yet" when they sit at its end. */
const UNFINISHED = new Set<string>([SyntaxCode.UnclosedCall, SyntaxCode.UnclosedArray, SyntaxCode.UnclosedObject, SyntaxCode.UnterminatedString]);

/** Classifies the text typed so far (lines joined with `\n`). */
export function classifyInput(text: string, names: ReadonlySet<string>): InputState {
  if (onlyWhitespaceAndComments(text)) return { kind: 'empty' };
  const parsed = parse(text, { names });
  if (!parsed.ok && parsed.diagnostics.some((d) => isUnfinished(text, d))) return { kind: 'incomplete' };
  return { kind: 'complete', parsed };
}

/**
 * An unclosed call, array or object reported at the end of the input (only whitespace or comments
 * after it), or a backtick string that runs to the end: more lines can finish it. A "…" or '…'
 * string cannot continue on the next line, so it is an error right away.
 */
export function isUnfinished(text: string, d: Diagnostic): boolean {
  if (!UNFINISHED.has(d.code)) return false;
  if (d.code === SyntaxCode.UnterminatedString) return text.charAt(d.span.start) === '`';
  return onlyWhitespaceAndComments(text.slice(d.span.start));
}

/**
 * Whether `text` holds only whitespace, line comments and closed block comments: one pass (the
 * regular expression this replaces backtracked over every way the block comments could end, so
 * forty `/**\/` and a name held the REPL for hours).
 */
function onlyWhitespaceAndComments(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text.charAt(i))) i++;
    else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else return false;
  }
  return true;
}

/**
 * One history entry for a program typed over several lines: the lines joined with spaces, when
 * that keeps its meaning (no line comment, no backtick string across lines); otherwise undefined
 * and the lines stay separate entries.
 */
export function joinForHistory(lines: readonly string[]): string | undefined {
  if (lines.length === 1) return lines[0];
  const text = lines.join('\n');
  if (text.includes('//') || text.includes('`')) return undefined;
  let joined = '';
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== '')) {
    const tight = joined === '' || /[([{]$/.test(joined) || /^[)\]}]/.test(line);
    joined += tight ? line : ` ${line}`;
  }
  return joined;
}
