/**
 * The workspaces an MCP server answers for. Either one fixed workspace (`--workspace`, or the
 * folder the server started in), or the client's roots (`roots/list`, followed on
 * `notifications/roots/list_changed`): each root is a workspace with its own session — its own
 * language servers or background server — and its own {@link SessionCache} for walkthroughs about
 * its subfolders. A tool call names a workspace by its folder's name (or its path); with one
 * workspace it need not. A whole disk or home folder is never a workspace unless `--workspace`
 * names it: {@link refusalFor} says why and how to configure one instead.
 */
import { realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdeSession } from '../ide-adapter/index.js';
import { folderFromUri, SessionCache, ToolInputError, type SessionCacheOptions } from './sessions.js';

/** One workspace: its root (a real path), the name tool calls use, and its sessions. */
interface WorkspaceEntry {
  readonly root: string;
  readonly name: string;
  /** The root's session and the cache of its subfolders' sessions (opening or open). */
  readonly sessions: Promise<SessionCache>;
  /** The same, once open. */
  opened?: SessionCache;
}

/** How the set opens a root's session and the sessions of its subfolders. */
export interface WorkspaceSetOptions {
  /** Opens the session of a root the client listed (the set shuts it down). */
  readonly openRoot: (root: string) => Promise<IdeSession>;
  /** The cache of a root's subfolders' sessions, over the root's session. */
  readonly cache: Omit<SessionCacheOptions, 'open'> & { readonly open: (main: IdeSession, folder: string) => IdeSession | Promise<IdeSession> };
  readonly log: (line: string) => void;
}

/**
 * Why a folder may not be the workspace by default (it is `/` or the home folder), as an error
 * that says how to configure one; `undefined` when it may.
 */
