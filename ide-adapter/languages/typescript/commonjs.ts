/**
 * CommonJS whole-module re-exports, which tsgo does not follow: a package's `index.js` with
 * `module.exports = require('./lib/express')` makes every `require('..')` user of the package a
 * user of what `lib/express.js` exports, yet references and callers of `createApplication` miss
 * them. The rules here recognise the two sides line by line (linear, one line at a time); the
 * backend asks the server for the uses of each re-exporting module and adds them.
 */
import { posix } from 'node:path';
import type { WholeModuleExports } from '../../lsp/servers.js';

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
  return [...new Set(targets.flatMap(requiredAs))].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
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
    // The name at `column` (1-based, in code points as locations count), then optional space, then `(`.
    const rest = Array.from(line).slice(column - 1).join('');
    const name = /^[A-Za-z_$][\w$]*/.exec(rest);
    return name !== null && /^\s*\(/.test(rest.slice(name[0].length));
  },
};
