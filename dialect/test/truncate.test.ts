/** `truncate`, the one cut of labels, messages and matched lines. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMiddle, ELLIPSIS, truncate } from '../index.js';

const codePoints = (s: string): number => [...s].length;

describe('truncate', () => {
  it('keeps text that fits, and cuts longer text to exactly max code points ending in the ellipsis', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdefg', 6)).toBe(`abcde${ELLIPSIS}`);
    // Six code points in eight UTF-16 units still fit in six.
    expect(truncate('ab😀cd😀', 6)).toBe('ab😀cd😀');
  });

  it('never splits a surrogate pair', () => {
    expect(truncate('😀😀😀😀', 3)).toBe(`😀😀${ELLIPSIS}`);
  });

  it('for any text: at most max code points, a prefix of the text, well-formed when the text is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        const cut = truncate(text, max);
        expect(codePoints(cut)).toBeLessThanOrEqual(max);
        if (cut === text) expect(codePoints(text)).toBeLessThanOrEqual(max);
        else {
          expect(cut.endsWith(ELLIPSIS)).toBe(true);
          expect(text.startsWith(cut.slice(0, -ELLIPSIS.length))).toBe(true);
          expect(codePoints(cut)).toBe(max);
          // The last kept character is never the high half of a pair.
          expect(/[\uD800-\uDBFF]$/.test(cut.slice(0, -ELLIPSIS.length))).toBe(false);
        }
      }),
    );
  });
});

describe('cutMiddle', () => {
  it('keeps text that fits; cuts longer text to exactly max code points, keeping its start and end', () => {
    expect(cutMiddle('abcdef', 6)).toBe('abcdef');
    expect(cutMiddle('abcdefg', 6)).toBe(`abc${ELLIPSIS}fg`);
    expect(cutMiddle(`unknown \`${'x'.repeat(4_000_000)}\``, 20)).toBe(`unknown \`x${ELLIPSIS}xxxxxxxx\``);
  });

  it('for any text: at most max code points, start and end of the text, well-formed when the text is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        const cut = cutMiddle(text, max);
        expect(codePoints(cut)).toBeLessThanOrEqual(max);
        if (cut === text) expect(codePoints(text)).toBeLessThanOrEqual(max);
        else {
          const [head, tail] = cut.split(ELLIPSIS) as [string, string];
          expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
          expect(codePoints(cut)).toBe(max);
          // The cut never leaves half of a pair at either side of the ellipsis.
          expect(/[\uD800-\uDBFF]$/.test(head) || /^[\uDC00-\uDFFF]/.test(tail)).toBe(false);
        }
      }),
    );
  });
});
