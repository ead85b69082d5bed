/**
 * The rendered page in a real browser (headless Debian Chromium): mermaid draws SVG under the
 * strict CSP, comments reveal their code, ambiguous comments are placed by choosing, actions reach
 * the host or the clipboard, and nothing our page does is blocked by its own policy.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICON_NAMES, parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, type ResolvedWalkthrough, type WalkthroughEnvironment } from '../index.js';
import { ARTIFACTS, chromiumAvailable, launchChromium, screenshot, servePages, watchPage, type LaunchedBrowser, type PageServer, type PageWatch } from './support/browser.js';
import { RUST_APP, fixtureEnvironment, locate } from './support/fixture-env.js';
import { createSampleRepository, type SampleRepository } from './support/git-repo.js';

const TOUR = fileURLToPath(new URL('../../fixtures/walkthroughs/rust-tour.md', import.meta.url));
const available = chromiumAvailable();

let browser: LaunchedBrowser;
let server: PageServer;
let repo: SampleRepository;
let resolved: ResolvedWalkthrough;
let html: string;
let fileDir: string;

const HOST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head><body>
<iframe id="frame" src="/page.html" width="1000" height="800"></iframe>
<script>window.__messages = []; window.addEventListener('message', (e) => window.__messages.push(e.data));</script>
</body></html>`;

describe.skipIf(!available)('the walkthrough page in Chromium', () => {
  beforeAll(async () => {
    repo = createSampleRepository();
    const git = fixtureEnvironment(repo.root);
    const env: WalkthroughEnvironment = { ...fixtureEnvironment(RUST_APP), gitDiff: (range, options) => git.gitDiff(range, options) };
    resolved = await resolveWalkthrough(parseWalkthrough(readFileSync(TOUR, 'utf8')), env);
    html = renderWalkthroughHtml(resolved);
    fileDir = mkdtempSync(join(tmpdir(), 'wt-page-'));
    writeFileSync(join(fileDir, 'page.html'), html);
    server = await servePages({ 'page.html': html, 'host.html': HOST_PAGE });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    repo?.dispose();
    if (fileDir !== undefined) rmSync(fileDir, { recursive: true, force: true });
  });

  async function open(url: string, options: { scheme?: 'light' | 'dark'; before?: (page: Page) => Promise<void> } = {}): Promise<{ page: Page; watch: PageWatch }> {
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme: options.scheme ?? 'light' });
    const watch = await watchPage(page);
    await options.before?.(page);
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]:is([data-mermaid="done"], [data-mermaid="none"])');
    return { page, watch };
  }

  async function expectClean(watch: PageWatch): Promise<void> {
    expect(await watch.violations()).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  }

  it('the fixture tour resolved as expected before it reaches the browser', () => {
    expect(resolved.comments.map((c) => c.resolution.status)).toEqual(['resolved', 'ambiguous', 'resolved', 'resolved', 'unresolved']);
    expect(resolved.diffs.map((d) => d.error)).toEqual([undefined, undefined, undefined]);
    expect(resolved.warnings).toEqual([]);
  });

  it('draws every diagram as styled SVG under the CSP, with no violations, in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, watch } = await open(server.url('page.html'), { scheme });
      expect(await page.locator('.wt-mermaid .wt-mermaid-output svg').count()).toBe(3);
      expect(await page.locator('.wt-mermaid-failed').count()).toBe(0);
      // Mermaid's own <style> applied (it carries our nonce): nodes are filled, not default black.
      const fill = await page.evaluate<string>(`getComputedStyle(document.querySelector('.wt-mermaid .node rect, .wt-mermaid .node polygon')).fill`);
      expect(fill).not.toBe('rgb(0, 0, 0)');
      const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
      expect(background).toBe(scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
      await screenshot(page, `tour-${scheme}`);
      await expectClean(watch);
      await page.close();
    }
  });

  it('works offline from file:// too', async () => {
    const { page, watch } = await open(`file://${join(fileDir, 'page.html')}`);
    expect(await page.locator('.wt-mermaid svg').count()).toBe(3);
    await expectClean(watch);
    await page.close();
  });

  it('clicking a comment reveals its code context; clicking again hides it', async () => {
    const { page, watch } = await open(server.url('page.html'));
    const target = locate(RUST_APP, 'src/auth.rs', 'pub fn authenticate');
    const comment = page.locator('#wt-comment-1');
    const context = comment.locator('.wt-context');
    expect(await comment.locator('.wt-loc').innerText()).toContain(`src/auth.rs:${target.start.line}`);
    expect(await context.isVisible()).toBe(false);
    await comment.locator('.wt-comment-body').click();
    expect(await context.isVisible()).toBe(true);
    expect(await context.locator('.wt-target').innerText()).toContain('pub fn authenticate');
    expect(await context.locator('.wt-target .wt-ln').innerText()).toBe(String(target.start.line));
    expect(await comment.locator('.wt-loc').getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'comment-context');
    await comment.locator('.wt-loc').click();
    expect(await context.isVisible()).toBe(false);
    // The inline comment too.
    const inline = page.locator('#wt-comment-3');
    await inline.locator('.wt-loc').click();
    expect(await inline.locator('.wt-context').innerText()).toContain('pub struct Config');
    // The unresolved one shows its error.
    expect(await page.locator('#wt-comment-5 .wt-error-text').innerText()).toContain('no declaration of "does_not_exist"');
    await expectClean(watch);
    await page.close();
  });

  it('an ambiguous comment is placed by choosing, and the magnifier chooses again', async () => {
    const { page, watch } = await open(server.url('page.html'));
    const comment = page.locator('#wt-comment-2');
    const choices = comment.locator('.wt-choices');
    const auth = locate(RUST_APP, 'src/auth.rs', 'fn validate_token');
    const util = locate(RUST_APP, 'src/util.rs', 'fn validate_token');
    expect(await choices.isVisible()).toBe(true);
    expect(await comment.locator('.wt-loc:visible').count()).toBe(0);
    expect(await comment.locator('.wt-magnifier').isVisible()).toBe(false);
    await screenshot(page, 'ambiguous-before');

    await comment.locator('.wt-choice[data-choice="1"]').click();
    expect(await choices.isVisible()).toBe(false);
    expect(await comment.locator('.wt-loc:visible').innerText()).toContain(`src/util.rs:${util.start.line}`);
    expect(await comment.locator('.wt-context[data-choice="1"]').isVisible()).toBe(true);
    expect(await comment.locator('.wt-context[data-choice="1"] .wt-target').innerText()).toContain('pub fn validate_token(token: &str) -> bool');
    expect(await comment.locator('.wt-magnifier').isVisible()).toBe(true);
    // The header counts the comment as placed now.
    const total = await page.locator('.wt-comment').count();
    const placed = await page.locator('.wt-comment.wt-resolved').count();
    expect(await page.locator('.wt-count-resolved').innerText()).toBe(`${placed + 1} of ${total} comments placed`);
    expect(await page.locator('.wt-count-ambiguous').isVisible()).toBe(await page.locator('.wt-comment.wt-ambiguous:not(.wt-placed)').count() > 0);
    await screenshot(page, 'ambiguous-placed');

    await comment.locator('.wt-magnifier').click();
    expect(await choices.isVisible()).toBe(true);
    await comment.locator('.wt-choice[data-choice="0"]').click();
    expect(await comment.locator('.wt-loc:visible').innerText()).toContain(`src/auth.rs:${auth.start.line}`);
    expect(await comment.locator('.wt-context[data-choice="1"]').isVisible()).toBe(false);
    await expectClean(watch);
    await page.close();
  });

  it('an action copies its message in a plain tab, with a visible confirmation', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const { page, watch } = await open(server.url('page.html'));
    const action = page.locator('#wt-action-1');
    await action.locator('.wt-action-button').click();
    const toast = action.locator('.wt-toast');
    await toast.waitFor({ state: 'visible' });
    expect(await toast.innerText()).toContain('Copied to the clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('Add unit tests for `validate_token` in `src/auth.rs`, covering a missing prefix.');
    await screenshot(page, 'action-copied');
    await expectClean(watch);
    await page.close();
  });

  it('in an iframe, actions, placements and file links are posted to the host page', async () => {
    const page = await browser.context.newPage();
    await page.goto(server.url('host.html'));
    const frame = page.frameLocator('#frame');
    await frame.locator('html[data-ready="true"][data-mermaid="done"]').waitFor({ state: 'attached' });
    await frame.locator('#wt-action-3 .wt-action-button').click();
    await frame.locator('#wt-comment-2 .wt-choice[data-choice="0"]').click();
    await frame.locator('.wt-file-link').first().click();
    await frame.locator('#wt-action-3 .wt-toast').waitFor({ state: 'visible' });
    expect(await frame.locator('#wt-action-3 .wt-toast').innerText()).toContain('Sent to the agent');
    const messages = await page.evaluate<{ type: string; message?: string; path?: string; line?: number; location?: { path: string } }[]>('window.__messages');
    expect(messages.map((m) => m.type)).toEqual(['action', 'placeComment', 'revealComment', 'openLocation']);
    expect(messages[0]).toMatchObject({ type: 'action', source: 'dialect-walkthrough', button: 'Rename the cheap check', message: 'Rename `util::validate_token` to `looks_like_token` and update its callers.' });
    expect(messages[1]?.location?.path).toBe('src/auth.rs');
    expect(messages[3]).toMatchObject({ path: 'src/auth.rs', line: locate(RUST_APP, 'src/auth.rs', 'pub fn authenticate').start.line });
    await page.close();
  });

  it('in a VS Code webview, messages go through acquireVsCodeApi', async () => {
    const { page, watch } = await open(server.url('page.html'), {
      before: async (p) => {
        await p.addInitScript({ content: 'window.__vscode = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__vscode.push(m) });' });
      },
    });
    await page.locator('#wt-action-2 .wt-action-button').click();
    // First the page says it is ready (the host re-sends the reader's choices then), then the action.
    expect(await page.evaluate<unknown[]>('window.__vscode')).toMatchObject([{ type: 'ready' }, { type: 'action', button: 'Explain Config', message: 'Explain the difference between the two `Config` structs.' }]);
    await expectClean(watch);
    await page.close();
  });

  it('the theme toggle switches palettes and redraws diagrams; diff files and hunks collapse', async () => {
    const { page, watch } = await open(server.url('page.html'), { scheme: 'light' });
    await page.locator('.wt-theme-toggle').click();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.waitForSelector('html[data-mermaid="done"] .wt-mermaid[data-theme-rendered="dark"]');
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(13, 17, 23)');
    const file = page.locator('#wt-gitdiff-1 .wt-diff-file').first();
    await file.locator('.wt-diff-file-head').click();
    expect(await file.locator(':scope > .wt-collapsible').isVisible()).toBe(false);
    expect(await file.locator('.wt-diff-file-head').getAttribute('aria-expanded')).toBe('false');
    await file.locator('.wt-diff-file-head').click();
    const hunk = file.locator('.wt-hunk').first();
    await hunk.locator('.wt-hunk-head').click();
    expect(await hunk.locator('.wt-collapsible').isVisible()).toBe(false);
    expect(await page.locator('#wt-gitdiff-1 .wt-line-added').count()).toBeGreaterThan(0);
    await screenshot(page, 'tour-dark-toggled');
    await expectClean(watch);
    await page.close();
  });

  it('every comment icon is a drawn SVG of non-zero size, never emoji text; the notes are only in the footer, once', async () => {
    const note = 'rust-analyzer could not load the Rust standard library: its sources are not installed; std names are not found.';
    const at = (icon: string, text: string): string => `<comment location='findDefinition("authenticate")' icon="${icon}">${text}</comment>`;
    // Every name, an author's emoji of the table (drawn as its name) and one that is not (the default drawing), an unknown name (a warning).
    const written = [...ICON_NAMES, '💡', '🦀', 'nonsense'];
    const markdown = [
      '# Icons',
      '',
      // The texts name no emoji: the page must show none.
      ...written.flatMap((icon, i) => [at(icon, `Icon ${i + 1}${/^\w+$/.test(icon) ? `, **${icon}**` : ''}.`), '']),
      `Inline: ${at('bug', 'a bug')} and ${at('🦀', 'a crab')}.`,
      '',
    ].join('\n');
    const gallery = await resolveWalkthrough(parseWalkthrough(markdown), fixtureEnvironment(RUST_APP, { indexNote: note }));
    expect(gallery.comments.every((c) => c.resolution.status === 'resolved' && c.notes.includes(note))).toBe(true);
    const local = await servePages({ 'icons.html': renderWalkthroughHtml(gallery) });
    try {
      const { page, watch } = await open(local.url('icons.html'));
      const icons = await page.evaluate<{ id: string; svgs: number; width: number; height: number; visibleText: string; label: string }[]>(`
        [...document.querySelectorAll('.wt-comment')].map((comment) => {
          const icon = comment.querySelector('.wt-icon');
          const svg = icon?.querySelector(':scope > svg');
          const box = svg?.getBoundingClientRect();
          const visible = icon?.cloneNode(true);
          visible?.querySelectorAll('.wt-sr-only').forEach((e) => e.remove());
          return { id: comment.id, svgs: icon?.querySelectorAll('svg').length ?? 0, width: box?.width ?? 0, height: box?.height ?? 0, visibleText: visible?.textContent ?? '', label: icon?.querySelector('.wt-sr-only')?.textContent ?? '' };
        })`);
      expect(icons).toHaveLength(written.length + 2);
      for (const icon of icons) {
        expect(icon, icon.id).toMatchObject({ svgs: 1, visibleText: '' });
        expect(icon.width, icon.id).toBeGreaterThan(0);
        expect(icon.height, icon.id).toBeGreaterThan(0);
      }
      expect(icons.map((i) => i.label)).toEqual([...ICON_NAMES, 'lightbulb', '🦀', 'comment', 'bug', '🦀']);
      // No emoji anywhere a reader sees in the walkthrough (labels are for screen readers only, clipped to nothing).
      const shown = await page.evaluate<string>(`(() => {
        const main = document.querySelector('main').cloneNode(true);
        main.querySelectorAll('.wt-sr-only').forEach((e) => e.remove());
        return main.textContent;
      })()`);
      expect(shown).not.toMatch(/\p{Extended_Pictographic}/u);
      const labelBoxes = await page.evaluate<number[]>(`[...document.querySelectorAll('.wt-sr-only')].map((e) => { const r = e.getBoundingClientRect(); return r.width * r.height; })`);
      expect(Math.max(...labelBoxes)).toBeLessThanOrEqual(1);
      // The unknown icon's warning is drawn too.
      expect(await page.locator('.wt-warning svg.wt-svg-warning').count()).toBeGreaterThan(0);

      // The notes: in no comment; once in the footer; once on the whole page.
      expect(await page.locator('.wt-comment .wt-note, .wt-comment .wt-notes').count()).toBe(0);
      expect(await page.locator('.wt-footer .wt-note').allInnerTexts()).toEqual([note]);
      expect((await page.evaluate<string>('document.body.innerText')).split(note).length - 1).toBe(1);
      await screenshot(page, 'icons');
      await page.locator('.wt-footer').screenshot({ path: join(ARTIFACTS, 'notes-footer.png') });
      await page.locator('.wt-comment').nth(6).screenshot({ path: join(ARTIFACTS, 'icon-in-comment.png') });
      await page.locator('p:has(.wt-comment.wt-inline)').screenshot({ path: join(ARTIFACTS, 'icons-inline.png') });
      await expectClean(watch);
      await page.close();
    } finally {
      await local.close();
    }
  });

  it('a page without diagrams has no mermaid and a policy without style attributes, and still logs nothing', async () => {
    const plain = renderWalkthroughHtml(await resolveWalkthrough(parseWalkthrough('# Plain\n\n<comment location=\'findDefinition("authenticate")\'>x</comment>\n'), fixtureEnvironment(RUST_APP)));
    expect(plain).not.toContain('style-src-attr');
    expect(plain.length).toBeLessThan(200_000);
    const local = await servePages({ 'plain.html': plain });
    try {
      const { page, watch } = await open(local.url('plain.html'));
      expect(await page.getAttribute('html', 'data-mermaid')).toBe('none');
      await page.locator('#wt-comment-1 .wt-loc').click();
      expect(await page.locator('#wt-comment-1 .wt-context').isVisible()).toBe(true);
      await expectClean(watch);
      await page.close();
    } finally {
      await local.close();
    }
  });
});
