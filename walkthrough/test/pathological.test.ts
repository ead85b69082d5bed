/**
 * Pathological walkthroughs, in the style of markdown-it's own suite: each fixture is data, made
 * as large as a walkthrough may be (`maxMarkdownChars`), and must parse within a bound that only
 * linear work meets (each of these took minutes or hours when a rule rescanned the rest of the
 * text from every bracket or tag start). The controls show the rewritten searches still find
 * what they found before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WALKTHROUGH_LIMITS, loadWalkthroughFile, parseWalkthrough, WarningCode, type WalkthroughElement } from '../index.js';
import { MAX_LISTED_WARNINGS } from '../parse-env.js';

/** Repeats `unit` to `size` characters, then adds `tail`. */
const fill = (unit: string, tail = '', size = DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - tail.length): string => unit.repeat(Math.floor(size / unit.length)) + tail;

const FIXTURES: Readonly<Record<string, string>> = {
  'a run of [': fill('['),
  'brackets with a line reference in each': fill('[a:1'),
  'brackets and backticks': fill('[`'),
  'block openers whose closing tag has no ">"': fill('<comment location="a()">\n', '</comment\n'),
  'inline openers whose closing tag has no ">"': fill('x <comment location="a()"> ', '</comment\n'),
  'openers missing their own ">"': fill('<comment location="a()"\n', '</comment>\n'),
  'openers missing ">" between blank lines': fill('<comment location="a()"\n\n', '</comment>\n'),
  'an unclosed quote on every line': fill('<comment location="a()\n'),
  'block openers in a quote, closed outside it': fill('> <comment location="a()">\n', '\n</comment>\n'),
  'block openers in a list item left by a lazy line': `- <comment location="a()">\n${fill('  <comment location="a()">\n', 'x\n  </comment>\n', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 100)}`,
  'many <comment starts': fill('<comment'),
  'many <comment lines': fill('<comment\n'),
  'nested openers, then all the closers': fill('<comment location="a()">\n', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars / 2) + fill('</comment>\n', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars / 2 - 30),
  'unclosed HTML comments': fill('<!--'),
  'unclosed HTML comments on lines': fill('<!-- x\n'),
  'unclosed CDATA': fill('<![CDATA['),
  'unclosed processing instructions': fill('<?x '),
  // Each segment of a grapheme iterator copies its whole input: listing them all ran out of memory.
  'a comment icon as long as the walkthrough': `<comment icon="${fill('c', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 40)}">x</comment>\n`,
  // "Did you mean" against every element and attribute name: the edit distance was quadratic.
  'an unknown element name as long': `<${fill('a', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 10)}>\n`,
  // Trailing blank lines of a block element were trimmed by a pattern retried from every line break.
  'a block element of empty lines': `<mermaid>\ngraph TD\n${fill('\n', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 40)}x\n</mermaid>\n`,
  'a fenced element of blank lines': `\`\`\`mermaid\ngraph TD\n${fill('\n \t', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 40)}x\n\`\`\`\n`,
  'an unknown attribute name as long': `<comment ${fill('b', '', DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars - 40)}="x">hi</comment>\n`,
};

describe('pathological walkthroughs parse in linear time', () => {
  it.each(Object.entries(FIXTURES))('%s', (_name, markdown) => {
    expect(markdown.length).toBeLessThanOrEqual(DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars);
    const started = performance.now();
    const doc = parseWalkthrough(markdown);
    const elapsed = performance.now() - started;
    expect(doc.source).toBe(markdown);
    // Generous for a loaded 2-core machine: linear parsing of a megabyte takes a second or two;
    // the rescanning rules took minutes to hours here.
    expect(elapsed).toBeLessThan(20_000);
  }, 120_000);
});

