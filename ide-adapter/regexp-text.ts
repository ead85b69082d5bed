/**
 * Text put into our own regular expressions: a name a server or the workspace gives, escaped so
 * it matches only itself. The one escaper (each language's name rules and the references checks
 * build patterns around names).
 */

/** `text` with every character a regular expression reads specially escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern matching `name` as a whole word of code (not inside a longer identifier; `$` counts as a letter). */
export function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`);
}
