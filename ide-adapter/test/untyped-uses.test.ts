/**
 * The untyped-uses note is made from the answers of every declaration of a symbol (attrs: a member
 * its package stub declares too has its uses in the stub's answer, not the source's).
 */
import { describe, expect, it } from 'vitest';
import { joinUntypedUses, untypedUsesNote, type UntypedMemberUses } from '../untyped-uses.js';

const report = (mentions: [string, number][], more = false): UntypedMemberUses => ({
  server: 'Python (pyright)',
  name: 'evolve',
  mentions: mentions.map(([path, line]) => ({ path, line })),
  more,
});

describe('untyped member uses', () => {
  it('a mention another declaration’s answer lists is no untyped use', () => {
    const joined = joinUntypedUses([report([['tests/a.py', 3], ['tests/b.py', 9]]), report([['tests/b.py', 9]])], new Set(['tests/a.py:3']));
    expect(joined.map((r) => r.mentions)).toEqual([[{ path: 'tests/b.py', line: 9 }]]);
  });

  it('no report when every mention is listed; one per server and name, its limit kept', () => {
    expect(joinUntypedUses([report([['tests/a.py', 3]])], new Set(['tests/a.py:3']))).toEqual([]);
    const joined = joinUntypedUses([report([['tests/a.py', 3]]), report([['tests/a.py', 3]], true)], new Set());
    expect(joined).toHaveLength(1);
    expect(joined[0]?.more).toBe(true);
  });

  it('the note counts, names the first three and gives the search', () => {
    const note = untypedUsesNote(report([['a.py', 1], ['a.py', 2], ['b.py', 3], ['c.py', 4]], true));
    expect(note).toBe('Python (pyright) ties `.evolve` to this member only where it infers the value\'s type: 4+ more in 3 files (a.py:1, a.py:2, b.py:3, …) are on values it could not type, or another type\'s; search(".", "\\\\.evolve\\\\b") lists them');
  });
});
