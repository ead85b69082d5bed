/**
 * File functions: regex search, finding files by glob, reading lines, and git diffs. They need no
 * language server and are confined to the workspace.
 */
import { build, codePointCount, DialectError, EvalCode, type Ambiguity, type CallContext, type Registry } from '../../dialect/index.js';
import { gitDiff } from '../git.js';
import { isSymbolDefinition, type Location, type SymbolDefinition } from '../model.js';
import { coverageNotes, searchWorkspace, walkFiles } from '../search.js';
import { WorkspaceCode } from '../workspace.js';
import { awaitIndex, type IdeHost } from './host.js';
import { refinementsFor } from './refinements.js';
import { findSymbolsByName, flatten } from './symbols.js';
import { describeSymbol } from './types.js';

const MAX_FILES = 1000;
/** `lines` shows at most this many lines at once. */
const MAX_LINES = 400;

/**
 * Lines `start`..`end` of `path` as a location carrying their text: at most `MAX_LINES`, with a
 * note when the range was cut or the file ends before `end`.
 */
async function linesLocation(ctx: CallContext<IdeHost>, path: string, start: number, end: number): Promise<Location & { text: string }> {
  if (end - start + 1 > MAX_LINES) {
    ctx.note(`showing ${MAX_LINES} of ${end - start + 1} lines; ask for a range with lines(path, start, end)`);
    end = start + MAX_LINES - 1;
  }
  const lines = await ctx.host.workspace.readLines(path, start, end);
  // Counted against the evaluation's budget before the text is joined: many concurrent calls on
  // a file of long lines must fail there, not each build its copy first.
  ctx.reserve(2 * lines.reduce((sum, line) => sum + line.length + 1, 0));
  const last = start + lines.length - 1;
  const lastLine = lines[lines.length - 1] ?? '';
  if (last < end) ctx.note(`${path} ends at line ${last}`);
  return {
    path,
    start: { line: start, column: 1 },
    end: { line: last, column: codePointCount(lastLine, 0, lastLine.length) + 1 },
    content: lines[0] ?? '',
    text: lines.join('\n'),
  };
}

/**
 * The lines a symbol or location covers: a location its own range; a symbol its whole declaration
 * as the file's outline reports it (attributes and doc comments included where the server counts
 * them), or its name's line when no outline has it.
 */
async function extentOf(ctx: CallContext<IdeHost>, target: SymbolDefinition | Location): Promise<{ path: string; start: number; end: number }> {
  if (!isSymbolDefinition(target)) return { path: target.path, start: target.start.line, end: target.end.line };
  const at = target.definedAt;
  if (ctx.host.backend.handles(at.path)) {
    const outline = flatten(await ctx.host.backend.documentSymbols(at.path, { signal: ctx.signal }).catch(() => []));
    const named = outline.filter((o) => o.name === target.name && o.location.start.line === at.start.line && o.range !== undefined);
    // At the name; else the declaration of that name starting on its line: the server may outline a
    // JavaScript member (`res.send = function send …`) only by its named function value.
    const decl = named.find((o) => o.location.start.column === at.start.column) ?? named[0];
    // A declaration covers what is nested in it: a JavaScript member's outline entry is only the
    // assignment's target (`View.prototype.lookup`), its function value a child.
    if (decl?.range !== undefined) return { path: at.path, start: decl.range.start.line, end: Math.max(decl.range.end.line, ...flatten(decl.children).map((c) => c.range?.end.line ?? 0)) };
  }
  return { path: at.path, start: at.start.line, end: at.end.line };
}

/** A qualified identifier (`Searcher::search_path`, `Position.create`, `User#name`, `Ky.#fetch`, a macro as invoked: `info!`). */
const SYMBOL_NAME = /^#?[A-Za-z_$][\w$]*(?:(?:::|\.|#)#?[A-Za-z_$][\w$]*)*!?$/;

/** Whether a string that is no file may be a symbol's name (not a path: no `/`, no source file extension). */
function looksLikeSymbolName(ctx: CallContext<IdeHost>, text: string): boolean {
  return SYMBOL_NAME.test(text) && !ctx.host.backend.handles(text);
}

