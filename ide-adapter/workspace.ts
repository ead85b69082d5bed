/**
 * The workspace: a root directory and the only files IDE functions may touch. Every path from a
 * user goes through `resolve`, which refuses anything outside the root (`/etc/passwd`, `../x`,
 * a symlink that leads out); every path we hand back is relative, with `/` separators.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isInside, readConfined, type RefusalReason } from './confine.js';
import { DialectError } from '../dialect/outcome.js';

/** Stable error codes of workspace access. */
export const WorkspaceCode = {
  OutsideWorkspace: 'path-outside-workspace',
  NotFound: 'file-not-found',
  NotAFile: 'not-a-file',
  TooLarge: 'file-too-large',
  InvalidRange: 'invalid-range',
} as const;

/** Files larger than this are not read (they are not source code a person would ask about). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

const MIB = 1024 * 1024;

interface CachedFile {
  readonly mtimeMs: number;
  readonly size: number;
  readonly text: string;
  lines?: readonly string[];
  /** Where each line starts (UTF-16 offsets), then the text's length: cuts a range without splitting the file. */
  lineStarts?: Uint32Array;
}

/**
 * How long a path's real location counts as current. One query resolves the same paths many
 * times (a reference search: thousands of places in hundreds of files), each a thread-pool round
 * trip. A path is confined by its real location at the time it was
 * checked, so a symlink swapped within this window still cannot lead outside: the cached location
 * is inside. (File *contents* are checked against the disk, agents edit and ask at once, unless
 * a watcher's stamp that saw every change vouches for them: `watchedBy`.)
 */
const FRESHNESS_MS = 5_000;

/** A `.`, `..` or empty segment in a POSIX path. */
const DOT_OR_EMPTY_SEGMENT = /\/\.{1,2}(?:\/|$)|\/\//;

/** Cached file texts are dropped, least recently used first, beyond this many characters. */
const CACHE_BUDGET_CHARS = 64 * 1024 * 1024;

/**
 * A moment of the disk as a directory watcher saw it (`DirectoryWatcher.stamp` of a running
 * server's watcher, by identity): while it stays the same, no file it covers changed, so a file
 * read or checked under it needs neither its real location nor a stat again.
 */
export interface DiskStamp {
  /** Whose counter `value` is (a restarted watcher counts from zero again). */
  readonly owner: object;
  /** The watcher's count of changes. */
  readonly value: number;
  /** Whether the watcher sees every change of this absolute path (inside its root, in no skipped folder). */
  covers(absolute: string): boolean;
}

/** Files kept checked under a disk stamp (by the path asked); the map is emptied past it. */
const MAX_STAMPED_FILES = 20_000;

/** A workspace root with confined, cached file access. */
export class Workspace {
  /** The absolute, symlink-free root. */
  readonly root: string;
  readonly #cache = new Map<string, CachedFile>();
  readonly #realpaths = new Map<string, { readonly real: string; readonly at: number }>();
  /** Files read or checked under a disk stamp, by the path asked: the stamp vouches for them. */
  readonly #stamped = new Map<string, { readonly owner: object; readonly value: number; readonly real: string; readonly file: CachedFile }>();
  #cachedChars = 0;
  #diskNow: (() => Promise<DiskStamp | undefined>) | undefined;

