/**
 * What a references answer may miss, as places: the mentions of the name the server's answer does
 * not list where the server is known to leave uses out — `.member` on values pyright could not
 * type (`membersByInferredType`: it ties `value.member` to a class member only through the type it
 * infers), code in a preprocessor branch clangd does not analyse (`unanalysedMentions`), or a
 * folder the build ignores (`ignoredFolder`: Go's `_examples`, `testdata`), code the server marks
 * as not analysed (`inactiveCode`: rust-analyzer's items under a `#[cfg]` that is off). The
 * backend finds the mentions its answer lacks; the note is made once the answers of every place
 * the symbol was asked at are joined, from the mentions none of them lists: a C++ overload's uses
 * are in its own answer, not its siblings' (tinyxml2's 24 `SetAttribute` overloads made six notes
 * naming uses the joined answer listed), and a member a package stub declares has its uses typed
 * through the stub, in the stub's answer (attrs' `attr/__init__.pyi`).
 */

/** One mention of the name in a workspace file: its path and 1-based line. */
export interface Mention {
  readonly path: string;
  readonly line: number;
}

/** Why a server's answer may leave mentions out. */
export type UnlistedWhy = 'untyped-member' | 'skipped-branch' | 'ignored-folder' | 'inactive-code';

/** The mentions of a name one references answer does not list (data, so answers can be joined before the note is made). */
export interface UnlistedMentions {
  /**
   * `untyped-member`: `.name` mentions the server ties to the member only through an inferred
   * type; `skipped-branch`: mentions in conditional code; `ignored-folder`: mentions in folders
   * the language's build ignores (`where` names them); `inactive-code`: mentions in code the
   * server marks as not analysed (`where` names it).
   */
  readonly why: UnlistedWhy;
  /** For `ignored-folder` and `inactive-code`: which folders or code, in words (`folders the go command ignores (_x, .x, testdata)`). */
  readonly where?: string;
  /** The server's display name (`Python (pyright)`, `clangd`). */
  readonly server: string;
  /** The name. */
  readonly name: string;
  /** The mentions the answer does not list, in the order they were found. */
  readonly mentions: readonly Mention[];
  /** Whether the search stopped at its limit (more may exist). */
  readonly more: boolean;
}

/** Places a note names at most. */
const MAX_NAMED_MENTIONS = 3;

/** The search pattern that lists every `.name` mention. */
export function memberPattern(name: string): string {
  return `\\.${name}\\b`;
}

/** The key of a place by line (`path:line`), as mentions are compared with an answer's places. */
export function mentionKey(m: Mention): string {
  return `${m.path}:${m.line}`;
}

/**
 * Joins the reports of several answers to one symbol (its declarations, its overloads) or to
 * several of one name: the mentions any report found that no answer lists (`listed`:
 * {@link mentionKey} of every place of every answer), one report per reason, server and name;
 * none when every mention is listed.
 */
export function joinUnlisted(reports: readonly UnlistedMentions[], listed: ReadonlySet<string>): UnlistedMentions[] {
  const joined = new Map<string, { report: UnlistedMentions; mentions: Map<string, Mention> }>();
  for (const r of reports) {
    const key = `${r.why}\u0000${r.server}\u0000${r.name}`;
    const entry = joined.get(key) ?? { report: r, mentions: new Map<string, Mention>() };
    for (const m of r.mentions) if (!listed.has(mentionKey(m)) && !entry.mentions.has(mentionKey(m))) entry.mentions.set(mentionKey(m), m);
    joined.set(key, { report: { ...entry.report, more: entry.report.more || r.more }, mentions: entry.mentions });
  }
  return [...joined.values()].filter((e) => e.mentions.size > 0).map((e) => ({ ...e.report, mentions: [...e.mentions.values()] }));
}

/** The one-line note of a joined report: how many, where the first are, and the search that lists them. */
export function unlistedNote(r: UnlistedMentions): string {
  const count = `${r.mentions.length}${r.more ? '+' : ''}`;
  const named = r.mentions.slice(0, MAX_NAMED_MENTIONS).map(mentionKey).join(', ') + (r.mentions.length > MAX_NAMED_MENTIONS ? ` (+${r.mentions.length - MAX_NAMED_MENTIONS}${r.more ? '+' : ''} more)` : '');
  const search = `search(".", ${JSON.stringify(`\\b${r.name}\\b`)}) finds every mention`;
  if (r.why === 'skipped-branch') return `${r.server} skips preprocessor branches not taken: ${JSON.stringify(r.name)} is also written in one at ${named}; ${search}`;
  if (r.why === 'ignored-folder' || r.why === 'inactive-code') return `${r.server} does not analyse ${r.where ?? (r.why === 'ignored-folder' ? 'folders the build ignores' : 'code it marks inactive')}: ${JSON.stringify(r.name)} is also written at ${named}; ${search}`;
  const files = new Set(r.mentions.map((m) => m.path)).size;
  const first = r.mentions.slice(0, MAX_NAMED_MENTIONS).map(mentionKey).join(', ');
  return (
    `${r.server} ties \`.${r.name}\` to this member only where it infers the value's type: ${count} more in ${files} file${files === 1 ? '' : 's'} ` +
    `(${first}${r.mentions.length > MAX_NAMED_MENTIONS ? ', …' : ''}) are on values it could not type, or another type's; search(".", ${JSON.stringify(memberPattern(r.name))}) lists them`
  );
}
