/** Comment icons: names an author may write, and the emoji each stands for. */

/** The icon of a comment without an `icon` attribute, and of one with an unknown icon. */
export const DEFAULT_ICON = 'comment';

const ICONS: Readonly<Record<string, string>> = {
  comment: '💬',
  lightbulb: '💡',
  idea: '💡',
  warning: '⚠️',
  info: 'ℹ️',
  question: '❓',
  bug: '🐛',
  check: '✅',
  success: '✅',
  error: '❌',
  x: '❌',
  star: '⭐',
  fire: '🔥',
  lock: '🔒',
  security: '🛡️',
  shield: '🛡️',
  rocket: '🚀',
  performance: '⚡',
  zap: '⚡',
  note: '📝',
  pin: '📌',
  eye: '👀',
  gear: '⚙️',
  config: '⚙️',
  link: '🔗',
  test: '🧪',
  trash: '🗑️',
  todo: '📋',
  book: '📖',
  search: '🔍',
  thumbsup: '👍',
  heart: '❤️',
  sparkles: '✨',
  construction: '🚧',
};

/** Every icon name, for help texts and suggestions. */
export const ICON_NAMES: readonly string[] = Object.keys(ICONS);

/** The emoji for an icon name (case-insensitive) or for an emoji written directly; undefined if unknown. */
export function iconEmoji(name: string): string | undefined {
  const known = ICONS[name.trim().toLowerCase()];
  if (known !== undefined) return known;
  // A single emoji (one grapheme, pictographic) may be used as is.
  const segments = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name.trim())];
  if (segments.length === 1 && /\p{Extended_Pictographic}/u.test(name)) return name.trim();
  return undefined;
}

/** The emoji of the default icon. */
export const DEFAULT_EMOJI = ICONS[DEFAULT_ICON] ?? '💬';
