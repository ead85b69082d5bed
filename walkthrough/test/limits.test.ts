/**
 * The limits of one walkthrough (`limits.ts`): counts over a limit stop it before any query runs,
 * an ambiguous comment shows at most `maxChoicesPerComment` places (with a note saying so), and
 * the page and markdown sizes are bounded — each with an error naming the limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WALKTHROUGH_LIMITS, renderWalkthrough, walkthroughLimits, type WalkthroughEnvironment } from '../index.js';
import { renderWalkthroughFile } from './support/render-file.js';
import { RUST_APP, fixtureEnvironment, locateAll } from './support/fixture-env.js';

/** The fixture environment, counting every query it is asked. */
function counting(): { env: WalkthroughEnvironment; queries: () => number } {
  let queries = 0;
  const base = fixtureEnvironment(RUST_APP);
  const env: WalkthroughEnvironment = {
    evaluate: (expression, signal) => ((queries += 1), base.evaluate(expression, signal)),
    readLines: (path, start, end) => ((queries += 1), base.readLines(path, start, end)),
    findLine: (path, regex, signal) => ((queries += 1), base.findLine(path, regex, signal)),
    gitDiff: (range, options) => ((queries += 1), base.gitDiff(range, options)),
  };
  return { env, queries: () => queries };
}

const comments = (n: number): string => Array.from({ length: n }, (_, i) => `<comment location='findDefinition("authenticate")'>Note ${i + 1}.</comment>\n\n`).join('');

describe('walkthrough limits', () => {
  it('are one object with named defaults; overrides are checked', () => {
    expect(Object.keys(DEFAULT_WALKTHROUGH_LIMITS).sort()).toEqual(['maxChoicesPerComment', 'maxComments', 'maxDiffs', 'maxLinks', 'maxMarkdownChars', 'maxPageChars', 'maxResolveMs']);
    expect(walkthroughLimits({ maxComments: 3 })).toEqual({ ...DEFAULT_WALKTHROUGH_LIMITS, maxComments: 3 });
    expect(() => walkthroughLimits({ maxComments: 0 })).toThrow(/maxComments must be a positive integer/);
  });

  it.each([
    ['comments', comments(4), comments(3), { maxComments: 3 }, 'the walkthrough has 4 comments; the limit is 3 (maxComments)'],
    ['gitdiffs', '<gitdiff range="HEAD~1..HEAD" />\n\n'.repeat(3), '<gitdiff range="HEAD~1..HEAD" />\n\n'.repeat(2), { maxDiffs: 2 }, 'the walkthrough has 3 gitdiff elements; the limit is 2 (maxDiffs)'],
    ['links', '[a](src/auth.rs#L1) [b](src/auth.rs#L2) [c](src/main.rs)\n', '[a](src/auth.rs#L1) [b](src/auth.rs#L2)\n', { maxLinks: 2 }, 'the walkthrough has 3 links to files; the limit is 2 (maxLinks)'],
  ])('too many %s: refused before any query runs', async (_, markdown, atLimit, limits, message) => {
    const { env, queries } = counting();
    const error = await renderWalkthrough(markdown, env, { limits: walkthroughLimits(limits) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'WalkthroughError', code: 'limit-exceeded' });
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain('Split it into several walkthroughs');
    expect(queries()).toBe(0);
    // At the limit it renders.
    const ok = await renderWalkthrough(atLimit, env, { limits: walkthroughLimits(limits) });
    expect(ok.html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(queries()).toBeGreaterThan(0);
  });

  it('an ambiguous comment lists at most maxChoicesPerComment places, reads only those, and says so', async () => {
    const total = locateAll(RUST_APP, 'User').length;
    expect(total).toBeGreaterThan(5);
    const md = "<comment location='findAll(\"User\")'>Every use.</comment>\n";
    const { resolved, json, summary, html } = await renderWalkthrough(md, fixtureEnvironment(RUST_APP), { limits: walkthroughLimits({ maxChoicesPerComment: 5 }) });
    const comment = resolved.comments[0];
    if (comment?.resolution.status !== 'ambiguous') throw new Error('expected an ambiguous comment');
    expect(comment.resolution.choices).toHaveLength(5);
    expect(comment.resolution.message).toBe(`${total} locations match`);
    expect(comment.notes).toContain(`only the first 5 of ${total} places are listed (the limit maxChoicesPerComment); narrow the location (add file:, kind: or line:, or pick(…, n)) to place this comment`);
    expect(json.comments[0]?.notes.some((n) => n.includes('only the first 5'))).toBe(true);
    expect(json.comments[0]?.omitted).toBe(total - 5);
    expect(summary).toContain(`… and ${total - 5} more (only 5 are listed: the limit maxChoicesPerComment)`);
    // The reader sees the cut in the comment's choice list; the note for the author is in the footer.
    expect(html).toContain(`: choose where this comment belongs. The first 5 of ${total} places are listed.</span>`);
    expect(html.slice(html.indexOf('<main'), html.indexOf('</main>'))).not.toContain('only the first 5');
    expect(html).toMatch(/<footer class="wt-footer">.*only the first 5/);
    const all = await renderWalkthrough(md, fixtureEnvironment(RUST_APP));
    const r = all.resolved.comments[0]?.resolution;
    expect(r?.status === 'ambiguous' ? r.choices.length : 0).toBe(Math.min(total, DEFAULT_WALKTHROUGH_LIMITS.maxChoicesPerComment));
  });

  it('a page over maxPageChars is refused, before it is built when the code it shows is already too much', async () => {
    const md = "<comment location='findAll(\"User\")'>Every use.</comment>\n";
    const small = walkthroughLimits({ maxPageChars: 2_000 });
    await expect(renderWalkthrough(md, fixtureEnvironment(RUST_APP), { limits: small })).rejects.toThrow(/shows more code than fits in one page \(over 2,000 characters\); the limit is 2,000 \(maxPageChars\)/);
    // The page itself (scripts and styles included) over the limit.
    const page = (await renderWalkthrough('# Small\n\nText.\n', fixtureEnvironment(RUST_APP))).html.length;
    const justUnder = walkthroughLimits({ maxPageChars: page - 1 });
    await expect(renderWalkthrough('# Small\n\nText.\n', fixtureEnvironment(RUST_APP), { limits: justUnder })).rejects.toThrow(
      `page would be ${page.toLocaleString('en-US')} characters; the limit is ${(page - 1).toLocaleString('en-US')} (maxPageChars)`,
    );
  });

  it('markdown over maxMarkdownChars is refused; a file far over it is not even read', async () => {
    const limits = walkthroughLimits({ maxMarkdownChars: 100 });
    await expect(renderWalkthrough('x'.repeat(101), fixtureEnvironment(RUST_APP), { limits })).rejects.toThrow('the walkthrough is 101 characters long; the limit is 100 (maxMarkdownChars)');
    const dir = mkdtempSync(join(tmpdir(), 'wt-limits-'));
    try {
      const path = join(dir, 'big.md');
      writeFileSync(path, 'x'.repeat(1_000));
      await expect(renderWalkthroughFile(path, fixtureEnvironment(RUST_APP), { limits })).rejects.toThrow('the walkthrough is at least 334 characters long; the limit is 100 (maxMarkdownChars)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
