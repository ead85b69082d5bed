/**
 * JavaScript outside any configured project: no `jsconfig.json`/`tsconfig.json` above it (a plain
 * CommonJS or ESM package, a browser extension, a static site's scripts), or only one that takes
 * in no JavaScript (a library's tsconfig that checks its hand-written `index.d.ts`:
 * `files`/`include` that leave it out, or no `allowJs`); and TypeScript no project takes in: with
 * no configuration above it at all (a Deno module, a folder of scripts), or outside its project's
 * `include` (ky's `"include": ["source"]` leaves out its tests).
 * tsgo builds such files into an inferred project only as they are opened, so its index, and
 * every answer built on it, knows only the files that happened to be open. Opening all of them
 * (bounded) makes the inferred project the whole package. Opening a file a project does take in
 * costs little, and leaving out one it does not loses answers: where a configuration cannot be
 * read, its folder counts as covered only when it is unreadable altogether.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DialectError } from '../../../dialect/outcome.js';
import { isInside, readConfined } from '../../confine.js';
import { runFileJob } from '../../file-jobs.js';
import { compileGlob, type GlobMatcher } from '../../lsp/glob.js';
import { PROJECT_SCAN_BUDGET_MS } from '../../lsp/projects.js';
import type { FileCollection, ProjectScan } from '../../project-scan.js';
import { MAX_PROJECT_FILE_BYTES, withoutCommentsAndTrailingCommas } from '../../lsp/project-files.js';
import { SearchCode } from '../../search.js';
import { SKIPPED_DIRS } from '../../skipped-dirs.js';

/** At most this many loose JavaScript and TypeScript files are opened (a warning says when there were more). */
export const MAX_LOOSE_SCRIPTS = 1000;

/**
 * The JavaScript file names a loose package consists of, listed by a walk of their own when the
 * start's scan could not list them. TypeScript is listed by the scan alone, which leaves out the
 * folders each project's `include` names as it walks: a walk listing every TypeScript file would
 * reach its bound in any large workspace.
 */
const SCRIPT_GLOB = '**/*.{js,cjs,mjs,jsx}';

/** TypeScript's own names: any configuration takes them in (no `allowJs` needed) when its lists do. */
const TYPESCRIPT_NAME = /\.(?:ts|tsx|mts|cts)$/;

/**
 * The TypeScript files listed as loose: not declaration files, which mostly declare what a
 * JavaScript file beside them defines (a library's `index.d.ts`): opened with it, each of its
 * names would be defined twice. A question about one still opens it.
 */
const LOOSE_TYPESCRIPT_NAME = /^(?!.*\.d\.[mc]?ts$).*\.(?:ts|tsx|mts|cts)$/;

/**
 * The same names, listed by the start's project scan on its own walk (`project-scan.ts`
 * `collectFiles`): the listing then costs no second walk of the tree while the server loads.
 * A few more than the limit, so that files skipped below do not hide that the bound was reached.
 */
export const LOOSE_SCRIPT_COLLECTION: FileCollection = { pattern: '\\.(?:js|cjs|mjs|jsx)$', outsideProjects: LOOSE_TYPESCRIPT_NAME.source, includeField: 'include', limit: MAX_LOOSE_SCRIPTS * 2 };

/** What {@link looseScripts} found. */
export interface LooseScripts {
  /** Absolute paths, in walk order. */
  readonly files: readonly string[];
  /** Set when the bound cut the list, for people. */
  readonly warning?: string;
}

/**
 * The JavaScript and TypeScript files under `root` that no configured project in `projectDirs`
 * (absolute folders) takes in, outside gitignored, dependency and build folders; at most `limit`.
 * `listed`: the files the project scan listed on its walk ({@link LOOSE_SCRIPT_COLLECTION});
 * without it, or when that walk stopped short, a walk lists the JavaScript, in the file worker
 * like every walk that matches `.gitignore` rules (with the TypeScript the scan did list).
 */
