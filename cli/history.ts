/**
 * REPL history kept between runs: one entry per line, oldest first, in the user's state folder
 * (`$XDG_STATE_HOME/dialect/history`, default `~/.local/state/dialect/history`). Entries are
 * appended as they are entered, so several REPLs at once lose nothing; the file is trimmed when
 * it grows well past the limit.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { appendFileSafelySync, writeFileSafelySync } from '../ide-adapter/safe-write.js';

/** The history is the user's alone. */
const HISTORY_MODE = 0o600;

/** The most REPL history entries kept. */
export const HISTORY_LIMIT = 1000;

/** The history file, or undefined when history is off (`DIALECT_HISTORY=` empty, or no home). */
export function historyPath(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const explicit = env['DIALECT_HISTORY'];
  if (explicit !== undefined) return explicit.trim() === '' ? undefined : explicit;
  const state = env['XDG_STATE_HOME'];
  if (state !== undefined && isAbsolute(state)) return join(state, 'dialect', 'history');
  const home = env['HOME'] ?? safeHomedir();
  return home !== undefined && home !== '' ? join(home, '.local', 'state', 'dialect', 'history') : undefined;
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/** The REPL history: loaded from and appended to its file, bounded by {@link HISTORY_LIMIT}. */
export class History {
  /** Newest first, as readline wants it. */
  readonly entries: string[];
  #warned = false;

  private constructor(
    readonly file: string | undefined,
    entries: string[],
    private readonly onError: (message: string) => void,
  ) {
    this.entries = entries;
  }

  /** Reads the history file (a missing or unreadable file is an empty history). */
  static async load(file: string | undefined, onError: (message: string) => void): Promise<History> {
    if (file === undefined) return new History(undefined, [], onError);
    let lines: string[] = [];
    try {
      lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onError(`cannot read the history file ${file}: ${(error as Error).message}`);
    }
    const history = new History(file, lines.slice(-HISTORY_LIMIT).reverse(), onError);
    if (lines.length > 2 * HISTORY_LIMIT) await history.#rewrite(lines.slice(-HISTORY_LIMIT));
    return history;
  }

  /** Appends entries (oldest first) to the file. Failures are reported once and otherwise ignored. */
  async append(entries: readonly string[]): Promise<void> {
    const lines = entries.filter((e) => e.trim() !== '' && !/[\n\r]/.test(e));
    if (this.file === undefined || lines.length === 0) return;
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      appendFileSafelySync(this.file, lines.map((l) => `${l}\n`).join(''), HISTORY_MODE);
    } catch (error) {
      this.#fail(error);
    }
  }

  async #rewrite(lines: readonly string[]): Promise<void> {
    if (this.file === undefined) return;
    try {
      writeFileSafelySync(this.file, lines.map((l) => `${l}\n`).join(''), { replace: { kind: 'private' }, mode: HISTORY_MODE });
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.onError(`cannot save the history to ${this.file ?? '?'}: ${(error as Error).message}`);
  }
}
