/**
 * Mermaid's SVG passes through DOMPurify before the page inserts it, so a diagram runs nothing
 * even with the CSP removed. Two attackers, in real Chromium, each page loaded without its CSP:
 * - real mermaid with labels that try script, event-handler and `javascript:` injection;
 * - a mermaid whose own sanitizer let such labels through (mermaid has had such bugs): its
 *   output carries SMIL `<animate>`/`<set>` that turn a link into `javascript:`, handlers, a
 *   `<use>` of a data: document and HTML in `<foreignObject>`. The page gets the hostile SVG
 *   from a wrapper around the real `mermaid.render` (a fault injected on purpose).
 * After loading, hovering and clicking every part of the diagrams, `window.__pwned` is unset.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough } from '../index.js';
import { chromiumAvailable, launchChromium, servePages, settlePage, watchPage, type LaunchedBrowser, type PageServer } from './support/browser.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

const available = chromiumAvailable();

const DIAGRAMS = String.raw`# Diagrams

` + '```mermaid' + String.raw`
flowchart LR
  A["<img src=x onerror=window.__pwned='L1'>"] --> B["<details open ontoggle=window.__pwned='L2'>x</details>"]
  B --> C["<a href='javascript:window.__pwned=&quot;L3&quot;'>go</a>"]
  C --> D["<svg><a href='#'><animate attributeName='href' values='javascript:void(window.__pwned=1)'/><text>L4</text></a></svg>"]
` + '```' + String.raw`

` + '```mermaid' + String.raw`
sequenceDiagram
  Alice->>Bob: <img src=x onerror="window.__pwned='L5'">
  Bob-->>Alice: <script>window.__pwned='L6'</script>
` + '```' + '\n';

/** Hostile markup a mermaid with a broken sanitizer would put into its SVG. */
const INJECTED = [
  `<a href="#top"><animate attributeName="href" values="javascript:void(window.__pwned='S1')" fill="freeze" dur="0.01s"/><text x="5" y="15" class="wt-bait">S1</text></a>`,
  `<a href="#top"><set attributeName="href" to="javascript:void(window.__pwned='S2')"/><text x="5" y="35" class="wt-bait">S2</text></a>`,
  `<image href="x" onerror="window.__pwned='S3'"/>`,
  `<use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCcgeG1sbnM9J2h0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnJz48aW1hZ2UgaHJlZj0neCcgb25lcnJvcj0nd2luZG93Ll9fcHduZWQ9IlM0IicvPjwvc3ZnPg==#x"/>`,
  `<foreignObject x="0" y="40" width="200" height="40"><div><img src="x" onerror="window.__pwned='S5'"><details open ontoggle="window.__pwned='S6'"><summary class="wt-bait">S6</summary></details><iframe srcdoc="<script>parent.__pwned='S7'</script>"></iframe></div></foreignObject>`,
  `<script>window.__pwned='S8'</script>`,
].join('');

/** An init script: when the mermaid bundle defines `mermaid`, its render's SVG gets {@link INJECTED}. */
const HOSTILE_MERMAID = `(() => {
  const injected = ${JSON.stringify(INJECTED)};
  let real;
  Object.defineProperty(window, 'mermaid', {
    configurable: true,
    get: () => real,
    set: (value) => {
      const render = value.render.bind(value);
      value.render = async (...args) => {
        const result = await render(...args);
        return { ...result, svg: result.svg.replace(/<\\/svg>\\s*$/, injected + '</svg>') };
      };
      real = value;
    },
  });
})();`;

describe.skipIf(!available)('diagrams are sanitized before they are inserted (CSP removed)', () => {
  let browser: LaunchedBrowser;
  let server: PageServer;

  beforeAll(async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough(DIAGRAMS), fixtureEnvironment(RUST_APP));
    const html = renderWalkthroughHtml(resolved);
    const withoutCsp = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
    expect(withoutCsp).not.toContain('Content-Security-Policy');
    server = await servePages({ 'no-csp.html': withoutCsp });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function loadAndTouch(hostile: boolean): Promise<Page> {
    const page = await browser.context.newPage();
    const watch = await watchPage(page);
    if (hostile) await page.addInitScript({ content: HOSTILE_MERMAID });
    await page.goto(server.url('no-csp.html'));
    await page.waitForSelector('html[data-ready="true"][data-mermaid="done"]');
    // The diagrams were drawn (the test is not vacuous) …
    expect(await page.locator('.wt-mermaid-rendered .wt-mermaid-output > svg').count()).toBe(2);
    if (hostile) expect(await page.evaluate<number>('window.mermaid.render.length')).toBe(0); // the wrapper was installed
    // … and touching every part of them runs nothing.
    for (const element of await page.locator('.wt-mermaid-output svg *').all()) {
      if (!(await element.isVisible())) continue;
      await element.hover({ force: true, timeout: 1000 }).catch(() => undefined);
      await element.click({ force: true, timeout: 1000 }).catch(() => undefined);
    }
    // Scripts and handlers run as tasks: a barrier through the page's event loop flushes them.
    await settlePage(page);
    // (A javascript: URL that returned a string would replace the page: it must still be ours.)
    expect(await page.locator('html[data-ready="true"]').count()).toBe(1);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(watch.dialogs).toEqual([]);
    const left = await page.evaluate<{ smil: number; handlers: string[]; scripts: number; foreign: number }>(`(() => {
      const svgs = [...document.querySelectorAll('.wt-mermaid-output > svg')];
      const all = svgs.flatMap((s) => [s, ...s.querySelectorAll('*')]);
      return {
        smil: svgs.reduce((n, s) => n + s.querySelectorAll('animate, set, use').length, 0),
        handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => e.tagName + ' ' + a.name)),
        scripts: svgs.reduce((n, s) => n + s.querySelectorAll('script').length, 0),
        foreign: svgs.reduce((n, s) => n + s.querySelectorAll('img, image, iframe').length, 0),
      };
    })()`);
    expect(left).toEqual({ smil: 0, handlers: [], scripts: 0, foreign: 0 });
    return page;
  }

  it('real mermaid, labels that try injection: nothing runs and the labels are text', async () => {
    const page = await loadAndTouch(false);
    expect(await page.locator('.wt-mermaid-output').first().innerText()).toContain('go');
    await page.close();
  });

  it('a mermaid whose sanitizer failed: its hostile SVG is cleaned before it is inserted', async () => {
    const page = await loadAndTouch(true);
    // The hostile markup reached the page's insertion step: its harmless text is shown.
    expect(await page.locator('.wt-mermaid-output svg text', { hasText: 'S1' }).count()).toBe(2);
    await page.close();
  });
});
