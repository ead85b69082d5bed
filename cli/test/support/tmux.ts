/**
 * Drives a program in a real pseudo-terminal through tmux, as a user would: type keys, read the
 * screen back. Each session has its own tmux server (a socket in a temp folder), so tests never
 * touch the user's tmux and run in parallel safely.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TMUX_TIMEOUT_MS = 10_000;

/** The tmux binary, or undefined to skip; under CI (`CI=true`) a missing tmux fails instead. */
export function requireTmux(): string | undefined {
  for (const candidate of ['/usr/bin/tmux', '/usr/local/bin/tmux', '/opt/homebrew/bin/tmux']) if (existsSync(candidate)) return candidate;
  if (process.env['CI'] === 'true') throw new Error('tmux is not installed (apt-get install tmux; scripts/setup.sh does it)');
  return undefined;
}

/** Quotes a word for sh. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The line the pane prints when the program exits (the pane stays open, so it can be read). */
export const EXIT_MARKER = /\[exited (\d+)\]/;

export class TmuxSession {
  private constructor(
    private readonly tmux: string,
    private readonly socket: string,
    private readonly env: Readonly<Record<string, string>>,
  ) {}

  /** Starts `command` in a `width`×`height` terminal; the pane prints `[exited N]` when it ends. */
  static async start(options: {
    tmux: string;
    /** A folder for the socket and config (a temp folder the test removes). */
    dir: string;
    command: readonly string[];
    cwd: string;
    env: Readonly<Record<string, string>>;
    width?: number;
    height?: number;
  }): Promise<TmuxSession> {
    const config = join(options.dir, 'tmux.conf');
    await writeFile(config, 'set -g remain-on-exit on\nset -g history-limit 20000\nset -g status off\nset -sg escape-time 0\n');
    const session = new TmuxSession(options.tmux, join(options.dir, 'tmux.sock'), { ...options.env, TERM: 'xterm-256color' });
    const script = `cd ${shellQuote(options.cwd)} && ${options.command.map(shellQuote).join(' ')}; echo "[exited $?]"`;
    await session.#run(['-f', config, 'new-session', '-d', '-x', String(options.width ?? 200), '-y', String(options.height ?? 50), '-s', 'main', 'sh', '-c', script]);
    return session;
  }

  #run(args: readonly string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(this.tmux, ['-S', this.socket, ...args], { env: this.env, timeout: TMUX_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`tmux ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
  }

  /** Types text literally (no key names). */
  async type(text: string): Promise<void> {
    await this.#run(['send-keys', '-t', 'main', '-l', text]);
  }

  /** Presses keys by tmux name: `Enter`, `Tab`, `C-c`, `C-d`, `C-r`, `Up`, `BSpace`. */
  async press(...keys: string[]): Promise<void> {
    await this.#run(['send-keys', '-t', 'main', ...keys]);
  }

  /** Types a line and presses Enter. */
  async line(text: string): Promise<void> {
    await this.type(text);
    await this.press('Enter');
  }

  /** Everything on the screen and in its scroll-back, as plain text without trailing blank lines. */
  async screen(): Promise<string> {
    const text = await this.#run(['capture-pane', '-p', '-J', '-S', '-', '-t', 'main']);
    return text.replace(/\s+$/, '');
  }

  /** The last non-empty line of the screen (where the cursor usually is). */
  async lastLine(): Promise<string> {
    const lines = (await this.screen()).split('\n');
    return lines[lines.length - 1] ?? '';
  }

  /**
   * Waits until the screen matches (a regex, a text, or a predicate), polling every 50 ms (the
   * terminal is another process, with no event to wait on); resolves with the screen. On timeout it fails with the screen in the message.
   */
  async waitFor(expected: RegExp | string | ((screen: string) => boolean), timeoutMs = 30_000): Promise<string> {
    const test = typeof expected === 'function' ? expected : typeof expected === 'string' ? (s: string) => s.includes(expected) : (s: string) => expected.test(s);
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    for (;;) {
      screen = await this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen did not show ${String(expected)} within ${timeoutMs} ms; it shows:\n${screen}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Waits until the screen ends with `text` (the line being edited, usually): trailing spaces do
   * not count, since a terminal does not show them.
   */
  waitForEnd(text: string, timeoutMs = 30_000): Promise<string> {
    return this.waitFor((s) => s.endsWith(text.trimEnd()), timeoutMs);
  }

  /** Waits for the screen to show `text` `count` times in all (for repeated prompts and outputs). */
  waitForCount(text: string, count: number, timeoutMs = 30_000): Promise<string> {
    return this.waitFor((s) => s.split(text).length - 1 >= count, timeoutMs);
  }

  /** Waits for the program to end; resolves with its exit code. */
  async exitCode(timeoutMs = 30_000): Promise<number> {
    const screen = await this.waitFor(EXIT_MARKER, timeoutMs);
    return Number(EXIT_MARKER.exec(screen)?.[1]);
  }

  /** Ends the tmux server (and with it the pane's process, by SIGHUP). */
  async kill(): Promise<void> {
    await this.#run(['kill-server']).catch(() => undefined);
  }
}