export async function looseScripts(
  root: string,
  projectDirs: readonly string[],
  options: { readonly limit?: number; readonly budgetMs?: number; readonly listed?: ProjectScan['files'] } = {},
): Promise<LooseScripts> {
  const { limit = MAX_LOOSE_SCRIPTS, budgetMs = PROJECT_SCAN_BUDGET_MS, listed } = options;
  const usable = listed !== undefined && (listed.complete || listed.paths.length >= limit * 2) ? listed.paths : undefined;
  // No script at all (most TypeScript workspaces): no configuration need be read, while the server loads.
  if (usable?.length === 0) return { files: [] };
  const scopes = projectDirs.map((d) => projectScope(root, d));
  if (scopes.some((c) => c.folder === '' && c.javaScript === 'all' && c.typeScript === 'all')) return { files: [] }; // the root's own project takes in all of it
  const walk = usable !== undefined ? { files: usable } : await listScripts(root, limit, budgetMs);
  if (walk === undefined) return { files: [], warning: NOT_LISTED_IN_BUDGET };
  const candidates = usable !== undefined ? walk.files : [...walk.files, ...(listed?.paths.filter((f) => TYPESCRIPT_NAME.test(f)) ?? [])];
  const loose = candidates.filter((f) => {
    if (f.split('/').some((part) => SKIPPED_DIRS.has(part))) return false;
    const language = TYPESCRIPT_NAME.test(f) ? 'typeScript' : 'javaScript';
    return !scopes.some((c) => takesIn(c, language, f));
  });
  const cut = loose.length > limit || walk.files.length >= limit * 2;
  const files = loose.slice(0, limit).map((f) => `${root}${sep}${f.split('/').join(sep)}`);
  return cut
    ? { files, warning: `loaded the first ${files.length} JavaScript/TypeScript files outside a jsconfig.json/tsconfig.json project (MAX_LOOSE_SCRIPTS); symbols in the others are found only by text search` }
    : { files };
}

/** The script files under `root` (workspace-relative), a few more than `limit`, by a walk in the file worker; `undefined` past the budget. */
async function listScripts(root: string, limit: number, budgetMs: number): Promise<{ readonly files: readonly string[] } | undefined> {
  if (budgetMs <= 0) return undefined;
  // A few more than the limit, so that files skipped below do not hide that the bound was reached.
  let walk;
  try {
    walk = await runFileJob(
      { kind: 'walk', root, start: '', limit: limit * 2, glob: SCRIPT_GLOB },
      // Within what the start's project scan left of its budget: a start waits for this listing.
      { timeoutMs: budgetMs, overrun: () => new DialectError({ code: SearchCode.WalkTimeout, message: NOT_LISTED_IN_BUDGET }) },
    );
  } catch (error) {
    if (error instanceof DialectError && error.code === SearchCode.WalkTimeout) return undefined;
    throw error;
  }
  return walk;
}

/** Why no JavaScript outside a project was listed: the start's scan budget ran out first. */
const NOT_LISTED_IN_BUDGET = 'the JavaScript/TypeScript files outside a project were not listed within the scan budget (PROJECT_SCAN_BUDGET_MS): only the ones a question opens are searched';

/** A configuration's `extends` chain is followed at most this deep. */
const MAX_EXTENDS_DEPTH = 8;

/**
 * `include`/`exclude` patterns matched at most per configuration: each file is matched against
 * each, so more would make a workspace's configuration the cost of the walk. A configuration
 * with more counts as taking in no JavaScript (its files are opened: the safe side).
 */
const MAX_PATTERNS = 64;

/** Which files of one language a configuration takes in: `all` below its folder, `none`, or those its `files`/`include`/`exclude` select (workspace-relative). */
type Covers = 'all' | 'none' | ((path: string) => boolean);

/** Which JavaScript and TypeScript files a project folder's configuration takes in. */
interface ProjectScope {
  /** The project's folder, workspace-relative (`''` for the root). */
  readonly folder: string;
  readonly javaScript: Covers;
  readonly typeScript: Covers;
}

/** Whether `scope` takes in the workspace file `path` of `language`. */
function takesIn(scope: ProjectScope, language: 'javaScript' | 'typeScript', path: string): boolean {
  if (scope.folder !== '' && !path.startsWith(`${scope.folder}/`)) return false;
  const covers = scope[language];
  return covers === 'all' || (covers !== 'none' && covers(path));
}

/** The compiler options and file lists of one configuration file that matter here, with the folder they are relative to. */
interface ConfigFields {
  readonly dir: string;
  readonly json: Record<string, unknown>;
}

/**
 * What the configuration in `dir` takes in of the files below it, as TypeScript reads it:
 * `tsconfig.json` before `jsconfig.json` (which allows JavaScript by itself); JavaScript only
 * with `allowJs` or `checkJs`; `files`, `include` and `exclude`, each from the nearest
 * configuration of the `extends` chain (relative paths only) that sets it; no `files` and no
 * `include` is everything. A configuration that cannot be read at all covers its folder (the
 * server reports it broken).
 */
