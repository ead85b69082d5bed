/**
 * Comment icons: the names an author may write, the emoji each stands for (the JSON model's
 * `emoji`, for hosts), and the drawing the page shows — a small inline SVG, because an emoji is an
 * empty box on a machine without an emoji font. The drawings are hand-written paths on a 16×16
 * grid, stroked (or filled) with `currentColor`, decorative (`aria-hidden`: the page puts a text
 * label beside them) and sized by the page's CSS; they need no CSP source (no `style`, no
 * external reference).
 */

/** The icon of a comment without an `icon` attribute, and of one with an unknown icon. */
export const DEFAULT_ICON = 'comment';

/** The drawings, by the name of what they show (aliases share one). The SVG body on a 16×16 grid. */
const DRAWINGS = {
  comment: '<path d="M2.5 3h11v7.5h-6L4.5 13v-2.5h-2z"/>',
  lightbulb: '<path d="M5.8 10.8C4.4 9.9 3.5 8.4 3.5 6.7a4.5 4.5 0 0 1 9 0c0 1.7-.9 3.2-2.3 4.1v1.2H5.8z"/><path d="M6.3 14.5h3.4"/>',
  warning: '<path d="M8 1.8 14.8 13.8H1.2z"/><path d="M8 6.3v3.5"/><circle cx="8" cy="11.8" r=".5" fill="currentColor"/>',
  info: '<circle cx="8" cy="8" r="6.5"/><path d="M8 7.3v4.2"/><circle cx="8" cy="4.9" r=".5" fill="currentColor"/>',
  question: '<circle cx="8" cy="8" r="6.5"/><path d="M6 6.2a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.3v.3"/><circle cx="8" cy="11.6" r=".5" fill="currentColor"/>',
  bug: '<ellipse cx="8" cy="9.3" rx="3.5" ry="4.7"/><path d="M8 6v7.8M4.6 7.8H2M4.5 11H2.3M11.4 7.8H14M11.5 11h2.2M6.4 4.9 5 2.8M9.6 4.9 11 2.8"/>',
  check: '<circle cx="8" cy="8" r="6.5"/><path d="m5 8.2 2 2 4-4.2"/>',
  cross: '<circle cx="8" cy="8" r="6.5"/><path d="m5.6 5.6 4.8 4.8m0-4.8-4.8 4.8"/>',
  star: '<path d="m8 1.6 1.9 4 4.4.6-3.2 3.1.8 4.4L8 11.6l-3.9 2.1.8-4.4-3.2-3.1 4.4-.6z"/>',
  flame: '<path d="M8 14.5c-2.7 0-4.5-1.8-4.5-4.3 0-2.7 2.1-4 2.6-6.8 1.6 1 2.3 2.5 2.3 3.8.6-.4 1-1.2 1.1-2.1 1.7 1.3 3 3 3 5.1 0 2.5-1.8 4.3-4.5 4.3z"/>',
  lock: '<rect x="3" y="7" width="10" height="7.5" rx="1.2"/><path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2"/>',
  shield: '<path d="M8 1.5 13.5 3.5v4c0 3.3-2.3 5.9-5.5 7-3.2-1.1-5.5-3.7-5.5-7v-4z"/>',
  rocket: '<path d="M8 1.5c2 1.5 3 3.8 3 6.5v3.5H5V8c0-2.7 1-5 3-6.5z"/><path d="M5 8.5 3 10.5v2.5l2-1.5M11 8.5l2 2v2.5l-2-1.5M7 13.5 8 15l1-1.5"/><circle cx="8" cy="6.3" r="1.2"/>',
  bolt: '<path d="M9.2 1.5 3.5 9.2h4.3l-1 5.3 5.7-7.7H8.2z"/>',
  note: '<path d="M3.5 1.5h6l3 3v10h-9z"/><path d="M9.5 1.5v3h3M5.5 8h5M5.5 10.5h5"/>',
  pin: '<path d="M5.5 1.5h5M6.5 1.5v4L4 8.5h8L9.5 5.5v-4M8 8.5v6"/>',
  eye: '<path d="M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8z"/><circle cx="8" cy="8" r="2"/>',
  gear: '<circle cx="8" cy="8" r="2.2"/><circle cx="8" cy="8" r="4.6"/><path d="M8 1.5v1.9M8 12.6v1.9M1.5 8h1.9M12.6 8h1.9M3.4 3.4l1.3 1.3M11.3 11.3l1.3 1.3M3.4 12.6l1.3-1.3M11.3 4.7l1.3-1.3"/>',
  link: '<path d="M6.8 9.2a2.5 2.5 0 0 0 3.6 0l2.4-2.4a2.5 2.5 0 0 0-3.6-3.6l-1 1"/><path d="M9.2 6.8a2.5 2.5 0 0 0-3.6 0L3.2 9.2a2.5 2.5 0 0 0 3.6 3.6l1-1"/>',
  flask: '<path d="M5.5 1.5h5M6.5 1.5v4.5L2.8 12.6a1.3 1.3 0 0 0 1.1 1.9h8.2a1.3 1.3 0 0 0 1.1-1.9L9.5 6V1.5"/><path d="M4.6 10h6.8"/>',
  trash: '<path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 10.5h6.6L12 4M6.8 6.5v5.5M9.2 6.5v5.5"/>',
  clipboard: '<rect x="3" y="2.5" width="10" height="12" rx="1"/><path d="M6 3.5v-2h4v2M5.5 7h5M5.5 9.5h5M5.5 12h3"/>',
  book: '<path d="M8 4C6.5 2.8 4.5 2.5 1.5 2.5v10c3 0 5 .3 6.5 1.5 1.5-1.2 3.5-1.5 6.5-1.5v-10c-3 0-5 .3-6.5 1.5z"/><path d="M8 4v10"/>',
  magnifier: '<circle cx="6.8" cy="6.8" r="4.3"/><path d="m10 10 4.5 4.5"/>',
  thumbsup: '<path d="M5 7v7.5H2V7zM5 7l2.5-5.5c1.2 0 2 .8 2 2V6h3.6a1.4 1.4 0 0 1 1.4 1.6l-.9 5.6a1.5 1.5 0 0 1-1.5 1.3H5"/>',
  heart: '<path d="M8 14S1.5 10.2 1.5 5.8A3.3 3.3 0 0 1 8 4.3a3.3 3.3 0 0 1 6.5 1.5C14.5 10.2 8 14 8 14z"/>',
  sparkles: '<path d="M6 1.5 7.2 5l3.3 1.2-3.3 1.2L6 11 4.8 7.4 1.5 6.2 4.8 5z"/><path d="m12 9 .7 1.8 1.8.7-1.8.7L12 14l-.7-1.8-1.8-.7 1.8-.7z"/>',
  barrier: '<rect x="1.5" y="4" width="13" height="5" rx=".5"/><path d="M4.5 4l-3 3M9 4 4 9M13.5 4l-5 5M14.5 7.5 13 9M3.5 9v5.5M12.5 9v5.5"/>',
  image: '<rect x="1.5" y="2.5" width="13" height="11" rx="1"/><circle cx="5.5" cy="6" r="1.3"/><path d="m1.5 11.5 4-3.5 3 2.5 2-1.5 4 3"/>',
} as const;

