/**
 * An XSS corpus rendered and loaded in Chromium, with the page's CSP and again with the CSP
 * removed (so escaping alone is tested, not only the policy). Every payload tries to set
 * `window.__pwned` or open a dialog; after loading and clicking everything, nothing has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialectError, SourceText, type Outcome } from '../../dialect/index.js';
import type { Location } from '../../ide-adapter/model.js';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, walkthroughToJson, type WalkthroughEnvironment } from '../index.js';
import { chromiumAvailable, launchChromium, mermaidLines, screenshot, servePages, settlePage, watchPage, type LaunchedBrowser, type PageServer } from './support/browser.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

const IMG = `<img src=x onerror="window.__pwned='img'">`;
const SCRIPT = `</script><script>window.__pwned='script'</script>`;

export const CORPUS = String.raw`# XSS corpus <script>window.__pwned='P0'</script>

<script>window.__pwned='P1'</script>

<img src=x onerror="window.__pwned='P2'">

<svg onload="window.__pwned='P3'"><circle r="1" /></svg>

[js link](javascript:window.__pwned='P4') [js link 2](JaVaScRiPt:alert('P5')) [entity js](&#106;avascript:alert('P6'))
[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox)

<a href="javascript:window.__pwned='P7'">raw anchor</a>

<iframe srcdoc="<script>parent.__pwned='P8'</script>"></iframe>

<style>body { background: url(javascript:alert('P9')) }</style>

&lt;script&gt;window.__pwned='P10'&lt;/script&gt; and &#60;img src=x onerror="window.__pwned='P11'"&#62;

[title](https://example.com "x\" onmouseover=\"window.__pwned='P12'")
[file link](<src/a.rs#L1" onclick="window.__pwned='P13'>) [regex link](<src/lib.rs?"><script>window.__pwned='P14'</script>>)

<comment location='"><img src=x onerror="window.__pwned=&apos;P15&apos;">' icon='"><script>window.__pwned="P16"</script>' onclick="window.__pwned='P17'">
Content with <img src=x onerror="window.__pwned='P18'"> and ` + '`</script><script>window.__pwned=\'P19\'</script>`' + String.raw`
</comment>

<comment location="evilLocation()">resolves to a location whose path and text are hostile</comment>

<comment location="evilChoices()">ambiguous, with hostile labels and programs</comment>

<comment location="&lt;/script&gt;&lt;script&gt;window.__pwned='P20'&lt;/script&gt;">entity-encoded breakout in location</comment>

Inline <comment location="x(" onmouseover="window.__pwned='P21'">inline</comment> and <action button="</script><script>window.__pwned='P22'</script>">message </script><script>window.__pwned='P23'</script></action>.

<action button='"><img src=x onerror="window.__pwned=&apos;P24&apos;">'>
Message with ` + '\u2028 line separators \u2029' + String.raw` and </script><!--<script>window.__pwned='P25'</script>
</action>

<mermaid>
%%{init: {"securityLevel": "loose", "startOnLoad": true}}%%
flowchart TD
  A["<img src=x onerror=window.__pwned='P26'>"] --> B["<script>window.__pwned='P27'</script>"]
  click A call alert('P28')
  click B href "javascript:window.__pwned='P29'"
  B --> C["<a href='javascript:alert(1)'>link</a>"]
</mermaid>

` + '```mermaid' + String.raw`
graph LR
  X["</script><script>window.__pwned='P31'</script>"] --> Y["<iframe srcdoc='<script>parent.__pwned=1</script>'></iframe>"]
  click X callback "alert('P32')"
` + '```' + String.raw`

<gitdiff range="evil" />

<gitdiff range='"><img src=x onerror="window.__pwned=&apos;P33&apos;">' />

` + '```comment' + String.raw`
location: </script><script>window.__pwned='P34'</script>
icon: <img src=x onerror="window.__pwned='P35'">

<svg><script>window.__pwned='P36'</script></svg>
` + '```' + String.raw`

| <img src=x onerror="window.__pwned='P37'"> | b |
|---|---|
| ` + '`</script>`' + String.raw` | <script>window.__pwned='P38'</script> |

<form action="javascript:alert('P39')"><button>go</button></form> <base href="javascript:alert('P40')//">
`;

function location(path: string, content: string): Location {
  return { path, start: { line: 2, column: 1 }, end: { line: 2, column: 4 }, content };
}

/** The fixture evaluator, plus answers whose paths, texts, labels and notes are hostile. */
function hostileEnvironment(): WalkthroughEnvironment {
  const rust = fixtureEnvironment(RUST_APP);
  const source = new SourceText('x');
  return {
    evaluate: async (expression, signal): Promise<Outcome> => {
      if (expression === 'evilLocation()') return { kind: 'value', value: location(`src/${IMG}.rs`, `<script>window.__pwned='E1'</script>`), source, notes: [`note ${IMG}`] };
      if (expression === 'evilChoices()') {
        return {
          kind: 'ambiguity',
          message: `choose ${IMG}`,
          refinements: [
            { label: SCRIPT, program: `pick("${IMG}")`, value: location('src/a.rs', IMG) },
            { label: `"><svg onload="window.__pwned='E2'">`, program: SCRIPT, value: location(`"><img src=x onerror=window.__pwned=1>`, 'x') },
          ],
          source,
          notes: [],
        };
      }
      return rust.evaluate(expression, signal);
    },
    readLines: async (_path, start, end) => [`<script>window.__pwned='E3'</script>`, IMG, `\u2028${SCRIPT}`, '<!--', '-->', `' onmouseover='window.__pwned=1`, 'x'].slice(0, end - start + 1),
    findLine: async () => ({ line: 1, text: `<script>window.__pwned='E4'</script>` }),
    gitDiff: async (range) => {
      if (range !== 'evil') throw new DialectError({ code: 'bad-revision', message: `bad revision ${range ?? ''}` });
      return [
        {
          path: `${IMG}.rs`,
          oldPath: SCRIPT,
          status: 'renamed',
          additions: 1,
          deletions: 1,
          hunks: [{ header: `@@ ${IMG} @@`, oldStart: 1, newStart: 1, lines: [{ kind: 'added', text: SCRIPT, newLine: 1 }, { kind: 'removed', text: IMG, oldLine: 1 }] }],
        },
      ];
    },
  };
}