describe('a walkthrough file is read in linear time', () => {
  it('its title is its first heading, whatever blanks and closing #s it carries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dialect-wt-title-'));
    try {
      const file = join(dir, 'walk.md');
      // A title pattern with blanks and #s around a lazy title backtracked cubically: 5 minutes for 5,000 each.
      await writeFile(file, `# Tour ${' '.repeat(100_000)}${'#'.repeat(100_000)}x\n\ntext\n`);
      const started = performance.now();
      const loaded = await loadWalkthroughFile(file);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(loaded.title.startsWith('Tour ')).toBe(true);
      await writeFile(file, '# Tour of the parser ##\n\ntext\n');
      expect((await loadWalkthroughFile(file)).title).toBe('Tour of the parser');
      await writeFile(file, 'no heading\n');
      expect((await loadWalkthroughFile(file)).title).toBe('walk');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('warnings are bounded', () => {
  it('a walkthrough of stray tags lists the first warnings and counts the rest in one', () => {
    const markdown = fill('<div>\n');
    const doc = parseWalkthrough(markdown);
    const stray = Math.floor(DEFAULT_WALKTHROUGH_LIMITS.maxMarkdownChars / '<div>\n'.length);
    // Each stray tag was a warning of a kilobyte: 165,000 of them, a page of 190 MB.
    expect(doc.warnings).toHaveLength(MAX_LISTED_WARNINGS + 1);
    const counted = doc.warnings.find((w) => w.code === WarningCode.TooManyWarnings);
    expect(counted?.message).toContain(`${(stray - MAX_LISTED_WARNINGS).toLocaleString('en-US')} more warnings not listed`);
    expect(doc.warnings.filter((w) => w.code === WarningCode.UnknownElement)).toHaveLength(MAX_LISTED_WARNINGS);
  });

  it('a walkthrough with few warnings lists them all', () => {
    const doc = parseWalkthrough('<div>\n'.repeat(MAX_LISTED_WARNINGS));
    expect(doc.warnings).toHaveLength(MAX_LISTED_WARNINGS);
    expect(doc.warnings.every((w) => w.code === WarningCode.UnknownElement)).toBe(true);
  });
});

describe('the remembered searches find what the line-by-line ones found', () => {
  const comments = (markdown: string): string[] =>
    parseWalkthrough(markdown).elements.filter((e): e is Extract<WalkthroughElement, { kind: 'comment' }> => e.kind === 'comment').map((e) => e.content.trim());

  it('block elements close on the first closing line, in quotes and lists, not past a container', () => {
    expect(comments('<comment location="a()">\none\n</comment>\n\n<comment location="b()">\ntwo\n</comment >\n')).toEqual(['one', 'two']);
    expect(comments('> <comment location="a()">\n> quoted\n> </comment>\n')).toEqual(['quoted']);
    expect(comments('- <comment location="a()">\n  listed\n  </comment>\n')).toEqual(['listed']);
    // A closing tag outside the quote closes nothing inside it: the opener is text with a warning.
    const outside = parseWalkthrough('> <comment location="a()">\n> quoted\n\n</comment>\n');
    expect(outside.elements).toEqual([]);
    // A closing tag whose ">" is on the next line does not close a block element.
    expect(comments('<comment location="a()">\ntext\n</comment\n>\n')).toEqual([]);
  });

  it('inline elements close on the first closing tag of the paragraph', () => {
    expect(comments('see <comment location="a()">this\nspans lines</comment> and <comment location="b()">that</comment  > here')).toEqual(['this\nspans lines', 'that']);
    const doc = parseWalkthrough('see <comment location="a()">this</commentary> here');
    expect(doc.elements).toEqual([]);
    expect(doc.warnings.map((w) => w.code)).toContain(WarningCode.UnclosedElement);
  });

  it('file references and raw HTML read as before', () => {
    const doc = parseWalkthrough('See [src/a.rs:42][] and [`src/b.rs:3-5`][], not [[x]] or [a:b][].\n\n<!-- a note --> and <![CDATA[x]]> <?pi?>\n');
    expect(doc.links.map((l) => [l.path, l.startLine, l.endLine])).toEqual([
      ['src/a.rs', 42, undefined],
      ['src/b.rs', 3, 5],
    ]);
    expect(doc.warnings.filter((w) => w.code === WarningCode.HtmlNotAllowed)).toHaveLength(3);
  });
});
