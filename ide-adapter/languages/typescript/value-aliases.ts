/**
 * Other symbols a JavaScript value is bound to, which tsgo does not relate to its name (seen on
 * ljharb/qs: `findReferences("merge")` listed 1 use of 34). `var merge = function merge(…) {…}`
 * is two symbols, the variable and the function expression's own name (its recursive calls use
 * the second); `module.exports = { merge: merge }` makes a property of the module's exports whose
 * uses (`utils.merge(…)` wherever `utils = require('./utils')`) are the property's, not the
 * variable's; so does `exports.merge = merge`. The rules read one line, or walk up a bounded run
 * of property lines to the `module.exports = {` that opens them, each line matched by a pattern
 * anchored at its start, on the line without its trailing blanks (linear).
 */
import type { ValueAliases } from '../../lsp/servers.js';

/** How much of the line around a name is read: the patterns run on a bounded window, never on a whole (minified) line. */
const CONTEXT_CHARS = 200;
/** Property lines walked up at most from a use to the `module.exports = {` that opens its object. */
const MAX_EXPORT_OBJECT_LINES = 1000;

const IDENT = '[A-Za-z_$][\\w$]*';
/** After a variable's name: `= function name(`, `= async function* name(`; the function's name captured. */
const FUNCTION_EXPRESSION_AFTER = new RegExp(`^\\s*=\\s*(?:async\\s+)?function\\s*\\*?\\s*(${IDENT})\\s*\\(`, 'd');
/** Before a function expression's name: `var name = function `; the variable's name captured. */
const VARIABLE_BEFORE = new RegExp(`(?:^|[^\\w$.])(?:var|let|const)\\s+(${IDENT})\\s*=\\s*(?:async\\s+)?function\\s*\\*?\\s*$`, 'd');
/** A property line of an object literal whose value is a name: `  key: name,`; the key captured. */
const PROPERTY_LINE = new RegExp(`^(\\s*)(${IDENT})\\s*:\\s*(${IDENT})\\s*,?$`, 'd');
/** `exports.key = name;` or `module.exports.key = name;`: the key and the value captured. */
const EXPORTS_PROPERTY = new RegExp(`^\\s*(?:module\\s*\\.\\s*)?exports\\s*\\.\\s*(${IDENT})\\s*=\\s*(${IDENT})\\s*;?$`, 'd');
/** The line that opens the module's exported object: `module.exports = {` (also through `exports =`). */
const EXPORT_OBJECT_OPENER = /^\s*(?:exports\s*=\s*)?module\.exports\s*=\s*(?:exports\s*=\s*)?\{$/;
/** Lines an exported object's properties may have between them: any property (`key: value,`, `key,`, `key() {…}` on one line), blank lines, comments. */
const BETWEEN_PROPERTIES = new RegExp(`^\\s*(?:(?:${IDENT}|'[^']*'|"[^"]*")\\s*(?::[^{}]*)?,?|//.*|/\\*.*|\\*.*)?$`);

/** The UTF-16 index of the `codePoints`-th code point of `text` (its length past the end). */
function utf16Index(text: string, codePoints: number): number {
  let index = 0;
  for (let i = 0; i < codePoints && index < text.length; i++) index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  return index;
}

/** The 1-based code-point column of UTF-16 `index` in `text`. */
function columnOf(text: string, index: number): number {
  return [...text.slice(0, index)].length + 1;
}

/** The other name bound on a declaring line: the function expression's own name when asked at the variable, the variable when asked at the function expression's name. */
function declaredAlias(line: string, column: number, name: string): number | undefined {
  const at = utf16Index(line, column - 1);
  if (line.slice(at, at + name.length) !== name) return undefined;
  const after = FUNCTION_EXPRESSION_AFTER.exec(line.slice(at + name.length, at + name.length + CONTEXT_CHARS));
  if (after?.[1] === name && after.indices?.[1] !== undefined) return columnOf(line, at + name.length + after.indices[1][0]);
  const start = Math.max(0, at - CONTEXT_CHARS);
  const before = VARIABLE_BEFORE.exec(line.slice(start, at));
  if (before?.[1] === name && before.indices?.[1] !== undefined) return columnOf(line, start + before.indices[1][0]);
  return undefined;
}

/** When the use of `name` at (`line`, `column`) is the value of a property of the module's exports, the 1-based column of the property's key. */
function exportedAs(lines: readonly string[], line: number, column: number, name: string): number | undefined {
  const text = (lines[line - 1] ?? '').trimEnd();
  const at = utf16Index(text, column - 1);
  const assigned = EXPORTS_PROPERTY.exec(text);
  if (assigned?.[2] === name && assigned.indices?.[2]?.[0] === at && assigned.indices[1] !== undefined) return columnOf(text, assigned.indices[1][0]);
  const property = PROPERTY_LINE.exec(text);
  if (property?.[3] !== name || property.indices?.[3]?.[0] !== at || property.indices[2] === undefined) return undefined;
  for (let l = line - 1; l >= 1 && line - l <= MAX_EXPORT_OBJECT_LINES; l--) {
    const above = (lines[l - 1] ?? '').trimEnd();
    if (EXPORT_OBJECT_OPENER.test(above)) return columnOf(text, property.indices[2][0]);
    if (!BETWEEN_PROPERTIES.test(above)) return undefined;
  }
  return undefined;
}

/** The value-alias rules of JavaScript and TypeScript files (`ServerDefinition.valueAliases`). */
export const JS_VALUE_ALIASES: ValueAliases = { declaredAlias, exportedAs };
