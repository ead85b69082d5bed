/**
 * Text from a workspace (file contents, file names, server messages) shown on a terminal must not
 * drive it: an escape sequence in a file could set the window title, write the clipboard (OSC 52)
 * or redraw lines (`\r`, cursor moves) to hide what is really there. `showControls` is the one
 * place such text is made safe: control characters become visible pictures (`␛`, `␍`), and only
 * our own colour sequences may pass.
 */

/** The SGR parameters our own output uses (reset, bold, dim, normal intensity, colours). */
// eslint-disable-next-line no-control-regex
const OWN_SGR = /^\u001b\[(?:(?:0|1|2|22|3[0-9])(?:;(?:0|1|2|22|3[0-9]))*)?m/;

/** How a control character is shown: its Unicode control picture, or `\xNN` for C1 controls. */
export function controlPicture(codePoint: number): string | undefined {
  if (codePoint < 0x20) return String.fromCharCode(0x2400 + codePoint);
  if (codePoint === 0x7f) return '\u2421';
  if (codePoint >= 0x80 && codePoint <= 0x9f) return `\\x${codePoint.toString(16).toUpperCase()}`;
  return undefined;
}

/**
 * `text` with every control character shown as a picture, except line feeds and tabs, and
 * (with `keepColours`) the colour sequences our own presentation adds.
 */
export function showControls(text: string, options: { readonly keepColours?: boolean } = {}): string {
  // Fast path: most text has no control characters at all.
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b && options.keepColours === true) {
      const own = OWN_SGR.exec(text.slice(i, i + 32));
      if (own !== null) {
        out += own[0];
        i += own[0].length - 1;
        continue;
      }
    }
    out += c === 0x0a || c === 0x09 ? text[i] : (controlPicture(c) ?? text[i]);
  }
  return out;
}
