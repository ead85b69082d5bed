/**
 * The extension's one position boundary: VS Code's 0-based UTF-16 positions ↔ Dialect's 1-based
 * code-point positions, on text with characters outside the Basic Multilingual Plane.
 */
import { describe, expect, it } from 'vitest';
import { TextLines } from '../../ide-adapter/lsp/positions.js';
import { positionOf } from '../../ide-adapter/test/support/servers.js';
import { fromEditorRange, toEditorPosition } from '../src/positions.js';

const TEXT = "const greeting = ['Grüße 😀', user.displayName()];\nlet 𝒳 = 1; 𝒳 += 2;\n";
const lines = new TextLines(TEXT);

/** The editor's position of a needle: what VS Code reports (UTF-16 offset on its line). */
function editorPositionOf(needle: string, nth = 0): { line: number; character: number } {
  const p = positionOf(TEXT, needle, nth);
  const lineStart = TEXT.lastIndexOf('\n', p.offset - 1) + 1;
  return { line: p.line - 1, character: p.offset - lineStart };
}

describe('VS Code positions ↔ Dialect positions', () => {
  it('an editor range after an emoji becomes code-point columns', () => {
    const start = editorPositionOf('displayName');
    const range = fromEditorRange(lines, { start, end: { line: start.line, character: start.character + 'displayName'.length } });
    const expected = positionOf(TEXT, 'displayName');
    expect(range.start).toEqual({ line: expected.line, column: expected.column });
    // The emoji is two UTF-16 units but one column.
    expect(start.character).toBe(expected.column);
  });

  it('a Dialect position becomes the UTF-16 character the editor expects, also after astral identifiers', () => {
    const second = positionOf(TEXT, '𝒳', 1);
    expect(toEditorPosition(lines, { line: second.line, column: second.column })).toEqual(editorPositionOf('𝒳', 1));
  });

  it('round-trips every character position of the text', () => {
    for (const [index, line] of TEXT.split('\n').entries()) {
      const columns = Array.from(line).length + 1;
      for (let column = 1; column <= columns; column++) {
        const editor = toEditorPosition(lines, { line: index + 1, column });
        expect(fromEditorRange(lines, { start: editor, end: editor }).start).toEqual({ line: index + 1, column });
      }
    }
  });
});