  constructor(root: string) {
    const absolute = resolve(root);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      throw new DialectError({ code: WorkspaceCode.NotFound, message: `the workspace folder ${absolute} does not exist`, hint: 'pass an existing folder with --workspace' });
    }
    if (!statSync(real).isDirectory()) throw new DialectError({ code: WorkspaceCode.NotAFile, message: `the workspace ${absolute} is not a folder` });
    this.root = real;
  }

  /**
   * The absolute path of a workspace path (relative to the root, or absolute inside it).
   * Lexical check only; `resolveReal` also follows symlinks.
   */
  resolve(path: string): string {
    const absolute = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    if (!this.contains(absolute)) throw outside(path);
    return absolute;
  }

  /** Like `resolve`, but also refuses a path whose real location (after symlinks) is outside. */
  async resolveReal(path: string): Promise<string> {
    const absolute = this.resolve(path);
    const cached = this.#realpaths.get(absolute);
    if (cached !== undefined && Date.now() - cached.at < FRESHNESS_MS) return cached.real;
    let real: string;
    try {
      // The native call, synchronous: one system call of microseconds, where the thread pool's
      // round trip let a start's documents leave in scattered bursts behind other queued work.
      real = realpathSync.native(absolute);
    } catch {
      throw missing(this.relative(absolute));
    }
    if (!this.contains(real)) throw outside(path);
    if (this.#realpaths.size > 4096) this.#realpaths.clear();
    this.#realpaths.set(absolute, { real, at: Date.now() });
    return real;
  }

  /** Whether a workspace path is a folder (after symlinks, which must stay inside: see `resolveReal`). */
  async isFolder(path: string): Promise<boolean> {
    const real = await this.resolveReal(path);
    try {
      return (await stat(real)).isDirectory();
    } catch {
      throw missing(this.relative(real));
    }
  }

  /** Whether an absolute path lies inside the root. */
  contains(absolute: string): boolean {
    return isInside(this.root, absolute);
  }

  /** The workspace-relative form of an absolute path, with `/` separators (`.` for the root). */
  relative(absolute: string): string {
    // The common case without path arithmetic (a lookup converts thousands of places): a plain
    // path below the root, with no `.`, `..` or empty segment and no trailing separator.
    const root = this.root;
    if (sep === '/' && absolute.length > root.length + 1 && absolute.startsWith(root) && absolute[root.length] === '/' && !absolute.endsWith('/') && !DOT_OR_EMPTY_SEGMENT.test(absolute)) {
      return absolute.slice(root.length + 1);
    }
    const rel = relative(this.root, absolute);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  /** The text of a file, cached until it changes on disk. */
  async readText(path: string): Promise<string> {
    return (await this.#load(path)).text;
  }

  /** The lines of a file (line breaks `\n`, `\r\n` or `\r`, as LSP counts them). */
  async lines(path: string): Promise<readonly string[]> {
    return linesOf(await this.#load(path));
  }

  /**
   * The texts of several files (`undefined` for one that cannot be read), under one look at the
   * disk's stamp: a reference list's hundreds of files cost no turn of the event loop each.
   */
  async readTexts(paths: readonly string[]): Promise<(string | undefined)[]> {
    return (await this.#loadAll(paths)).map((file) => file?.text);
  }

  /** The lines of several files, as {@link lines} gives them (`undefined` for one that cannot be read), under one look at the disk's stamp. */
  async linesOfAll(paths: readonly string[]): Promise<(readonly string[] | undefined)[]> {
    return (await this.#loadAll(paths)).map((file) => (file === undefined ? undefined : linesOf(file)));
  }

  /**
   * Lines `start..end` (1-based, inclusive; `end` is clamped to the file), cut from the file's
   * text by an index of line starts: only the range becomes strings.
   */
  async readLines(path: string, start: number, end: number): Promise<string[]> {
    const file = await this.#load(path);
    const starts = (file.lineStarts ??= lineStarts(file.text));
    const count = starts.length - 1;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
      throw new DialectError({
        code: WorkspaceCode.InvalidRange,
        message: `lines ${start}–${end} is not a valid range`,
        hint: 'lines are numbered from 1 and the end is inclusive, e.g. lines("src/main.rs", 10, 20)',
      });
    }
    if (start > count) {
      throw new DialectError({ code: WorkspaceCode.InvalidRange, message: `${path} has only ${count} lines, so line ${start} does not exist`, hint: `ask for lines 1 to ${count}` });
    }
    const lines: string[] = [];
    for (let line = start; line <= Math.min(end, count); line++) lines.push(lineAt(file.text, starts, line));
    return lines;
  }

  /** The text of one line (1-based), or '' past the end. */
  async lineText(path: string, line: number): Promise<string> {
    const file = await this.#load(path);
    const starts = (file.lineStarts ??= lineStarts(file.text));
    return Number.isInteger(line) && line >= 1 && line < starts.length ? lineAt(file.text, starts, line) : '';
  }

  /**
   * Lets a directory watcher vouch for the disk: while the stamp `now` gives stays the same, a
   * file read or checked under it is answered from memory, without its real location or a stat
   * (a reference list converts places in hundreds of files, a lookup reads each candidate's).
   * Without one (or while it gives `undefined`), every read is checked against the disk.
   */
  watchedBy(now: () => Promise<DiskStamp | undefined>): void {
    this.#diskNow = now;
  }

  /** Forgets cached contents (e.g. after the caller edited files). */
  invalidate(): void {
    this.#cache.clear();
    this.#cachedChars = 0;
    this.#realpaths.clear();
    this.#stamped.clear();
  }

  async #load(path: string): Promise<CachedFile> {
    return this.#loadUnder(path, await this.#diskNow?.());
  }

  /** The files of `paths` under one stamp; those in memory answered at once, the rest read together. */
  async #loadAll(paths: readonly string[]): Promise<(CachedFile | undefined)[]> {
    const disk = await this.#diskNow?.();
    const files: (CachedFile | undefined)[] = paths.map((path) => this.#vouched(path, disk));
    const reads: Promise<void>[] = [];
    files.forEach((file, i) => {
      if (file !== undefined) return;
      reads.push(this.#loadUnder(paths[i] as string, disk).then((read) => void (files[i] = read), () => undefined));
    });
    await Promise.all(reads);
    return files;
  }

  /** A file the stamp `disk` vouches is unchanged since it was read (still cached), or `undefined`. */
  #vouched(path: string, disk: DiskStamp | undefined): CachedFile | undefined {
    if (disk === undefined) return undefined;
    const known = this.#stamped.get(path);
    return known !== undefined && known.owner === disk.owner && known.value === disk.value && this.#cache.get(known.real) === known.file ? known.file : undefined;
  }

  async #loadUnder(path: string, disk: DiskStamp | undefined): Promise<CachedFile> {
    // Still cached (not dropped for the budget, not re-read since): the same text as then.
    const vouched = this.#vouched(path, disk);
    if (vouched !== undefined) return vouched;
    const file = await this.#loadChecked(path);
    if (disk !== undefined) {
      const real = this.#realpaths.get(this.resolve(path))?.real;
      if (real !== undefined && this.#cache.get(real) === file && disk.covers(this.resolve(path)) && disk.covers(real)) {
        if (this.#stamped.size >= MAX_STAMPED_FILES) this.#stamped.clear();
        this.#stamped.set(path, { owner: disk.owner, value: disk.value, real, file });
      }
    }
    return file;
  }

  async #loadChecked(path: string): Promise<CachedFile> {
    let real = await this.resolveReal(path);
    // A synchronous stat: it takes microseconds on a local disk, where an asynchronous one is a
    // thread-pool round trip that can cost a tenth of a millisecond on every query.
    let info: Stats;
    try {
      info = statSync(real);
    } catch {
      // Renamed or deleted since its real location was cached: resolve it afresh (or report it).
      this.#realpaths.delete(this.resolve(path));
      real = await this.resolveReal(path);
      info = statSync(real);
    }
    const cached = this.#cache.get(real);
    if (cached !== undefined && info.isFile() && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
      this.#cache.delete(real); // refresh its place in the LRU order
      this.#cache.set(real, cached);
      return cached;
    }
    if (cached !== undefined) this.#forget(real, cached);
    // Every read goes through the one confinement check (real location, regular file, size cap).
    const read = readConfined(this.root, real, MAX_FILE_BYTES);
    if (!read.ok) throw this.#refusal(path, read.reason, read.size);
    const file: CachedFile = { mtimeMs: read.mtimeMs, size: read.size, text: read.text };
    this.#cache.set(real, file);
    this.#cachedChars += file.text.length;
    for (const [oldest, entry] of this.#cache) {
      if (this.#cachedChars <= CACHE_BUDGET_CHARS || oldest === real) break;
      this.#forget(oldest, entry);
    }
    return file;
  }

  /** The error for a path the user named that the confinement check refused. */
  #refusal(path: string, reason: RefusalReason, size: number | undefined): DialectError {
    switch (reason) {
      case 'outside':
        return outside(path);
      case 'missing':
        return missing(path);
      case 'not-a-file':
        return new DialectError({
          code: WorkspaceCode.NotAFile,
          message: `${path} is not a regular file (a folder, FIFO, socket or device)`,
          hint: 'findFiles("*", path) lists the files inside a folder',
        });
      case 'too-large':
        return new DialectError({
          code: WorkspaceCode.TooLarge,
          message: `${path} is ${Math.round((size ?? 0) / MIB)} MB; files over ${MAX_FILE_BYTES / MIB} MB are not read`,
          hint: 'search(path, regex) finds lines in smaller files; large generated files are not source code',
        });
    }
  }

  #forget(real: string, entry: CachedFile): void {
    this.#cache.delete(real);
    this.#cachedChars -= entry.text.length;
  }
}

/**
 * The offset where each line of `text` starts (line breaks `\n`, `\r\n` or `\r`, as LSP counts
 * them), followed by the text's length plus one — so line `n` spans `starts[n-1]` to
 * `starts[n] - 1` less its break. One pass; the array grows by doubling.
 */
function lineStarts(text: string): Uint32Array {
  let starts = new Uint32Array(1024);
  let n = 0;
  const push = (offset: number): void => {
    if (n === starts.length) {
      const grown = new Uint32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[n++] = offset;
  };
  push(0);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      push(i + 1);
    }
  }
  push(text.length + 1);
  return starts.slice(0, n);
}

/** Line `line` (1-based, present in `starts`) without its line break. */
function lineAt(text: string, starts: Uint32Array, line: number): string {
  const from = starts[line - 1] as number;
  let to = (starts[line] as number) - 1; // the break's last character, or the end
  if (to > from && text.charCodeAt(to - 1) === 13 && text.charCodeAt(to) === 10) to--; // \r\n
  return text.slice(from, Math.min(to, text.length));
}

function missing(path: string): DialectError {
  return new DialectError({
    code: WorkspaceCode.NotFound,
    message: `${path} does not exist in the workspace`,
    hint: 'paths are relative to the workspace root; findFiles("**/name*") finds files by name',
  });
}

function outside(path: string): DialectError {
  return new DialectError({
    code: WorkspaceCode.OutsideWorkspace,
    message: `${JSON.stringify(path)} is outside the workspace`,
    hint: 'only files inside the workspace can be read; use a path relative to its root, e.g. "src/main.rs"',
  });
}

/** A cached file's lines, split once (line breaks `\n`, `\r\n` or `\r`, as LSP counts them). */
function linesOf(file: CachedFile): readonly string[] {
  file.lines ??= file.text.split(/\r\n|\n|\r/);
  return file.lines;
}
