/**
 * Client-side file watching on behalf of a server: the globs it registered through dynamic
 * `workspace/didChangeWatchedFiles` registrations, and one {@link DirectoryWatcher} on the
 * workspace root, started when the first registration arrives.
 */
import { join } from 'node:path';
import picomatch from 'picomatch';
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

interface Matcher {
  readonly matches: (path: string) => boolean;
  readonly kind: number;
}

/** Registered watch globs plus the directory watcher that serves them. */
export class FileWatchRegistry {
  readonly #root: string;
  readonly #send: (changes: FileChange[]) => void;
  readonly #activity: FileWatchActivity | undefined;
  readonly #registrations = new Map<string, Matcher[]>();
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
    const matchers: Matcher[] = [];
    for (const w of watchers) {
      const glob = this.#absoluteGlob(w.globPattern);
      if (glob !== undefined) matchers.push({ matches: picomatch(glob, { dot: true }), kind: w.kind ?? 7 });
    }
    this.#registrations.set(id, matchers);
    if (this.#watcher === undefined && matchers.length > 0) {
      const activity = this.#activity;
      const watcher = new DirectoryWatcher(this.#root, (changes) => this.#dispatch(changes), activity === undefined ? {} : { onActivity: activity.changing, onSettled: activity.settled });
      this.#watcher = watcher;
      // Failing to watch only loses change notifications; the server keeps working.
      watcher.start().catch(() => undefined);
    }
  }

  /** The watcher's {@link DirectoryWatcher.stamp}; `undefined` when nothing is watched. */
  stamp(): number | undefined {
    return this.#watcher?.stamp();
  }

  unregister(id: string): void {
    this.#registrations.delete(id);
  }

  /** Forgets all registrations (a restarted server registers again); keeps the watcher. */
  reset(): void {
    this.#registrations.clear();
  }

  close(): void {
    this.#closed = true;
    this.#registrations.clear();
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #dispatch(changes: FileChange[]): void {
    const matchers = [...this.#registrations.values()].flat();
    const wanted = changes.filter((c) => matchers.some((m) => (m.kind & KIND_BIT[c.type]) !== 0 && m.matches(c.path)));
    if (wanted.length > 0) this.#send(wanted);
  }

  /** A string glob as is (relative ones anchor at the root); a RelativePattern joined to its base. */
  #absoluteGlob(pattern: unknown): string | undefined {
    if (typeof pattern === 'string') return pattern.startsWith('/') ? pattern : join(this.#root, '**', pattern);
    if (typeof pattern !== 'object' || pattern === null) return undefined;
    const { baseUri, pattern: glob } = pattern as { baseUri?: string | { uri?: string }; pattern?: string };
    const uri = typeof baseUri === 'string' ? baseUri : baseUri?.uri;
    const base = uri === undefined ? undefined : uriToPath(uri);
    return base === undefined || typeof glob !== 'string' ? undefined : join(base, glob);
  }
}
