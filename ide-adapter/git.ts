/**
 * `gitdiff`: the changes in a revision range (or in the working tree) as files and hunks, read
 * from real git. Untracked files count as added when the working tree is part of the diff.
 */
import { DialectError } from '../dialect/index.js';
import { GitCode, runGit, type GitSubcommand } from './git/run.js';
import type { DiffFile, DiffHunk, DiffLine } from './model.js';
import type { Workspace } from './workspace.js';

export { GitCode };

/** Options of {@link gitDiff}. */
export interface GitDiffOptions {
  /** Leave out changes not yet staged. */
  readonly excludeUnstaged?: boolean;
  /** Leave out changes staged but not committed. */
  readonly excludeStaged?: boolean;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Untracked files larger than this are listed without their content. */
const MAX_UNTRACKED_BYTES = 256 * 1024;

/**
 * Lines of hunks one diff keeps (each is an object; a page shows 500 a file): past them every
 * file keeps its counts and says how many of its lines were left out (`linesLeftOut`). A 25 MB
 * workspace of one-character lines made 12.5 million lines, 1.4 GB, for one `<gitdiff />`.
 */
export const MAX_DIFF_LINES = 50_000;

/** What is left of one diff's {@link MAX_DIFF_LINES}, shared by the git calls and the untracked files of one {@link gitDiff}. */
interface DiffLineBudget {
  left: number;
}

/**
 * The diff for `range`:
 * - `A..B` (or `A...B`): the commits between A and B (the flags do not apply);
 * - a single revision `A`, or nothing (= HEAD): A against the working tree, with staged and
 *   unstaged changes unless excluded (both excluded: A against HEAD).
 */
export async function gitDiff(workspace: Workspace, range: string | undefined, options: GitDiffOptions = {}): Promise<DiffFile[]> {
  const git: Git = (subcommand, args) => runGit(workspace.root, subcommand, args, options);
  const budget: DiffLineBudget = { left: MAX_DIFF_LINES };
  const parse = (text: string): DiffFile[] => parseUnifiedDiff(text, budget);
  await git('rev-parse', ['--git-dir']).catch((error: unknown) => {
    if (error instanceof DialectError && error.code === GitCode.GitFailed) {
      throw new DialectError({ code: GitCode.NotARepository, message: `the workspace ${workspace.root} is not inside a git repository`, hint: 'gitdiff needs a git repository; run git init, or leave gitdiff out' });
    }
    throw error;
  });
  const spec = (range ?? '').trim();
  if (spec.startsWith('-')) throw badRevision(spec, 'a revision cannot start with "-"');
  // --relative: a workspace inside a larger repository sees only its own changes, with paths
  // relative to the workspace like every other result.
  const base = ['--relative', '--no-color', '--find-renames', '--unified=3'];

  if (spec.includes('..')) {
    // Checked first, so that only an unknown revision reads as one; other failures keep git's message.
    await git('rev-parse', [spec, '--']).catch((e: unknown) => rethrowRevision(e, spec));
    return parse(await git('diff', [...base, spec, '--']));
  }

  const from = spec === '' ? 'HEAD' : spec;
  await git('rev-parse', ['--verify', '--quiet', `${from}^{commit}`]).catch((e: unknown) => rethrowRevision(e, from));
  const excludeStaged = options.excludeStaged === true;
  const excludeUnstaged = options.excludeUnstaged === true;
  const parts: DiffFile[][] = [];
  if (!excludeStaged && !excludeUnstaged) parts.push(parse(await git('diff', [...base, from, '--'])));
  else if (excludeStaged && excludeUnstaged) parts.push(parse(await git('diff', [...base, from, 'HEAD', '--'])));
  else if (excludeUnstaged) parts.push(parse(await git('diff', [...base, '--cached', from, '--'])));
  else {
    // Committed since `from`, plus what is not yet staged; what is only staged is left out.
    parts.push(parse(await git('diff', [...base, from, 'HEAD', '--'])));
    parts.push(parse(await git('diff', [...base, '--'])));
  }
  if (!excludeUnstaged) parts.push(await untrackedFiles(workspace, git, budget));
  return mergeFiles(parts.flat());
}

/** One git call in the workspace (see `git/run.ts`). */
type Git = (subcommand: GitSubcommand, args: string[]) => Promise<string>;

async function untrackedFiles(workspace: Workspace, git: Git, budget: DiffLineBudget): Promise<DiffFile[]> {
  const listed = (await git('ls-files', ['--others', '--exclude-standard', '-z'])).split('\0').filter((p) => p !== '');
  const out: DiffFile[] = [];
  for (const path of listed) {
    let text: string | undefined;
    try {
      text = await workspace.readText(path);
    } catch {
      text = undefined;
    }
    if (text === undefined || text.length > MAX_UNTRACKED_BYTES || text.includes('\0')) {
      out.push({ path, status: text?.includes('\0') === true ? 'binary' : 'added', additions: 0, deletions: 0, hunks: [] });
      continue;
    }
    const lines = text.split(/\r\n|\n|\r/);
    if (lines[lines.length - 1] === '') lines.pop();
    const kept = Math.min(lines.length, budget.left);
    budget.left -= kept;
    const diffLines: DiffLine[] = lines.slice(0, kept).map((t, i) => ({ kind: 'added', text: t, newLine: i + 1 }));
    out.push({
      path,
      status: 'added',
      additions: lines.length,
      deletions: 0,
      hunks: kept === 0 ? [] : [{ header: `@@ -0,0 +1,${lines.length} @@`, oldStart: 0, newStart: 1, lines: diffLines }],
      ...(kept < lines.length ? { linesLeftOut: lines.length - kept } : {}),
    });
  }
  return out;
}

/** Joins entries for the same path (two diffs can both touch a file). */
function mergeFiles(files: DiffFile[]): DiffFile[] {
  const byPath = new Map<string, DiffFile>();
  for (const f of files) {
    const seen = byPath.get(f.path);
    byPath.set(f.path, seen === undefined ? f : { ...seen, additions: seen.additions + f.additions, deletions: seen.deletions + f.deletions, hunks: [...seen.hunks, ...f.hunks] });
  }
  return [...byPath.values()];
}

/**
 * Parses `git diff` output, line by line (no array of all its lines: git's output may be 64 MB of
 * one-character lines). Hunk lines are kept while `budget` lasts; past it they are counted in
 * their file's `linesLeftOut`.
 */
export function parseUnifiedDiff(text: string, budget: DiffLineBudget = { left: MAX_DIFF_LINES }): DiffFile[] {
  const files: DiffFile[] = [];
  let file: FileReading | undefined;
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(at, end);
    at = end + 1;
    if (line.startsWith(DIFF_HEADER)) {
      if (file !== undefined) files.push(finishFile(file));
      file = { header: line.slice(DIFF_HEADER.length), status: 'modified', hunks: [], hunk: undefined, oldLine: 0, newLine: 0, additions: 0, deletions: 0, leftOut: 0 };
    } else if (file !== undefined) readDiffLine(file, line, budget);
  }
  if (file !== undefined) files.push(finishFile(file));
  return files;
}

