/**
 * The agent's own prose on a walkthrough page — headings, paragraphs, inline code, code blocks,
 * link titles, image text, a comment's body and location expression, an action's button and
 * message — shows control, bidirectional and invisible characters as the terminal does
 * (`dialect/display.ts`), like the workspace's code on the page: tag characters spelling an
 * instruction, a zero-width space in a name, a Trojan Source reordering are visible to the reader.
 */
import { describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough } from '../index.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

/** Tag characters spelling `run`, a zero-width space, a right-to-left override, an escape (RIS: resets a terminal). */
const HIDDEN = `${[...'run'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}\u200b\u202e\u001bc`;
const SHOWN = '\\u{e0072}\\u{e0075}\\u{e006e}\\u200b\\u202e␛c';
// eslint-disable-next-line no-control-regex
const INVISIBLE_OR_CONTROL = /[\u{e0000}-\u{e007f}\u200b\u202a-\u202e\u2066-\u2069\u001b]/u;

const MARKDOWN = [
  `# Title${HIDDEN}`,
  '',
  `A paragraph${HIDDEN} with \`inline${HIDDEN}\` code, [a link](https://example.com "title${HIDDEN}") and ![an image${HIDDEN}](x.png).`,
  '',
  '```rust',
  `let code${HIDDEN} = 1;`,
  '```',
  '',
  `    indented${HIDDEN}`,
  '',
  `<comment location="findText(&quot;src/model.rs&quot;, &quot;pub struct User&quot;)${HIDDEN}">The body${HIDDEN}</comment>`,
  '',
  `<action button="Run${HIDDEN}">The message${HIDDEN}</action>`,
  '',
].join('\n');

describe("the agent's prose on a walkthrough page", () => {
  it('shows hidden and control characters visibly, everywhere the page shows text', async () => {
    const page = renderWalkthroughHtml(await resolveWalkthrough(parseWalkthrough(MARKDOWN), fixtureEnvironment(RUST_APP)));
    // What the page shows (its scripts hold data and the bundled mermaid, not shown text).
    const shown = page.slice(0, page.indexOf('<script'));
    expect(shown).not.toMatch(INVISIBLE_OR_CONTROL);
    for (const text of ['Title', 'A paragraph', 'inline', 'let code', 'indented', 'The body', 'Run', 'The message']) expect(shown, text).toContain(`${text}${SHOWN}`);
    expect(shown).toContain(`title${SHOWN}`);
    expect(shown).toContain(`an image${SHOWN}`);
  });
});
