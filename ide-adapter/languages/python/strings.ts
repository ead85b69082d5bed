/**
 * Which lines of Python source start inside a string: a docstring's example
 * (`from yourapplication import default_config`) is no import. One linear pass over the text:
 * comments, one-line strings and triple-quoted strings (escapes included), nothing else.
 */

/** The 0-based lines of `text` that begin inside a (triple-quoted) string. */
export function linesInStrings(text: string): Set<number> {
  const inside = new Set<number>();
  let line = 0;
  let quote: string | undefined; // the open string's delimiter: ', ", ''' or """
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      if (quote !== undefined && quote.length === 1) quote = undefined; // an unterminated one-line string ends with its line
      if (quote !== undefined) inside.add(line);
      continue;
    }
    if (quote !== undefined) {
      if (c === '\\') {
        if (text[i + 1] !== '\n') i++;
        continue;
      }
      if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = undefined;
      }
      continue;
    }
    if (c === '#') {
      const end = text.indexOf('\n', i);
      i = (end === -1 ? text.length : end) - 1;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length - 1;
    }
  }
  return inside;
}
