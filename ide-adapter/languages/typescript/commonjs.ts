/**
 * CommonJS whole-module re-exports, which tsgo does not follow: a package's `index.js` with
 * `module.exports = require('./lib/express')` makes every `require('..')` user of the package a
 * user of what `lib/express.js` exports, yet references and callers of `createApplication` miss
 * them. The rules here recognise the two sides line by line (linear, one line at a time); the
 * backend asks the server for the uses of each re-exporting module and adds them.
 */
import { posix } from 'node:path';
import type { WholeModuleExports } from '../../lsp/servers.js';
import { escapeRegExp } from '../../regexp-text.js';

/**
 * `module.exports = name;` and `exports = module.exports = name;` (either order), the whole line
 * — matched on the line without its trailing blanks: a pattern ending `\s*;?\s*$` tries every
 * split of a long blank run that is not the line's end (quadratic: a line padded with a megabyte
 * of spaces held the thread for most of an hour).
 */
const WHOLE_EXPORT = /^\s*(?:exports\s*=\s*)?module\.exports\s*=\s*(?:exports\s*=\s*)?([A-Za-z_$][\w$]*)\s*;?$/;

/** `module.exports = require('<relative>');` (also through `exports =`): the module and where `module` starts; on the line without its trailing blanks, as above. */
const WHOLE_REEXPORT = /^(\s*)(?:exports\s*=\s*)?module\.exports\s*=\s*(?:exports\s*=\s*)?require\(\s*(['"])(\.{1,2}(?:\/[^'"]*)?)\2\s*\)\s*;?$/;

/** `module.exports = (a) => …`, `= async function (…)`, `= function name(…)` (also through `exports =`): an anonymous whole export. */
const ANONYMOUS_EXPORT = /^(\s*)(?:exports\s*=\s*)?module\.exports\s*=\s*(?:exports\s*=\s*)?(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;

/** `require('<relative>')(`: a module required and called at once (debug's `module.exports = require('./common')(exports)`). */
const REQUIRE_CALL = /\brequire\(\s*(['"])(\.{1,2}(?:\/[^'"]*)?)\1\s*\)\s*\(/g;

/** The same, as a search pattern, up to the module's last name (`requireCallLines` adds it). */
const REQUIRE_CALL_SEARCH = String.raw`\brequire\(\s*['"]\.[^'"]*`;

/** The same lines as a search pattern, up to the module's last name (`reexportLines` adds it). */
const REEXPORT_SEARCH = String.raw`^\s*(exports\s*=\s*)?module\.exports\s*=\s*(exports\s*=\s*)?require\(\s*['"]\.[^'"]*`;

/**
 * The names a `require` of `target` can end with (before an extension and the quote): the file's
 * name without extension, and for an `index` its folder's name too — nothing for the workspace
 * root's index (`require('..')`), which any relative re-export line may name.
 */
function requiredAs(target: string): string[] {
  const name = posix.basename(target).replace(/\.[^.]*$/, '');
  if (name !== 'index') return [name];
  const folder = posix.basename(posix.dirname(target));
  return folder === '.' || folder === '' ? [''] : [name, folder];
}

/** The names `targets` can be required by, escaped for a pattern. */
function requiredNames(targets: readonly string[]): string[] {
  return [...new Set(targets.flatMap(requiredAs))].map(escapeRegExp);
}

/** The extensions and index files Node tries for a relative `require` without one. */
const RESOLVED_SUFFIXES = ['', '.js', '.cjs', '.json', '/index.js', '/index.cjs'];

/** JavaScript's CommonJS whole-module exports (tsgo's `wholeModuleExports`). */
export const COMMONJS_EXPORTS: WholeModuleExports = {
  exportsWhole(line, name) {
    return WHOLE_EXPORT.exec(line.trimEnd())?.[1] === name;
  },
  reexportLines(targets) {
    // Only lines naming one of the targets: a large monorepo has many re-exports, few of one file.
    const names = requiredNames(targets);
    return `${REEXPORT_SEARCH}(${names.join('|')})(\\.c?js)?/?['"]`;
  },
  requireCallLines(targets) {
    return `${REQUIRE_CALL_SEARCH}(${requiredNames(targets).join('|')})(\\.c?js)?/?['"]\\s*\\)\\s*\\(`;
  },
  requireCallsOf(line) {
    return [...line.matchAll(REQUIRE_CALL)].map((m) => ({ module: m[2] as string, column: Array.from(line.slice(0, m.index)).length + 1 }));
  },
  reexportOf(line) {
    const m = WHOLE_REEXPORT.exec(line.trimEnd());
    if (m === null) return undefined;
    const indent = (m[1] ?? '').length;
    // The references are asked at `module` of `module.exports`: tsgo answers there with the uses
    // of the module's export in every file that requires it.
    const column = line.indexOf('module.exports', indent) + 1;
    return { module: m[3] as string, column };
  },
  resolves(fromPath, module, target) {
    const base = posix.normalize(posix.join(posix.dirname(fromPath), module)).replace(/\/$/, '');
    return RESOLVED_SUFFIXES.some((suffix) => posix.normalize(base + suffix) === target);
  },
  anonymousExport(line) {
    const m = ANONYMOUS_EXPORT.exec(line);
    return m === null ? undefined : line.indexOf('module.exports', (m[1] ?? '').length) + 1;
  },
  calledAt(line, column) {
    // The name at `column` (1-based, in code points as locations count), then optional space, then
    // `(` — read in place: copying the line from the column for each use was quadratic on a
    // minified line (2,000 uses on a megabyte line took two minutes).
    CALL_AT.lastIndex = unitOffset(line, column);
    return CALL_AT.test(line);
  },
};

/** A name, optional space, then `(`, at `lastIndex` (sticky): the name is taken whole, as `[\w$]*` cannot stop before a word character. */
const CALL_AT = /[A-Za-z_$][\w$]*\s*\(/y;

/**
 * The code-point indexes of the astral characters of the line last asked about: the uses of one
 * line come one after another, so each line is scanned once, not once per use.
 */
let astralOf: { readonly line: string; readonly points: readonly number[] } | undefined;

/** The UTF-16 offset of a 1-based code-point column of `line`. */
function unitOffset(line: string, column: number): number {
  if (astralOf?.line !== line) {
    const points: number[] = [];
    let point = 0;
    for (let i = 0; i < line.length; i++, point++) {
      const code = line.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < line.length) {
        points.push(point);
        i++;
      }
    }
    astralOf = { line, points };
  }
  // Each astral character before the column adds one UTF-16 unit.
  const { points } = astralOf;
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((points[mid] as number) < column - 1) low = mid + 1;
    else high = mid;
  }
  return column - 1 + low;
}
