/**
 * Keyboard input for the REPL on a terminal: a pass-through between stdin and readline that
 * adds Ctrl-R reverse history search (node:readline has none; Node's own REPL implements it
 * outside readline too). Keys go to readline unchanged, except while a search is active.
 */
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { fit } from './terminal.js';

/** What the search needs of the line editor. */
export interface SearchTarget {
  /** The line being edited. */
  readonly line: string;
  /** Replaces the line being edited (the editor redraws it). */
  setLine(text: string): void;
  /** Redraws the prompt and the line. */
  redraw(): void;
  /** Writes to the terminal. */
  write(text: string): void;
  readonly columns: number;
}

const CTRL_R = '\u0012';
const CTRL_G = '\u0007';
const CTRL_C = '\u0003';
const ESC = '\u001b';

/**
 * Incremental reverse search through the history (newest first), as in bash: Ctrl-R starts it and
 * goes to older matches, typing narrows it, Backspace widens it, Enter runs the match, Esc or
 * another editing key keeps the match for editing, Ctrl-G / Ctrl-C go back to what was typed.
 */
export class ReverseSearch {
  #active = false;
  #query = '';
  #index = -1;
  #saved = '';

  constructor(
    private readonly target: SearchTarget,
    private readonly history: () => readonly string[],
    private readonly forward: (keys: string) => void,
  ) {}

  get active(): boolean {
    return this.#active;
  }

  /** Handles typed keys: what is not part of a search is forwarded to the line editor. */
  feed(chunk: string): void {
    let pass = '';
    const flush = (): void => {
      if (pass !== '') this.forward(pass);
      pass = '';
    };
    const chars = Array.from(chunk);
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i] as string;
      if (!this.#active) {
        if (ch === CTRL_R) {
          flush();
          this.#start();
        } else pass += ch;
        continue;
      }
      if (ch === CTRL_R) this.#find(this.#index + 1, this.#query);
      else if (ch === '\u007f' || ch === '\b') {
        this.#query = Array.from(this.#query).slice(0, -1).join('');
        this.#find(0, this.#query);
      } else if (ch === '\r' || ch === '\n') {
        this.#end(this.#match() ?? this.#saved);
        pass += '\r';
      } else if (ch === CTRL_G || ch === CTRL_C) this.#end(this.#saved);
      else if (ch === ESC) {
        // Keep the match. An escape sequence (an arrow key: ESC [ C) goes on to the editor; a lone
        // Esc does not, or the editor would read it with the next key as Meta-key.
        this.#end(this.#match() ?? this.#saved);
        const rest = chars.slice(i + 1).join('');
        pass += rest.startsWith('[') || rest.startsWith('O') ? `${ESC}${rest}` : rest;
        break;
      } else if (ch < ' ') {
        this.#end(this.#match() ?? this.#saved);
        pass += ch;
      } else {
        this.#query += ch;
        this.#find(Math.max(this.#index, 0), this.#query);
      }
    }
    flush();
  }

  #start(): void {
    this.#active = true;
    this.#query = '';
    this.#index = -1;
    this.#saved = this.target.line;
    this.target.setLine('');
    this.#render(false);
  }

  #match(): string | undefined {
    return this.#index >= 0 ? this.history()[this.#index] : undefined;
  }

  /** Finds the first entry at or after `from` that contains `query`; stays put when there is none. */
  #find(from: number, query: string): void {
    const entries = this.history();
    for (let i = from; i < entries.length; i++) {
      if ((entries[i] as string).includes(query)) {
        this.#index = i;
        this.#render(false);
        return;
      }
    }
    this.#render(true);
  }

  #render(failed: boolean): void {
    const text = `(${failed ? 'failed ' : ''}reverse-i-search)\`${this.#query}': ${this.#match() ?? ''}`;
    this.target.write(`\r\u001b[2K${fit(text, this.target.columns)}`);
  }

  #end(line: string): void {
    this.#active = false;
    this.target.write('\r\u001b[2K');
    this.target.redraw();
    this.target.setLine(line.replace(/[\r\n\t]+/g, ' '));
  }
}

/**
 * The stream readline reads on a terminal: stdin's keys, filtered through the reverse search.
 * Raw mode requests are passed on to stdin.
 */
export class TerminalInput {
  readonly stream: PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => unknown };
  #search: ReverseSearch | undefined;
  readonly #decoder = new StringDecoder('utf8');
  readonly #onData = (data: Buffer | string): void => {
    const text = typeof data === 'string' ? data : this.#decoder.write(data);
    if (this.#search !== undefined) this.#search.feed(text);
    else this.stream.write(text);
  };
  readonly #onEnd = (): void => {
    this.stream.end();
  };

  constructor(private readonly stdin: NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown }) {
    const stream = new PassThrough();
    this.stream = Object.assign(stream, {
      isTTY: true,
      setRawMode: (mode: boolean) => {
        stdin.setRawMode?.(mode);
        return stream;
      },
    });
    stdin.on('data', this.#onData);
    stdin.on('end', this.#onEnd);
  }

  /** Turns on Ctrl-R search. */
  useSearch(search: ReverseSearch): void {
    this.#search = search;
  }

  /** Sends keys to the line editor as if typed. */
  forward(keys: string): void {
    this.stream.write(keys);
  }

  /** Stops reading stdin (so the process can exit) and leaves raw mode. */
  close(): void {
    this.stdin.off('data', this.#onData);
    this.stdin.off('end', this.#onEnd);
    this.stdin.setRawMode?.(false);
    this.stdin.pause();
    if (!this.stream.writableEnded) this.stream.end();
  }
}