const DIFF_HEADER = 'diff --git ';

/** One file of a diff while its lines are read. */
interface FileReading {
  readonly header: string;
  oldPath?: string;
  newPath?: string;
  status: DiffFile['status'];
  readonly hunks: DiffHunk[];
  hunk: { header: string; oldStart: number; newStart: number; lines: DiffLine[] } | undefined;
  oldLine: number;
  newLine: number;
  additions: number;
  deletions: number;
  leftOut: number;
}

function readDiffLine(file: FileReading, line: string, budget: DiffLineBudget): void {
  if (file.hunk === undefined) {
    if (line.startsWith('--- ')) file.oldPath = stripPrefix(line.slice(4));
    else if (line.startsWith('+++ ')) file.newPath = stripPrefix(line.slice(4));
    else if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      file.status = 'renamed';
      file.oldPath = line.slice('rename from '.length);
    } else if (line.startsWith('rename to ')) file.newPath = line.slice('rename to '.length);
    else if (line.startsWith('copy from ')) {
      file.status = 'copied';
      file.oldPath = line.slice('copy from '.length);
    } else if (line.startsWith('copy to ')) file.newPath = line.slice('copy to '.length);
    else if (line.startsWith('Binary files')) file.status = 'binary';
  }
  const m = line.startsWith('@@ ') ? /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line) : null;
  if (m !== null) {
    file.hunk = { header: line, oldStart: Number(m[1]), newStart: Number(m[2]), lines: [] };
    file.hunks.push(file.hunk);
    file.oldLine = file.hunk.oldStart;
    file.newLine = file.hunk.newStart;
    return;
  }
  const hunk = file.hunk;
  if (hunk === undefined) return;
  const first = line.charAt(0);
  if (first !== '+' && first !== '-' && first !== ' ') return;
  if (first === '+') file.additions++;
  else if (first === '-') file.deletions++;
  if (budget.left <= 0) {
    file.leftOut++;
    // The numbering goes on, as if the line were kept.
    if (first !== '+') file.oldLine++;
    if (first !== '-') file.newLine++;
    return;
  }
  budget.left--;
  if (first === '+') hunk.lines.push({ kind: 'added', text: line.slice(1), newLine: file.newLine++ });
  else if (first === '-') hunk.lines.push({ kind: 'removed', text: line.slice(1), oldLine: file.oldLine++ });
  else hunk.lines.push({ kind: 'context', text: line.slice(1), oldLine: file.oldLine++, newLine: file.newLine++ });
}

function finishFile(file: FileReading): DiffFile {
  const { header, oldPath, newPath } = file;
  const fromHeader = /^a\/(.*) b\/(.*)$/.exec(header);
  const path = newPath ?? oldPath ?? fromHeader?.[2] ?? header;
  const resolvedPath = path === '/dev/null' ? (oldPath ?? fromHeader?.[1] ?? header) : path;
  // Hunks with no line kept are left out (a cut diff): the counts and `linesLeftOut` tell them.
  const hunks = file.leftOut > 0 ? file.hunks.filter((h) => h.lines.length > 0) : file.hunks;
  return {
    path: resolvedPath,
    ...(oldPath !== undefined && oldPath !== resolvedPath && oldPath !== '/dev/null' ? { oldPath } : {}),
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    hunks,
    ...(file.leftOut > 0 ? { linesLeftOut: file.leftOut } : {}),
  };
}

function stripPrefix(p: string): string {
  const trimmed = p.replace(/\t.*$/, '');
  return trimmed === '/dev/null' ? trimmed : trimmed.replace(/^[ab]\//, '');
}

function badRevision(range: string, detail: string): DialectError {
  return new DialectError({
    code: GitCode.BadRevision,
    message: `${JSON.stringify(range)} is not a revision range git knows: ${detail}`,
    hint: 'use a range such as "HEAD~2..HEAD", a commit such as "HEAD~1", or leave the range out for uncommitted changes',
  });
}

function rethrowRevision(error: unknown, range: string): never {
  if (error instanceof DialectError && error.code === GitCode.GitFailed) throw badRevision(range, error.message.split('\n')[0] ?? '');
  throw error;
}
