/**
 * Escaping for every place the page puts text: element content, attribute values, and JSON or
 * JavaScript inside `<script>`. Everything the page shows from a walkthrough goes through here.
 */
import { showControls, showFieldControls } from '../dialect/display.js';
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML markup, nothing else done: for values the page's script reads as data (`data-*`, `href`). */
function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Text the page shows, as HTML text or a double-quoted attribute value: its control,
 * bidirectional and invisible characters shown as the terminal shows them (`dialect/display.ts`
 * `showControls`), then escaped. Everything shown goes through here — the workspace's code (a
 * Trojan Source line, `\u202e` reordering what the reader sees) and the agent's own prose (tag
 * characters spelling an instruction, a zero-width space in a name) alike.
 */
export function escapeHtml(text: string): string {
  return escapeMarkup(showControls(text));
}

/** A workspace path or name as HTML text: one visible field (`showFieldControls`), then escaped. */
export function escapeField(text: string): string {
  return escapeMarkup(showFieldControls(text));
}

/** ` name="value"` pairs, escaped (shown text, but for the data the page's script reads: `data-*`, `href`); undefined values are left out. */
export function attributes(values: Readonly<Record<string, string | number | boolean | undefined>>): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === false) continue;
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new WalkthroughError(WalkthroughErrorCode.InvalidOption, `invalid attribute name ${JSON.stringify(name)}`);
    const escaped = name.startsWith('data-') || name === 'href' ? escapeMarkup(String(value)) : escapeHtml(String(value));
    out += value === true ? ` ${name}` : ` ${name}="${escaped}"`;
  }
  return out;
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&` are escaped so no
 * `</script>` or `<!--` can appear, and U+2028/U+2029 so the text is also valid JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * JavaScript source made safe to inline in a `<script>` element: `</script` is written `<\/script`
 * (the same string, regex or comment to JavaScript). `<!--` together with `<script` could switch
 * the HTML parser into a state where `</script>` no longer ends the element, so that is refused.
 */
export function inlineScript(source: string, what: string): string {
  const safe = source.replace(/<\/(script)/gi, '<\\/$1');
  if (/<!--/.test(safe) && /<script/i.test(safe)) {
    throw new WalkthroughError(WalkthroughErrorCode.UnsafeAsset, `${what} contains "<!--" and "<script", which cannot be inlined in a <script> element safely`);
  }
  return safe;
}

/** CSS made safe to inline in a `<style>` element. */
export function inlineStyle(source: string, what: string): string {
  if (/<\/style/i.test(source)) throw new WalkthroughError(WalkthroughErrorCode.UnsafeAsset, `${what} contains "</style"`);
  return source;
}
