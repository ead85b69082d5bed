/**
 * The notes of a walkthrough's evaluations — what the language servers (or the resolver) want the
 * author to know, e.g. that rust-analyzer could not load the standard library. They are for the
 * agent, not the reader: the summary lists them and the page shows them once in its footer,
 * never inside a comment.
 */
import type { ResolvedWalkthrough } from './model.js';

/** Every comment's notes, each once, in the order they first appear. */
export function walkthroughNotes(resolved: ResolvedWalkthrough): string[] {
  return [...new Set(resolved.comments.flatMap((c) => c.notes))];
}
