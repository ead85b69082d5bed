/**
 * IDE sessions by workspace folder: the server's own session for its workspace, and sessions
 * opened on demand for other folders (a walkthrough whose `baseUri` is another project). Those
 * are cached and reused, the least recently used is shut down when too many are open, and all
 * of them are shut down when the server closes.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdeSession } from '../ide-adapter/index.js';

/** A problem with what the caller passed (shown to the agent as a tool error). */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/** An absolute folder path from a path or a `file://` URI. Throws {@link ToolInputError}. */
export async function folderFromUri(baseUri: string): Promise<string> {
  const text = baseUri.trim();
  if (text === '') throw new ToolInputError('"baseUri" is empty: pass the absolute path (or file:// URI) of the workspace folder the walkthrough is about');
  let path: string;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch (error) {
      throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is not a valid file URI (${(error as Error).message}); pass an absolute path such as /home/me/project`);
    }
  } else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(text)) {
    throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is not a local folder: pass an absolute path or a file:// URI`);
  } else {
    if (!isAbsolute(text)) throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is relative: pass the absolute path of the workspace folder, e.g. /home/me/project`);
    path = resolve(text);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new ToolInputError(`"baseUri" ${JSON.stringify(text)}: the folder ${path} does not exist`);
  }
  if (!(await stat(real)).isDirectory()) throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is a file, not a folder: pass the workspace folder`);
  return real;
}

export interface SessionCacheOptions {
  readonly open: (workspaceRoot: string) => IdeSession | Promise<IdeSession>;
  /** How many sessions for other folders may be open at once. */
  readonly max: number;
  readonly log: (line: string) => void;
}

export class SessionCache {
  readonly #main: IdeSession;
  readonly #options: SessionCacheOptions;
  /** Other folders' sessions (opening or open), least recently used first. */
  readonly #others = new Map<string, Promise<IdeSession>>();
  readonly #closing = new Set<Promise<void>>();
  #closed = false;

  constructor(main: IdeSession, options: SessionCacheOptions) {
    this.#main = main;
    this.#options = options;
  }

  /**
   * The session for a folder (an absolute, symlink-free path). Concurrent calls for a new folder
   * share one session; a folder whose session failed to open (say, an invalid `dialect.json`) is
   * tried again on the next call.
   */
  async sessionFor(root: string): Promise<IdeSession> {
    if (root === this.#main.workspace.root) return this.#main;
    if (this.#closed) throw new ToolInputError('the server is shutting down');
    const existing = this.#others.get(root);
    if (existing !== undefined) {
      this.#others.delete(root);
      this.#others.set(root, existing);
      return existing;
    }
    this.#options.log(`opening a session for ${root}`);
    const opening = (async () => this.#options.open(root))();
    this.#others.set(root, opening);
    opening.catch(() => {
      if (this.#others.get(root) === opening) this.#others.delete(root);
    });
    while (this.#others.size > this.#options.max) {
      const [oldest, old] = this.#others.entries().next().value as [string, Promise<IdeSession>];
      this.#others.delete(oldest);
      this.#options.log(`closing the session for ${oldest} (least recently used)`);
      this.#track(old.then((s) => s.shutdown()));
    }
    return opening;
  }

  /** Folders with an open session besides the main one. */
  get openFolders(): string[] {
    return [...this.#others.keys()];
  }

  /** Shuts down every session this cache opened (not the main one). */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#others.values()];
    this.#others.clear();
    for (const s of sessions) this.#track(s.then((session) => session.shutdown()));
    await Promise.all([...this.#closing]);
  }

  #track(shutdown: Promise<void>): void {
    const p = shutdown.catch((error: unknown) => this.#options.log(`shutting a session down failed: ${String(error)}`));
    this.#closing.add(p);
    void p.finally(() => this.#closing.delete(p));
  }
}
