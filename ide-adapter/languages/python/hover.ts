/**
 * pyright's hover documentation made text. pyright converts a docstring to Markdown for an editor:
 * leading indentation becomes `&nbsp;`, `<`, `>` and `&` become entities, and a kept line break is
 * two trailing spaces. Outside fenced code blocks (which pyright leaves as written) those are turned
 * back, in one pass over the lines.
 */

/** The entities pyright writes, and what they stand for. */
const ENTITIES: Readonly<Record<string, string>> = { '&nbsp;': ' ', '&lt;': '<', '&gt;': '>', '&amp;': '&' };

const ENTITY = /&(?:nbsp|lt|gt|amp);/g;

/** pyright's hover documentation without its HTML entities and line-break spaces (code blocks as they are). */
export function tidyPyrightHover(documentation: string): string {
  let inCode = false;
  return documentation
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inCode = !inCode;
        return line;
      }
      return inCode ? line : withoutBreakSpaces(line.replace(ENTITY, (e) => ENTITIES[e] ?? e));
    })
    .join('\n');
}

/** A line without the two or more spaces that end it (a Markdown line break); scanned once from the end. */
function withoutBreakSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 32) end--;
  return line.length - end >= 2 ? line.slice(0, end) : line;
}
