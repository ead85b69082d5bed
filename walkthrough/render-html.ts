/**
 * `renderWalkthroughHtml`: one self-contained page (no network, works from file://) with a strict
 * Content-Security-Policy. Scripts and `<style>` run only with this render's nonce.
 *
 * The policy is `default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N'; base-uri 'none';
 * form-action 'none'`, and, only when the page has diagrams, `style-src-attr 'unsafe-inline'`:
 * mermaid lays diagrams out with inline `style` attributes and re-parses its SVG (styles included)
 * in an inert document to sanitize it, so without them layouts are wrong and every diagram logs
 * violations. Style attributes cannot run script and, with `default-src 'none'`, cannot load
 * anything (no `url()` exfiltration); our own markup never uses them. Mermaid's `<style>`
 * elements get the nonce from the page script instead of relaxing `style-src-elem`.
 *
 * The policy is the second wall, not the only one: the page passes mermaid's SVG through DOMPurify
 * (inlined next to mermaid) before inserting it, so a diagram runs nothing even without the CSP.
 */
import { randomBytes } from 'node:crypto';
import { dompurifyScript, mermaidScript, pageScript, pageStyle } from './assets.js';
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';
import { escapeHtml, inlineScript, inlineStyle, jsonForScript } from './html.js';
import { iconSvg } from './icons.js';
import { walkthroughToJson } from './json.js';
import type { ResolvedWalkthrough } from './model.js';
import { walkthroughNotes } from './notes.js';
import { RenderContext } from './render-context.js';

/**
 * How every page begins: the doctype and a comment that marks the file as a page Dialect wrote.
 * A page may replace a file only when that file begins with this mark (`ide-adapter/safe-write.ts`,
 * policy `ours`): a re-render replaces its own page, never a file the repository shipped.
 */
export const PAGE_MARK = '<!DOCTYPE html>\n<!-- A walkthrough page written by Dialect: rendering the walkthrough again replaces this file. -->\n';

/** Options of the HTML page. */
export interface RenderHtmlOptions {
  /** The page title; default: the first heading, or "Walkthrough". */
  readonly title?: string;
  /** The CSP nonce (base64, at least 16 characters); default: 18 random bytes. */
  readonly nonce?: string;
  /**
   * The origin of a page that embeds the walkthrough from another origin and should receive its
   * messages (`https://agent.example`). Without it, messages go only to a VS Code webview or a
   * parent page of the walkthrough's own origin (see `assets/page.js`).
   */
  readonly hostOrigin?: string;
  /**
   * Render for a VS Code webview: the scripts are loaded from the extension's files
   * (`asWebviewUri`) instead of being inlined, and the policy lets the webview's own origin
   * (`cspSource`) serve them; scripts still need this render's nonce. The stylesheet the host
   * passes is inlined with the nonce: the page is styled from its first paint (loaded by URL, it
   * came seconds after the page in code-server, which showed it unstyled meanwhile).
   */
  readonly webview?: WebviewAssets;
}

/** Where a webview loads the page's files from: `webview.asWebviewUri` of each, and `webview.cspSource`. */
export interface WebviewAssets {
  readonly cspSource: string;
  /** The page stylesheet's text (the host reads its copy of `page.css`), inlined with the nonce. */
  readonly stylesheet: string;
  readonly script: string;
  readonly mermaid: string;
  readonly dompurify: string;
}

/**
 * The Content-Security-Policy of a page. With `cspSource` (a webview's), files of that origin may
 * serve stylesheets; scripts still need the nonce.
 */
