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
 * The diff for `range`:
 * - `A..B` (or `A...B`): the commits between A and B (the flags do not apply);
 * - a single revision `A`, or nothing (= HEAD): A against the working tree, with staged and
 *   unstaged changes unless excluded (both excluded: A against HEAD).
 */
export async function gitDiff(workspace: Workspace, range: string | undefined, options: GitDiffOptions = {}): Promise<DiffFile[]> {
  const git: Git = (subcommand, args) => runGit(workspace.root, subcommand, args, options);
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
    return parseUnifiedDiff(await git('diff', [...base, spec, '--']));
  }

  const from = spec === '' ? 'HEAD' : spec;
  await git('rev-parse', ['--verify', '--quiet', `${from}^{commit}`]).catch((e: unknown) => rethrowRevision(e, from));
  const excludeStaged = options.excludeStaged === true;
  const excludeUnstaged = options.excludeUnstaged === true;
  const parts: DiffFile[][] = [];
  if (!excludeStaged && !excludeUnstaged) parts.push(parseUnifiedDiff(await git('diff', [...base, from, '--'])));
  else if (excludeStaged && excludeUnstaged) parts.push(parseUnifiedDiff(await git('diff', [...base, from, 'HEAD', '--'])));
  else if (excludeUnstaged) parts.push(parseUnifiedDiff(await git('diff', [...base, '--cached', from, '--'])));
  else {
    // Committed since `from`, plus what is not yet staged; what is only staged is left out.
    parts.push(parseUnifiedDiff(await git('diff', [...base, from, 'HEAD', '--'])));
    parts.push(parseUnifiedDiff(await git('diff', [...base, '--'])));
  }
  if (!excludeUnstaged) parts.push(await untrackedFiles(workspace, git));
  return mergeFiles(parts.flat());
}

/** One git call in the workspace (see `git/run.ts`). */
type Git = (subcommand: GitSubcommand, args: string[]) => Promise<string>;

async function untrackedFiles(workspace: Workspace, git: Git): Promise<DiffFile[]> {
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
    const diffLines: DiffLine[] = lines.map((t, i) => ({ kind: 'added', text: t, newLine: i + 1 }));
    out.push({ path, status: 'added', additions: lines.length, deletions: 0, hunks: lines.length === 0 ? [] : [{ header: `@@ -0,0 +1,${lines.length} @@`, oldStart: 0, newStart: 1, lines: diffLines }] });
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

/** Parses `git diff` output. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  const blocks = text.split(/^diff --git /m).slice(1);
  for (const block of blocks) {
    const lines = block.split('\n');
    const header = lines[0] ?? '';
    let oldPath: string | undefined;
    let newPath: string | undefined;
    let status: DiffFile['status'] = 'modified';
    const hunks: DiffHunk[] = [];
    let hunk: { header: string; oldStart: number; newStart: number; lines: DiffLine[] } | undefined;
    let oldLine = 0;
    let newLine = 0;
    let additions = 0;
    let deletions = 0;
    for (const line of lines.slice(1)) {
      if (hunk === undefined) {
        if (line.startsWith('--- ')) oldPath = stripPrefix(line.slice(4));
        else if (line.startsWith('+++ ')) newPath = stripPrefix(line.slice(4));
        else if (line.startsWith('new file mode')) status = 'added';
        else if (line.startsWith('deleted file mode')) status = 'deleted';
        else if (line.startsWith('rename from ')) {
          status = 'renamed';
          oldPath = line.slice('rename from '.length);
        } else if (line.startsWith('rename to ')) newPath = line.slice('rename to '.length);
        else if (line.startsWith('copy from ')) {
          status = 'copied';
          oldPath = line.slice('copy from '.length);
        } else if (line.startsWith('copy to ')) newPath = line.slice('copy to '.length);
        else if (line.startsWith('Binary files')) status = 'binary';
      }
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (m !== null) {
        hunk = { header: line, oldStart: Number(m[1]), newStart: Number(m[2]), lines: [] };
        hunks.push(hunk);
        oldLine = hunk.oldStart;
        newLine = hunk.newStart;
        continue;
      }
      if (hunk === undefined) continue;
      if (line.startsWith('+')) {
        hunk.lines.push({ kind: 'added', text: line.slice(1), newLine: newLine++ });
        additions++;
      } else if (line.startsWith('-')) {
        hunk.lines.push({ kind: 'removed', text: line.slice(1), oldLine: oldLine++ });
        deletions++;
      } else if (line.startsWith(' ')) hunk.lines.push({ kind: 'context', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
    }
    const fromHeader = /^a\/(.*) b\/(.*)$/.exec(header);
    const path = newPath ?? oldPath ?? fromHeader?.[2] ?? header;
    const resolvedPath = path === '/dev/null' ? (oldPath ?? fromHeader?.[1] ?? header) : path;
    files.push({
      path: resolvedPath,
      ...(oldPath !== undefined && oldPath !== resolvedPath && oldPath !== '/dev/null' ? { oldPath } : {}),
      status,
      additions,
      deletions,
      hunks,
    });
  }
  return files;
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
