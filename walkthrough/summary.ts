/**
 * The summary an agent reads after presenting a walkthrough: what resolved, and for everything
 * that did not, the expression and what to do (the error, or the programs that pick a location);
 * then the evaluations' notes, each once.
 */
import { cutMiddle, MAX_DIAGNOSTIC_TEXT, showFieldControls } from '../dialect/index.js';
import type { ResolvedWalkthrough, WalkthroughWarning } from './model.js';
import { walkthroughNotes } from './notes.js';
import { describeDiff } from './render-diff.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const indent = (text: string, by: string): string => text.split('\n').map((l) => (l === '' ? l : by + l)).join('\n');

/** A plain-text report of the walkthrough's problems (and a one-line all-clear when there are none). */
export function summarizeWalkthrough(resolved: ResolvedWalkthrough): string {
  const comments = resolved.comments;
  const ambiguous = comments.filter((c) => c.resolution.status === 'ambiguous');
  const unresolved = comments.filter((c) => c.resolution.status === 'unresolved');
  const failedDiffs = resolved.diffs.filter((d) => d.error !== undefined);
  const counts = [
    `${plural(comments.length, 'comment')} (${comments.length - ambiguous.length - unresolved.length} resolved, ${ambiguous.length} ambiguous, ${unresolved.length} unresolved)`,
    plural(resolved.actions.length, 'action'),
    plural(resolved.diagrams.length, 'diagram'),
    `${plural(resolved.diffs.length, 'diff')}${failedDiffs.length > 0 ? ` (${failedDiffs.length} failed)` : ''}`,
    plural(resolved.warnings.length, 'warning'),
  ];
  const out = [`Walkthrough${resolved.document.title !== undefined ? ` "${resolved.document.title}"` : ''}: ${counts.join(', ')}.`];

  if (ambiguous.length > 0) {
    out.push('', 'Ambiguous comments (the reader must choose; to fix, replace the location with one of these programs):');
    for (const c of ambiguous) {
      if (c.resolution.status !== 'ambiguous') continue;
      out.push(`- ${c.element.id} (line ${c.element.line}) location=${quoted(c.element.location ?? '')}: ${c.resolution.message}`);
      c.resolution.choices.forEach((choice, i) => {
        // One line each, whatever a file is named; a label that already says where
        // (`fn f at a.rs:12`) is not followed by the place again.
        const place = `${choice.location.path}:${choice.location.line}`;
        out.push(`    ${i + 1}. ${showFieldControls(choice.label)}${choice.label.includes(place) ? '' : ` — ${showFieldControls(choice.location.path)}:${choice.location.line}`}`);
        if (choice.program !== undefined) out.push(`       ${choice.program}`);
      });
      const more = c.resolution.omitted ?? 0;
      if (more > 0) out.push(`    … and ${more} more (only ${c.resolution.choices.length} are listed: the limit maxChoicesPerComment); narrow the location with file:, kind: or line:`);
    }
  }
  if (unresolved.length > 0) {
    out.push('', 'Unresolved comments (shown with their error; fix the location expression):');
    for (const c of unresolved) {
      if (c.resolution.status !== 'unresolved') continue;
      out.push(`- ${c.element.id} (line ${c.element.line}) location=${quoted(c.element.location ?? '')}: [${c.resolution.error.code}]`);
      out.push(indent(c.resolution.error.text, '    '));
    }
  }
  if (failedDiffs.length > 0) {
    out.push('', 'Diffs that failed:');
    for (const d of failedDiffs) out.push(`- ${d.element.id} (line ${d.element.line}) ${cutMiddle(describeDiff(d.element), MAX_DIAGNOSTIC_TEXT)}: [${d.error?.code ?? ''}] ${d.error?.message ?? ''}`);
  }
  if (resolved.warnings.length > 0) {
    out.push('', 'Warnings:');
    for (const [message, lines] of groupWarnings(resolved.warnings)) out.push(`- ${lines.length > 0 ? `line ${lines.join(', ')}: ` : ''}${message}`);
  }
  if (ambiguous.length === 0 && unresolved.length === 0 && failedDiffs.length === 0 && resolved.warnings.length === 0) out.push('Everything resolved.');
  // Notes are not problems: an all-clear walkthrough can carry them too.
  const notes = walkthroughNotes(resolved);
  if (notes.length > 0) {
    out.push('', 'Notes from the language servers (the page shows them once, at its foot):');
    for (const note of notes) out.push(`- ${note}`);
  }
  return out.join('\n');
}

/** Identical warnings (say, ten `<br>` tags) are listed once with all their lines. */
function groupWarnings(warnings: readonly WalkthroughWarning[]): [string, number[]][] {
  const groups = new Map<string, number[]>();
  for (const w of warnings) {
    const key = `[${w.code}] ${w.message}`;
    const lines = groups.get(key) ?? [];
    if (w.line !== undefined) lines.push(w.line);
    groups.set(key, lines);
  }
  return [...groups];
}

/** What the walkthrough wrote, quoted: cut as an error's text is (a location may be a megabyte). */
function quoted(text: string): string {
  return cutMiddle(JSON.stringify(text), MAX_DIAGNOSTIC_TEXT);
}
