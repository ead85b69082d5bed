/**
 * All the queries of one walkthrough share one time budget (`maxResolveMs`). Each query alone is
 * bounded (a link's regex by the search budget, 10 s), but they queue for the same few file
 * workers: 2,000 links with a backtracking regex held `walkthrough render` (and a presenting
 * editor) for 2,000 × 10 s / 2 workers, about three hours.
 */
import { describe, expect, it } from 'vitest';
import { DialectError, type Outcome } from '../../dialect/index.js';
import type { WalkthroughEnvironment } from '../environment-types.js';
import { WalkthroughErrorCode } from '../errors.js';
import { walkthroughLimits } from '../limits.js';
import { parseWalkthrough } from '../parse.js';
import { resolveWalkthrough } from '../resolve.js';

/** An environment whose queries each run until they are cancelled: a pattern only its own budget would stop. */
function endlessEnvironment(): { env: WalkthroughEnvironment; started: () => number; stillRunning: () => number } {
  let started = 0;
  let running = 0;
  const endless = <T>(signal: AbortSignal | undefined): Promise<T> => {
    started++;
    running++;
    return new Promise<T>((_, reject) => {
      signal?.addEventListener('abort', () => {
        running--;
        reject(new DialectError({ code: 'cancelled', message: 'the query was cancelled' }));
      }, { once: true });
    });
  };
  const env: WalkthroughEnvironment = {
    evaluate: (_expression, signal) => endless<Outcome>(signal),
    readLines: () => Promise.resolve(['line']),
    findLine: (_path, _regex, signal) => endless(signal),
    gitDiff: (_range, options) => endless(options.signal),
  };
  return { env, started: () => started, stillRunning: () => running };
}

const markdown = [
  '# Slow',
  ...Array.from({ length: 500 }, (_, i) => `<comment location="search(\`src\`, \`(a|a)*b${i}\`)">c</comment>\n`),
  ...Array.from({ length: 20 }, (_, i) => `<gitdiff range="HEAD~${i}..HEAD" />\n`),
  Array.from({ length: 2_000 }, (_, i) => `[x](<big.txt?(a|a)*b${i}>)`).join(' '),
].join('\n\n');

describe('a walkthrough resolves within one budget for all its queries', () => {
  it('2,000 links, 500 comments and 20 diffs that never finish end at the budget, each saying so', async () => {
    const { env, started, stillRunning } = endlessEnvironment();
    const limits = walkthroughLimits({ maxResolveMs: 300 });
    const document = parseWalkthrough(markdown);
    expect(document.links).toHaveLength(2_000);
    // Generous: the budget is 0.3 s; without one this never settles.
    const resolved = await Promise.race([resolveWalkthrough(document, env, { limits }), new Promise<'stalled'>((r) => setTimeout(() => r('stalled'), 30_000))]);
    if (resolved === 'stalled') throw new Error('resolving did not end at its budget');
    expect(started()).toBe(2_000 + 500 + 20);
    expect(stillRunning()).toBe(0); // every query was cancelled, none left working
    for (const link of resolved.links) expect(link.error).toMatch(/budget of 0\.3 s.*\(maxResolveMs\)/);
    for (const comment of resolved.comments) expect(comment.resolution).toMatchObject({ status: 'unresolved', error: { code: WalkthroughErrorCode.OverBudget } });
    for (const diff of resolved.diffs) expect(diff.error?.code).toBe(WalkthroughErrorCode.OverBudget);
  }, 60_000);

  it("the caller's cancellation is still a cancellation, not the budget", async () => {
    const { env } = endlessEnvironment();
    const controller = new AbortController();
    const resolving = resolveWalkthrough(parseWalkthrough(markdown), env, { signal: controller.signal, limits: walkthroughLimits({ maxResolveMs: 60_000 }) });
    setTimeout(() => controller.abort(), 50);
    await expect(resolving).rejects.toMatchObject({ code: 'cancelled' });
  });
});
