/** `showControls`: workspace text cannot drive a terminal; our own colours survive. */
import { describe, expect, it } from 'vitest';
import { showControls, showFieldControls } from '../display.js';

const OSC_TITLE = '\u001b]0;PWNED\u0007';
const OSC_CLIPBOARD = '\u001b]52;c;ZWNobyBoaQ==\u0007';

describe('showControls', () => {
  it('shows escape sequences, bells, carriage returns and C1 controls as visible text', () => {
    const shown = showControls(`let x = "${OSC_TITLE}${OSC_CLIPBOARD}\rhidden\u009b31m";`);
    // eslint-disable-next-line no-control-regex
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(shown).toContain('␛]0;PWNED␇');
    expect(shown).toContain('␍hidden');
    expect(shown).toContain('\\x9B31m');
  });

  it('keeps line feeds and tabs, and leaves plain text untouched', () => {
    expect(showControls('a\tb\nc')).toBe('a\tb\nc');
    expect(showControls('é😀 plain')).toBe('é😀 plain');
  });

  it('keeps only our own colour sequences, and only when asked', () => {
    const ours = '\u001b[36msrc/a.rs\u001b[0m';
    expect(showControls(ours, { keepColours: true })).toBe(ours);
    expect(showControls(ours)).toBe('␛[36msrc/a.rs␛[0m');
    // Not ours: conceal (8) would hide text; cursor movement would redraw lines.
    expect(showControls('\u001b[8msecret\u001b[2A', { keepColours: true })).toBe('␛[8msecret␛[2A');
  });
});

describe('showFieldControls', () => {
  it('shows line feeds, tabs, escapes and line separators in one field, so it stays one line', () => {
    expect(showFieldControls('a\nb.rs:1:1  forged\tx\u001b[2K\r\u2028\u2029\u0085')).toBe('a␊b.rs:1:1  forged␉x␛[2K␍\\u2028\\u2029\\x85');
    expect(showFieldControls('src/é😀.rs')).toBe('src/é😀.rs');
  });
});

describe('bidirectional controls', () => {
  // Trojan Source (CVE-2021-42574): an override or isolate reorders what a terminal shows, so a
  // name `evil\u202Ecod.rs` reads as `evilsr.doc` and a line of code can hide a comment's end.
  const HIDDEN = 'evil\u202Ecod.rs \u2066x\u2069 \u202A\u202B\u202C\u202D';
  it('are shown as escapes in a field and in whole texts', () => {
    expect(showFieldControls(HIDDEN)).toBe('evil\\u202ecod.rs \\u2066x\\u2069 \\u202a\\u202b\\u202c\\u202d');
    expect(showControls(`${HIDDEN}\n`)).toBe('evil\\u202ecod.rs \\u2066x\\u2069 \\u202a\\u202b\\u202c\\u202d\n');
  });

  it('leave right-to-left text itself alone', () => {
    expect(showControls('const greeting = "שלום";')).toBe('const greeting = "שלום";');
  });
});

describe('invisible format characters', () => {
  // Tag characters spell ASCII that no terminal or chat shows ("ASCII smuggling"): an instruction
  // for an agent hidden in a comment. A zero-width space makes `auth\u200b.rs` read as `auth.rs`.
  const tags = (ascii: string) => [...ascii].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  it('are shown as escapes in whole texts: tags, zero-width spaces, word joiners, marks, soft hyphens', () => {
    expect(showControls(`// ok${tags('rm -rf')}\n`)).toBe('// ok\\u{e0072}\\u{e006d}\\u{e0020}\\u{e002d}\\u{e0072}\\u{e0066}\n');
    expect(showControls('a\u200bb\u2060c\u200ed\u200fe\u061cf\u00adg\ufeffh')).toBe('a\\u200bb\\u2060c\\u200ed\\u200fe\\u061cf\\u00adg\\ufeffh');
  });

  it('are all shown in a field, the joiners and variation selectors too', () => {
    expect(showFieldControls('auth\u200b.rs')).toBe('auth\\u200b.rs');
    expect(showFieldControls('a\u200db\ufe0fc')).toBe('a\\u200db\\ufe0fc');
    expect(showFieldControls(`x${tags('y')}`)).toBe('x\\u{e0079}');
  });

  it('leave emoji sequences and scripts that need joiners alone in whole texts', () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(showControls(`// ${family} \u2764\ufe0f می\u200cخواهم`)).toBe(`// ${family} \u2764\ufe0f می\u200cخواهم`);
  });
});

