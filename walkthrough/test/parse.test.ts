import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFileHref, parseWalkthrough, WarningCode, type WalkthroughDocument, type WalkthroughElement } from '../index.js';
import { resolvedWithoutEnvironment } from './support/render.js';

const only = <K extends WalkthroughElement['kind']>(doc: WalkthroughDocument, kind: K): Extract<WalkthroughElement, { kind: K }>[] =>
  doc.elements.filter((e): e is Extract<WalkthroughElement, { kind: K }> => e.kind === kind);
const codes = (doc: WalkthroughDocument): string[] => doc.warnings.map((w) => w.code);

describe('comment', () => {
  it('block form: attributes, icon, markdown content over several paragraphs', () => {
    const doc = parseWalkthrough(
      ['# T', '', '<comment location="findDefinition(`User`)" icon="lightbulb">', '**User** is the account.', '', '- one', '- two', '</comment>', '', 'after'].join('\n'),
    );
    const [c] = only(doc, 'comment');
    expect(c).toMatchObject({ id: 'comment-1', form: 'block', line: 3, location: 'findDefinition(`User`)', icon: 'lightbulb', emoji: '💡' });
    expect(c?.content).toBe('**User** is the account.\n\n- one\n- two');
    expect(doc.warnings).toEqual([]);
    expect(doc.contentTokens.get('comment-1')?.map((t) => t.type)).toContain('bullet_list_open');
  });

  it('block form on one line, with content starting after the tag, and indented content', () => {
    const doc = parseWalkthrough('<comment location="a()">One line</comment>\n\n<comment location="b()">First\n    indented second\n</comment>\n\n<comment location="c()">\n    all indented\n    by four\n</comment>\n');
    expect(only(doc, 'comment').map((c) => [c.form, c.content])).toEqual([
      ['block', 'One line'],
      ['block', 'First\nindented second'],
      ['block', 'all indented\nby four'],
    ]);
  });

  it('inline form inside a paragraph, content rendered as inline markdown', () => {
    const doc = parseWalkthrough('The struct <comment location="findDefinition(`User`)" icon="bug">holds *users*</comment> is central.');
    const [c] = only(doc, 'comment');
    expect(c).toMatchObject({ form: 'inline', location: 'findDefinition(`User`)', emoji: '🐛', content: 'holds *users*', line: 1 });
    expect(doc.contentTokens.get(c?.id ?? '')?.[0]?.children?.map((t) => t.type)).toContain('em_open');
  });

  it('fenced form with location:, icon: and a body; lines are those of the source', () => {
    const doc = parseWalkthrough(['Intro', '', '```comment', 'location: findDefinition("Config", file: "src/config.rs")', 'icon: warning', '', 'Body **here**.', '```'].join('\n'));
    const [c] = only(doc, 'comment');
    expect(c).toMatchObject({ form: 'fenced', line: 3, location: 'findDefinition("Config", file: "src/config.rs")', icon: 'warning', emoji: '⚠️', content: 'Body **here**.' });
    expect(doc.warnings).toEqual([]);
  });

  it('decodes entities in attributes and keeps quotes of the other kind', () => {
    const doc = parseWalkthrough(`<comment location='findDefinition("a")'>x</comment>\n\n<comment location="findDefinition(&quot;b&quot;) &amp;&#x41;">y</comment>`);
    expect(only(doc, 'comment').map((c) => c.location)).toEqual(['findDefinition("a")', 'findDefinition("b") &A']);
  });

  it('without location: a warning, and the comment is kept (it will show as unresolved)', () => {
    const doc = parseWalkthrough('<comment icon="info">no location</comment>');
    expect(only(doc, 'comment')[0]?.location).toBeUndefined();
    expect(doc.warnings).toMatchObject([{ code: WarningCode.MissingAttribute, elementId: 'comment-1', line: 1 }]);
  });

  it('unknown icons fall back to the default with a suggestion; an emoji works as an icon', () => {
    const doc = parseWalkthrough('<comment location="a()" icon="lightbulp">x</comment>\n\n<comment location="b()" icon="🎯">y</comment>');
    expect(only(doc, 'comment').map((c) => c.emoji)).toEqual(['💬', '🎯']);
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatchObject({ code: WarningCode.UnknownIcon, elementId: 'comment-1' });
    expect(doc.warnings[0]?.message).toContain('did you mean "lightbulb"');
    // The page shows the warning: no emoji in it (an empty box without an emoji font).
    expect(doc.warnings[0]?.message).toContain('using the default icon, "comment"');
    expect(doc.warnings[0]?.message).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});

describe('action', () => {
  it('block, inline and fenced forms', () => {
    const doc = parseWalkthrough(
      ['<action button="Add tests">', 'Please add tests for `validate_token`.', '</action>', '', 'Or <action button="Explain">explain Config</action> now.', '', '```action', 'button: Refactor', '', 'Split the service.', '```'].join('\n'),
    );
    expect(only(doc, 'action').map((a) => [a.form, a.button, a.message])).toEqual([
      ['block', 'Add tests', 'Please add tests for `validate_token`.'],
      ['inline', 'Explain', 'explain Config'],
      ['fenced', 'Refactor', 'Split the service.'],
    ]);
    expect(doc.warnings).toEqual([]);
  });

  it('without button: a warning and a default label', () => {
    const doc = parseWalkthrough('<action>do it</action>');
    expect(only(doc, 'action')[0]?.button).toBe('Action');
    expect(codes(doc)).toEqual([WarningCode.MissingAttribute]);
  });
});

describe('mermaid', () => {
  it('block, inline and fenced forms keep the diagram text verbatim', () => {
    const diagram = 'flowchart TD\n  A[Start] --> B{"x < y & z"}';
    const doc = parseWalkthrough(`<mermaid>\n${diagram}\n</mermaid>\n\nInline <mermaid>graph LR; A-->B</mermaid> too.\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n`);
    expect(only(doc, 'mermaid').map((m) => [m.form, m.source])).toEqual([
      ['block', diagram],
      ['inline', 'graph LR; A-->B'],
      ['fenced', diagram],
    ]);
  });

  it('an empty diagram warns', () => {
    expect(codes(parseWalkthrough('<mermaid></mermaid>'))).toEqual([WarningCode.EmptyContent]);
  });
});

describe('gitdiff', () => {
  it('block (self-closing and closed), inline and fenced forms with flags', () => {
    const doc = parseWalkthrough(
      [
        '<gitdiff range="HEAD~2..HEAD" exclude-unstaged exclude-staged />',
        '',
        '<gitdiff range="main"></gitdiff>',
        '',
        'See <gitdiff range="HEAD~1" exclude-staged /> inline.',
        '',
        '```gitdiff(range="abc123", exclude-unstaged, exclude-staged)',
        '```',
        '',
        '```gitdiff',
        '```',
      ].join('\n'),
    );
    expect(only(doc, 'gitdiff').map((g) => [g.form, g.range, g.excludeUnstaged, g.excludeStaged])).toEqual([
      ['block', 'HEAD~2..HEAD', true, true],
      ['block', 'main', false, false],
      ['inline', 'HEAD~1', false, true],
      ['fenced', 'abc123', true, true],
      ['fenced', undefined, false, false],
    ]);
    expect(doc.warnings).toEqual([]);
  });

  it('flags with values, unknown attributes and content warn', () => {
    const doc = parseWalkthrough('<gitdiff range="HEAD" exclude-staged="yes" colour="red">text</gitdiff>');
    expect(codes(doc).sort()).toEqual([WarningCode.IgnoredContent, WarningCode.InvalidAttribute, WarningCode.UnknownAttribute].sort());
    expect(doc.warnings.every((w) => w.elementId === 'gitdiff-1')).toBe(true);
  });

  it('a malformed fence argument list warns', () => {
    const doc = parseWalkthrough('```gitdiff(range="HEAD"\n```');
    expect(codes(doc)).toEqual([WarningCode.MalformedElement]);
  });
});

describe('warnings for what is not ours', () => {
  it('unknown elements are text with a warning (with a suggestion for a near miss)', () => {
    const doc = parseWalkthrough('A <div class="x">box</div> and <Comment location="a()">x</Comment>.');
    expect(doc.elements).toEqual([]);
    expect(codes(doc)).toEqual([WarningCode.UnknownElement, WarningCode.UnknownElement]);
    expect(doc.warnings[1]?.message).toContain('Did you mean <comment>?');
    const html = resolvedWithoutEnvironment(doc).html;
    expect(html).toContain('A &lt;div class=&quot;x&quot;&gt;<span class="wt-warning"');
    expect(html).toContain('box&lt;/div&gt;');
    expect(html).not.toContain('<div class="x">');
  });

  it('raw HTML blocks, comments and declarations are shown as text', () => {
    const doc = parseWalkthrough('<details>\n<summary>s</summary>\n</details>\n\n<!-- hidden? -->\n\n<!DOCTYPE html>');
    expect(codes(doc)).toEqual([WarningCode.UnknownElement, WarningCode.UnknownElement, WarningCode.HtmlNotAllowed, WarningCode.HtmlNotAllowed]);
    const html = resolvedWithoutEnvironment(doc).html;
    expect(html).toContain('&lt;!-- hidden? --&gt;');
    expect(html).not.toMatch(/<details|<summary|<!--/);
  });

  it('malformed and unclosed elements, and stray closing tags', () => {
    const doc = parseWalkthrough('<comment location="oops>text</comment>\n\n<action button="x">never closed\n\nthen </mermaid>');
    expect(codes(doc)).toEqual([WarningCode.MalformedElement, WarningCode.UnexpectedClosingTag, WarningCode.UnclosedElement, WarningCode.UnexpectedClosingTag]);
    expect(doc.warnings.map((w) => w.line)).toEqual([1, 1, 3, 5]);
    expect(doc.elements).toEqual([]);
  });

  it('elements inside a comment are not allowed', () => {
    const doc = parseWalkthrough('<comment location="a()">\nsee <action button="b">x</action>\n\n```mermaid\ngraph TD\n```\n</comment>');
    expect(only(doc, 'comment')).toHaveLength(1);
    expect(only(doc, 'action')).toHaveLength(0);
    expect(codes(doc)).toEqual([WarningCode.NestedElement, WarningCode.NestedElement]);
    expect(doc.warnings.map((w) => w.line)).toEqual([2, 4]);
  });

  it('an element in a code span or code block is code, not an element', () => {
    const doc = parseWalkthrough('Write `<comment location="x">` like this:\n\n```xml\n<comment location="x">y</comment>\n```\n\n    <gitdiff />\n');
    expect(doc.elements).toEqual([]);
    expect(doc.warnings).toEqual([]);
  });

  it('duplicate attributes: the first wins', () => {
    const doc = parseWalkthrough('<comment location="a()" location="b()">x</comment>');
    expect(only(doc, 'comment')[0]?.location).toBe('a()');
    expect(codes(doc)).toEqual([WarningCode.DuplicateAttribute]);
  });

  it('images are not loaded: alt text and a warning', () => {
    const doc = parseWalkthrough('![diagram](https://example.com/x.png)');
    expect(codes(doc)).toEqual([WarningCode.ImageNotShown]);
    expect(resolvedWithoutEnvironment(doc).html).not.toContain('<img');
  });
});

describe('file links', () => {
  it('recognises lines, ranges, regexes, files and the [path:line][] shorthand', () => {
    const doc = parseWalkthrough(
      [
        'See [a](src/a.rs#L42), [b](src/a.rs#L42-L50), [c](<src/b.rs?fn main>), [d](src/c.rs), [e](./src/d.rs:7),',
        '[src/e.rs:3][], [`src/f.rs:9-12`][], [web](https://example.com), [anchor](#top), [mail](mailto:a@b.c).',
      ].join('\n'),
    );
    expect(doc.links.map(({ id: _id, ...l }) => l)).toEqual([
      { line: 1, path: 'src/a.rs', startLine: 42 },
      { line: 1, path: 'src/a.rs', startLine: 42, endLine: 50 },
      { line: 1, path: 'src/b.rs', regex: 'fn main' },
      { line: 1, path: 'src/c.rs' },
      { line: 1, path: 'src/d.rs', startLine: 7 },
      { line: 1, path: 'src/e.rs', startLine: 3 },
      { line: 1, path: 'src/f.rs', startLine: 9, endLine: 12 },
    ]);
    expect(doc.links.map((l) => l.id)).toEqual(['link-1', 'link-2', 'link-3', 'link-4', 'link-5', 'link-6', 'link-7']);
  });

  it('a defined reference wins over the shorthand', () => {
    const doc = parseWalkthrough('[src/a.rs:3][]\n\n[src/a.rs:3]: https://example.com/a');
    expect(doc.links).toEqual([]);
  });

  it('file links in comment content are recorded too', () => {
    const doc = parseWalkthrough('<comment location="a()">\nsee [x](src/x.rs#L2)\n</comment>');
    expect(doc.links).toMatchObject([{ path: 'src/x.rs', startLine: 2, line: 2 }]);
  });

  it('parseFileHref leaves URLs alone', () => {
    for (const href of ['https://a.b/c', 'http://x:80', 'mailto:x@y', '#L3', '//cdn/x.js', '', 'javascript:alert(1)']) expect(parseFileHref(href)).toBeUndefined();
    expect(parseFileHref('main.rs:12:5')).toEqual({ path: 'main.rs', startLine: 12, column: 5 });
    expect(parseFileHref('README.md#usage')).toEqual({ path: 'README.md' });
    expect(parseFileHref('src/a.rs#L5C3')).toEqual({ path: 'src/a.rs', startLine: 5, column: 3 });
  });
});

describe('the document', () => {
  it('numbers elements per kind in document order, whatever rule found them', () => {
    const doc = parseWalkthrough('x <comment location="a()">inline</comment>\n\n```comment\nlocation: b()\n\nfenced\n```\n\n<comment location="c()">\nblock\n</comment>\n');
    expect(only(doc, 'comment').map((c) => [c.id, c.location])).toEqual([
      ['comment-1', 'a()'],
      ['comment-2', 'b()'],
      ['comment-3', 'c()'],
    ]);
  });

  it('takes the title from the first heading', () => {
    expect(parseWalkthrough('intro\n\n## The `auth` flow\n\n# Later').title).toBe('The auth flow');
    expect(parseWalkthrough('no heading').title).toBeUndefined();
  });

  it('works inside lists and blockquotes, and tables are GFM', () => {
    const doc = parseWalkthrough('- item\n\n  <comment location="a()">\n  in a list\n  </comment>\n\n> <gitdiff range="HEAD" />\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(doc.elements.map((e) => e.kind)).toEqual(['comment', 'gitdiff']);
    expect(doc.tokens.map((t) => t.type)).toContain('table_open');
  });

  it('never throws and always renders, whatever the input (property)', () => {
    const fragments = fc.constantFrom(
      '<comment', '<comment location="', '">', '</comment>', '<action button=x>', '</action>', '<mermaid>', '</mermaid>', '<gitdiff', '/>', '```', '```comment\n',
      '```gitdiff(', 'location: ', '\n', '\n\n', '[a](b#L1)', '[x:1][]', '<', '>', '"', "'", '&#x0;', '&quot;', '`', '    ', '> ', '- ', '|a|b|\n|-|-|\n', '<div>', '<!--', ']]>', '\u2028',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragments, fc.string({ maxLength: 6 })), { maxLength: 40 }), (parts) => {
        const doc = parseWalkthrough(parts.join(''));
        expect(doc.warnings.every((w) => w.code !== WarningCode.InternalError)).toBe(true);
        const { html } = resolvedWithoutEnvironment(doc);
        expect(typeof html).toBe('string');
      }),
      { numRuns: 400 },
    );
  });
});

describe('large and pathological input', () => {
  const time = (markdown: string): number => {
    const started = performance.now();
    parseWalkthrough(markdown);
    return performance.now() - started;
  };

  it('parses a long element, and many unclosed or malformed tags, in linear time', () => {
    const lines = 20_000;
    const cases = {
      longComment: `<comment location="a()">\n${'Some text about the code here.\n'.repeat(lines)}</comment>\n`,
      unclosedBlocks: '<comment location="a()">\n'.repeat(lines),
      unclosedInline: `${'text <comment location="a()"> more '.repeat(lines)}\n`,
      unterminatedQuotes: `${'<action button="x '.repeat(lines)}\n`,
      manyElements: '<comment location="a()">x</comment>\n\n'.repeat(lines / 4),
    };
    for (const [name, markdown] of Object.entries(cases)) {
      const ms = time(markdown);
      expect(ms, `${name} took ${Math.round(ms)} ms`).toBeLessThan(4000);
    }
  });
});
