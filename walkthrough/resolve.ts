/**
 * `resolveWalkthrough`: evaluates every comment's location, runs every gitdiff and checks every
 * file link, all concurrently (a walkthrough takes as long as its slowest query, not their sum),
 * all under one budget (`resolve-budget.ts`).
 */
import { cutMiddle, DialectError, MAX_DIAGNOSTIC_TEXT, printValue, renderOutcome, truncate, type DialectCode, type Outcome } from '../dialect/index.js';
import { formatLocation, locationsOf, type Location } from '../ide-adapter/model.js';
import { WorkspaceCode } from '../ide-adapter/workspace.js';
import type { WalkthroughEnvironment } from './environment-types.js';
import { WalkthroughError, WalkthroughErrorCode, WarningCode } from './errors.js';
import { checkElementCounts, DEFAULT_WALKTHROUGH_LIMITS, type WalkthroughLimits } from './limits.js';
import { budgetedEnvironment } from './resolve-budget.js';
import { DEFAULT_CONTEXT_LINES, describeValue, formatCodeLocation, toCodeLocation } from './locations.js';
import type {
  ActionElement, CommentElement, CommentResolution, FileLink, GitDiffElement, LocationChoice, MermaidElement, ResolvedComment, ResolvedDiff,
  ResolvedLink, ResolvedWalkthrough, WalkthroughDocument, WalkthroughWarning,
} from './model.js';

/** A value quoted in a `no-location` message is cut to this many characters. */
const MAX_SHOWN_VALUE = 120;

/** Codes of comments that did not resolve for reasons outside the Dialect interpreter. */
export const CommentErrorCode = {
  MissingLocation: 'missing-location',
  NoLocation: 'no-location',
  EvaluationFailed: 'evaluation-failed',
} as const;

/** One of {@link CommentErrorCode}. */
export type CommentErrorCode = (typeof CommentErrorCode)[keyof typeof CommentErrorCode];

/** Options of resolving a walkthrough. */
export interface ResolveOptions {
  readonly signal?: AbortSignal;
  /** Lines of context around each location. Default 3. */
  readonly contextLines?: number;
  /** How much work the walkthrough may cause. Default {@link DEFAULT_WALKTHROUGH_LIMITS}. */
  readonly limits?: WalkthroughLimits;
}

/**
 * Resolves a parsed walkthrough. Rejects only when cancelled (`WalkthroughError` `cancelled`) or
 * when the walkthrough has more comments, diffs or links than the limits allow (`limit-exceeded`,
 * before any query runs).
 */
