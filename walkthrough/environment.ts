/**
 * `environmentFor`: a walkthrough environment backed by an IDE session (its interpreter with the
 * IDE functions, its confined workspace, its budgeted search, and real git).
 */
import type { Outcome } from '../dialect/index.js';
import { gitDiff } from '../ide-adapter/git.js';
import { searchWorkspace } from '../ide-adapter/search.js';
import type { Workspace } from '../ide-adapter/workspace.js';
import type { WalkthroughEnvironment } from './environment-types.js';

/** The parts of an `IdeSession` (ide-adapter/session.ts) a walkthrough uses. */
export interface WalkthroughSession {
  readonly workspace: Workspace;
  evaluate(program: string, options?: { readonly signal?: AbortSignal }): Promise<Outcome>;
}

/** Adapts a session: comments evaluate in it, lines come from its workspace, diffs from git there. */
export function environmentFor(session: WalkthroughSession): WalkthroughEnvironment {
  return {
    evaluate: (expression, signal) => session.evaluate(expression, signal !== undefined ? { signal } : {}),
    readLines: (path, start, end) => session.workspace.readLines(path, start, end),
    findLine: async (path, regex, signal) => {
      const { matches } = await searchWorkspace(session.workspace, path, regex, { maxResults: 1, ...(signal !== undefined ? { signal } : {}) });
      const first = matches[0];
      return first === undefined ? undefined : { line: first.start.line, text: first.content };
    },
    gitDiff: (range, options) => gitDiff(session.workspace, range, options),
  };
}
