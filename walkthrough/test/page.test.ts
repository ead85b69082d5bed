import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineScript, jsonForScript, escapeHtml } from '../html.js';
import {
  contentSecurityPolicy, ICON_NAMES, iconEmoji, iconSvg, mermaidPath, pageIcon, parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, summarizeWalkthrough, walkthroughToJson, WalkthroughError,
} from '../index.js';
import { renderWalkthroughFile } from './support/render-file.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

const env = fixtureEnvironment(RUST_APP);
const render = async (markdown: string, nonce?: string): Promise<string> =>
  renderWalkthroughHtml(await resolveWalkthrough(parseWalkthrough(markdown), env), nonce !== undefined ? { nonce } : {});

describe('escaping', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('JSON in a script element cannot end the element, open a comment or break JavaScript', () => {
    const value = { s: '</script><!-- <script> & \u2028 \u2029 >' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('inlined scripts cannot close their element', () => {
    expect(inlineScript('const s = "</script>"; const r = /<\\/script>/i;', 'x')).toBe('const s = "<\\/script>"; const r = /<\\/script>/i;');
    expect(() => inlineScript('"<!--" + "<script>"', 'x')).toThrow(WalkthroughError);
  });
});

describe('the page', () => {
  it('has a strict CSP with a fresh nonce per render, and style attributes only for diagrams', async () => {
    const decode = (html: string): string => html.replace(/&#39;/g, "'");
    const a = decode(await render('# A\n\ntext'));
    const b = decode(await render('# A\n\ntext'));
    const nonceOf = (html: string): string => /script-src 'nonce-([^']+)'/.exec(html)?.[1] ?? '';
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    expect(nonceOf(a)).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(a).toContain(`content="default-src 'none'; script-src 'nonce-${nonceOf(a)}'; style-src 'nonce-${nonceOf(a)}'; base-uri 'none'; form-action 'none'"`);
    const withDiagram = decode(await render('<mermaid>graph TD; A-->B</mermaid>', 'AAAAAAAAAAAAAAAAAAAAAAAA'));
    expect(withDiagram).toContain(`content="${contentSecurityPolicy('AAAAAAAAAAAAAAAAAAAAAAAA', true)}"`);
    expect(contentSecurityPolicy('N', true)).toBe("default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N'; style-src-attr 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    await expect(render('x', 'bad nonce"')).rejects.toBeInstanceOf(WalkthroughError);
  });

  it('every script and style carries the nonce; no inline handlers or style attributes in our markup', async () => {
    const nonce = 'BBBBBBBBBBBBBBBBBBBBBBBB';
    const html = await render(
      '# T\n\n<comment location=\'findDefinition("validate_token")\'>x</comment>\n\n<comment location=\'findDefinition("authenticate")\'>y</comment>\n\n<mermaid>graph TD; A-->B</mermaid>\n\n<action button="Go">go</action>\n\n<gitdiff range="nope..HEAD" />',
      nonce,
    );
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    // The data, mermaid, DOMPurify (for mermaid's SVG) and the page script.
    expect(scripts).toEqual(['<script type="application/json" id="wt-data">', `<script nonce="${nonce}">`, `<script nonce="${nonce}">`, `<script nonce="${nonce}">`]);
    const outsideScripts = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
    expect(outsideScripts.match(/<style\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`]);
    const body = html.slice(html.indexOf('<body>'), html.indexOf('<script'));
    const tags = body.match(/<[a-zA-Z][^>]*>/g) ?? [];
    for (const tag of tags) expect(tag.replace(/="[^"]*"/g, '=""')).not.toMatch(/\s(on[a-z]+|style)=/i);
  });

  it('inlines mermaid from the installed package, only when there are diagrams', async () => {
    const resolved = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
    expect(mermaidPath()).toBe(resolved);
    expect((await render('<mermaid>graph TD; A-->B</mermaid>')).length).toBeGreaterThan(3_000_000);
    expect((await render('no diagrams')).length).toBeLessThan(100_000);
  });

  it('maps icon names to emoji', () => {
    expect(['lightbulb', 'warning', 'info', 'question', 'bug', 'check', 'Lightbulb'].map(iconEmoji)).toEqual(['💡', '⚠️', 'ℹ️', '❓', '🐛', '✅', '💡']);
    expect(iconEmoji('nonsense')).toBeUndefined();
    expect(iconEmoji('🚀')).toBe('🚀');
    expect(iconEmoji('🚀🚀')).toBeUndefined();
  });

  it('draws every icon name as an inline SVG; an author emoji of the table is drawn as its name, any other as the default, labelled with the emoji', () => {
    for (const name of ICON_NAMES) {
      const { drawing, label } = pageIcon(name);
      expect(label).toBe(name);
      const svg = iconSvg(drawing);
      expect(svg).toMatch(/^<svg class="wt-svg wt-svg-[a-z]+" viewBox="0 0 16 16" width="16" height="16" [^>]*aria-hidden="true" focusable="false">(<(path|circle|rect|ellipse) [^<>]*\/>)+<\/svg>$/);
      // Nothing the CSP or an offline page would block: no style, no reference, no script.
      expect(svg).not.toMatch(/style=|href|url\(|<script|\son[a-z]+=/i);
      expect(svg).not.toMatch(/\p{Extended_Pictographic}/u);
    }
    expect(pageIcon(' Lightbulb ')).toEqual({ drawing: 'lightbulb', label: 'lightbulb' });
    expect(pageIcon('💡')).toEqual({ drawing: 'lightbulb', label: 'lightbulb' });
    expect(pageIcon('⚠')).toEqual({ drawing: 'warning', label: 'warning' }); // without the emoji selector too
    expect(pageIcon('🦀')).toEqual({ drawing: 'comment', label: '🦀' });
    expect(pageIcon('nonsense')).toEqual({ drawing: 'comment', label: 'comment' });
  });

  it('renders a comment icon as SVG with a screen-reader label, never the emoji', async () => {
    const html = await render('<comment location=\'findDefinition("authenticate")\' icon="bug">x</comment>\n\n<comment location=\'findDefinition("authenticate")\' icon="🦀">y</comment>\n');
    const icons = html.match(/<span class="wt-icon">[\s\S]*?<\/span><\/span>/g) ?? [];
    expect(icons).toHaveLength(2);
    expect(icons[0]).toContain('<svg class="wt-svg wt-svg-bug"');
    expect(icons[0]).toContain('<span class="wt-sr-only">bug</span>');
    expect(icons[0]).not.toContain('🐛');
    expect(icons[1]).toContain('<svg class="wt-svg wt-svg-comment"');
    expect(icons[1]).toContain('<span class="wt-sr-only">🦀</span>');
  });
});

describe("the language servers' notes", () => {
  const NOTE = 'rust-analyzer could not load the Rust standard library: its sources are not installed; std names are not found. Fix: apt-get install -y rust-web-src.';
  const noted = fixtureEnvironment(RUST_APP, { indexNote: NOTE });
  const markdown = [
    '# Notes',
    '',
    '<comment location=\'findDefinition("authenticate")\'>First.</comment>',
    '',
    '<comment location=\'findDefinition("validate_token")\'>Second, ambiguous.</comment>',
    '',
    'Inline: <comment location=\'findDefinition("Config", file: "src/config.rs")\'>third</comment>.',
    '',
  ].join('\n');
  /** The page without its scripts (the JSON model keeps each comment's notes, for hosts). */
  const markup = (html: string): string => html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');

  it('are not inside any comment; the page footer shows each once, and the summary lists it once', async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough(markdown), noted);
    expect(resolved.comments.map((c) => c.notes.filter((n) => n === NOTE).length)).toEqual([1, 1, 1]);
    const page = markup(renderWalkthroughHtml(resolved));
    const body = page.slice(page.indexOf('<main'), page.indexOf('</main>'));
    expect(body).not.toContain('wt-note');
    expect(body).not.toContain('standard library');
    const footer = /<footer class="wt-footer">[\s\S]*?<\/footer>/.exec(page)?.[0] ?? '';
    expect(footer).toContain('Notes from the language servers:');
    expect(footer.match(/<li class="wt-note">/g)).toHaveLength(1);
    expect(page.split(escapeHtml(NOTE)).length - 1).toBe(1);
    const summary = summarizeWalkthrough(resolved);
    expect(summary.split(NOTE).length - 1).toBe(1);
    expect(summary).toContain('Notes from the language servers');
    // The JSON keeps them per comment, as before.
    expect(walkthroughToJson(resolved).comments.map((c) => c.notes)).toEqual([[NOTE], [NOTE], [NOTE]]);
  });

  it('a walkthrough without notes has no footer and no notes section', async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough(markdown), env);
    expect(renderWalkthroughHtml(resolved)).not.toContain('<footer');
    expect(summarizeWalkthrough(resolved)).not.toContain('Notes from');
  });
});

describe('renderWalkthroughFile', () => {
  it('reads, resolves and renders a file: HTML, JSON and summary; the title falls back to the file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-file-'));
    try {
      const path = join(dir, 'auth-notes.md');
      writeFileSync(path, 'Intro.\n\n<comment location=\'findDefinition("authenticate")\'>Here.</comment>\n');
      const out = await renderWalkthroughFile(path, env);
      expect(out.json.title).toBeNull();
      expect(out.html).toContain('<title>auth-notes</title>');
      expect(out.json.counts.resolved).toBe(1);
      expect(out.summary).toContain('Everything resolved.');
      await expect(renderWalkthroughFile(join(dir, 'missing.md'), env)).rejects.toMatchObject({ code: 'read-failed' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
