/**
 * One time budget for all the queries of one walkthrough. Each query is bounded alone (a comment's
 * evaluation by its deadline, a link's regex by the search budget, git by its own), but they wait
 * for the same few file workers and servers: 2,000 links with a backtracking regex, each stopped
 * at 10 s, held a render for about three hours. Past the budget every query still running is
 * cancelled and any new one refused, each with a {@link WalkthroughErrorCode.OverBudget} error
 * that names the budget, so the page shows which elements were not resolved and why.
 */
import { DialectError } from '../dialect/index.js';
import { onAbort } from '../ide-adapter/lsp/abort.js';
import type { WalkthroughEnvironment } from './environment-types.js';
import { WalkthroughErrorCode } from './errors.js';

/** A walkthrough environment whose queries share one budget; `dispose` when resolving ends. */
export interface BudgetedEnvironment {
  readonly env: WalkthroughEnvironment;
  /** Whether the budget ran out (rather than the caller cancelling). */
  exhausted(): boolean;
  dispose(): void;
}

/**
 * `env` with its queries (`evaluate`, `findLine`, `gitDiff`) under one budget of `budgetMs`, and
 * cancelled with `signal`. Reading lines is not a query: it is bounded by the file size cap.
 */
export function budgetedEnvironment(env: WalkthroughEnvironment, budgetMs: number, signal: AbortSignal | undefined): BudgetedEnvironment {
  const controller = new AbortController();
  let exhausted = false;
  let expire: (error: DialectError) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  expired.catch(() => undefined); // raced against every query; never unhandled
  const overBudget = (): DialectError =>
    new DialectError({
      code: WalkthroughErrorCode.OverBudget,
      message: `not resolved within the walkthrough's budget of ${budgetMs / 1000} s for all its queries (maxResolveMs)`,
      hint: 'a slow location, gitdiff or link pattern (a regular expression that backtracks) used it up: fix or remove it, or split the walkthrough',
    });
  const timer = setTimeout(() => {
    exhausted = true;
    expire(overBudget());
    controller.abort();
  }, budgetMs);
  timer.unref();
  const stopListening = onAbort(signal, () => controller.abort());
  const query = <T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    if (exhausted) return Promise.reject(overBudget());
    return Promise.race([run(controller.signal), expired]);
  };
  return {
    env: {
      evaluate: (expression) => query((s) => env.evaluate(expression, s)),
      readLines: (path, start, end) => env.readLines(path, start, end),
      findLine: (path, regex) => query((s) => env.findLine(path, regex, s)),
      gitDiff: (range, options) => query((s) => env.gitDiff(range, { ...options, signal: s })),
    },
    exhausted: () => exhausted,
    dispose: () => {
      clearTimeout(timer);
      stopListening();
    },
  };
}
