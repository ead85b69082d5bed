/**
 * Terminal output: whether to use colour, a few styles, and a "live line" that shows progress in
 * place (on a terminal) and stays silent otherwise.
 */

/** The streams and environment a command runs with (process's own, or fakes in tests). */
export interface Io {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** The errors of a write to a pipe whose reader has gone (`EPIPE`), and of the writes after it. */
const CLOSED_READER_CODES: ReadonlySet<string> = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** Streams already told to let their reader leave. */
const readerMayLeave = new WeakSet<object>();

/**
 * Lets the reader of `stream` leave before the answer is written (`dialect eval … | head`, as
 * agents read a long answer): what can no longer be written is dropped, and the command ends as
 * it would have, with its answer's exit code — not with Node's unhandled `EPIPE` error and its
 * stack. Any other error of the stream is thrown as before.
 */
export function letReaderLeave(stream: NodeJS.WritableStream): void {
  if (readerMayLeave.has(stream)) return;
  readerMayLeave.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== undefined && CLOSED_READER_CODES.has(error.code)) return;
    throw error;
  });
}

/**
 * Colour on a terminal, unless NO_COLOR is set (https://no-color.org); FORCE_COLOR (not "0")
 * forces it even when the stream is not a terminal.
 */
export function useColor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** Text styles for terminal output; each is the identity when colour is off. */
export interface Styles {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly red: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly magenta: (s: string) => string;
}

/** The styles, coloured or plain. */
export function styles(color: boolean): Styles {
  const sgr = (open: number, close: number) => (s: string) => (color ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), yellow: sgr(33, 39), red: sgr(31, 39), cyan: sgr(36, 39), magenta: sgr(35, 39) };
}

/** Removes ANSI escape sequences (for measuring and for tests). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, '');
}

/** Cuts a one-line text to fit `columns` (counting code points, ignoring colour codes). */
export function fit(text: string, columns: number): string {
  const plain = stripAnsi(text);
  const chars = Array.from(plain);
  if (chars.length < columns) return text;
  return `${chars.slice(0, Math.max(0, columns - 2)).join('')}…`;
}

/**
 * One line rewritten in place on a terminal (`\r` + clear), for progress while nothing else is
 * printed. On a non-terminal it prints nothing: scripts get no progress noise.
 */
export class LiveLine {
  #shown = false;
  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  show(text: string): void {
    if (!this.enabled) return;
    this.stream.write(`\r\u001b[2K${fit(text, this.stream.columns ?? 80)}`);
    this.#shown = true;
  }

  /** Erases the line (the cursor is left at its start). */
  clear(): void {
    if (!this.#shown) return;
    this.stream.write('\r\u001b[2K');
    this.#shown = false;
  }

  /** Replaces the line with a permanent one. */
  done(text: string): void {
    this.clear();
    if (this.enabled) this.stream.write(`${text}\n`);
  }
}


/** `551 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}
