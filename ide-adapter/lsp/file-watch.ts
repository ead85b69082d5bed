/**
 * Client-side file watching on behalf of a server: the globs it registered through dynamic
 * `workspace/didChangeWatchedFiles` registrations, and one {@link DirectoryWatcher} on the
 * workspace root, started by a start once its process is initialized (or by the first
 * registration, or the first `stamp`, whichever comes first).
 *
 * A server's globs carry names the workspace chose (rust-analyzer's base folder is each crate's),
 * so they are matched by `glob.ts` in linear time, never by a backtracking regular expression, and
 * a `RelativePattern`'s base (and a string glob's folder before its first wildcard) is a folder
 * compared as text, never read as a glob. One batch of changes is matched under
 * {@link WATCH_MATCH_BUDGET_STEPS}: past it the rest of the batch is sent whole (a server is told of
 * more files than it asked for, which costs it a look; never of fewer).
 */
import { compileGlob, type GlobBudget, type GlobMatcher } from './glob.js';
import { uriToPath } from './uris.js';
import { DirectoryWatcher, type FileChange } from './watcher.js';

/** LSP `WatchKind` bits: create 1, change 2, delete 4 (7 when absent). */
const KIND_BIT: Record<FileChange['type'], number> = { 1: 1, 2: 2, 3: 4 };

/** What the registry tells its owner about the disk besides the changes themselves. */
export interface FileWatchActivity {
  /** Something changed on disk; the batch is not reported yet. */
  readonly changing: () => void;
  /** The batch was sent and nothing more is pending; `rootReplaced` when the root folder itself was replaced. */
  readonly settled: (rootReplaced: boolean) => void;
}

/** The matching work one batch of changes may take (`glob.ts` steps: tens of milliseconds). */
export const WATCH_MATCH_BUDGET_STEPS = 2_000_000;

/**
 * Watch globs kept across a server's registrations (a registration without globs counts one). A
 * server registers as often as it likes; past the bound the registry stops keeping its globs and
 * tells it of every change (more than it asked for, never fewer) until it restarts.
 */
export const MAX_WATCH_GLOBS = 10_000;

interface Matcher {
  readonly matches: GlobMatcher;
  readonly kind: number;
}

/** Registered watch globs plus the directory watcher that serves them. */
export class FileWatchRegistry {
  readonly #root: string;
  readonly #send: (changes: FileChange[]) => void;
  readonly #activity: FileWatchActivity | undefined;
  readonly #registrations = new Map<string, Matcher[]>();
  /** Globs kept in {@link #registrations}, as {@link MAX_WATCH_GLOBS} counts them. */
  #globs = 0;
  /** Past {@link MAX_WATCH_GLOBS}: every change is sent. */
  #overflowed = false;
  #watcher: DirectoryWatcher | undefined;
  #closed = false;

  constructor(root: string, send: (changes: FileChange[]) => void, activity?: FileWatchActivity) {
    this.#root = root;
    this.#send = send;
    this.#activity = activity;
  }

