/**
 * The page as a VS Code webview loads it (`webview` option): the same body, its scripts from the
 * extension's folder by URL instead of inlined, its stylesheet inlined with the nonce, under a policy that lets only the webview's own
 * source serve stylesheets and only this render's nonce run scripts. Addresses that could change
 * the policy are refused. (The panel itself is tested in a real VS Code: vscode/test/walkthrough.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, WalkthroughError, type WebviewAssets } from '../index.js';
import { RUST_APP, fixtureEnvironment } from './support/fixture-env.js';

const env = fixtureEnvironment(RUST_APP);
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const SOURCE = 'https://*.vscode-cdn.net';
const ASSETS: WebviewAssets = {
  cspSource: SOURCE,
  stylesheet: '.dialect-test-rule { color: red }',
  script: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/walkthrough/page.js',
  mermaid: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/walkthrough/mermaid.min.js',
  dompurify: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/walkthrough/purify.min.js',
};

const render = async (markdown: string, webview: WebviewAssets = ASSETS): Promise<string> =>
  renderWalkthroughHtml(await resolveWalkthrough(parseWalkthrough(markdown), env), { nonce: NONCE, webview }).replace(/&#39;/g, "'");

describe('the page in a webview', () => {
  it('loads its files from the extension under a policy of the webview source and the nonce', async () => {
    const html = await render('# A\n\ntext');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csp).toBe(`default-src 'none'; script-src 'nonce-${NONCE}'; style-src ${SOURCE} 'nonce-${NONCE}'; base-uri 'none'; form-action 'none'`);
    // The stylesheet is inlined with the nonce: styled from the first paint, no stylesheet to fetch.
    expect(html).toContain(`<style nonce="${NONCE}">\n${ASSETS.stylesheet}\n</style>`);
    expect(html).not.toMatch(/<link/);
    expect(html).toContain(`<script nonce="${NONCE}" src="${ASSETS.script}"></script>`);
    // No script inlined (no script without a src), and no diagram scripts without diagrams.
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(html.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")/g)).toBeNull();
    expect(html).not.toContain(ASSETS.mermaid);
  });

  it('adds mermaid and DOMPurify (with the nonce) only when there are diagrams', async () => {
    const html = await render('# A\n\n```mermaid\ngraph TD; A-->B\n```\n');
    expect(html).toContain(`<script nonce="${NONCE}" src="${ASSETS.mermaid}"></script>`);
    expect(html).toContain(`<script nonce="${NONCE}" src="${ASSETS.dompurify}"></script>`);
    expect(html).toContain("style-src-attr 'unsafe-inline'");
  });

  it('refuses a source that could end its directive and a file that is not a URL', async () => {
    await expect(render('# A', { ...ASSETS, cspSource: "https://x; script-src 'unsafe-inline'" })).rejects.toThrow(WalkthroughError);
    await expect(render('# A', { ...ASSETS, script: 'javascript-free/page.js' })).rejects.toThrow(/not a URL/);
  });
});
