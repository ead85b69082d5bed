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
import { shareClaimer, type WalkShare } from './share-claims.js';
import { linkTarget, pinFolder, readConfined, readPinnedFolder, unpinFolder, type PinnedFolder } from './confine.js';

/** Ignore files larger than this are not read (real ones are a few kilobytes). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;


/** The rules of one ignore file. */
export interface IgnoreRules {
  /** The folder the rules were written in, relative to the root ('' for the root). */
  readonly base: string;
  readonly matcher: Ignore;
  /** Paths tested against `matcher` so far (it remembers each answer: see `readRules`). */
  readonly tested: { count: number };
}

/**
 * Compiled ignore files, by workspace, folder and text, kept across walks: the matcher remembers
 * its answer for every path, so the next walk of the same tree asks it again for free (a third of
 * a walk's time). At most this many are kept (the oldest dropped), each renewed after
 * `MAX_IGNORE_TESTS` tests, so what they remember stays bounded.
 */
const MAX_COMPILED_IGNORE_FILES = 256;
const MAX_IGNORE_TESTS = 2_000_000;
const compiledRules = new Map<string, IgnoreRules>();

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
  /** Folders not entered: deeper than {@link MAX_WALK_DEPTH}, or a path too long to check (PATH_MAX). */
  readonly foldersLeftOut: number;
}

/**
 * Folder levels a walk goes down. Each level holds its folder pinned (a descriptor) and a frame
 * while its subfolders are walked, and a workspace can nest folders without end (a tarball of
 * 100,000 levels); real trees nest a few dozen deep outside the skipped folders.
 */
export const MAX_WALK_DEPTH = 128;

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
}

/** A file a shared walk hands over, with what reading it confined needs. */
export interface SharedFile {
  /** Workspace-relative, `/` separators. */
  readonly rel: string;
  /** Its place among the files of the whole walk (every share counts alike): merged results keep walk order by it. */
  readonly order: number;
  /** The pinned folder it is an entry of (read it with `readPinnedEntry`); undefined: read it with `readConfined`. */
  readonly folder: PinnedFolder | undefined;
  readonly name: string;
}

/** What to walk in shares: a `WalkRequest` whose limit is this share's (all shares' with `claims`). */
export interface ShareWalkRequest extends WalkRequest {
  readonly share: WalkShare;
}

/** What a share of a walk left out, and how many files it handed over. */
export type ShareWalkResult = Omit<WalkResult, 'files'> & { readonly listed: number };

/**
 * Walks the files under `start` that git would not ignore and hands this share's to `onFile` as
 * it goes (regular files, and symlinks leading to a regular file inside), each folder pinned
 * (`confine.ts` `pinFolder`) while its files are handed over, so a file is read relative to a
 * folder proven inside the root. Shares split the files, not the folders: run together, they walk
 * the tree at once and look at each file once. Synchronous: it runs in a worker.
 */
