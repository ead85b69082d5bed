/**
 * The rules that find the other symbols a JavaScript value is bound to (ljharb/qs's
 * `var merge = function merge(…)` exported as `module.exports = { merge: merge }`), on text.
 */
import { describe, expect, it } from 'vitest';
import { JS_VALUE_ALIASES } from '../languages/typescript/value-aliases.js';

/** The 1-based column of the `nth` occurrence of `needle` in `line`, plus `offset`. */
const col = (line: string, needle: string, offset = 0): number => line.indexOf(needle) + 1 + offset;

describe('value aliases (JavaScript)', () => {
  it('a function expression held by a variable of its name: each name leads to the other', () => {
    const line = 'var merge = function merge(target, source) {';
    expect(JS_VALUE_ALIASES.declaredAlias(line, col(line, 'merge'), 'merge')).toBe(col(line, 'merge(', 0));
    expect(JS_VALUE_ALIASES.declaredAlias(line, col(line, 'merge('), 'merge')).toBe(col(line, 'merge'));
    const other = 'const add = async function sum(a, b) {';
    expect(JS_VALUE_ALIASES.declaredAlias(other, col(other, 'add'), 'add')).toBeUndefined();
    expect(JS_VALUE_ALIASES.declaredAlias('var merge = mergeAll;', 5, 'merge')).toBeUndefined();
  });

  it('a property of the exported object whose value is the name: its key, through blank lines, comments and other properties', () => {
    const lines = ['module.exports = {', '    assign: assign,', '', '    // shared', '    merge: merge,', '    compact', '};'];
    expect(JS_VALUE_ALIASES.exportedAs(lines, 5, col(lines[4] as string, 'merge,'), 'merge')).toBe(col(lines[4] as string, 'merge'));
    expect(JS_VALUE_ALIASES.exportedAs(['exports.mergeAll = merge;'], 1, col('exports.mergeAll = merge;', 'merge;'), 'merge')).toBe(col('exports.mergeAll = merge;', 'mergeAll'));
    expect(JS_VALUE_ALIASES.exportedAs(['module.exports.merge = merge'], 1, col('module.exports.merge = merge', '= merge', 2), 'merge')).toBe(col('module.exports.merge = merge', 'merge'));
  });

  it('not a property of the exports: another object, a call, another value', () => {
    const options = ['var options = {', '    timeout: timeout', '};'];
    expect(JS_VALUE_ALIASES.exportedAs(options, 2, col(options[1] as string, ': timeout', 2), 'timeout')).toBeUndefined();
    const nested = ['module.exports = {', '    inner: {', '        merge: merge', '    }', '};'];
    expect(JS_VALUE_ALIASES.exportedAs(nested, 3, col(nested[2] as string, ': merge', 2), 'merge')).toBeUndefined();
    expect(JS_VALUE_ALIASES.exportedAs(['exports.merge = mergeAll;'], 1, col('exports.merge = mergeAll;', 'mergeAll'), 'merge')).toBeUndefined();
  });
});
