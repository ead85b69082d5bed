/**
 * IDE sessions by workspace folder: the server's own session for its workspace, and sessions
 * opened on demand for folders inside it (a walkthrough whose `baseUri` is a subfolder, whose
 * paths are relative to that subfolder). Nothing outside the server's workspace ever gets a
 * session. Sessions are cached and reused, the least recently used is shut down when too many are
 * open, and all of them are shut down when the server closes.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside, type IdeSession } from '../ide-adapter/index.js';

/** A problem with what the caller passed (shown to the agent as a tool error). */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/**
 * The folder a tool argument names (a path or a `file://` URI), confined to the server's
 * workspace: the workspace itself or a folder inside it, after resolving symlinks. Anything else
 * — `/`, `file:///etc`, `..`, a symlink inside the workspace that leads out — is refused, so no
 * argument can widen what the server reads. Throws {@link ToolInputError}.
 */
export async function folderFromUri(baseUri: string, workspaceRoot: string): Promise<string> {
  const text = baseUri.trim();
  const allowed = `pass the server's workspace ${workspaceRoot} (as a path or file:// URI) or a folder inside it`;
  if (text === '') throw new ToolInputError(`"baseUri" is empty: ${allowed}`);
  let path: string;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch (error) {
      throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is not a valid file URI (${(error as Error).message}); ${allowed}`);
    }
  } else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(text)) {
    throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is not a local folder: ${allowed}`);
  } else {
    if (!isAbsolute(text)) throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is relative: ${allowed}`);
    path = resolve(text);
  }
  const outside = (where: string): ToolInputError =>
    new ToolInputError(
      `"baseUri" ${JSON.stringify(text)} is outside the server's workspace${where}. This server reads only ${workspaceRoot}: ${allowed}. ` +
        'To present a walkthrough about another project, run a Dialect MCP server with --workspace on that project.',
    );
  // Real paths decide (an alias of the workspace through a symlink is the workspace), but a
  // path outside only ever gets "outside": the answer tells nothing about what exists there.
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) {
    if (!isInside(workspaceRoot, path)) throw outside('');
    throw new ToolInputError(`"baseUri" ${JSON.stringify(text)}: the folder ${path} does not exist; ${allowed}`);
  }
  if (!isInside(workspaceRoot, real)) throw outside(isInside(workspaceRoot, path) ? ` (it leads to ${real} through a symbolic link)` : '');
  if (!(await stat(real)).isDirectory()) throw new ToolInputError(`"baseUri" ${JSON.stringify(text)} is a file, not a folder: ${allowed}`);
  return real;
}

/** How the session cache opens sessions and how many it keeps. */
export interface SessionCacheOptions {
  readonly open: (workspaceRoot: string) => IdeSession | Promise<IdeSession>;
  /** How many sessions for subfolders may be open at once. */
  readonly max: number;
  readonly log: (line: string) => void;
}

/** The sessions of the workspaces a client names, besides the main one; the least recently used is closed first. */
export class SessionCache {
  readonly #main: IdeSession;
  readonly #options: SessionCacheOptions;
  /** Subfolders' sessions (opening or open), least recently used first. */
  readonly #others = new Map<string, Promise<IdeSession>>();
  readonly #closing = new Set<Promise<void>>();
  #closed = false;

  constructor(main: IdeSession, options: SessionCacheOptions) {
    this.#main = main;
    this.#options = options;
  }

  /** The workspace's own session (its root's), which this cache never shuts down. */
  get main(): IdeSession {
    return this.#main;
  }

  /** The server's workspace root: every session's folder is this or inside it. */
  get workspaceRoot(): string {
    return this.#main.workspace.root;
  }

  /**
   * The session for a folder (an absolute, symlink-free path inside the workspace). Concurrent calls for a new folder
   * share one session; a folder whose session failed to open (say, an invalid `dialect.json`) is
   * tried again on the next call.
   */
  async sessionFor(root: string): Promise<IdeSession> {
    if (root === this.#main.workspace.root) return this.#main;
    // The second wall behind folderFromUri: no session is ever opened outside the workspace.
    if (!isInside(this.#main.workspace.root, root)) throw new ToolInputError(`${root} is outside the server's workspace ${this.#main.workspace.root}`);
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