export function refusalFor(folder: string, what = 'the server was started in'): string | undefined {
  const real = realOrSelf(folder);
  const kind = real === '/' ? 'the root of the file system' : real === realOrSelf(homedir()) ? 'your home folder' : undefined;
  if (kind === undefined) return undefined;
  return (
    `no workspace: ${what} ${real} (${kind}) without --workspace, and the MCP client gave no roots; Dialect never indexes a whole disk or home folder. ` +
    'Configure the project folder: add "--workspace", "/path/to/project" to the server\'s args in the client\'s configuration ' +
    '(e.g. claude mcp add dialect -- npx -y dialect-ide mcp --workspace /path/to/project), start the server with the project as its working directory, or use a client that sends MCP roots.'
  );
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The workspaces of one MCP server (see the module comment). */
export class WorkspaceSet {
  readonly #options: WorkspaceSetOptions;
  readonly #entries = new Map<string, WorkspaceEntry>();
  /** Sessions the caller owns (a fixed workspace's): never shut down here. */
  readonly #borrowed = new Set<IdeSession>();
  /** Why no workspace is served, when none is. */
  #refusal: string | undefined;
  /** The roots being read or applied: tool calls wait for them. */
  #settled: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: WorkspaceSetOptions) {
    this.#options = options;
  }

  /** A set of one workspace whose session the caller owns (and shuts down). */
  static fixed(session: IdeSession, options: WorkspaceSetOptions): WorkspaceSet {
    const set = new WorkspaceSet(options);
    set.#borrowed.add(session);
    const root = session.workspace.root;
    const cache = set.#cacheOver(session);
    set.#entries.set(root, { root, name: basename(root) || root, sessions: Promise.resolve(cache), opened: cache });
    return set;
  }

  /** The roots of the workspaces served, with the names tool calls use. */
  get workspaces(): { readonly name: string; readonly root: string }[] {
    return [...this.#entries.values()].map(({ name, root }) => ({ name, root }));
  }

  /** Folders with a session opened for walkthroughs, besides the workspaces' own. */
  get extraFolders(): string[] {
    return [...this.#entries.values()].flatMap((e) => e.opened?.openFolders ?? []);
  }

  /**
   * Makes tool calls wait for `update` (reading the client's roots), then applies its result: the
   * roots to serve (real paths of existing folders), or a refusal saying why none is served.
   */
  update(update: Promise<{ readonly roots: readonly string[] } | { readonly refusal: string }>): Promise<void> {
    const previous = this.#settled;
    const next = (async () => {
      await previous;
      const result = await update;
      if (this.#closed) return;
      if ('refusal' in result) {
        this.#refusal = result.refusal;
        await this.#retain(new Set());
      } else {
        this.#refusal = undefined;
        await this.#retain(new Set(result.roots));
        for (const root of result.roots) if (!this.#entries.has(root)) this.#add(root);
      }
    })().catch((error: unknown) => this.#options.log(`updating the workspaces failed: ${String(error)}`));
    this.#settled = next;
    return next;
  }

  /**
   * The session of the workspace a tool call names — by its folder's name, or its path or
   * `file://` URI — or of the only one when `name` is absent. Throws {@link ToolInputError}
   * (listing the workspaces) when there is none, the name matches none, or several could be meant.
   */
  async session(name: string | undefined): Promise<IdeSession> {
    return (await this.#open(await this.#entry(name))).main;
  }

  /**
   * The folder a `baseUri` names (symlinks resolved) inside one of the workspaces — the deepest
   * root holding it — and that workspace's session cache. Throws {@link ToolInputError}.
   */
  async folder(baseUri: string): Promise<{ readonly folder: string; readonly sessions: SessionCache }> {
    const entries = await this.#served();
    // The deepest root first: a root inside another answers for its own folders.
    const byDepth = [...entries].sort((a, b) => b.root.length - a.root.length);
    if (byDepth.length === 1) {
      const only = byDepth[0] as WorkspaceEntry;
      return { folder: await folderFromUri(baseUri, only.root), sessions: await this.#open(only) };
    }
    for (const entry of byDepth) {
      let folder: string;
      try {
        folder = await folderFromUri(baseUri, entry.root);
      } catch (error) {
        if (!(error instanceof ToolInputError)) throw error;
        continue;
      }
      return { folder, sessions: await this.#open(entry) };
    }
    throw new ToolInputError(`"baseUri" ${JSON.stringify(baseUri)} is in none of the server's workspaces: ${this.#list(entries)}. Pass one of them, or a folder inside one.`);
  }

  /** Shuts down every session the set opened (not a fixed workspace's main session). */
  async shutdown(): Promise<void> {
    this.#closed = true;
    await this.#settled;
    await this.#retain(new Set());
  }

  async #served(): Promise<WorkspaceEntry[]> {
    await this.#settled;
    if (this.#refusal !== undefined) throw new ToolInputError(this.#refusal);
    const entries = [...this.#entries.values()];
    if (entries.length === 0) {
      throw new ToolInputError('no workspace: the MCP client listed no roots. Open a folder in the client (it sends it as a root), or start the server with --workspace /path/to/project.');
    }
    return entries;
  }

  /** A workspace's sessions, once open; a workspace that failed to open is a tool error (and tried again next time). */
  async #open(entry: WorkspaceEntry): Promise<SessionCache> {
    try {
      return await entry.sessions;
    } catch (error) {
      // Tried again on the next call (say, once an invalid dialect.json is fixed).
      if (this.#entries.get(entry.root) === entry) this.#add(entry.root);
      throw new ToolInputError(`the workspace ${entry.root} could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #entry(name: string | undefined): Promise<WorkspaceEntry> {
    const entries = await this.#served();
    if (name === undefined || name.trim() === '') {
      if (entries.length === 1) return entries[0] as WorkspaceEntry;
      throw new ToolInputError(`this server has ${entries.length} workspaces (the client's roots): ${this.#list(entries)}. Say which with "workspace", e.g. {"workspace": ${JSON.stringify(entries[0]?.name)}}.`);
    }
    const wanted = name.trim();
    const named = entries.filter((e) => e.name === wanted);
    if (named.length === 1) return named[0] as WorkspaceEntry;
    const path = await pathOf(wanted);
    const byPath = path !== undefined ? entries.find((e) => e.root === path) : undefined;
    if (byPath !== undefined) return byPath;
    if (named.length > 1) throw new ToolInputError(`several workspaces are named "${wanted}": ${this.#list(named)}. Pass the path of the one you mean as "workspace".`);
    throw new ToolInputError(`"workspace" ${JSON.stringify(wanted)} is none of the server's workspaces: ${this.#list(entries)}.`);
  }

  #list(entries: readonly WorkspaceEntry[]): string {
    return entries.map((e) => `"${e.name}" (${e.root})`).join(', ');
  }

  #cacheOver(main: IdeSession): SessionCache {
    const { open, ...rest } = this.#options.cache;
    return new SessionCache(main, { ...rest, open: (folder) => open(main, folder) });
  }

  #add(root: string): void {
    // Two roots with one folder name both keep it: a call then names the one it means by path.
    const name = basename(root) || root;
    this.#options.log(`serving the workspace ${root} (as "${name}")`);
    const sessions = this.#options.openRoot(root).then((session) => this.#cacheOver(session));
    const entry: WorkspaceEntry = { root, name, sessions };
    sessions.then(
      (cache) => (entry.opened = cache),
      (error: unknown) => this.#options.log(`cannot open the workspace ${root}: ${String(error)}`),
    );
    this.#entries.set(root, entry);
  }

  /** Closes the workspaces whose root is not in `keep`. */
  async #retain(keep: ReadonlySet<string>): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [root, entry] of this.#entries) {
      if (keep.has(root)) continue;
      this.#entries.delete(root);
      this.#options.log(`no longer serving ${root}`);
      closing.push(
        entry.sessions
          .then(async (cache) => {
            await cache.shutdown();
            if (!this.#borrowed.has(cache.main)) await cache.main.shutdown();
          })
          .catch((error: unknown) => this.#options.log(`shutting down the workspace ${root} failed: ${String(error)}`)),
      );
    }
    await Promise.all(closing);
  }
}

/** A tool argument naming a workspace by path or `file://` URI, as a real path; `undefined` when it is neither or does not exist. */
async function pathOf(text: string): Promise<string | undefined> {
  let path: string;
  try {
    path = /^file:/i.test(text) ? fileURLToPath(text) : text;
  } catch {
    return undefined;
  }
  if (!isAbsolute(path)) return undefined;
  return realpath(path).catch(() => undefined);
}

/**
 * The client's roots as workspace folders: `file://` URIs of existing folders, symlinks resolved,
 * each once. Anything else is left out with a log
 * line; so is `/` or a home folder (see {@link refusalFor}).
 */
export async function rootFolders(roots: readonly { readonly uri: string }[], log: (line: string) => void): Promise<string[]> {
  const folders: string[] = [];
  for (const { uri } of roots) {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      log(`ignoring the root ${uri}: not a local folder (file://) URI`);
      continue;
    }
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || !(await stat(real)).isDirectory()) {
      log(`ignoring the root ${uri}: no such folder`);
      continue;
    }
    if (refusalFor(real) !== undefined) {
      log(`ignoring the root ${real}: Dialect never indexes a whole disk or home folder (pass it with --workspace to serve it anyway)`);
      continue;
    }
    if (!folders.includes(real)) folders.push(real);
  }
  return folders;
}
