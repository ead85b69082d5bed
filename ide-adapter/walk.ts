/**
 * Walks workspace files the way `git` sees them: `.gitignore` files at every level (and
 * `.git/info/exclude`) are honoured, `.git` is skipped, symlinked folders are not followed.
 * Only regular files are listed; a symlink is listed only when it leads to a regular file inside
 * the workspace (`confine.ts` decides). `.gitignore` files are read through the same
 * confinement check as everything else.
 *
 * It runs inside the file worker (`file-worker.ts`), never on the main thread: ignore rules are
 * patterns the workspace writes, so walking is user-pattern work and runs under the time budget.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { linkTarget, readConfined } from './confine.js';

/** Ignore files larger than this are not read (real ones are a few kilobytes). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * Folders never entered when looking for projects, root markers or changes: dependencies, build
 * output, version-control data. The one list (project search, marker scans and the watcher).
 */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', 'target', 'dist', 'build', 'out', '.git', '.hg', '.svn', '.venv', '__pycache__']);

/** The rules of one ignore file. */
export interface IgnoreRules {
  /** The folder the rules were written in, relative to the root ('' for the root). */
  readonly base: string;
  readonly matcher: Ignore;
}

/** What a walk found, and what it left out that a person would want to know about. */
export interface WalkResult {
  /** Workspace-relative paths with `/` separators, sorted. */
  readonly files: string[];
  /** True when the walk stopped at its file limit. */
  readonly truncated: boolean;
  /** Symlinks not listed because they lead outside the workspace (or nowhere). */
  readonly linksOutside: number;
  /** FIFOs, sockets and devices, never listed. */
  readonly specialFiles: number;
}

/** What to walk. */
export interface WalkRequest {
  /** The absolute, real workspace root. */
  readonly root: string;
  /** The workspace-relative folder or file to start at ('' for the root); already confined. */
  readonly start: string;
  /** Stop after this many listed files. */
  readonly limit: number;
  /** Only list files this accepts (a glob, an extension filter); the limit counts accepted files. */
  readonly accept?: (path: string) => boolean;
  /**
   * When given, the listed paths that are symlinks (or the start itself) are added to it: every
   * other listed path is a regular file reached through real folders (`readWalkedFile` reads it).
   */
  readonly links?: Set<string>;
}

/** Lists the files under `start` that git would not ignore. Synchronous: it runs in a worker. */
export function walkFilesSync(request: WalkRequest): WalkResult {
  const { root, start, limit, accept, links } = request;
  const files: string[] = [];
  let linksOutside = 0;
  let specialFiles = 0;
  let truncated = false;

  const rules = ignoreRulesFor(root, start);
  if (start !== '' && isIgnored(rules, start, false)) return { files, truncated, linksOutside, specialFiles };

  const list = (rel: string): void => {
    if (accept !== undefined && !accept(rel)) return;
    if (files.length >= limit) truncated = true;
    else files.push(rel);
  };

  const visit = (dirRel: string, inherited: readonly IgnoreRules[]): void => {
    if (truncated) return;
    const own = dirRel === start ? undefined : readRules(root, `${dirRel}/.gitignore`, dirRel);
    const active = own !== undefined ? [...inherited, own] : inherited;
    let entries: Dirent[];
    try {
      entries = readdirSync(dirRel === '' ? root : join(root, dirRel), { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip it like git does
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (truncated) return;
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !isIgnored(active, rel, true)) visit(rel, active);
      } else if (isIgnored(active, rel, false)) {
        continue;
      } else if (entry.isFile()) {
        list(rel);
      } else if (entry.isSymbolicLink()) {
        const target = linkTarget(root, join(root, rel));
        if (target === 'file') {
          list(rel);
          links?.add(rel);
        }
        else if (target === 'outside') linksOutside++;
        else if (!isDirectoryLink(root, rel)) specialFiles++; // symlinked folders are just not followed
      } else {
        specialFiles++;
      }
    }
  };

  if (start !== '' && linkTarget(root, join(root, start)) === 'file') {
    list(start);
    links?.add(start);
  }
  else visit(start, rules);
  return { files, truncated, linksOutside, specialFiles };
}

/**
 * The ignore rules that apply inside `dir` (workspace-relative, '' for the root): the repository's
 * `.git/info/exclude`, then each `.gitignore` from the root down to `dir`. Read confined.
 */
export function ignoreRulesFor(root: string, dir: string): IgnoreRules[] {
  const rules: IgnoreRules[] = [];
  const exclude = readRules(root, join('.git', 'info', 'exclude'), '');
  if (exclude !== undefined) rules.push(exclude);
  const parts = dir === '' ? [] : dir.split('/');
  for (let i = 0; i <= parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const r = readRules(root, base === '' ? '.gitignore' : `${base}/.gitignore`, base);
    if (r !== undefined) rules.push(r);
  }
  return rules;
}

/** Lists one folder as git sees it (a job of the file worker: REPL path completion). */
export interface ListJob {
  readonly kind: 'list';
  readonly root: string;
  /** The workspace-relative folder ('' for the root); already confined. */
  readonly dir: string;
}

/** One entry of a listed folder. */
export interface ListedEntry {
  readonly name: string;
  /** A folder, or a symlink to one. */
  readonly directory: boolean;
}

/**
 * The entries of one folder without `.git` and what git ignores there (`.gitignore` files on the
 * way, `.git/info/exclude`); undefined when it cannot be read. Synchronous: it runs in a worker.
 */
export function listFolderSync(job: ListJob): ListedEntry[] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(job.dir === '' ? job.root : join(job.root, job.dir), { withFileTypes: true });
  } catch {
    return undefined;
  }
  const rules = ignoreRulesFor(job.root, job.dir);
  const out: ListedEntry[] = [];
  for (const e of entries) {
    if (e.name === '.git') continue;
    const path = job.dir === '' ? e.name : `${job.dir}/${e.name}`;
    const directory = e.isDirectory() || (e.isSymbolicLink() && isDirectoryLink(job.root, path));
    if (isIgnored(rules, path, directory)) continue;
    out.push({ name: e.name, directory });
  }
  return out;
}

function isDirectoryLink(root: string, rel: string): boolean {
  try {
    return statSync(join(root, rel)).isDirectory();
  } catch {
    return false;
  }
}

/** The rules of the `.gitignore` in `dirRel` (workspace-relative, '' for the root), read confined. */
export function gitignoreOf(root: string, dirRel: string): IgnoreRules | undefined {
  return readRules(root, dirRel === '' ? '.gitignore' : `${dirRel}/.gitignore`, dirRel);
}

function readRules(root: string, rel: string, base: string): IgnoreRules | undefined {
  const read = readConfined(root, join(root, rel), MAX_IGNORE_FILE_BYTES);
  return read.ok ? { base, matcher: ignore().add(read.text) } : undefined;
}

/** Whether git would ignore `rel` (workspace-relative) under these rules; the last match wins. */
export function isIgnored(rules: readonly IgnoreRules[], rel: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    const sub = r.base === '' ? rel : rel.startsWith(`${r.base}/`) ? rel.slice(r.base.length + 1) : undefined;
    if (sub === undefined || sub === '') continue;
    const result = r.matcher.test(isDirectory ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
