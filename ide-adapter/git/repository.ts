/**
 * Which repository git may read for a workspace. git finds its repository folder from the work
 * tree's `.git`, which a repository controls: a `gitdir:` file, a symlink, or a folder whose
 * `commondir` (or `objects/info/alternates`) names another place — so a hostile checkout could make
 * `gitdiff` show another repository of the user's. The rule, checked before every git call
 * (`git/run.ts`), on real paths:
 *
 * - the work tree is the nearest folder, from the workspace up, holding `.git`;
 * - the repository folder (`.git` itself, the folder a `gitdir:` file or a `.git` symlink leads
 *   to) and its common folder (`commondir`) must be inside that work tree, or
 * - be a folder that names this work tree back — the repository registered it, which a checkout
 *   cannot fake outside itself: a linked worktree (`git worktree add`: `<common>/worktrees/<name>`
 *   whose `gitdir` file holds this work tree's `.git`) or a submodule (`<super>/.git/modules/<name>`
 *   whose `core.worktree` is this work tree);
 * - alternate object folders (`objects/info/alternates`) must be inside the work tree or the
 *   common folder;
 * - no symbolic link in the repository folders' top level, objects, refs or logs leads outside
 *   them or the work tree: one (`objects` → another repository's, `refs/heads/main` → its
 *   branch) would read another repository through a folder that passed the checks above.
 *
 * The folders found are then pinned for git (`GIT_DIR`, `GIT_COMMON_DIR`, `--work-tree`), so git
 * itself discovers nothing else.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DialectError } from '../../dialect/index.js';
import { GitCode } from './codes.js';

/** The folders one git call is pinned to. */
export interface GitRepository {
  /** The work tree: the nearest folder from the workspace up holding `.git` (real path). */
  readonly workTree: string;
  /** git's repository folder (`GIT_DIR`, real path). */
  readonly gitDir: string;
  /** Its common folder (`GIT_COMMON_DIR`, real path): the same as `gitDir` except in a linked worktree or with `commondir`. */
  readonly commonDir: string;
}

/** The most a small git file (`.git`, `commondir`, `gitdir`, `config`, `alternates`) may hold. */
const MAX_GIT_FILE_BYTES = 64 * 1024;

/**
 * The checked repository for `cwd`; throws `not-a-repository` when no `.git` is found from `cwd`
 * up, and `git-repository-outside` when the repository folder breaks the rule above.
 */
export function findRepository(cwd: string): GitRepository {
  const start = resolve(cwd);
  const top = workTreeOf(start);
  if (top === undefined) {
    throw new DialectError({ code: GitCode.NotARepository, message: `${start} is not inside a git repository`, hint: 'gitdiff needs a git repository; run git init, or leave gitdiff out' });
  }
  const workTree = realpathSync(top);
  const dotGit = join(workTree, '.git');
  const outside = (what: string, where: string, how: string): DialectError =>
    new DialectError({
      code: GitCode.RepositoryOutside,
      message: `git's repository for ${workTree} is outside it: ${what} ${where}`,
      hint: `Dialect reads only a repository inside the workspace (or the one a linked worktree or submodule belongs to, which names this folder back); ${how}`,
    });

  const entry = lstatSync(dotGit);
  let gitDir: string;
  let how: string;
  if (entry.isSymbolicLink() || entry.isDirectory()) {
    gitDir = realOrOutside(dotGit, () => outside('.git leads to', 'a missing folder', 'fix or remove the .git link'));
    how = entry.isSymbolicLink() ? 'replace the .git link by the repository itself' : 'remove the .git folder’s commondir';
  } else if (entry.isFile()) {
    const line = readGitFile(dotGit).split('\n')[0]?.trim() ?? '';
    const named = /^gitdir:\s*(.+)$/.exec(line)?.[1]?.trim();
    if (named === undefined) throw new DialectError({ code: GitCode.NotARepository, message: `${dotGit} is a file without a "gitdir:" line`, hint: 'a .git file must name the repository folder: gitdir: PATH' });
    gitDir = realOrOutside(resolve(workTree, named), () => outside('.git names', `${named}, which does not exist`, 'fix the gitdir: line of .git'));
    how = 'fix the gitdir: line of .git, or open the repository’s own folder';
  } else {
    throw new DialectError({ code: GitCode.NotARepository, message: `${dotGit} is neither a folder, a link nor a gitdir: file`, hint: 'remove it, or run git init' });
  }
  const common = optionalGitFile(join(gitDir, 'commondir'))?.split('\n')[0]?.trim();
  const commonDir = common !== undefined && common !== '' ? realOrOutside(resolve(gitDir, common), () => outside('its commondir names', `${common}, which does not exist`, 'fix or remove commondir')) : gitDir;

  const inside = (path: string): boolean => within(path, workTree);
  if (!(inside(gitDir) && inside(commonDir)) && !namesBack(gitDir, commonDir, dotGit, workTree)) {
    const what = !inside(gitDir) ? (entry.isFile() ? '.git names' : '.git leads to') : 'its commondir names';
    throw outside(what, !inside(gitDir) ? gitDir : commonDir, how);
  }
  for (const alternate of alternatesOf(commonDir)) {
    if (!inside(alternate) && !within(alternate, commonDir)) throw outside('objects/info/alternates names', alternate, 'remove the alternate (git repack -a, then delete objects/info/alternates)');
  }
  // A link inside git's folders (objects, refs, HEAD, packed-refs…) could lead to another repository's.
  const allowed = (path: string): boolean => inside(path) || within(path, commonDir) || within(path, gitDir);
  for (const folder of new Set([gitDir, commonDir])) {
    const link = linkLeadingOut(folder, allowed);
    if (link !== undefined) throw outside('its folder holds a symbolic link leading out,', link, 'remove the link, or clone the repository again');
  }
  return { workTree, gitDir, commonDir };
}