  /** Adds a registration (`DidChangeWatchedFilesRegistrationOptions`); starts watching on first use. */
  register(id: string, options: unknown): void {
    if (this.#closed) return;
    const watchers = (options as { watchers?: { globPattern?: unknown; kind?: number }[] } | undefined)?.watchers ?? [];
    const list = Array.isArray(watchers) ? watchers : [];
    this.unregister(id);
    if (this.#overflowed || this.#globs + Math.max(1, list.length) > MAX_WATCH_GLOBS) {
      // Nothing more is kept (not even compiled): every change goes to the server from now on.
      this.#overflowed = true;
      this.#registrations.clear();
      this.#globs = 0;
      this.#watch();
      return;
    }
    const matchers: Matcher[] = [];
    for (const w of list) {
      const matcher = this.#matcher(w?.globPattern, typeof w?.kind === 'number' ? w.kind : 7);
      if (matcher !== undefined) matchers.push(matcher);
    }
    this.#registrations.set(id, matchers);
    this.#globs += Math.max(1, matchers.length);
    if (matchers.length > 0) this.#watch();
  }

  /**
   * The watcher's {@link DirectoryWatcher.stamp}. The first call starts the watcher for a server
   * that registered nothing (clangd watches no globs): the client's caches of file texts and
   * outlines lean on it; it stays `undefined` until every folder is watched.
   */
  stamp(): number | undefined {
    return this.#watch()?.stamp();
  }

  /**
   * Starts the directory watcher now, if it is not running. A start calls it once the process is
   * initialized, while it waits for its checks and the project scan: the first walk of the tree
   * then runs on an idle thread, not beside the server loading its projects. Until the server
   * registers globs, nothing is sent to it.
   */
  start(): void {
    this.#watch();
  }

  /** The directory watcher, started on first use. */
  #watch(): DirectoryWatcher | undefined {
    if (this.#watcher !== undefined || this.#closed) return this.#watcher;
    const activity = this.#activity;
    // Changes concern the server only through what it registered: none, no rereading.
    const watcher = new DirectoryWatcher(
      this.#root,
      (changes) => this.#dispatch(changes),
      activity === undefined
        ? {}
        : {
            onActivity: () => {
              if (this.#overflowed || [...this.#registrations.values()].some((m) => m.length > 0)) activity.changing();
            },
            onSettled: activity.settled,
          },
    );
    this.#watcher = watcher;
    // Failing to watch only loses change notifications; the server keeps working.
    watcher.start().catch(() => undefined);
    return watcher;
  }

  /** The globs kept, as {@link MAX_WATCH_GLOBS} counts them. */
  get globCount(): number {
    return this.#globs;
  }

  unregister(id: string): void {
    const matchers = this.#registrations.get(id);
    if (matchers === undefined) return;
    this.#registrations.delete(id);
    this.#globs -= Math.max(1, matchers.length);
  }

  /** Forgets all registrations (a restarted server registers again); keeps the watcher. */
  reset(): void {
    this.#registrations.clear();
    this.#globs = 0;
    this.#overflowed = false;
  }

  close(): void {
    this.#closed = true;
    this.#registrations.clear();
    this.#globs = 0;
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #dispatch(changes: FileChange[]): void {
    if (this.#overflowed) {
      if (changes.length > 0) this.#send(changes);
      return;
    }
    const matchers = [...this.#registrations.values()].flat();
    const budget: GlobBudget = { steps: WATCH_MATCH_BUDGET_STEPS };
    const wanted = changes.filter((c) => matchers.some((m) => (m.kind & KIND_BIT[c.type]) !== 0 && m.matches(c.path, budget)));
    if (wanted.length > 0) this.#send(wanted);
  }

  /**
   * A string glob as is (a relative one at any depth below the root); a
   * `RelativePattern`'s glob below its base folder, which is compared as a path.
   */
  #matcher(pattern: unknown, kind: number): Matcher | undefined {
    if (typeof pattern === 'string') {
      if (!pattern.startsWith('/')) return below(this.#root, `**/${pattern}`, kind);
      // The folder before the first wildcard is compared as text.
      const folder = pattern.slice(0, pattern.search(/[*?[{\\]|$/)).replace(/\/[^/]*$/, '');
      return folder === '' ? { matches: compileGlob(pattern), kind } : below(folder, pattern.slice(folder.length + 1), kind);
    }
    if (typeof pattern !== 'object' || pattern === null) return undefined;
    const { baseUri, pattern: glob } = pattern as { baseUri?: unknown; pattern?: unknown };
    const uri = typeof baseUri === 'string' ? baseUri : typeof baseUri === 'object' && baseUri !== null ? (baseUri as { uri?: unknown }).uri : undefined;
    const base = typeof uri === 'string' ? uriToPath(uri) : undefined;
    return base === undefined || typeof glob !== 'string' ? undefined : below(base, glob, kind);
  }
}

/** Matches `glob` against the part of a path below the folder `base` (paths elsewhere never match). */
function below(base: string, glob: string, kind: number): Matcher {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const matches = compileGlob(glob);
  return {
    matches: (path, budget) => {
      if (budget !== undefined && --budget.steps < 0) return true;
      return path.startsWith(prefix) && matches(path.slice(prefix.length), budget);
    },
    kind,
  };
}