export async function resolveWalkthrough(document: WalkthroughDocument, outerEnv: WalkthroughEnvironment, options: ResolveOptions = {}): Promise<ResolvedWalkthrough> {
  const { signal } = options;
  const contextLines = options.contextLines ?? DEFAULT_CONTEXT_LINES;
  const limits = options.limits ?? DEFAULT_WALKTHROUGH_LIMITS;
  throwIfCancelled(signal);
  checkElementCounts(document, limits);
  // Every query below shares one budget, and is cancelled with the caller's signal through it.
  const budgeted = budgetedEnvironment(outerEnv, limits.maxResolveMs, signal);
  const env = budgeted.env;
  // The same expression twice is evaluated once.
  const evaluations = new Map<string, Promise<Outcome | { failed: unknown }>>();
  const evaluate = (expression: string): Promise<Outcome | { failed: unknown }> => {
    let pending = evaluations.get(expression);
    if (pending === undefined) {
      pending = env.evaluate(expression).catch((failed: unknown) => ({ failed }));
      evaluations.set(expression, pending);
    }
    return pending;
  };
  const elements = document.elements;
  const comments = elements.filter((e): e is CommentElement => e.kind === 'comment');
  const diffs = elements.filter((e): e is GitDiffElement => e.kind === 'gitdiff');
  const [resolvedComments, resolvedDiffs, resolvedLinks] = await Promise.all([
    Promise.all(comments.map((c) => resolveComment(c, evaluate, env, contextLines, limits.maxChoicesPerComment))),
    Promise.all(diffs.map((d) => resolveDiff(d, env))),
    Promise.all(document.links.map((l) => resolveLink(l, env))),
  ]).finally(() => budgeted.dispose());
  throwIfCancelled(signal);
  const linkWarnings: WalkthroughWarning[] = resolvedLinks.flatMap((l) =>
    l.error !== undefined ? [{ code: WarningCode.BrokenLink, message: cutMiddle(`the link to ${describeLink(l.link)} is broken: ${l.error}`, MAX_DIAGNOSTIC_TEXT), line: l.link.line, elementId: l.link.id }] : [],
  );
  return {
    document,
    comments: resolvedComments,
    actions: elements.filter((e): e is ActionElement => e.kind === 'action'),
    diagrams: elements.filter((e): e is MermaidElement => e.kind === 'mermaid'),
    diffs: resolvedDiffs,
    links: resolvedLinks,
    warnings: [...document.warnings, ...linkWarnings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
  };
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new WalkthroughError(WalkthroughErrorCode.Cancelled, 'resolving the walkthrough was cancelled', { cause: signal.reason });
}

async function resolveComment(
  element: CommentElement,
  evaluate: (expression: string) => Promise<Outcome | { failed: unknown }>,
  env: WalkthroughEnvironment,
  contextLines: number,
  maxChoices: number,
): Promise<ResolvedComment> {
  const unresolved = (code: DialectCode, message: string, text: string = message, notes: readonly string[] = []): ResolvedComment => ({
    element,
    // The message may quote the location as written, or a failure's whole text: cut as an error's is.
    resolution: { status: 'unresolved', error: { code, message: cutMiddle(message, MAX_DIAGNOSTIC_TEXT), text: text === message ? cutMiddle(text, MAX_DIAGNOSTIC_TEXT) : text } },
    notes,
  });
  const expression = element.location;
  if (expression === undefined) return unresolved(CommentErrorCode.MissingLocation, 'this comment has no location: add location="…" with a Dialect expression, e.g. findDefinition(`User`)');
  const result = await evaluate(expression);
  if ('failed' in result) {
    const { failed } = result;
    const code = failed instanceof DialectError ? failed.code : CommentErrorCode.EvaluationFailed;
    return unresolved(code, `evaluating the location failed: ${failed instanceof Error ? failed.message : String(failed)}`);
  }
  const outcome = result;
  const display = (l: Location): Promise<LocationChoice['location']> => toCodeLocation(l, env, contextLines);
  let resolution: CommentResolution;
  switch (outcome.kind) {
    case 'error':
      return unresolved(outcome.error.code, outcome.error.message, renderOutcome(outcome), outcome.notes);
    case 'value': {
      const locations = dedupe(locationsOf(outcome.value));
      if (locations.length === 0) {
        const shown = printValue(outcome.value, { mode: 'compact' });
        const message = `\`${expression}\` evaluated to ${truncate(shown, MAX_SHOWN_VALUE)}, which is not a code location`;
        return unresolved(CommentErrorCode.NoLocation, message, `${message}\nhint: use an expression that returns a location, a symbol or a reference, e.g. findDefinition(\`User\`)`, outcome.notes);
      }
      if (locations.length === 1 && locations[0] !== undefined) {
        resolution = { status: 'resolved', location: await display(locations[0]) };
        break;
      }
      const list = outcome.value;
      const pickable = Array.isArray(list) && list.length === locations.length && list.every((v) => locationsOf(v).length === 1);
      const candidates = locations.map((l, i) => ({
        label: pickable ? describeValue(list[i]) : `${l.path}:${l.start.line}`,
        ...(pickable ? { program: `pick(${expression}, ${i + 1})` } : {}),
        location: l,
      }));
      const shown = candidates.slice(0, maxChoices);
      const choices = await Promise.all(shown.map(async (c) => ({ ...c, location: await display(c.location) })));
      resolution = { status: 'ambiguous', message: `${locations.length} locations match`, choices, ...omitted(shown.length, candidates.length) };
      return { element, resolution, notes: [...outcome.notes, ...choicesNote(shown.length, candidates.length)] };
    }
    case 'ambiguity': {
      const candidates = outcome.refinements.flatMap((r) => {
        const locations = dedupe(locationsOf(r.value));
        return locations.map((l, i) => ({
          label: locations.length === 1 ? r.label : `${r.label} (${l.path}:${l.start.line})`,
          program: locations.length === 1 || !Array.isArray(r.value) ? r.program : `pick(${r.program}, ${i + 1})`,
          location: l,
        }));
      });
      if (candidates.length === 0) return unresolved(CommentErrorCode.NoLocation, `${outcome.message}; none of the candidates is a code location`, renderOutcome(outcome), outcome.notes);
      if (candidates.length === 1 && candidates[0] !== undefined) {
        resolution = { status: 'resolved', location: await display(candidates[0].location) };
        return { element, resolution, notes: [...outcome.notes, `the expression was ambiguous (${outcome.message}), but only one candidate is a code location`] };
      }
      // Only the shown choices are read from disk: a reference list can have thousands of places.
      const shown = candidates.slice(0, maxChoices);
      const choices = await Promise.all(shown.map(async (c) => ({ ...c, location: await display(c.location) })));
      resolution = { status: 'ambiguous', message: outcome.message, choices, ...omitted(shown.length, candidates.length) };
      return { element, resolution, notes: [...outcome.notes, ...choicesNote(shown.length, candidates.length)] };
    }
  }
  return { element, resolution, notes: outcome.notes };
}

/** `omitted` of an ambiguous resolution whose choices were cut. */
function omitted(shown: number, total: number): { omitted?: number } {
  return shown < total ? { omitted: total - shown } : {};
}

/** The note on a comment whose choices were cut at the limit (none when all are shown). */
function choicesNote(shown: number, total: number): string[] {
  if (shown >= total) return [];
  return [`only the first ${shown} of ${total} places are listed (the limit maxChoicesPerComment); narrow the location (add file:, kind: or line:, or pick(…, n)) to place this comment`];
}

function dedupe(locations: readonly Location[]): Location[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = formatLocation(l);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function resolveDiff(element: GitDiffElement, env: WalkthroughEnvironment): Promise<ResolvedDiff> {
  try {
    const files = await env.gitDiff(element.range, { excludeUnstaged: element.excludeUnstaged, excludeStaged: element.excludeStaged });
    return { element, files };
  } catch (error) {
    const code = error instanceof DialectError ? error.code : 'git-failed';
    const message = error instanceof DialectError && error.hint !== undefined ? `${error.message} (${error.hint})` : error instanceof Error ? error.message : String(error);
    return { element, error: { code, message: cutMiddle(message, MAX_DIAGNOSTIC_TEXT) } };
  }
}

async function resolveLink(link: FileLink, env: WalkthroughEnvironment): Promise<ResolvedLink> {
  try {
    if (link.regex !== undefined) {
      // Matched by the environment under the search time budget, never here on the main thread.
      const found = await env.findLine(link.path, link.regex);
      if (found === undefined) return { link, error: `no line of ${link.path} matches /${link.regex}/` };
      return { link, line: found.line, text: found.text };
    }
    if (link.startLine !== undefined) {
      const lines = await env.readLines(link.path, link.startLine, link.startLine);
      if (lines.length === 0) return { link, error: `${link.path} has no line ${link.startLine}` };
      return { link, line: link.startLine, text: lines[0] ?? '' };
    }
    await env.readLines(link.path, 1, 1).catch((error: unknown) => {
      // An empty file exists even though it has no line 1.
      if (!(error instanceof DialectError && error.code === WorkspaceCode.InvalidRange)) throw error;
    });
    return { link };
  } catch (error) {
    return { link, error: error instanceof Error ? error.message : String(error) };
  }
}

/** `src/a.rs:42`, `src/a.rs?regex`, `src/a.rs` */
export function describeLink(link: FileLink): string {
  if (link.regex !== undefined) return `${link.path}?${link.regex}`;
  if (link.startLine !== undefined) return `${formatCodeLocation({ path: link.path, line: link.startLine })}${link.endLine !== undefined ? `-${link.endLine}` : ''}`;
  return link.path;
}
