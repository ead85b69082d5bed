/**
 * A walkthrough's warnings and unresolved messages quote what it wrote (an icon, an attribute
 * name, a location, a link's path, a gitdiff range): each is cut to `MAX_DIAGNOSTIC_TEXT`, as an
 * error's text is. A 900 KB attribute printed 900 KB on stderr and again in the page; a 900 KB
 * link path 1.8 MB on stderr.
 */
import { describe, expect, it } from 'vitest';
import { DialectError, MAX_DIAGNOSTIC_TEXT } from '../../dialect/index.js';
import type { WalkthroughEnvironment } from '../environment-types.js';
import { parseWalkthrough } from '../parse.js';
import { resolveWalkthrough } from '../resolve.js';
import { summarizeWalkthrough } from '../summary.js';

const BIG = 'x'.repeat(900_000);
const codePoints = (s: string): number => [...s].length;

const failing: WalkthroughEnvironment = {
  evaluate: () => Promise.reject(new Error(`cannot evaluate ${BIG}`)),
  readLines: () => Promise.reject(new DialectError({ code: 'file-not-found', message: `no file ${BIG}` })),
  findLine: () => Promise.resolve(undefined),
  gitDiff: (range) => Promise.reject(new DialectError({ code: 'bad-revision', message: `${JSON.stringify(range)} is not a revision range git knows` })),
};

describe('warnings quote a bounded part of what the walkthrough wrote', () => {
  it.each([
    ['an icon', `<comment location="a()" icon="${BIG}">x</comment>\n`],
    ['an attribute name', `<comment location="a()" ${BIG}="1">x</comment>\n`],
    ['an element name', `<${BIG}>\n`],
    ['a link path', `[x](${BIG}.rs#L1)\n`],
    ['a gitdiff range', `<gitdiff range="${BIG}" />\n`],
    ['a location', `<comment location="${BIG}">x</comment>\n`],
  ])('%s', async (_name, markdown) => {
    const resolved = await resolveWalkthrough(parseWalkthrough(markdown), failing);
    const texts = [
      ...resolved.warnings.map((w) => w.message),
      ...resolved.diffs.map((d) => d.error?.message ?? ''),
      ...resolved.comments.flatMap((c) => (c.resolution.status === 'unresolved' ? [c.resolution.error.message, c.resolution.error.text] : [])),
    ];
    expect(texts.join('').length).toBeGreaterThan(0);
    for (const text of texts) expect(codePoints(text)).toBeLessThanOrEqual(MAX_DIAGNOSTIC_TEXT);
    // The summary on stderr: a few quoted texts, not the megabyte.
    expect(summarizeWalkthrough(resolved).length).toBeLessThan(10 * MAX_DIAGNOSTIC_TEXT);
  });
});
