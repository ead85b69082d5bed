/** Small text helpers shared by the parser and the renderers. */

/** Removes the indentation every non-blank line shares. */
export function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return common === 0 ? text : lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)?.[0].length ?? 0))).join('\n');
}

/** How many line breaks `text` has before `end`. */
export function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
