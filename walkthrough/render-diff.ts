/**
 * A gitdiff as HTML: files and hunks that collapse (buttons the page script toggles), added and
 * removed lines marked with `+`/`-` and colour. Only phrasing elements (`span`, `button`, `code`),
 * so the same markup works inside a paragraph.
 */
import type { DiffFile, DiffHunk } from '../ide-adapter/model.js';
import { escapeField, escapeHtml } from './html.js';
import type { GitDiffElement, ResolvedDiff } from './model.js';

/** Lines shown per file; the rest are counted. */
const MAX_LINES_PER_FILE = 500;

const STATUS_LETTER: Readonly<Record<DiffFile['status'], string>> = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C', binary: 'B' };

/** `git diff HEAD~2..HEAD (without unstaged changes)` */
export function describeDiff(element: GitDiffElement): string {
  const flags = [element.excludeStaged ? 'staged' : '', element.excludeUnstaged ? 'unstaged' : ''].filter((f) => f !== '');
  return `git diff ${element.range ?? 'HEAD'}${flags.length > 0 ? ` (without ${flags.join(' or ')} changes)` : ''}`;
}

/** The HTML of a diff: per file, its hunks with line numbers. */
export function renderDiffBody(diff: ResolvedDiff): string {
  const head = `<span class="wt-diff-head"><span class="wt-diff-title">${escapeHtml(describeDiff(diff.element))}</span>`;
  if (diff.error !== undefined) {
    return `${head}</span><span class="wt-error" role="note"><span class="wt-error-text">git diff failed (${escapeHtml(diff.error.code)}): ${escapeHtml(diff.error.message)}</span></span>`;
  }
  const files = diff.files ?? [];
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  const stats = `<span class="wt-diff-stats">${files.length} file${files.length === 1 ? '' : 's'} changed, <span class="wt-add">+${additions}</span> <span class="wt-del">−${deletions}</span></span>`;
  if (files.length === 0) return `${head}${stats}</span><span class="wt-diff-empty">No changes.</span>`;
  return `${head}${stats}</span><span class="wt-diff-files">${files.map(renderFile).join('')}</span>`;
}

function renderFile(file: DiffFile): string {
  const renamed = file.oldPath !== undefined && file.oldPath !== file.path ? ` <span class="wt-diff-old">(from ${escapeField(file.oldPath)})</span>` : '';
  const toggle =
    `<button type="button" class="wt-toggle wt-diff-file-head" aria-expanded="true">` +
    `<span class="wt-diff-status wt-diff-${file.status}" title="${file.status}">${STATUS_LETTER[file.status]}</span> ` +
    `<span class="wt-diff-path">${escapeField(file.path)}</span>${renamed} ` +
    `<span class="wt-add">+${file.additions}</span> <span class="wt-del">−${file.deletions}</span></button>`;
  let body: string;
  if (file.status === 'binary') body = '<span class="wt-diff-note">Binary file, not shown.</span>';
  else if (file.hunks.length === 0 && (file.linesLeftOut ?? 0) === 0) body = '<span class="wt-diff-note">No textual changes.</span>';
  else {
    let budget = MAX_LINES_PER_FILE;
    const hunks: string[] = [];
    // Lines the diff did not keep (`MAX_DIFF_LINES`) are not shown either.
    let hidden = file.linesLeftOut ?? 0;
    for (const hunk of file.hunks) {
      if (budget <= 0) {
        hidden += hunk.lines.length;
        continue;
      }
      hunks.push(renderHunk(hunk, budget));
      hidden += Math.max(0, hunk.lines.length - budget);
      budget -= hunk.lines.length;
    }
    body = hunks.join('') + (hidden > 0 ? `<span class="wt-diff-note">… ${hidden} more line${hidden === 1 ? '' : 's'} not shown.</span>` : '');
  }
  return `<span class="wt-diff-file">${toggle}<span class="wt-collapsible">${body}</span></span>`;
}

function renderHunk(hunk: DiffHunk, budget: number): string {
  const lines = hunk.lines.slice(0, budget).map((line) => {
    const marker = line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' ';
    return (
      `<span class="wt-diff-line wt-line-${line.kind}">` +
      `<span class="wt-ln">${line.oldLine ?? ''}</span><span class="wt-ln">${line.newLine ?? ''}</span>` +
      `<span class="wt-marker" aria-label="${line.kind}">${marker}</span><span class="wt-code">${escapeHtml(line.text)}</span></span>`
    );
  });
  return (
    `<span class="wt-hunk"><button type="button" class="wt-toggle wt-hunk-head" aria-expanded="true">${escapeHtml(hunk.header)}</button>` +
    `<span class="wt-collapsible wt-code-block">${lines.join('')}</span></span>`
  );
}