const available = chromiumAvailable();

describe.skipIf(!available)('XSS corpus in Chromium', () => {
  let browser: LaunchedBrowser;
  let server: PageServer;
  let html: string;

  beforeAll(async () => {
    const resolved = await resolveWalkthrough(parseWalkthrough(CORPUS), hostileEnvironment());
    html = renderWalkthroughHtml(resolved);
    // The model the page embeds keeps every hostile string verbatim (escaping is lossless).
    const json = walkthroughToJson(resolved);
    expect(json.actions[1]?.message).toContain(`</script><!--<script>window.__pwned='P25'</script>`);
    expect(json.actions[1]?.message).toContain('\u2028');
    const withoutCsp = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
    expect(withoutCsp).not.toContain('Content-Security-Policy');
    server = await servePages({ 'csp.html': html, 'no-csp.html': withoutCsp });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the HTML has no live markup from the corpus', () => {
    const body = html.slice(html.indexOf('<body>'), html.indexOf('<script type="application/json"'));
    // Every user text is escaped, so the only tags are ours: list them and check their attributes.
    const tags = body.match(/<[a-zA-Z][^>]*>/g) ?? [];
    // Our icons are inline SVG drawings (icons.ts): their elements are ours too.
    const ours = new Set(['body', 'header', 'span', 'button', 'div', 'section', 'details', 'summary', 'ul', 'li', 'code', 'main', 'h1', 'p', 'a', 'table', 'thead', 'tr', 'th', 'tbody', 'td', 'footer', 'svg', 'path', 'circle', 'rect', 'ellipse']);
    const names = new Set(tags.map((t) => /^<([a-zA-Z0-9]+)/.exec(t)?.[1]?.toLowerCase()));
    expect([...names].filter((name) => name === undefined || !ours.has(name))).toEqual([]);
    expect(names.has('svg')).toBe(true);
    for (const tag of tags) {
      // Attribute values are escaped (no raw quote can end them early), so names are what is left.
      expect(tag.replace(/="[^"]*"/g, '=""')).not.toMatch(/\son[a-z]+\s*=/i);
      expect(tag).not.toMatch(/\s(href|src|action)\s*=\s*"\s*(javascript|data|vbscript):/i);
    }
    const data = html.slice(html.indexOf('<script type="application/json"'), html.indexOf('</script>', html.indexOf('<script type="application/json"')) + 9);
    expect(data.match(/<\/script/gi)).toHaveLength(1);
    expect(data).not.toMatch(/<!--|\u2028|\u2029/);
  });

  for (const variant of ['csp', 'no-csp'] as const) {
    it(`no payload runs (${variant === 'csp' ? 'with the CSP' : 'with the CSP removed: escaping alone'})`, async () => {
      const page = await browser.context.newPage();
      const watch = await watchPage(page);
      const popups: string[] = [];
      page.on('popup', (popup) => {
        popups.push(popup.url());
        void popup.close();
      });
      await page.goto(server.url(`${variant}.html`));
      await page.waitForSelector('html[data-ready="true"][data-mermaid="done"]');
      // Our own scripts ran (so the test is not vacuous) …
      expect(await page.locator('.wt-mermaid-rendered svg').count()).toBe(2);
      // … and touching everything interactive runs nothing else.
      for (const selector of ['.wt-choice', '.wt-magnifier:visible', '.wt-loc:visible', '.wt-action-button', '.wt-file-link', '.wt-toggle', '.wt-comment-body', '.wt-mermaid .node']) {
        for (const element of await page.locator(selector).all()) {
          if (!(await element.isVisible())) continue;
          await element.hover({ force: true, timeout: 2000 }).catch(() => undefined);
          await element.click({ force: true, timeout: 2000 }).catch(() => undefined);
        }
      }
      await settlePage(page); // what the touches queued has run
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(watch.dialogs).toEqual([]);
      expect(watch.pageErrors).toEqual([]);
      // Nothing in our markup or code even tried to run script: a blocked attempt would be a
      // script-src violation. Mermaid's sanitizer parses diagram labels in an inert document,
      // which reports the handlers it then strips; those come from mermaid's lines and never run
      // (see the run without CSP).
      const { first, last } = mermaidLines(html);
      const outside = (await watch.violations()).filter((v) => v.directive.startsWith('script') && !(v.line >= first && v.line <= last));
      expect(outside).toEqual([]);
      const dom = await page.evaluate<{ handlers: string[]; scripts: number; unsafeUrls: string[]; foreign: number; unnoncedStyles: number }>(`(() => {
        const all = [...document.querySelectorAll('*')];
        return {
          handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => e.tagName + ' ' + a.name)),
          scripts: document.scripts.length,
          unsafeUrls: all.flatMap((e) => [...e.attributes].filter((a) => /^\\s*(javascript|data|vbscript):/i.test(a.value) && /href|src|action/i.test(a.name)).map((a) => a.value)),
          foreign: document.querySelectorAll('iframe, img, object, embed, form, base, .wt-body > svg, .wt-comment svg:not(.wt-svg), .wt-action svg:not(.wt-svg)').length,
          unnoncedStyles: [...document.querySelectorAll('style')].filter((s) => !s.nonce).length,
        };
      })()`);
      // Our scripts: the data, mermaid, DOMPurify and the page script.
      expect(dom).toEqual({ handlers: [], scripts: 4, unsafeUrls: [], foreign: 0, unnoncedStyles: 0 });
      // The payloads are there, as text.
      const text = await page.locator('main').innerText();
      expect(text).toContain(`window.__pwned='P1'</script>`);
      expect(text).toContain(`<img src=x onerror="window.__pwned='P2'">`);
      if (variant === 'csp') await screenshot(page, 'xss-corpus');
      await page.close();
    });
  }
});