/** What a drawing shows. */
export type IconDrawing = keyof typeof DRAWINGS;

/** One icon name: its emoji and its drawing. */
interface IconEntry {
  readonly emoji: string;
  readonly drawing: IconDrawing;
}

/** The one icon table: every name an author may write. */
const ICONS: Readonly<Record<string, IconEntry>> = {
  comment: { emoji: '💬', drawing: 'comment' },
  lightbulb: { emoji: '💡', drawing: 'lightbulb' },
  idea: { emoji: '💡', drawing: 'lightbulb' },
  warning: { emoji: '⚠️', drawing: 'warning' },
  info: { emoji: 'ℹ️', drawing: 'info' },
  question: { emoji: '❓', drawing: 'question' },
  bug: { emoji: '🐛', drawing: 'bug' },
  check: { emoji: '✅', drawing: 'check' },
  success: { emoji: '✅', drawing: 'check' },
  error: { emoji: '❌', drawing: 'cross' },
  x: { emoji: '❌', drawing: 'cross' },
  star: { emoji: '⭐', drawing: 'star' },
  fire: { emoji: '🔥', drawing: 'flame' },
  lock: { emoji: '🔒', drawing: 'lock' },
  security: { emoji: '🛡️', drawing: 'shield' },
  shield: { emoji: '🛡️', drawing: 'shield' },
  rocket: { emoji: '🚀', drawing: 'rocket' },
  performance: { emoji: '⚡', drawing: 'bolt' },
  zap: { emoji: '⚡', drawing: 'bolt' },
  note: { emoji: '📝', drawing: 'note' },
  pin: { emoji: '📌', drawing: 'pin' },
  eye: { emoji: '👀', drawing: 'eye' },
  gear: { emoji: '⚙️', drawing: 'gear' },
  config: { emoji: '⚙️', drawing: 'gear' },
  link: { emoji: '🔗', drawing: 'link' },
  test: { emoji: '🧪', drawing: 'flask' },
  trash: { emoji: '🗑️', drawing: 'trash' },
  todo: { emoji: '📋', drawing: 'clipboard' },
  book: { emoji: '📖', drawing: 'book' },
  search: { emoji: '🔍', drawing: 'magnifier' },
  thumbsup: { emoji: '👍', drawing: 'thumbsup' },
  heart: { emoji: '❤️', drawing: 'heart' },
  sparkles: { emoji: '✨', drawing: 'sparkles' },
  construction: { emoji: '🚧', drawing: 'barrier' },
};