/** The folders of a repository folder git reads objects and references from, scanned for links (with the top level). */
const SCANNED = ['objects', 'refs', 'logs'];
/** The most entries one check reads (a repository past it has millions of loose objects: `git gc` packs them). */
const MAX_SCANNED_ENTRIES = 1_000_000;

/**
 * The first symbolic link in a repository folder's top level or in its objects, refs and logs
 * whose real target is not `allowed` (entries read with `readdir`, which carries their type: no
 * call per file), or undefined.
 */
function linkLeadingOut(folder: string, allowed: (path: string) => boolean): string | undefined {
  let budget = MAX_SCANNED_ENTRIES;
  const scan = (dir: string, deep: boolean): string | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined; // missing or unreadable: git finds nothing there either
    }
    budget -= entries.length;
    if (budget < 0) throw new DialectError({ code: GitCode.GitFailed, message: `${folder} has more than ${MAX_SCANNED_ENTRIES} files to check`, hint: 'pack its loose objects: git gc' });
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const real = realOrUndefined(path);
        if (real === undefined || !allowed(real)) return path;
        continue;
      }
      if (entry.isDirectory() && (deep || SCANNED.includes(entry.name))) {
        const found = scan(path, true);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return scan(folder, false);
}

/** The nearest folder from `start` up whose `.git` entry exists (a folder, file or link). */
function workTreeOf(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      // Not here: one folder up.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether the outside repository folder registered this work tree itself: a linked worktree's
 * folder (`<common>/worktrees/<name>`, its `gitdir` file holding our `.git`) or a submodule's
 * (its `core.worktree` is our work tree).
 */
function namesBack(gitDir: string, commonDir: string, dotGit: string, workTree: string): boolean {
  if (gitDir !== commonDir && dirname(gitDir) === join(commonDir, 'worktrees')) {
    const back = optionalGitFile(join(gitDir, 'gitdir'))?.split('\n')[0]?.trim();
    if (back !== undefined && back !== '' && realOrUndefined(resolve(gitDir, back)) === dotGit && optionalGitFile(join(commonDir, 'commondir')) === undefined) return true;
  }
  if (gitDir === commonDir) {
    const worktree = coreWorktree(optionalGitFile(join(gitDir, 'config')) ?? '');
    if (worktree !== undefined && realOrUndefined(resolve(gitDir, worktree)) === workTree) return true;
  }
  return false;
}

/** `worktree` of the `[core]` section of a git config text (the last one wins, as in git). */
function coreWorktree(config: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(line);
    if (header !== null) section = (header[1] ?? '').toLowerCase();
    else if (section === 'core') {
      const value = /^worktree\s*=\s*(.*)$/i.exec(line)?.[1];
      if (value !== undefined) found = value.replace(/^"(.*)"$/, '$1').trim();
    }
  }
  return found;
}

/** The alternate object folders of a repository, as real paths (missing ones left out: git skips them too). */
function alternatesOf(commonDir: string): string[] {
  const objects = join(commonDir, 'objects');
  const text = optionalGitFile(join(objects, 'info', 'alternates'));
  if (text === undefined) return [];
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => realOrUndefined(isAbsolute(l) ? l : resolve(objects, l.replace(/^"(.*)"$/, '$1'))))
    .filter((p): p is string => p !== undefined);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function realOrOutside(path: string, error: () => DialectError): string {
  const real = realOrUndefined(path);
  if (real === undefined) throw error();
  return real;
}

function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** A small git file's text, or undefined when it is missing. */
function optionalGitFile(path: string): string | undefined {
  try {
    lstatSync(path);
  } catch {
    return undefined;
  }
  return readGitFile(path);
}

/** A small regular file's text, opened non-blocking (a FIFO is refused, never waited on) and bounded. */
function readGitFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_GIT_FILE_BYTES) {
      throw new DialectError({ code: GitCode.NotARepository, message: `${path} is not a small regular file, as git's own files are`, hint: 'remove it' });
    }
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