function projectScope(root: string, dir: string): ProjectScope {
  const folder = relative(root, dir).split(sep).join('/');
  const ts = readConfig(root, join(dir, 'tsconfig.json'));
  const chain = ts !== undefined ? extendsChain(root, ts) : [];
  const js = ts === undefined ? readConfig(root, join(dir, 'jsconfig.json')) : undefined;
  if (ts === undefined && js === undefined) return { folder, javaScript: 'all', typeScript: 'all' };
  const configs = js !== undefined ? [js] : chain;
  const option = (name: string): unknown => configs.map((c) => (c.json['compilerOptions'] as Record<string, unknown> | undefined)?.[name]).find((v) => v !== undefined);
  const covers = listedFiles(root, dir, configs);
  return { folder, javaScript: js !== undefined || option('allowJs') === true || option('checkJs') === true ? covers : 'none', typeScript: covers };
}

/** The files a configuration's `files`, `include` and `exclude` select, each from the nearest of `configs` (an `extends` chain) that sets it. */
function listedFiles(root: string, dir: string, configs: readonly ConfigFields[]): Covers {
  const field = (name: string): { dir: string; values: string[] } | undefined => {
    const from = configs.find((c) => Array.isArray(c.json[name]));
    return from === undefined ? undefined : { dir: from.dir, values: (from.json[name] as unknown[]).filter((v): v is string => typeof v === 'string') };
  };
  const files = field('files');
  const include = field('include');
  const exclude = field('exclude');
  if (files === undefined && include === undefined && exclude === undefined) return 'all';
  if ((include?.values.length ?? 0) + (exclude?.values.length ?? 0) > MAX_PATTERNS) return 'none';
  const listed = new Set((files?.values ?? []).map((f) => workspacePath(root, resolve(files?.dir ?? dir, f))));
  const included = files !== undefined && include === undefined ? [] : matchers(root, include ?? { dir, values: ['**/*'] });
  const excluded = exclude === undefined ? [] : matchers(root, exclude);
  return (path) => listed.has(path) || (included.some((m) => m(path)) && !excluded.some((m) => m(path)));
}

/** A configuration file inside the workspace, parsed; undefined when it is missing or unreadable. */
function readConfig(root: string, path: string): ConfigFields | undefined {
  const read = readConfined(root, path, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return undefined;
  try {
    const json = JSON.parse(withoutCommentsAndTrailingCommas(read.text)) as unknown;
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? { dir: dirname(path), json: json as Record<string, unknown> } : undefined;
  } catch {
    return undefined;
  }
}

/** A configuration and those it `extends` by a relative path, nearest first (packages are not followed). */
function extendsChain(root: string, first: ConfigFields): ConfigFields[] {
  const chain = [first];
  for (let at = first; chain.length <= MAX_EXTENDS_DEPTH; ) {
    const spec = at.json['extends'];
    const target = typeof spec === 'string' ? spec : Array.isArray(spec) && typeof spec[spec.length - 1] === 'string' ? (spec[spec.length - 1] as string) : undefined;
    if (target === undefined || !(target.startsWith('.') || isAbsolute(target))) break;
    const path = resolve(at.dir, target);
    const next = readConfig(root, path) ?? (path.endsWith('.json') ? undefined : readConfig(root, `${path}.json`));
    if (next === undefined) break;
    chain.push(next);
    at = next;
  }
  return chain;
}

/**
 * Matchers of TypeScript's `include`/`exclude` patterns against workspace paths: relative to the
 * configuration's folder; a last segment without a wildcard or a dot is a folder (everything below
 * it); patterns leading outside the workspace match nothing here.
 */
function matchers(root: string, patterns: { dir: string; values: readonly string[] }): GlobMatcher[] {
  return patterns.values.flatMap((pattern) => {
    const path = workspacePath(root, resolve(patterns.dir, pattern));
    if (path === undefined) return [];
    const last = path.slice(path.lastIndexOf('/') + 1);
    const folder = !/[*?.]/.test(last);
    return [compileGlob(folder ? (path === '' ? '**/*' : `${path}/**/*`) : path)];
  });
}

/** `/`-separated and relative to the workspace root, or undefined outside it. */
function workspacePath(root: string, absolute: string): string | undefined {
  return isInside(root, absolute) ? relative(root, absolute).split(sep).join('/') : undefined;
}