/** Every icon name, for help texts and suggestions. */
export const ICON_NAMES: readonly string[] = Object.keys(ICONS);

/** The emoji for an icon name (case-insensitive) or for an emoji written directly; undefined if unknown. */
export function iconEmoji(name: string): string | undefined {
  const known = ICONS[name.trim().toLowerCase()];
  if (known !== undefined) return known.emoji;
  // A single emoji (one grapheme, pictographic) may be used as is.
  const trimmed = name.trim();
  return isOneGrapheme(trimmed) && /\p{Extended_Pictographic}/u.test(trimmed) ? trimmed : undefined;
}

/**
 * Whether `text` is one grapheme. The segmenter is read two segments at most: each segment it
 * yields carries a fresh copy of the whole input, so listing every segment of a long attribute
 * costs its length squared in memory (a 200,000-character icon exhausted the heap).
 */
function isOneGrapheme(text: string): boolean {
  if (text === '') return false;
  let count = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) if (++count > 1) return false;
  return true;
}

/** The emoji of the default icon. */
export const DEFAULT_EMOJI = ICONS[DEFAULT_ICON]?.emoji ?? '💬';

/** The variation selectors that only choose text or emoji presentation (`⚠` vs `⚠️`). */
const PRESENTATION_SELECTORS = /[\uFE0E\uFE0F]/gu;

/** The table's entries by emoji (without presentation selectors); the first name of an emoji wins. */
const BY_EMOJI: ReadonlyMap<string, { readonly name: string; readonly entry: IconEntry }> = new Map(
  Object.entries(ICONS)
    .reverse()
    .map(([name, entry]) => [entry.emoji.replace(PRESENTATION_SELECTORS, ''), { name, entry }]),
);

/** How the page shows a comment's icon: the drawing, and the text a screen reader says instead. */
export interface PageIcon {
  readonly drawing: IconDrawing;
  /** The icon's name (`lightbulb`), or the emoji an author wrote that has no drawing of its own. */
  readonly label: string;
}

/**
 * The page icon of a comment's `icon` as written: a known name (case-insensitive), an emoji of the
 * table (`💡` is the lightbulb), or else the default drawing — an author's other emoji keeps only
 * its accessible label, since an emoji would render as an empty box without an emoji font.
 */
export function pageIcon(written: string): PageIcon {
  const name = written.trim().toLowerCase();
  const known = ICONS[name];
  if (known !== undefined) return { drawing: known.drawing, label: name };
  const byEmoji = BY_EMOJI.get(written.trim().replace(PRESENTATION_SELECTORS, ''));
  if (byEmoji !== undefined) return { drawing: byEmoji.entry.drawing, label: byEmoji.name };
  const fallback = ICONS[DEFAULT_ICON]?.drawing ?? 'comment';
  return { drawing: fallback, label: iconEmoji(written) !== undefined ? written.trim() : DEFAULT_ICON };
}

/** The size of the drawings' grid and of the `<svg>` before CSS sizes it to the text. */
const GRID = 16;

/** A drawing as an inline `<svg>`: decorative (`aria-hidden`), in the text colour; CSS sizes `.wt-svg`. */
export function iconSvg(drawing: IconDrawing): string {
  return (
    `<svg class="wt-svg wt-svg-${drawing}" viewBox="0 0 ${GRID} ${GRID}" width="${GRID}" height="${GRID}" fill="none" stroke="currentColor"` +
    ` stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${DRAWINGS[drawing]}</svg>`
  );
}
