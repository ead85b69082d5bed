/**
 * A comment's places are shown with a few lines of context, and only those lines become strings:
 * resolving read every file a place was in whole, as an array of all its lines kept for the
 * walkthrough (four 15 MB files of one-character lines: 1.5 GB; 500 comments may each land in
 * another file). The workspace keeps file texts itself (bounded) and cuts only the range asked.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import { SourceText } from '../../dialect/index.js';
import type { WalkthroughEnvironment } from '../environment-types.js';
import { parseWalkthrough } from '../parse.js';
import { resolveWalkthrough } from '../resolve.js';

const FILE_LINES = 1_000_000;

describe('context lines', () => {
  it('a place in a file of a million lines reads its context, not the file', async () => {
    let linesRead = 0;
    const location = (line: number) => ({ path: 'big.txt', start: { line, column: 1 }, end: { line, column: 2 }, content: 'a' });
    const env: WalkthroughEnvironment = {
      evaluate: (expression): Promise<Outcome> =>
        Promise.resolve({ kind: 'value', value: expression.includes('two') ? [location(10), location(500_000)] : location(700_000), notes: [], source: new SourceText(expression) }),
      readLines: (_path, start, end) => {
        if (start > FILE_LINES) return Promise.reject(new Error(`big.txt has only ${FILE_LINES} lines`));
        const last = Math.min(end, FILE_LINES);
        linesRead += last - start + 1;
        return Promise.resolve(Array.from({ length: last - start + 1 }, (_, i) => `line ${start + i}`));
      },
      findLine: () => Promise.resolve(undefined),
      gitDiff: () => Promise.resolve([]),
    };
    const resolved = await resolveWalkthrough(parseWalkthrough('<comment location="one()">x</comment>\n\n<comment location="two()">y</comment>\n'), env);
    expect(resolved.comments.map((c) => c.resolution.status)).toEqual(['resolved', 'ambiguous']);
    // Three places with three lines of context either side: a few dozen lines, not a million.
    expect(linesRead).toBeLessThan(100);
    const first = resolved.comments[0]?.resolution;
    expect(first?.status === 'resolved' && JSON.stringify(first.location)).toContain('line 700000');
  });
});
