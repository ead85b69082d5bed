/**
 * The `.member` uses a references answer does not list, for a server that ties `value.member` to a
 * class member only through the type it infers for `value` (pyright: `membersByInferredType`).
 * The backend finds the mentions its answer lacks; the note is made once the answers of every
 * declaration of the symbol are joined, from the mentions none of them lists: a member a package
 * stub declares too (attrs' `attr/__init__.pyi`) has its uses typed through the stub, in the
 * stub's answer and not in the source's, and they are no untyped uses.
 */

/** One mention of `.member` in a workspace file: its path and 1-based line. */
export interface MemberMention {
  readonly path: string;
  readonly line: number;
}

/** The `.member` mentions a references answer does not list (data, so answers can be joined before the note is made). */
export interface UntypedMemberUses {
  /** The server's display name (`Python (pyright)`). */
  readonly server: string;
  /** The member's name. */
  readonly name: string;
  /** The mentions the answer does not list, in the search's order. */
  readonly mentions: readonly MemberMention[];
  /** Whether the search stopped at its limit (more may exist). */
  readonly more: boolean;
}

/** Places a note names at most. */
const MAX_NAMED_MENTIONS = 3;

/** The search pattern that lists every `.name` mention. */
export function memberPattern(name: string): string {
  return `\\.${name}\\b`;
}

/**
 * Joins the untyped-uses reports of several answers to one symbol (or to several of one name):
 * the mentions no answer lists (`listed`: {@link mentionKey} of every place of every answer).
 * Each report searched the same mentions, so one per server and name remains; none when every
 * mention is listed.
 */
export function joinUntypedUses(reports: readonly UntypedMemberUses[], listed: ReadonlySet<string>): UntypedMemberUses[] {
  const joined = new Map<string, UntypedMemberUses>();
  for (const r of reports) {
    const key = `${r.server}\u0000${r.name}`;
    const earlier = joined.get(key);
    joined.set(key, { ...r, mentions: (earlier ?? r).mentions.filter((m) => !listed.has(mentionKey(m))), more: r.more || earlier?.more === true });
  }
  return [...joined.values()].filter((r) => r.mentions.length > 0);
}

/** The key of a place by line (`path:line`), as mentions are compared with an answer's places. */
export function mentionKey(m: MemberMention): string {
  return `${m.path}:${m.line}`;
}

/** The one-line note of an untyped-uses report: how many, where the first are, and the search that lists them. */
export function untypedUsesNote(r: UntypedMemberUses): string {
  const files = new Set(r.mentions.map((m) => m.path)).size;
  const first = r.mentions.slice(0, MAX_NAMED_MENTIONS).map(mentionKey).join(', ');
  return (
    `${r.server} ties \`.${r.name}\` to this member only where it infers the value's type: ${r.mentions.length}${r.more ? '+' : ''} more in ${files} file${files === 1 ? '' : 's'} ` +
    `(${first}${r.mentions.length > MAX_NAMED_MENTIONS ? ', …' : ''}) are on values it could not type, or another type's; search(".", ${JSON.stringify(memberPattern(r.name))}) lists them`
  );
}
