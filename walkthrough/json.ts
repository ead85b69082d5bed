/**
 * The resolved walkthrough as JSON: the model an editor host renders (comments placed in the
 * editor, actions as buttons, diagrams, diffs), and what `--json` prints.
 */
import type { DialectCode } from '../dialect/index.js';
import type { DiffFile } from '../ide-adapter/model.js';
import type { CodeLocation, CommentStatus, ElementForm, LocationChoice, ResolvedWalkthrough, WalkthroughWarning } from './model.js';
import { RenderContext } from './render-context.js';

/** The version of the walkthrough JSON shape; raised when it changes incompatibly. */
export const WALKTHROUGH_JSON_VERSION = 1;

/** One comment of the walkthrough JSON. */
export interface CommentJson {
  readonly id: string;
  readonly line: number;
  readonly form: ElementForm;
  readonly status: CommentStatus;
  /** The `location` expression as written. */
  readonly expression: string | null;
  readonly icon: string;
  readonly emoji: string;
  /** The content as written (markdown) and rendered (HTML). */
  readonly content: string;
  readonly contentHtml: string;
  /** One location when resolved; every candidate's when ambiguous; none when unresolved. */
  readonly locations: readonly CodeLocation[];
  /** For ambiguous comments: each candidate with the program that selects it. */
  readonly choices?: readonly LocationChoice[];
  /** For ambiguous comments: what the ambiguity is. */
  readonly ambiguity?: string;
  /** For ambiguous comments with more places than `choices` lists: how many more. */
  readonly omitted?: number;
  readonly error?: { readonly code: DialectCode; readonly message: string; readonly text: string };
  readonly notes: readonly string[];
}

/** A resolved walkthrough as JSON, for agents and tools. */
export interface WalkthroughJson {
  readonly version: number;
  readonly title: string | null;
  readonly counts: {
    readonly comments: number;
    readonly resolved: number;
    readonly ambiguous: number;
    readonly unresolved: number;
    readonly actions: number;
    readonly diagrams: number;
    readonly diffs: number;
    readonly failedDiffs: number;
    readonly warnings: number;
  };
  readonly comments: readonly CommentJson[];
  readonly actions: readonly { readonly id: string; readonly line: number; readonly form: ElementForm; readonly button: string; readonly message: string; readonly messageHtml: string }[];
  readonly diagrams: readonly { readonly id: string; readonly line: number; readonly form: ElementForm; readonly source: string }[];
  readonly diffs: readonly {
    readonly id: string;
    readonly line: number;
    readonly form: ElementForm;
    readonly range: string | null;
    readonly excludeUnstaged: boolean;
    readonly excludeStaged: boolean;
    readonly files: readonly DiffFile[] | null;
    readonly error: { readonly code: DialectCode; readonly message: string } | null;
  }[];
  readonly links: readonly {
    readonly id: string;
    readonly line: number;
    readonly path: string;
    readonly targetLine: number | null;
    readonly endLine: number | null;
    readonly regex: string | null;
    readonly text: string | null;
    readonly error: string | null;
  }[];
  readonly warnings: readonly WalkthroughWarning[];
}

/** The JSON model of a resolved walkthrough (plain data: `JSON.stringify` it as is). */
export function walkthroughToJson(resolved: ResolvedWalkthrough, context: RenderContext = new RenderContext(resolved)): WalkthroughJson {
  const comments = resolved.comments.map((c): CommentJson => {
    const { element: e, resolution: r } = c;
    const base = {
      id: e.id,
      line: e.line,
      form: e.form,
      status: r.status,
      expression: e.location ?? null,
      icon: e.icon,
      emoji: e.emoji,
      content: e.content,
      contentHtml: context.contentHtml(e.id),
      notes: c.notes,
    };
    switch (r.status) {
      case 'resolved':
        return { ...base, locations: [r.location] };
      case 'ambiguous':
        return { ...base, locations: r.choices.map((choice) => choice.location), choices: r.choices, ambiguity: r.message, ...(r.omitted !== undefined ? { omitted: r.omitted } : {}) };
      case 'unresolved':
        return { ...base, locations: [], error: r.error };
    }
  });
  const count = (status: CommentStatus): number => comments.filter((c) => c.status === status).length;
  return {
    version: WALKTHROUGH_JSON_VERSION,
    title: resolved.document.title ?? null,
    counts: {
      comments: comments.length,
      resolved: count('resolved'),
      ambiguous: count('ambiguous'),
      unresolved: count('unresolved'),
      actions: resolved.actions.length,
      diagrams: resolved.diagrams.length,
      diffs: resolved.diffs.length,
      failedDiffs: resolved.diffs.filter((d) => d.error !== undefined).length,
      warnings: resolved.warnings.length,
    },
    comments,
    actions: resolved.actions.map((a) => ({ id: a.id, line: a.line, form: a.form, button: a.button, message: a.message, messageHtml: context.contentHtml(a.id) })),
    diagrams: resolved.diagrams.map((d) => ({ id: d.id, line: d.line, form: d.form, source: d.source })),
    diffs: resolved.diffs.map((d) => ({
      id: d.element.id,
      line: d.element.line,
      form: d.element.form,
      range: d.element.range ?? null,
      excludeUnstaged: d.element.excludeUnstaged,
      excludeStaged: d.element.excludeStaged,
      files: d.files ?? null,
      error: d.error ?? null,
    })),
    links: resolved.links.map((l) => ({
      id: l.link.id,
      line: l.link.line,
      path: l.link.path,
      targetLine: l.line ?? l.link.startLine ?? null,
      endLine: l.link.endLine ?? null,
      regex: l.link.regex ?? null,
      text: l.text ?? null,
      error: l.error ?? null,
    })),
    warnings: resolved.warnings,
  };
}