/**
 * The workspace path of an existing file or folder. When nothing is there and `orName` holds,
 * undefined (the caller looks the string up as a name); otherwise the not-found error.
 */
async function existingFile(ctx: CallContext<IdeHost>, path: string, orName: boolean): Promise<string | undefined> {
  try {
    return ctx.host.workspace.relative(await ctx.host.workspace.resolveReal(path));
  } catch (error) {
    if (orName && error instanceof DialectError && error.code === WorkspaceCode.NotFound) return undefined;
    throw error;
  }
}

/**
 * The one symbol with a name, or an ambiguity whose choices are whole `lines(findDefinition(…))`
 * programs; a name that is no symbol either fails saying both.
 */
async function symbolNamed(ctx: CallContext<IdeHost>, name: string): Promise<SymbolDefinition | Ambiguity> {
  await awaitIndex(ctx);
  const defs = await findSymbolsByName(ctx.host.backend, { name }, ctx.signal, ctx.host.trace);
  if (defs.length === 1) return defs[0] as SymbolDefinition;
  if (defs.length === 0) {
    throw new DialectError({
      code: WorkspaceCode.NotFound,
      message: `${JSON.stringify(name)} is neither a file of the workspace nor the name of a symbol`,
      hint: 'paths are relative to the workspace root; findFiles("**/name*") finds files, findDefinitions("name") symbols',
    });
  }
  return ctx.ambiguous(
    `${JSON.stringify(name)} names ${defs.length} symbols`,
    refinementsFor(defs, {}).map(({ def, refine }) => ({
      label: describeSymbol(def),
      value: def,
      replacement: build.call('lines', [build.call('findDefinition', [build.literal(name)], Object.entries(refine).map(([k, v]) => [k, build.literal(v)] as const))]),
    })),
  );
}

