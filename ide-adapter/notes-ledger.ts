/**
 * The notes ledger: what a session has told its reader, so that a fact about the session (the
 * workspace is untrusted, the standard library is not loaded, a server is degraded, a bound cut
 * what a server loads) is told once — in the first answer it matters to — and again only when it
 * changes. One ledger per session (an MCP connection, a REPL, one `dialect eval`); the facts it
 * has seen, with their details, are what `status()` and MCP's `dialect://status` show.
 *
 * Facts are keyed (`untrusted`, `health:rust-analyzer`, a server's warning key) and versioned by
 * their line: a changed line under a known key is told again. Each line is short and says where
 * the details are; the detail text never goes into an answer.
 */
import { truncate } from '../dialect/display.js';

/** A fact about the session, as the ledger keeps it. */
export interface SessionFact {
  /** What the fact is about; a later fact with the same key replaces it. */
  readonly key: string;
  /** The one short line an answer carries. */
  readonly line: string;
  /** The whole story (what is affected, how to fix it), for `status()`. */
  readonly detail: string;
}

/** Longest note line an answer carries; the rest is behind `status()`. */
export const MAX_NOTE_LINE = 160;
/** What a shortened note ends with: where the rest is. */
export const STATUS_POINTER = 'status() has details';

/**
 * A fact whose line is its text when that is short, else the text's first clause and where the
 * rest is: `rust-analyzer could not fully load the Rust standard library — status() has details`.
 */
export function factOf(key: string, text: string): SessionFact {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_NOTE_LINE) return { key, line: trimmed, detail: trimmed };
  // The fix stays in the line: it is what the reader acts on.
  const fix = /(?:^|\.\s)((?:To trust it: |Fix: |To lift this, |Trust the workspace[^:.]*: )[^\n]*)$/.exec(trimmed)?.[1]?.replace(/\.$/, '');
  const room = MAX_NOTE_LINE - STATUS_POINTER.length - 3 - (fix !== undefined ? Math.min(fix.length, MAX_NOTE_LINE) + 5 : 0);
  const head = atWord(leadingClauses(trimmed, Math.max(room, MIN_NOTE_HEAD)), Math.max(room, MIN_NOTE_HEAD));
  return { key, line: fix !== undefined ? `${head} — ${truncate(fix, MAX_NOTE_LINE)} (${STATUS_POINTER})` : `${head} — ${STATUS_POINTER}`, detail: trimmed };
}

/**
 * `text` cut to at most `max` characters at the end of a word, with an ellipsis: a clause too
 * long for its line reads `queries no compiler…`, never `queries no compiler for i…`. A text
 * with no space early enough is cut where it must be.
 */
function atWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  if (space < max / 2) return truncate(text, max);
  return `${cut.slice(0, space).replace(/[\s,;:.—-]+$/, '')}…`;
}

/** The fewest characters of a note's own words a shortened line keeps, however long its fix. */
const MIN_NOTE_HEAD = 60;

/**
 * As many whole clauses from the start of `text` as fit in `room` characters (at least the first,
 * which the caller cuts): the first clause says what happened, the next usually why. A clause
 * ends at `: `, `; `, `. ` or before ` (` — never inside parentheses or backticks, so a line is
 * never cut to "offline (error".
 */
function leadingClauses(text: string, room: number): string {
  let end = -1;
  let depth = 0;
  let inCode = false;
  for (let i = 0; i < text.length && i <= room; i++) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    if (inCode) continue;
    if (c === ' ' && text[i + 1] === '(' && depth === 0 && i >= 20) end = i;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === ':' || c === ';' || c === '.') && text[i + 1] === ' ' && depth === 0 && i >= 20) end = i;
  }
  return end > 0 ? text.slice(0, end) : text;
}

/** What a session has seen and told. */
export class NotesLedger {
  readonly #current = new Map<string, SessionFact>();
  readonly #told = new Map<string, string>();

  /** Records a fact (seen now); it is news until {@link take} hands it out. */
  observe(fact: SessionFact): void {
    this.#current.set(fact.key, fact);
  }

  /** Forgets a fact that no longer holds (a server that recovered), so it is told again if it returns. */
  clear(key: string): void {
    this.#current.delete(key);
    this.#told.delete(key);
  }

  /**
   * The lines of facts not told yet (or changed since), in the order they were seen; they count as
   * told from now on. A fact the answer states itself (`said`: an error's message saying why a name
   * cannot be looked up) is told by it: its line is not added to say it twice.
   */
  take(said = ''): string[] {
    const out: string[] = [];
    for (const fact of this.#current.values()) {
      if (this.#told.get(fact.key) === fact.line) continue;
      this.#told.set(fact.key, fact.line);
      if (!statedIn(said, fact)) out.push(fact.line);
    }
    return out;
  }

  /** Every fact that holds now, with its details. */
  facts(): SessionFact[] {
    return [...this.#current.values()];
  }
}

/** Shortest part of a fact that counts as stating it when an answer quotes it. */
const MIN_STATED_CHARS = 40;

/** Whether `text` states the fact: its whole detail, or the detail after its leading clause (`X is unavailable…: WHY`). */
function statedIn(text: string, fact: SessionFact): boolean {
  if (text === '') return false;
  const detail = fact.detail.replace(/\.$/, '');
  const colon = detail.indexOf(': ');
  const why = colon >= 0 ? detail.slice(colon + 2) : detail;
  return text.includes(detail) || (why.length >= MIN_STATED_CHARS && text.includes(why));
}
