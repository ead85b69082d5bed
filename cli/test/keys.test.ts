/** Ctrl-R reverse search as a state machine (the tmux tests press the real keys). */
import { describe, expect, it } from 'vitest';
import { ReverseSearch, type SearchTarget } from '../keys.js';

function harness(history: string[], line = '') {
  const screen: string[] = [];
  const forwarded: string[] = [];
  const target: SearchTarget & { line: string } = {
    line,
    setLine(text) {
      this.line = text;
    },
    redraw: () => undefined,
    write: (text) => screen.push(text.split('\r\u001b[2K').join('')),
    columns: 80,
  };
  const search = new ReverseSearch(target, () => history, (keys) => forwarded.push(keys));
  return { search, target, screen, forwarded, shown: () => screen.filter((s) => s !== '').at(-1) };
}

const history = ['findReferences("MAX_TASKS")', 'search("src", "fn")', 'findReferences("User")', 'findDefinitions("User")'];

describe('ReverseSearch', () => {
  it('passes keys through until Ctrl-R', () => {
    const h = harness(history);
    h.search.feed('abc\u001b[D');
    expect(h.forwarded).toEqual(['abc\u001b[D']);
    expect(h.search.active).toBe(false);
  });

  it('finds the newest match as you type, older ones with Ctrl-R, and runs it with Enter', () => {
    const h = harness(history);
    h.search.feed('x\u0012');
    expect(h.forwarded).toEqual(['x']);
    h.search.feed('Refer');
    expect(h.shown()).toBe("(reverse-i-search)`Refer': findReferences(\"MAX_TASKS\")");
    h.search.feed('\u0012');
    expect(h.shown()).toBe("(reverse-i-search)`Refer': findReferences(\"User\")");
    h.search.feed('\u0012');
    expect(h.shown()).toBe("(failed reverse-i-search)`Refer': findReferences(\"User\")");
    h.search.feed('\r');
    expect(h.target.line).toBe('findReferences("User")');
    expect(h.forwarded.at(-1)).toBe('\r');
    expect(h.search.active).toBe(false);
  });

  it('Backspace widens the search; Ctrl-G restores what was typed', () => {
    const h = harness(history, 'half typed');
    h.search.feed('\u0012Userz');
    expect(h.shown()).toBe("(failed reverse-i-search)`Userz': findReferences(\"User\")");
    h.search.feed('\u007f');
    expect(h.shown()).toBe("(reverse-i-search)`User': findReferences(\"User\")");
    h.search.feed('\u0007');
    expect(h.target.line).toBe('half typed');
    expect(h.search.active).toBe(false);
  });

  it('Esc keeps the match for editing; an arrow key after it reaches the editor, a lone Esc does not', () => {
    const h = harness(history);
    h.search.feed('\u0012search\u001b');
    expect(h.target.line).toBe('search("src", "fn")');
    expect(h.forwarded).toEqual([]);
    h.search.feed('\u0012MAX\u001b[D');
    expect(h.target.line).toBe('findReferences("MAX_TASKS")');
    expect(h.forwarded).toEqual(['\u001b[D']);
  });
});
