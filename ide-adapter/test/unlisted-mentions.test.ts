/**
 * The notes on what a references answer may miss are made from the answers of every place the
 * symbol was asked at (tinyxml2: each of `SetAttribute`'s overloads made its own note naming
 * its siblings' uses; attrs: a member its package stub declares has its uses in the stub's answer).
 */
import { describe, expect, it } from 'vitest';
import { joinUnlisted, unlistedNote, type UnlistedMentions, type UnlistedWhy } from '../unlisted-mentions.js';

const report = (mentions: [string, number][], options: { more?: boolean; why?: UnlistedWhy } = {}): UnlistedMentions => ({
  why: options.why ?? 'untyped-member',
  server: 'Python (pyright)',
  name: 'evolve',
  mentions: mentions.map(([path, line]) => ({ path, line })),
  more: options.more ?? false,
});

describe('unlisted mentions', () => {
  it('a mention another answer lists is not missed; the reports of one reason are one, their mentions together', () => {
    const joined = joinUnlisted([report([['tests/a.py', 3], ['tests/b.py', 9]]), report([['tests/b.py', 9], ['tests/c.py', 1]])], new Set(['tests/a.py:3']));
    expect(joined.map((r) => r.mentions)).toEqual([[{ path: 'tests/b.py', line: 9 }, { path: 'tests/c.py', line: 1 }]]);
  });

  it('no report when every mention is listed; one per reason, its limit kept', () => {
    expect(joinUnlisted([report([['tests/a.py', 3]])], new Set(['tests/a.py:3']))).toEqual([]);
    const joined = joinUnlisted([report([['tests/a.py', 3]]), report([['tests/a.py', 3]], { more: true }), report([['a.c', 2]], { why: 'skipped-branch' })], new Set());
    expect(joined.map((r) => [r.why, r.more])).toEqual([['untyped-member', true], ['skipped-branch', false]]);
  });

  it('the notes count, name the first three and give the search', () => {
    const mentions: [string, number][] = [['a.py', 1], ['a.py', 2], ['b.py', 3], ['c.py', 4]];
    expect(unlistedNote(report(mentions, { more: true }))).toBe(
      'Python (pyright) ties `.evolve` to this member only where it infers the value\'s type: 4+ more in 3 files (a.py:1, a.py:2, b.py:3, …) are on values it could not type, or another type\'s; search(".", "\\\\.evolve\\\\b") lists them',
    );
    expect(unlistedNote({ ...report(mentions, { why: 'skipped-branch' }), server: 'clangd' })).toBe(
      'clangd skips preprocessor branches not taken: "evolve" is also written in one at a.py:1, a.py:2, b.py:3 (+1 more); search(".", "\\\\bevolve\\\\b") finds every mention',
    );
  });
});
