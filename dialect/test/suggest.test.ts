/**
 * "Did you mean" suggestions: the banded edit distance agrees with the full one, and a
 * suggestion is bounded work whatever the word and the candidates (a megabyte-long unknown name
 * against each registered name was quadratic: 22 s).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../index.js';
import { MAX_SUGGESTED_WORD_LENGTH } from '../suggest.js';

/** The textbook optimal string alignment distance, the whole table. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let v = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A'), maxLength: 14 });

describe('edit distance', () => {
  it('within a band: the full distance when it is at most the band, else band + 1', () => {
    fc.assert(
      fc.property(word, word, fc.nat(9), (a, b, max) => {
        const full = fullDistance(a, b);
        expect(editDistance(a, b)).toBe(full);
        expect(editDistance(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
      { numRuns: 5000 },
    );
  });

  it('suggests what the full distance suggests', () => {
    const reference = (w: string, candidates: readonly string[]): string[] => {
      const lw = w.toLowerCase();
      return candidates
        .map((name) => ({ name, n: name.toLowerCase() }))
        .map(({ name, n }) => ({ name, d: fullDistance(lw, n), contains: lw.length >= 3 && (n.includes(lw) || lw.includes(n)), limit: Math.max(1, Math.floor(Math.max(lw.length, n.length) / 3)) }))
        .filter((c) => c.d <= c.limit || c.contains)
        .map((c) => ({ name: c.name, score: c.contains ? Math.min(c.d, 2) : c.d }))
        .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
        .slice(0, 3)
        .map((c) => c.name);
    };
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 8 }), (w, candidates) => {
        expect(closest(w, candidates)).toEqual(reference(w, candidates));
      }),
      { numRuns: 3000 },
    );
    expect(closest('findDefinitoin', ['findDefinition', 'findDefinitions', 'findReferences', 'lines'])).toEqual(['findDefinition', 'findDefinitions']);
  });
});

describe('a suggestion is bounded work', () => {
  it('a word too long to be a typo gets none, at once', () => {
    const started = performance.now();
    expect(closest('x'.repeat(1_000_000), Array.from({ length: 60 }, (_, i) => `function${i}`))).toEqual([]);
    expect(closest('x'.repeat(MAX_SUGGESTED_WORD_LENGTH), ['x'.repeat(MAX_SUGGESTED_WORD_LENGTH - 1)])).toEqual(['x'.repeat(MAX_SUGGESTED_WORD_LENGTH - 1)]);
    // Quadratic, this took 22 s on an idle machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('thousands of long names near a long word are compared within the budget', () => {
    const long = 'y'.repeat(MAX_SUGGESTED_WORD_LENGTH);
    const near = Array.from({ length: 20_000 }, (_, i) => `${long.slice(0, 200)}${'z'.repeat(40)}${i}`);
    const started = performance.now();
    const found = closest(long, near);
    // Each comparison costs up to 256 × 171 cells: 20,000 of them took 15 s without the budget.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(found.length).toBeLessThanOrEqual(3);
  });
});
