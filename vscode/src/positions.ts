/**
 * The one boundary between VS Code's positions and Dialect's: VS Code counts 0-based lines and
 * 0-based characters in UTF-16 code units, exactly LSP's default encoding, so the conversion is
 * `ide-adapter/lsp/positions.ts` with `utf-16` (one converter for the product, not a second one).
 * Dialect: 1-based lines, 1-based columns in code points. Works on plain `{line, character}`
 * shapes so it needs no editor to run (the backend builds `vscode.Position`s from the result).
 */
import { fromLspRange, toLspPosition, type LineSource, type TextPosition, type TextRange } from '../../ide-adapter/lsp/positions.js';

/** VS Code's `Position` as data: 0-based line, 0-based UTF-16 character. */
export interface EditorPosition {
  readonly line: number;
  readonly character: number;
}

/** VS Code's `Range` as data. */
export interface EditorRange {
  readonly start: EditorPosition;
  readonly end: EditorPosition;
}

/** VS Code positions are UTF-16 code units, always. */
const EDITOR_ENCODING = 'utf-16';

/** Dialect position → editor position; `lines` gives the text of a 1-based line. */
export function toEditorPosition(lines: LineSource, position: TextPosition): EditorPosition {
  return toLspPosition(lines.lineText(position.line), position, EDITOR_ENCODING);
}

/** Editor range → Dialect range; `lines` gives the text of a 1-based line. */
export function fromEditorRange(lines: LineSource, range: EditorRange): TextRange {
  return fromLspRange(lines, range, EDITOR_ENCODING);
}
