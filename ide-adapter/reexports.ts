/**
 * The uses of a module's whole export through the modules that re-export it, for a language whose
 * server does not follow such re-exports (`ServerDefinition.wholeModuleExports`: CommonJS
 * `module.exports = require('./lib/express')` in express's `index.js`). The re-exporting lines
 * come from one budgeted search; each re-exporting module's uses are one references request
 * (the server follows `require('..')` to the re-exporting module itself). Bounded throughout:
 * the exporting file's lines scanned, the lines searched, the re-exporters asked, the chain's depth.
 */
import type { Location, Position } from './model.js';
import type { WholeModuleExports } from './lsp/servers.js';

/** An exporting file longer than this is not scanned for its whole export (generated bundles). */
const MAX_EXPORTING_FILE_LINES = 20_000;
/** Re-exporting lines read from the search at most. */
const MAX_REEXPORT_LINES = 200;
/** Re-exporting modules whose uses are asked at most (a package has one index, rarely a few). */
const MAX_REEXPORTERS = 8;
/** Re-exports of re-exports followed at most (`index.js` → `lib/index.js` → `lib/app.js`). */
const MAX_CHAIN = 3;

/** What finding the uses needs from the backend. */
export interface ReexportSources {
  /** A workspace file's lines. */
  lines(path: string): Promise<readonly string[]>;
  /** The lines matching a pattern (a budgeted workspace search of the language's files). */
  search(pattern: string, maxResults: number): Promise<readonly { readonly path: string; readonly start: Position; readonly content: string }[]>;
  /** The server's uses of the symbol at a position (without its declaration). */
  references(path: string, position: Position): Promise<readonly Location[]>;
}

/** Whether `path` exports `name` as its whole module (a bounded scan of its lines). */
export async function exportsWhole(rules: WholeModuleExports, path: string, name: string, sources: Pick<ReexportSources, 'lines'>): Promise<boolean> {
  let lines: readonly string[];
  try {
    lines = await sources.lines(path);
  } catch {
    return false;
  }
  if (lines.length > MAX_EXPORTING_FILE_LINES) return false;
  return lines.some((line) => line.includes(name) && rules.exportsWhole(line, name));
}

/** The uses through re-exporting modules, and what a bound left out (one line for people), if anything. */
export interface ReexportUses {
  readonly uses: readonly Location[];
  readonly cut?: string;
}

/**
 * The uses, in other files, of the modules that re-export `path` whole (and of their re-exporters,
 * up to `MAX_CHAIN`): `var express = require('..')` and `express()` for express's `index.js`; and
 * the calls of each of them made as it is required (`require('./common')(exports)`, at `require`).
 * The re-export lines themselves are left out.
 */
export async function reexportUses(rules: WholeModuleExports, path: string, sources: ReexportSources): Promise<ReexportUses> {
  const uses: Location[] = [];
  const seen = new Set<string>([path]);
  let targets = [path];
  let asked = 0;
  let cut: string | undefined;
  for (let depth = 0; depth < MAX_CHAIN && targets.length > 0; depth++) {
    const next: string[] = [];
    // A target required and called at once (`require('./common')(exports)`) is called with no name
    // the server could list: the call is a use at its `require`.
    const calls = await sources.search(rules.requireCallLines(targets), MAX_REEXPORT_LINES);
    if (calls.length >= MAX_REEXPORT_LINES) cut = `only the first ${MAX_REEXPORT_LINES} lines that may require and call ${path} were read`;
    for (const l of calls) {
      for (const call of rules.requireCallsOf(l.content)) {
        if (!targets.some((t) => rules.resolves(l.path, call.module, t))) continue;
        const start = { line: l.start.line, column: call.column };
        uses.push({ path: l.path, start, end: { line: start.line, column: start.column + 'require'.length }, content: l.content });
      }
    }
    // One search per link of the chain, for the lines that name this link's targets.
    const pattern = rules.reexportLines(targets);
    const lines = await sources.search(pattern, MAX_REEXPORT_LINES);
    if (lines.length >= MAX_REEXPORT_LINES) cut = `only the first ${MAX_REEXPORT_LINES} lines that may re-export ${path} were read`;
    const reexports = lines.flatMap((l) => {
      const found = rules.reexportOf(l.content);
      return found !== undefined ? [{ path: l.path, line: l.start.line, ...found }] : [];
    });
    for (const r of reexports) {
      if (seen.has(r.path) || !targets.some((t) => rules.resolves(r.path, r.module, t))) continue;
      if (asked >= MAX_REEXPORTERS) {
        cut = `only the uses through the first ${MAX_REEXPORTERS} modules re-exporting ${path} are listed`;
        continue;
      }
      seen.add(r.path);
      asked++;
      next.push(r.path);
      for (const use of await sources.references(r.path, { line: r.line, column: r.column })) {
        if (!(use.path === r.path && use.start.line === r.line)) uses.push(use);
      }
    }
    targets = next;
  }
  return cut !== undefined ? { uses, cut } : { uses };
}