export function contentSecurityPolicy(nonce: string, hasDiagrams: boolean, cspSource?: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource !== undefined ? `${cspSource} ` : ''}'nonce-${nonce}'`,
    ...(hasDiagrams ? ["style-src-attr 'unsafe-inline'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A fresh nonce. */
export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The walkthrough as one HTML page. */
export function renderWalkthroughHtml(resolved: ResolvedWalkthrough, options: RenderHtmlOptions = {}): string {
  const nonce = options.nonce ?? createNonce();
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(nonce)) throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, 'the nonce must be base64 with at least 16 characters');
  const hostOrigin = options.hostOrigin !== undefined ? checkedOrigin(options.hostOrigin) : undefined;
  const webview = options.webview !== undefined ? checkedAssets(options.webview) : undefined;
  const context = new RenderContext(resolved);
  const model = walkthroughToJson(resolved, context);
  const hasDiagrams = resolved.diagrams.length > 0;
  const title = options.title ?? resolved.document.title ?? 'Walkthrough';
  const c = model.counts;
  const counts = [
    c.comments > 0 ? `<span class="wt-count-resolved">${c.resolved} of ${c.comments} comment${c.comments === 1 ? '' : 's'} placed</span>` : '',
    c.ambiguous > 0 ? `<span class="wt-count-ambiguous">${c.ambiguous} ambiguous</span>` : '',
    c.unresolved > 0 ? `<span class="wt-count-unresolved">${c.unresolved} unresolved</span>` : '',
    c.warnings > 0 ? `<span class="wt-count-warnings">${c.warnings} warning${c.warnings === 1 ? '' : 's'}</span>` : '',
  ].join('');
  const warnings =
    resolved.warnings.length === 0
      ? ''
      : `<section class="wt-warnings" aria-label="Warnings"><details open><summary>${iconSvg('warning')} ${resolved.warnings.length} warning${resolved.warnings.length === 1 ? '' : 's'} about this walkthrough</summary><ul>${resolved.warnings
          .map((w) => `<li>${w.line !== undefined ? `line ${w.line}: ` : ''}<code>${escapeHtml(w.code)}</code> ${escapeHtml(w.message)}</li>`)
          .join('')}</ul></details></section>`;
  const notes = walkthroughNotes(resolved);
  // The language servers' notes (meant for the agent) once, discreetly, below the walkthrough.
  const footer =
    notes.length === 0
      ? ''
      : `<footer class="wt-footer"><span class="wt-footer-title">Notes from the language servers:</span><ul class="wt-notes">${notes.map((n) => `<li class="wt-note">${escapeHtml(n)}</li>`).join('')}</ul></footer>\n`;
  return `${PAGE_MARK}<html lang="en" data-theme="auto"${hostOrigin !== undefined ? ` data-host-origin="${escapeHtml(hostOrigin)}"` : ''}>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce, hasDiagrams, webview?.cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">\n${inlineStyle(webview?.stylesheet ?? pageStyle(), 'the page stylesheet')}\n</style>
</head>
<body>
<header class="wt-header"><span class="wt-header-title">${escapeHtml(title)}</span><span class="wt-counts">${counts}</span><button type="button" class="wt-theme-toggle">Theme</button></header>
<div class="wt-page">
${warnings}
<main class="wt-body">
${context.bodyHtml()}
</main>
${footer}</div>
<span class="wt-toast wt-global-toast" role="status" aria-live="polite" hidden></span>
<script type="application/json" id="wt-data">${jsonForScript(model)}</script>
${scripts(nonce, hasDiagrams, webview)}
</body>
</html>
`;
}

/** The page's scripts: inlined, or (in a webview) loaded from the extension's files; all with the nonce. */
function scripts(nonce: string, hasDiagrams: boolean, webview: WebviewAssets | undefined): string {
  if (webview !== undefined) {
    const tag = (src: string): string => `<script nonce="${nonce}" src="${escapeHtml(src)}"></script>\n`;
    return `${hasDiagrams ? tag(webview.mermaid) + tag(webview.dompurify) : ''}${tag(webview.script)}`;
  }
  const diagrams = hasDiagrams ? `<script nonce="${nonce}">${inlineScript(mermaidScript(), 'mermaid')}</script>\n<script nonce="${nonce}">${inlineScript(dompurifyScript(), 'DOMPurify')}</script>\n` : '';
  return `${diagrams}<script nonce="${nonce}">\n${inlineScript(pageScript(), 'the page script')}\n</script>`;
}

/**
 * Webview asset addresses, refused unless each file is an absolute URL and the source is a list of
 * sources with nothing that could end its directive (`;`, `,`, a line break).
 */
function checkedAssets(assets: WebviewAssets): WebviewAssets {
  if (!/^[^;,\r\n]+$/.test(assets.cspSource)) {
    throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, `the webview's cspSource ${JSON.stringify(assets.cspSource)} is not a list of sources`);
  }
  const files: Record<string, string> = { script: assets.script, mermaid: assets.mermaid, dompurify: assets.dompurify };
  for (const [name, url] of Object.entries(files)) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, `the webview asset ${name} is not a URL: ${JSON.stringify(url)}`);
  }
  return assets;
}

/** An origin as the browser writes it (`https://host:port`), or an `invalid-option` error. */
function checkedOrigin(text: string): string {
  let origin: string | undefined;
  try {
    origin = new URL(text).origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === 'null' || origin !== text) {
    throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, `the host origin ${JSON.stringify(text)} is not an origin: write it as scheme://host[:port], e.g. https://agent.example`);
  }
  return origin;
}