export function walkShareSync(request: ShareWalkRequest, onFile: (file: SharedFile) => void): ShareWalkResult {
  const { root, start, limit, accept, share } = request;
  const claimer = shareClaimer(share);
  let order = 0;
  let listed = 0;
  let linksOutside = 0;
  let specialFiles = 0;
  let foldersLeftOut = 0;
  let truncated = false;
  const done = (): ShareWalkResult => ({ listed, truncated, linksOutside, specialFiles, foldersLeftOut });
  // Every share walks every folder: one of them counts the folders left out.
  const leaveOut = () => {
    if (share.index === 0) foldersLeftOut++;
  };

  const rules = ignoreRulesFor(root, start);
  if (start !== '' && isIgnored(rules, start, false)) return done();

  const list = (rel: string, folder: PinnedFolder | undefined, name: string, position: number): void => {
    if (accept !== undefined && !accept(rel)) return;
    if (claimer.listOne() >= limit) {
      truncated = true;
      return;
    }
    listed++;
    onFile({ rel, order: position, folder, name });
  };

  const visit = (dirRel: string, folder: PinnedFolder | undefined, inherited: readonly IgnoreRules[], depth: number): void => {
    let entries: Dirent[];
    try {
      entries = folder !== undefined ? readPinnedFolder(folder) : readdirSync(dirRel === '' ? root : join(root, dirRel), { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip it like git does
    }
    const own = dirRel === start || !entries.some((e) => e.name === '.gitignore') ? undefined : readRules(root, `${dirRel}/.gitignore`, dirRel);
    const active = own !== undefined ? [...inherited, own] : inherited;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const prefix = dirRel === '' ? '' : `${dirRel}/`;
    for (const entry of entries) {
      if (truncated) return;
      if (entry.isDirectory()) {
        const rel = prefix + entry.name;
        if (entry.name === '.git' || isIgnored(active, rel, true)) continue;
        if (depth >= MAX_WALK_DEPTH) {
          leaveOut();
          continue;
        }
        if (folder === undefined) {
          visit(rel, undefined, active, depth + 1);
          continue;
        }
        const child = pinFolder(root, folder, entry.name);
        if (child === undefined) {
          // Its path outgrew PATH_MAX (its place cannot be checked), or it was swapped for a link since it was listed.
          leaveOut();
          continue;
        }
        try {
          visit(rel, child, active, depth + 1);
        } finally {
          unpinFolder(child);
        }
        continue;
      }
      // Every share counts every file alike; only the owner looks at it further.
      const position = order++;
      if (!claimer.owns(position)) continue;
      const rel = prefix + entry.name;
      if (isIgnored(active, rel, false)) continue;
      if (entry.isFile()) list(rel, folder, entry.name, position);
      else if (entry.isSymbolicLink()) {
        const target = linkTarget(root, join(root, rel));
        if (target === 'file') list(rel, undefined, entry.name, position);
        else if (target === 'outside') linksOutside++;
        else if (!isDirectoryLink(root, rel)) specialFiles++; // symlinked folders are just not followed
      } else specialFiles++;
    }
  };

  if (start !== '' && linkTarget(root, join(root, start)) === 'file') {
    if (share.index === 0) list(start, undefined, start, 0);
    return done();
  }
  const top = pinFolder(root, undefined, start === '' ? root : join(root, start));
  try {
    visit(start, top, rules, 0);
  } finally {
    if (top !== undefined) unpinFolder(top);
  }
  return done();
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
  // A file of comments only (`git init`'s `.git/info/exclude`) ignores nothing: no test per path for it.
  if (!read.ok || !hasRules(read.text)) return undefined;
  const key = `${root}\0${base}\0${read.text}`;
  const kept = compiledRules.get(key);
  compiledRules.delete(key); // re-inserted last: the map's order is its use
  const rules = kept !== undefined && kept.tested.count < MAX_IGNORE_TESTS ? kept : { base, matcher: ignore().add(read.text), tested: { count: 0 } };
  compiledRules.set(key, rules);
  if (compiledRules.size > MAX_COMPILED_IGNORE_FILES) compiledRules.delete(compiledRules.keys().next().value as string);
  return rules;
}

/** A line that is no rule: empty, spaces only (git drops unescaped trailing spaces), or a comment. */
const NO_RULE_LINE = /^(?: *|#.*)\r?$/;

/** Whether an ignore file's text has a line that may be a rule (conservative: anything else counts). */
function hasRules(text: string): boolean {
  return text.split('\n').some((line) => !NO_RULE_LINE.test(line));
}

/** Whether git would ignore `rel` (workspace-relative) under these rules; the last match wins. */
export function isIgnored(rules: readonly IgnoreRules[], rel: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    const sub = r.base === '' ? rel : rel.startsWith(`${r.base}/`) ? rel.slice(r.base.length + 1) : undefined;
    if (sub === undefined || sub === '') continue;
    r.tested.count++;
    const result = r.matcher.test(isDirectory ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
