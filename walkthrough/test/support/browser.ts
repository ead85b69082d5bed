/**
 * Real-browser helpers: headless Debian Chromium through playwright-core (never a downloaded
 * browser), a fresh profile per launch, a localhost server for pages, and a watch on everything a
 * page reports (console errors, CSP violations, dialogs, uncaught errors).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/walkthrough/', import.meta.url));

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Whether Chromium is installed; under CI a missing browser is a failure, not a skip. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (scripts/setup.sh does)`);
  return false;
}

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'wt-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1100, height: 900 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface PageServer {
  readonly origin: string;
  url(name: string): string;
  close(): Promise<void>;
}

/** Serves `pages` (name → HTML) on 127.0.0.1, a secure context (the clipboard API works there). */
export async function servePages(pages: Readonly<Record<string, string>>): Promise<PageServer> {
  const server: Server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0] ?? '');
    const body = pages[name];
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  // The browser keeps connections alive; close them, or close() waits for them.
  const close = (): Promise<void> => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { origin, url: (name) => `${origin}/${name}`, close };
}

export interface CspViolation {
  readonly directive: string;
  readonly blocked: string;
  readonly sample: string;
  /** The line of the page source the violation came from (0 for resource loads). */
  readonly line: number;
}

/** The 1-based lines of the page's source that hold the bundled mermaid script. */
export function mermaidLines(html: string): { first: number; last: number } {
  const start = html.indexOf('<script nonce=', html.indexOf('<script type="application/json"'));
  const end = html.indexOf('</script>', start);
  const lineOf = (offset: number): number => html.slice(0, offset).split('\n').length;
  return { first: lineOf(start), last: lineOf(end) };
}

export interface PageWatch {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  readonly dialogs: string[];
  /** CSP violations reported to the page (recorded by an init script, which the CSP does not govern). */
  violations(): Promise<CspViolation[]>;
}

/**
 * Waits until what earlier interactions queued in the page has run: the next animation frame (the
 * rendering step, where SMIL and style changes are applied), then a task posted after it, which
 * the event loop runs after the tasks queued before it (event handlers, a `javascript:` URL's
 * navigation, CSP violation reports). An ordering barrier on the page's own events, not a timer.
 */
export async function settlePage(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(null);
  }))`);
}

/** Records what a page reports; dialogs are dismissed. Call before navigating. */
export async function watchPage(page: Page): Promise<PageWatch> {
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // A string: this code runs in the page (the tests are compiled without DOM types).
  await page.addInitScript({
    content: `window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample, line: e.lineNumber });
      });`,
  });
  return {
    consoleErrors,
    pageErrors,
    dialogs,
    violations: () => page.evaluate<CspViolation[]>('window.__cspViolations ?? []'),
  };
}

/** Saves a screenshot under test-artifacts/walkthrough/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