/** Registers the file functions (`lines`, `search`, `findFiles`, `gitdiff`, …). */
export function registerFileFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'search',
    aliases: ['grep', 'searchFiles'],
    description:
      'Searches a file, or every file under a folder (respecting .gitignore), for a regular expression (JavaScript syntax), one result per match with the line it is on. Use a backtick string to write backslashes as they are: `fn\\s+login`.',
    category: 'search',
    requires: 'workspace',
    parameters: [
      { name: 'path', type: 'string', description: 'a file or folder of the workspace ("." for all)', aliases: ['in', 'dir', 'file'] },
      { name: 'regex', type: 'string', description: 'the pattern', aliases: ['pattern', 'query'] },
      { name: 'extension', type: 'string | string[]', optional: true, description: 'only files with this extension, e.g. ".rs"', aliases: ['ext', 'extensions'] },
    ],
    returns: 'location[]',
    examples: [
      { program: 'search("src/auth.rs", "fn validate")' },
      { program: 'search("src", `fn\\s+login`, ".rs")' },
    ],
    implementation: async (args, ctx) => {
      const ext = args['extension'];
      const extensions = ext === undefined ? [] : Array.isArray(ext) ? (ext as string[]) : [ext as string];
      const result = await searchWorkspace(ctx.host.workspace, args['path'] as string, args['regex'] as string, { extensions, signal: ctx.signal });
      if (result.total > result.matches.length) ctx.note(`showing the first ${result.matches.length} of ${result.total} matches; narrow the path or the pattern`);
      for (const note of coverageNotes({ ...result.walk, tooLarge: result.tooLarge })) ctx.note(note);
      return result.matches;
    },
  });

  registry.registerFunction({
    name: 'findFiles',
    aliases: ['files', 'glob'],
    description: 'Workspace files whose path matches a glob (`**/*.rs`, `src/**/model*`); a pattern without `/` matches file names anywhere. Respects .gitignore.',
    category: 'search',
    requires: 'workspace',
    parameters: [
      { name: 'glob', type: 'string', description: 'the pattern', aliases: ['pattern', 'name'] },
      { name: 'path', type: 'string', optional: true, default: '.', description: 'only under this folder' },
    ],
    returns: 'string[]',
    examples: [{ program: 'findFiles("*.rs")' }, { program: 'findFiles("**/mod.rs", "src")' }],
    implementation: async (args, ctx) => {
      // The glob is matched in the file worker, under the time budget: extglobs can backtrack.
      const result = await walkFiles(ctx.host.workspace, args['path'] as string, { glob: args['glob'] as string, signal: ctx.signal });
      for (const note of coverageNotes(result)) ctx.note(note);
      const matched = result.files;
      if (matched.length > MAX_FILES) ctx.note(`showing ${MAX_FILES} of ${matched.length} files; narrow the pattern`);
      return matched.slice(0, MAX_FILES);
    },
  });

  registry.registerFunction({
    name: 'lines',
    aliases: ['readLines', 'code', 'source'],
    description:
      'Lines of a workspace file as a location whose `text` holds them: lines(path, start, end) (1-based, inclusive), or the code of a symbol or location: lines(findDefinition("User")) gives the whole declaration. A string that is no file of the workspace is looked up as a symbol name: lines("Searcher::search_path").',
    category: 'search',
    requires: 'workspace',
    parameters: [
      { name: 'path', type: 'string | symbol | location', description: 'a workspace file, or a symbol (or its name) or location to show', aliases: ['file', 'of'] },
      { name: 'start', type: 'number', optional: true, description: 'first line (from 1); required with a path', aliases: ['from'] },
      { name: 'end', type: 'number', optional: true, description: 'last line (default: start)', aliases: ['to'] },
    ],
    returns: 'location',
    examples: [{ program: 'lines("src/main.rs", 1, 20)' }, { program: 'lines(findDefinition("User"))' }, { program: 'lines("User::new")', description: 'a name that is no file: the symbol\'s code' }],
    implementation: async (args, ctx) => {
      const target = args['path'];
      let path: string;
      let start: number;
      let end: number;
      if (typeof target === 'string') {
        const file = await existingFile(ctx, target, typeof args['start'] !== 'number' && looksLikeSymbolName(ctx, target));
        if (file === undefined) {
          // Not a file: a symbol's name (`lines("Searcher::search_path")`), as for any symbol argument.
          const symbol = await symbolNamed(ctx, target);
          if (!isSymbolDefinition(symbol)) return symbol; // an ambiguity: choose the definition
          ({ path, start, end } = await extentOf(ctx, symbol));
        } else {
          path = file;
          if (typeof args['start'] !== 'number') return ctx.fail(EvalCode.MissingArgument, 'lines(path, …) needs the first line', `for example: lines(${JSON.stringify(path)}, 1, 40)`);
          start = args['start'];
          end = typeof args['end'] === 'number' ? args['end'] : start;
        }
      } else {
        ({ path, start, end } = await extentOf(ctx, target as SymbolDefinition | Location));
        if (typeof args['start'] === 'number') start = args['start'];
        if (typeof args['end'] === 'number') end = args['end'];
      }
      return linesLocation(ctx, path, start, end);
    },
  });

  registry.registerFunction({
    name: 'gitdiff',
    aliases: ['gitDiff', 'diff'],
    description:
      'Changed files and hunks from git: a range "A..B" compares commits; a single revision (default HEAD) compares it with the working tree, including staged and unstaged changes unless excluded.',
    category: 'git',
    requires: 'workspace',
    parameters: [
      { name: 'range', type: 'string', optional: true, description: 'e.g. "HEAD~2..HEAD", "main", or omitted for uncommitted changes' },
      { name: 'excludeUnstaged', type: 'boolean', optional: true, description: 'leave out changes not yet staged' },
      { name: 'excludeStaged', type: 'boolean', optional: true, description: 'leave out staged changes' },
    ],
    returns: 'object[]',
    examples: [{ program: 'gitdiff("HEAD~1..HEAD")' }, { program: 'gitdiff()' }],
    implementation: async (args, ctx) =>
      gitDiff(ctx.host.workspace, args['range'] as string | undefined, {
        excludeUnstaged: args['excludeUnstaged'] === true,
        excludeStaged: args['excludeStaged'] === true,
        signal: ctx.signal,
      }),
  });
}
