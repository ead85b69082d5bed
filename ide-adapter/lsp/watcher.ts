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
import { opendirSync, watch, type Dir, type FSWatcher } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
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
  /** Longest a batch waits for quiet: a folder that never stops changing is still reported; {@link DEFAULT_MAX_BATCH_DELAY_MS}. */
  readonly maxBatchDelayMs?: number;
  /** Paths remembered for the next batch; past it a changed folder is re-read instead; {@link DEFAULT_MAX_PENDING}. */
  readonly maxPending?: number;
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

/** A batch is reported at the latest this long after its first change, however busy the disk. */
const DEFAULT_MAX_BATCH_DELAY_MS = 1_000;

/**
 * Changed paths held for the next batch. Past it (a build writing files faster than batches are
 * made) a change only marks its folder, and the batch re-reads each marked folder: memory stays
 * bounded by this and the folder cap, and no change is missed (an unchanged file of a marked
 * folder may be reported as changed: too many notices, never too few).
 */
const DEFAULT_MAX_PENDING = 10_000;

/** Entries read from a folder per `getdents` while walking (the most of a listing held at once). */
const LISTING_BUFFER_ENTRIES = 256;

/**
 * Work done between two turns of the event loop while the tree is walked: an entry counts one, a
 * folder opened counts {@link FOLDER_WORK}. About a millisecond at a time, so what arrives
 * meanwhile (a start's project scan answering from the worker, then its anchors' reads) waits
 * little: at 1,024 the anchors of a 10k-file start left about 30 ms after the scan's answer, at
 * 256 about 15 ms.
 */
const WALK_TURN_WORK = 256;

/**
 * A folder opened, in {@link WALK_TURN_WORK}'s units. Folders are opened synchronously (one
 * `open`): a promise and a thread-pool round trip per folder were a third of the walk's CPU,
 * taken while a server starts beside it.
 */
