/**
 * Who receives the page's messages (actions, placements, file links), in real Chromium: a parent
 * page of the walkthrough's own origin and one of the origin it was rendered for (`hostOrigin`)
 * do; a parent of any other origin and a file:// parent do not — the reader gets the clipboard
 * instead. The cross-origin parent is a real other origin: `localhost` framing `127.0.0.1`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, type ResolvedWalkthrough } from '../index.js';
import { chromiumAvailable, launchChromium, servePages, type LaunchedBrowser, type PageServer } from './support/browser.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

const available = chromiumAvailable();

const WALKTHROUGH = '# Host\n\n<action button="Send">The secret plan.</action>\n';

/** A page that frames `src` and records every message it receives. */
const hostPage = (src: string): string => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>window.__messages = []; window.addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="frame" src="${src}" width="900" height="600"></iframe>
</body></html>`;

describe.skipIf(!available)('page messages reach the host only', () => {
  let browser: LaunchedBrowser;
  let server: PageServer;
  let resolved: ResolvedWalkthrough;
  let dir: string;
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    resolved = await resolveWalkthrough(parseWalkthrough(WALKTHROUGH), fixtureEnvironment(RUST_APP));
    server = await servePages(pages);
    const port = new URL(server.origin).port;
    const other = `http://localhost:${port}`;
    pages['page.html'] = renderWalkthroughHtml(resolved);
    pages['for-other.html'] = renderWalkthroughHtml(resolved, { hostOrigin: other });
    pages['same-origin-host.html'] = hostPage('/page.html');
    pages['cross-origin-host.html'] = hostPage(`${server.origin}/page.html`);
    pages['configured-host.html'] = hostPage(`${server.origin}/for-other.html`);
    dir = mkdtempSync(join(tmpdir(), 'wt-host-'));
    writeFileSync(join(dir, 'page.html'), pages['page.html']);
    writeFileSync(join(dir, 'host.html'), hostPage('page.html'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a host page, clicks the action in its frame; the messages the host got and the toast. */
  async function clickAction(url: string): Promise<{ messages: { origin: string; data: { type: string; message: string } }[]; toast: string; page: Page }> {
    const page = await browser.context.newPage();
    await page.goto(url);
    const frame = page.frameLocator('#frame');
    await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
    await frame.locator('.wt-action-button').click();
    const toast = frame.locator('.wt-action .wt-toast');
    await toast.waitFor({ state: 'visible' });
    // A barrier from the same frame to the same parent: messages between two windows arrive in
    // order, so once it is there, any message the click posted is there too.
    const walkthroughFrame = page.frames().find((f) => f !== page.mainFrame());
    if (walkthroughFrame === undefined) throw new Error('no frame');
    await walkthroughFrame.evaluate("window.parent.postMessage({ type: 'barrier' }, '*')");
    await page.waitForFunction("window.__messages.some((m) => m.data && m.data.type === 'barrier')");
    const all = await page.evaluate<{ origin: string; data: { type: string; message: string } }[]>('window.__messages');
    const messages = all.filter((m) => m.data.type !== 'barrier');
    return { messages, toast: await toast.innerText(), page };
  }

  it('a parent of the same origin receives the action', async () => {
    const { messages, toast, page } = await clickAction(server.url('same-origin-host.html'));
    expect(messages).toMatchObject([{ origin: server.origin, data: { type: 'action', message: 'The secret plan.' } }]);
    expect(toast).toContain('Sent to the agent');
    await page.close();
  });

  it('a parent of another origin receives nothing; the reader is offered the clipboard', async () => {
    const port = new URL(server.origin).port;
    const { messages, toast, page } = await clickAction(`http://localhost:${port}/cross-origin-host.html`);
    expect(messages).toEqual([]);
    expect(toast).not.toContain('Sent to the agent');
    expect(toast).toMatch(/Copied to the clipboard|Could not copy/);
    await page.close();
  });

  it('a parent of the configured host origin receives it', async () => {
    const port = new URL(server.origin).port;
    const { messages, toast, page } = await clickAction(`http://localhost:${port}/configured-host.html`);
    expect(messages).toMatchObject([{ origin: server.origin, data: { type: 'action', message: 'The secret plan.' } }]);
    expect(toast).toContain('Sent to the agent');
    await page.close();
  });

  it('a file:// parent receives nothing (its origin is opaque and cannot be addressed)', async () => {
    const { messages, toast, page } = await clickAction(pathToFileURL(join(dir, 'host.html')).href);
    expect(messages).toEqual([]);
    expect(toast).not.toContain('Sent to the agent');
    await page.close();
  });

  it('hostOrigin must be an origin', () => {
    expect(() => renderWalkthroughHtml(resolved, { hostOrigin: 'https://agent.example/path' })).toThrow(/is not an origin: write it as scheme:\/\/host\[:port\]/);
    expect(() => renderWalkthroughHtml(resolved, { hostOrigin: '*' })).toThrow(/is not an origin/);
  });
});
