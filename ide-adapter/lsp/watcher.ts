/**
 * Watches a workspace directory tree and reports created, changed and deleted files in debounced
 * batches. Servers such as tsgo do not watch the disk themselves: they ask the client (dynamic
 * `workspace/didChangeWatchedFiles` registration), and without it they never notice that an agent
 * edited a file that is not open.
 *
 * One non-recursive `fs.watch` per directory, skipping dependency and build directories, so big
 * `node_modules` trees cost nothing; the number of watched directories is capped, and so is the
 * number of files it remembers (a folder's listing is read entry by entry, never whole): a folder
 * of millions of files costs no more memory than the caps allow. Past either cap the watcher still
 * watches what it can but vouches for nothing ({@link DirectoryWatcher.truncated}, no stamp).
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SKIPPED_DIRS } from '../skipped-dirs.js';

/** LSP `FileChangeType`: 1 created, 2 changed, 3 deleted. */
export type FileChangeType = 1 | 2 | 3;

/** One file event. */
export interface FileChange {
  readonly path: string;
  readonly type: FileChangeType;
}

/** Options of a {@link DirectoryWatcher}. */
export interface WatcherOptions {
  /** Directory names never entered. */
  readonly ignoreDirs?: ReadonlySet<string>;
  /** Upper bound of watched directories (inotify watches are a per-user resource); 5000. */
  readonly maxDirs?: number;
  /** Upper bound of files remembered (to tell a change from a creation, and whose deletion to report); {@link DEFAULT_MAX_WATCHED_FILES}. */
  readonly maxFiles?: number;
  /** Quiet time that ends a batch; 100 ms. */
  readonly debounceMs?: number;
  /** Called as soon as something changes on disk, before the batch is reported. */
  readonly onActivity?: () => void;
  /**
   * Called when a batch was reported and nothing more is pending; `rootReplaced` when the root
   * folder itself is gone or another folder now stands at its path (its watches see nothing new).
   */
  readonly onSettled?: (rootReplaced: boolean) => void;
}

/** Watched folders by default: inotify watches are a per-user resource. */
const DEFAULT_MAX_WATCHED_DIRS = 5_000;

/** Files remembered by default (about 150 bytes each: some 30 MB at the cap). */
const DEFAULT_MAX_WATCHED_FILES = 200_000;

/** A folder's identity on disk. */
interface FolderIdentity {
  readonly dev: number;
  readonly ino: number;
}


/** Watches `root` recursively; call {@link start} once and {@link close} when done. */
export class DirectoryWatcher {
  readonly root: string;
  readonly #onChanges: (changes: FileChange[]) => void;
  readonly #ignore: ReadonlySet<string>;
  readonly #maxDirs: number;
  readonly #maxFiles: number;
  readonly #debounceMs: number;
  readonly #onActivity: (() => void) | undefined;
  readonly #onSettled: ((rootReplaced: boolean) => void) | undefined;
  #rootIdentity: FolderIdentity | undefined;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #files = new Set<string>();
  readonly #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #flushing: Promise<void> = Promise.resolve();
  /** Batches being made. */
  #flushes = 0;
  /**
   * Set once the folder or the file cap was hit: later changes in unwatched folders go unnoticed,
   * and a file not remembered is reported as created when it changes, deleted whenever its path
   * is gone.
   */
  truncated = false;
  /** Counts every event: it stays the same while nothing changes under the watched folders. */
  #changes = 0;
  #started = false;
  /** A watch failed after it was placed: changes in its folder go unnoticed. */
  #lost = false;

  constructor(root: string, onChanges: (changes: FileChange[]) => void, options: WatcherOptions = {}) {
    this.root = root;
    this.#onChanges = onChanges;
    this.#ignore = options.ignoreDirs ?? SKIPPED_DIRS;
    this.#maxDirs = options.maxDirs ?? DEFAULT_MAX_WATCHED_DIRS;
    this.#maxFiles = options.maxFiles ?? DEFAULT_MAX_WATCHED_FILES;
    this.#debounceMs = options.debounceMs ?? 100;
    this.#onActivity = options.onActivity;
    this.#onSettled = options.onSettled;
  }

  /** Number of directories being watched. */
  get watchedDirectories(): number {
    return this.#watchers.size;
  }

  /** Number of files remembered (at most the file cap). */
  get rememberedFiles(): number {
    return this.#files.size;
  }

  /** Walks the tree and installs the watches; resolves when they are in place. */
  async start(): Promise<void> {
    this.#rootIdentity = await identityOf(this.root);
    await this.#watchTree(this.root, false);
    this.#started = true;
  }

  /**
   * A number that stays the same while no file under the watched folders changed, for caches of
   * what depends on many files (a workspace-wide text search); `undefined` while the watcher
   * cannot vouch for that: before every folder is watched, past the folder or file cap, after a watch
   * failed, and while changes are pending (a new folder is watched only once its batch is made).
   * Folders the watcher skips (`ignoreDirs`) are not covered.
   */
  stamp(): number | undefined {
    const settled = this.#pending.size === 0 && this.#timer === undefined && this.#flushes === 0;
    return this.#started && settled && !this.truncated && !this.#lost && !this.#closed ? this.#changes : undefined;
  }