const FOLDER_WORK = 8;

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
  readonly #maxBatchDelayMs: number;
  readonly #maxPending: number;
  readonly #onActivity: (() => void) | undefined;
  readonly #onSettled: ((rootReplaced: boolean) => void) | undefined;
  #rootIdentity: FolderIdentity | undefined;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #files = new Set<string>();
  readonly #pending = new Set<string>();
  /** Folders changed past the pending cap: re-read whole by the next batch. */
  readonly #overflowed = new Set<string>();
  /** When the first change of the batch being gathered came. */
  #batchOpenedAt: number | undefined;
  /** A batch is queued and has not taken the pending paths yet: no second one is queued. */
  #queued = false;
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
    this.#maxBatchDelayMs = options.maxBatchDelayMs ?? DEFAULT_MAX_BATCH_DELAY_MS;
    this.#maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
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

  /** Changes held for the next batch: paths, and folders to re-read (at most the pending cap plus the folder cap). */
  get heldChanges(): number {
    return this.#pending.size + this.#overflowed.size;
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
    const settled = this.#pending.size === 0 && this.#overflowed.size === 0 && this.#timer === undefined && this.#flushes === 0;
    return this.#started && settled && !this.truncated && !this.#lost && !this.#closed ? this.#changes : undefined;
  }

  /** Stops watching; pending changes are dropped. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#pending.clear();
    this.#overflowed.clear();
  }

  /** Watches `dir` and everything below it; with `report`, files found are reported as created. */
  async #watchTree(dir: string, report: boolean): Promise<FileChange[]> {
    const created: FileChange[] = [];
    const queue = [dir];
    let work = 0;
    while (queue.length > 0 && !this.#closed) {
      const current = queue.shift() as string;
      if (this.#watchers.has(current)) continue;
      if (this.#watchers.size >= this.#maxDirs) {
        this.truncated = true;
        break;
      }
      // A buffer of entries at a time: a folder of millions of files is never held whole.
      let listing: Dir;
      try {
        listing = opendirSync(current, { bufferSize: LISTING_BUFFER_ENTRIES });
      } catch {
        continue; // Vanished or unreadable.
      }
      this.#watchDir(current);
      work += FOLDER_WORK;
      try {
        // What `join(current, name)` gives, without normalizing every path: an entry's name has no separator.
        const normal = normalize(current);
        const prefix = normal.endsWith(sep) ? normal : `${normal}${sep}`;
        for (;;) {
          const read = this.#readEntries(listing, prefix, queue, report ? created : undefined, WALK_TURN_WORK);
          work += read;
          // The event loop runs between batches of work, never inside one (a folder of a million
          // files too): the loop over entries stays in one plain call, compiled as such.
          if (work >= WALK_TURN_WORK) {
            work = 0;
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (this.#closed) break;
          }
          if (read < WALK_TURN_WORK) break;
        }
      } catch {
        // Vanished while being read: its parent's watch reports it, as when it vanished before.
      } finally {
        closeQuietly(listing);
      }
    }
    return created;
  }

  /**
   * Reads at most `max` entries of the open folder `listing` (its path ends with `prefix`): queues
   * its folders, remembers its files (into `created` as created, when given). Synchronous reads,
   * each one `getdents` of at most the buffer: a promise per entry (`for await`) cost five times
   * the CPU, taken from a server loading its projects beside us. Returns how many it read:
   * fewer than `max` once the folder is exhausted.
   */
  #readEntries(listing: Dir, prefix: string, queue: string[], created: FileChange[] | undefined, max: number): number {
    let read = 0;
    for (; read < max; read++) {
      const entry = listing.readSync();
      if (entry === null) break;
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (this.#ignore.has(entry.name)) continue;
        // Queued folders count against the folder cap too, so the queue stays bounded.
        if (this.#watchers.size + queue.length < this.#maxDirs) queue.push(path);
        else this.truncated = true;
      } else if (!this.#files.has(path) && this.#remember(path)) {
        created?.push({ path, type: 1 });
      }
    }
    return read;
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
      const watcher = watch(dir, { persistent: false }, (_event, filename) => this.#changed(dir, filename === null ? undefined : filename.toString()));
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

  /** One event in `dir` (about `name`, or the folder itself): held for the next batch, which is timed. */
  #changed(dir: string, name: string | undefined): void {
    this.#changes++;
    const path = name === undefined ? dir : join(dir, name);
    if (this.#pending.has(path) || this.#overflowed.has(dir)) {
      // Already in the batch.
    } else if (this.#pending.size < this.#maxPending) this.#pending.add(path);
    else this.#overflowed.add(dir);
    this.#onActivity?.();
    if (this.#queued) return; // the queued batch takes this change too
    const now = Date.now();
    this.#batchOpenedAt ??= now;
    const overdue = this.#overflowed.size > 0 || now - this.#batchOpenedAt >= this.#maxBatchDelayMs;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#queueBatch(), overdue ? 0 : this.#debounceMs);
  }

  /** Queues the batch behind the one being made (batches are made one at a time, in order). */
  #queueBatch(): void {
    this.#timer = undefined;
    this.#batchOpenedAt = undefined;
    this.#queued = true;
    this.#flushes++;
    this.#flushing = this.#flushing.then(() => this.#flush()).catch(() => undefined);
  }

  async #flush(): Promise<void> {
    try {
      await this.#report();
    } finally {
      this.#flushes--;
      this.#changes++; // what the batch found (a new folder's files) is a change too
    }
    if (this.#pending.size === 0 && this.#overflowed.size === 0 && this.#timer === undefined && !this.#queued && !this.#closed && this.#onSettled !== undefined) {
      const now = await identityOf(this.root);
      const before = this.#rootIdentity;
      this.#onSettled(now === undefined || before === undefined || now.dev !== before.dev || now.ino !== before.ino);
    }
  }

  /** Reports the pending paths as one batch of changes, watching the new folders among them. */
  async #report(): Promise<void> {
    this.#queued = false;
    if (this.#closed) return;
    const paths = [...this.#pending];
    this.#pending.clear();
    const overflowed = [...this.#overflowed];
    this.#overflowed.clear();
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
    if (overflowed.length > 0) changes.push(...(await this.#reread(new Set(overflowed))));
    if (changes.length > 0 && !this.#closed) this.#onChanges(changes);
  }

  /**
   * Re-reads the folders changed past the pending cap: their files are reported as created
   * (new), changed (known: which of them changed is not known) or deleted (known, gone), and new
   * folders are watched. Linear in the folders' entries and the remembered files.
   */
  async #reread(folders: ReadonlySet<string>): Promise<FileChange[]> {
    const changes: FileChange[] = [];
    const present = new Set<string>();
    for (const dir of folders) {
      if (this.#closed) return changes;
      let listing;
      try {
        listing = await opendir(dir);
      } catch {
        continue; // Gone: its parent's watch reports it.
      }
      try {
        for await (const entry of listing) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            if (!this.#ignore.has(entry.name) && !this.#watchers.has(path)) changes.push(...(await this.#watchTree(path, true)));
            continue;
          }
          present.add(path);
          const known = this.#files.has(path);
          if (!known) this.#remember(path); // past the file cap it is still reported, as created
          changes.push({ path, type: known ? 2 : 1 });
        }
      } catch {
        // Vanished while being read.
      }
    }
    for (const file of this.#files) {
      if (!present.has(file) && folders.has(file.slice(0, file.lastIndexOf(sep)))) {
        this.#files.delete(file);
        changes.push({ path: file, type: 3 });
      }
    }
    return changes;
  }
}

/** Closes a folder listing; one already closed (or whose folder vanished) needs nothing more. */
function closeQuietly(listing: Dir): void {
  try {
    listing.closeSync();
  } catch {
    // Already closed.
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
