/**
 * Hover text is server data as long as a workspace's doc comments make it: read in one pass and
 * cut to a bound first. The reading is the plain regex reading on every hover under the bound, and a hover of a million blank lines — which held
 * the thread for minutes — is read in well under the bound below.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HoverInfo } from '../backend.js';
import { capHover, MAX_HOVER_CHARS, readHover, type HoverSignature } from '../lsp/hover.js';
import { uriToPath } from '../lsp/uris.js';

/**
 * The reading, written plainly with regexes (which rescan runs of blank lines): the signature is one
 * of the code blocks the hover opens with (blanks before them, no rule between them), chosen by the
 * layout, or else the block it closes with; the rest is documentation, rules dropped from its prose,
 * its own code blocks kept.
 */
function referenceReading(markdown: string, layout: HoverSignature, toWorkspacePath: (abs: string) => string | undefined): HoverInfo {
  const linked = markdown.replace(/file:\/\/[^\s)#]+(?:#L?(\d+)(?:[,:](\d+))?[^\s)]*)?/g, (uri: string, line?: string, column?: string) => {
    const abs = uriToPath(uri.replace(/#.*$/, ''));
    const path = abs === undefined ? undefined : toWorkspacePath(abs);
    if (path === undefined) return uri;
    return `${path}${line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ''}` : ''}`;
  });
  if (linked.trim() === '') return {};
  const noRules = (text: string): string => text.replace(/^\s*---\s*$/gm, '');
  const matches = [...linked.matchAll(/```[a-zA-Z0-9_-]*\n([\s\S]*?)```/g)];
  const before = matches.map((m, i) => linked.slice(i === 0 ? 0 : (matches[i - 1]?.index ?? 0) + (matches[i - 1]?.[0].length ?? 0), m.index));
  const lastMatch = matches[matches.length - 1];
  const after = lastMatch === undefined ? linked : linked.slice(lastMatch.index + lastMatch[0].length);
  let leading = 0;
  while (leading < matches.length && (leading === 0 ? noRules(before[0] ?? '') : (before[leading] ?? '')).trim() === '') leading++;
  const closing = leading === 0 && matches.length > 0 && noRules(after).trim() === '';
  const at = leading > 0 ? (layout === 'first-code-block' ? 0 : leading - 1) : closing ? matches.length - 1 : -1;
  const doc = matches.map((m, i) => noRules(before[i] ?? '') + (i >= leading && i !== at ? m[0] : '')).join('') + noRules(after);
  const signature = matches[at]?.[1]?.trim();
  const rest = doc.trim();
  return { ...(signature !== undefined ? { signature } : {}), ...(rest !== '' ? { documentation: rest } : {}) };
}

const root = '/work/space';
const inside = (abs: string): string | undefined => (abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : undefined);
const layouts: HoverSignature[] = ['first-code-block', 'last-code-block'];

describe('hover text is read as the plain reading says', () => {
  const hovers = [
    // rust-analyzer: module path, signature, rule, docs with a link into the workspace and one out.
    '```rust\nmy_crate::auth\n```\n\n```rust\npub fn validate_token(token: &str) -> bool\n```\n\n---\n\nChecks a token.\n\nSee [`Claims`](file:///work/space/src/claims.rs#L4,8) and [core](file:///usr/lib/rust/core.rs#L1).',
    // rust-analyzer with sections: size/align note between rules.
    '```rust\nmy_crate\n```\n\n```rust\npub struct User {\n    pub name: String,\n}\n```\n\n---\n\nsize = 24, align = 0x8\n\n---\n\nA user.\n\n# Examples\n\n```rust\nlet u = User::default();\n```',
    // pyright: a docstring with an example between prose (encode/httpx's `Client.request`).
    '```python\n(method) def request(self) -> Response\n```\n---\nBuild and send a request.\n\n```python\nresponse = client.send(request)\n```\n\nSee `Client.send()`.',
    // clangd: the declaration closes the hover.
    '### function `add`\n\n---\n→ `int`\n\n---\nAdds.\n\n---\n```cpp\nint add(int a, int b)\n```',
    // tsgo: one code block and docs.
    '```typescript\nfunction validateToken(token: string): boolean\n```\nChecks a token.\n\n*@param* `token` — the token',
    // CRLF line ends, indented rules, trailing blanks.
    '```ts\nconst x: number\n```\r\n\r\n  ---  \r\n\r\ndocs\r\n---\r\n\r\n\r\n',
    'Just words.',
    '  \n',
    '---',
    '---\n---\n\n\n---\ntext\n   \n---',
  ];

  it.each(hovers.flatMap((h) => layouts.map((l) => [l, h] as const)))('%s: %j', (layout, markdown) => {
    expect(readHover(markdown, { layout, toWorkspacePath: inside })).toEqual(referenceReading(markdown, layout, inside));
  });

  it('on any text made of the characters that matter', () => {
    const pieces = ['-', '---', ' ', '\t', '\n', '\r', '\r\n', '\u2028', '\u00a0', 'a', '`', '```', '```rust\n', 'file:///work/space/a.rs#L2', '#', ')'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.constantFrom(...layouts), (parts, layout) => {
        const markdown = parts.join('');
        expect(readHover(markdown, { layout, toWorkspacePath: inside })).toEqual(referenceReading(markdown, layout, inside));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('hover text is read in linear time, and bounded', () => {
  it('a doc comment of a million blank lines is read within a bound (the regex took minutes)', () => {
    for (const blank of ['\n', ' \n', '\r\n']) {
      const markdown = `\`\`\`rust\nfn f()\n\`\`\`\n\n---\n${blank.repeat(1_000_000)}text after\n${blank.repeat(1_000_000)}`;
      const started = performance.now();
      const info = readHover(markdown, { toWorkspacePath: inside });
      // Generous for a loaded 2-core machine: the one pass takes milliseconds.
      expect(performance.now() - started).toBeLessThan(2000);
      expect(info.signature).toBe('fn f()');
      // Cut before reading: the text after the blank lines is past the bound.
      expect(info.documentation).toMatch(/^… \(the hover text was cut at 100,000 characters\)$/);
    }
  });

  it('a rule after a million blank lines within the bound is read within a bound too', () => {
    const markdown = `docs\n${'\n'.repeat(MAX_HOVER_CHARS - 20)}---\nmore`;
    const started = performance.now();
    expect(readHover(markdown, { toWorkspacePath: inside })).toEqual({ documentation: 'docs\n\nmore' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a long hover is cut at the bound, with a marker that it was', () => {
    const long = `\`\`\`rust\nfn f()\n\`\`\`\n\n${'word '.repeat(MAX_HOVER_CHARS)}`;
    const info = readHover(long, { toWorkspacePath: inside });
    expect(info.signature).toBe('fn f()');
    expect(info.documentation?.length).toBeLessThanOrEqual(MAX_HOVER_CHARS + 100);
    // (Booleans: a failure must not print 100,000 characters.)
    expect(info.documentation?.startsWith('word word')).toBe(true);
    expect(info.documentation?.endsWith('\n\n… (the hover text was cut at 100,000 characters)')).toBe(true);
    // Cut once, by the policy that reads it first, and again by the reading: the same text.
    const cut = capHover(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_HOVER_CHARS);
    expect(capHover(cut) === cut).toBe(true);
    // Under the bound, nothing is cut.
    expect(readHover('docs', { toWorkspacePath: inside })).toEqual({ documentation: 'docs' });
  });
});