  /** Stops watching; pending changes are dropped. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#pending.clear();
  }

  /** Watches `dir` and everything below it; with `report`, files found are reported as created. */
  async #watchTree(dir: string, report: boolean): Promise<FileChange[]> {
    const created: FileChange[] = [];
    const queue = [dir];
    while (queue.length > 0 && !this.#closed) {
      const current = queue.shift() as string;
      if (this.#watchers.has(current)) continue;
      if (this.#watchers.size >= this.#maxDirs) {
        this.truncated = true;
        break;
      }
      // Entry by entry: a folder of millions of files is never held whole.
      let listing;
      try {
        listing = await opendir(current);
      } catch {
        continue; // Vanished or unreadable.
      }
      this.#watchDir(current);
      try {
        for await (const entry of listing) {
          const path = join(current, entry.name);
          if (entry.isDirectory()) {
            if (this.#ignore.has(entry.name)) continue;
            // Queued folders count against the folder cap too, so the queue stays bounded.
            if (this.#watchers.size + queue.length < this.#maxDirs) queue.push(path);
            else this.truncated = true;
          } else if (!this.#files.has(path) && this.#remember(path) && report) {
            created.push({ path, type: 1 });
          }
        }
      } catch {
        // Vanished while being read: its parent's watch reports it, as when it vanished before.
      }
    }
    return created;
  }

  /** Remembers the file `path` if under the file cap; past it the watcher is truncated. */
  #remember(path: string): boolean {
    if (this.#files.size >= this.#maxFiles) {
      this.truncated = true;
      return false;
    }
    this.#files.add(path);
    return true;
  }

  #watchDir(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, filename) => {
        this.#changes++;
        this.#pending.add(filename === null ? dir : join(dir, filename.toString()));
        clearTimeout(this.#timer);
        this.#onActivity?.();
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#flushes++;
          this.#flushing = this.#flushing.then(() => this.#flush()).catch(() => undefined);
        }, this.#debounceMs);
      });
      watcher.on('error', () => {
        this.#lost = true;
        watcher.close();
        this.#watchers.delete(dir);
      });
      this.#watchers.set(dir, watcher);
    } catch {
      // Out of watches or the directory vanished: changes there go unnoticed.
      this.truncated = true;
    }
  }

  async #flush(): Promise<void> {
    try {
      await this.#report();
    } finally {
      this.#flushes--;
      this.#changes++; // what the batch found (a new folder's files) is a change too
    }
    if (this.#pending.size === 0 && this.#timer === undefined && !this.#closed && this.#onSettled !== undefined) {
      const now = await identityOf(this.root);
      const before = this.#rootIdentity;
      this.#onSettled(now === undefined || before === undefined || now.dev !== before.dev || now.ino !== before.ino);
    }
  }

  /** Reports the pending paths as one batch of changes, watching the new folders among them. */
  async #report(): Promise<void> {
    if (this.#closed) return;
    const paths = [...this.#pending];
    this.#pending.clear();
    const changes: FileChange[] = [];
    for (const path of paths) {
      let info;
      try {
        info = await lstat(path);
      } catch {
        info = undefined;
      }
      if (info?.isDirectory() === true) {
        const name = path.slice(path.lastIndexOf(sep) + 1);
        if (!this.#watchers.has(path) && !this.#ignore.has(name)) changes.push(...(await this.#watchTree(path, true)));
      } else if (info !== undefined) {
        const known = this.#files.has(path);
        changes.push({ path, type: known ? 2 : 1 });
        if (!known) this.#remember(path);
      } else if (this.#files.delete(path)) {
        changes.push({ path, type: 3 });
      } else if (this.#watchers.has(path)) {
        // A directory went away: everything known below it is deleted.
        const prefix = path + sep;
        for (const [dir, watcher] of this.#watchers) {
          if (dir === path || dir.startsWith(prefix)) {
            watcher.close();
            this.#watchers.delete(dir);
          }
        }
        for (const file of this.#files) {
          if (file.startsWith(prefix)) {
            this.#files.delete(file);
            changes.push({ path: file, type: 3 });
          }
        }
      } else if (this.truncated) {
        // Past a cap the file may have existed unremembered: say it is gone (harmless if it never was).
        changes.push({ path, type: 3 });
      }
    }
    if (changes.length > 0 && !this.#closed) this.#onChanges(changes);
  }
}

/** The identity of the folder at `path`, or `undefined` when none is there. */
async function identityOf(path: string): Promise<FolderIdentity | undefined> {
  try {
    const info = await lstat(path);
    return info.isDirectory() ? { dev: info.dev, ino: info.ino } : undefined;
  } catch {
    return undefined;
  }
}
