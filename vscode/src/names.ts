/**
 * Moves a symbol's location onto its name. The IDE functions expect a document symbol's
 * selection range to be the name (they ask go-to-definition there); VS Code's TypeScript features
 * give the overload signatures after the first a selection at the start of the declaration
 * (`export function …`) instead. The name is then looked for in the declaration, as a whole word.
 */
import type { LineSource, TextRange } from '../../ide-adapter/lsp/positions.js';

/** Characters of identifiers (ASCII, `$`, `_`, and anything non-ASCII), for whole-word matches. */
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/** Code-point column (1-based) of a UTF-16 offset in a line. */
function columnAt(line: string, offset: number): number {
  return Array.from(line.slice(0, offset)).length + 1;
}

/** UTF-16 offset of a code-point column (1-based) in a line. */
function offsetOf(line: string, column: number): number {
  return Array.from(line).slice(0, Math.max(0, column - 1)).join('').length;
}

/**
 * `selection` when it starts at `name`; otherwise the first whole-word `name` inside `declaration`
 * (from its start), or `selection` unchanged when the declaration does not spell it.
 */
export function nameRange(lines: LineSource, name: string, selection: TextRange, declaration: TextRange): TextRange {
  const at = (line: number, column: number): boolean => lines.lineText(line).slice(offsetOf(lines.lineText(line), column)).startsWith(name);
  if (name === '' || at(selection.start.line, selection.start.column)) return selection;
  for (let line = declaration.start.line; line <= declaration.end.line; line++) {
    const text = lines.lineText(line);
    let from = line === declaration.start.line ? offsetOf(text, declaration.start.column) : 0;
    for (;;) {
      const index = text.indexOf(name, from);
      if (index < 0) break;
      // Whole code points either side (an astral letter is two UTF-16 units).
      const before = index > 0 ? Array.from(text.slice(Math.max(0, index - 2), index)).pop() : undefined;
      const after = text.codePointAt(index + name.length) !== undefined ? String.fromCodePoint(text.codePointAt(index + name.length) as number) : undefined;
      if ((before === undefined || !IDENTIFIER_CHAR.test(before)) && (after === undefined || !IDENTIFIER_CHAR.test(after))) {
        const column = columnAt(text, index);
        return { start: { line, column }, end: { line, column: column + Array.from(name).length } };
      }
      from = index + 1;
    }
  }
  return selection;
}
