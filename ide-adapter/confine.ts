/**
 * The one confinement check for every file the product reads from a workspace. A file is read
 * only when
 * - its real location (all symlinks resolved) is inside the workspace root,
 * - the file actually opened is that real location (checked on the open descriptor, so a symlink
 *   swapped between the check and the open cannot lead out),
 * - it is a regular file (never a FIFO, socket or device: `/dev/zero` grows forever, a FIFO blocks
 *   forever), and
 * - it is at most `maxBytes` long (read with a cap, so a file growing while read cannot blow up).
 *
 * Real paths come from the native `realpath` (one call, not the JavaScript version's `lstat` per
 * path component). A walk pins each folder it enters (`pinFolder`: opened without following a
 * symlink, relative to its pinned parent, and its descriptor's real location checked inside the
 * root, once per folder) and opens the folder's files relative to that descriptor without
 * following a final symlink (`readPinnedEntry`): such a file is an entry of a folder proven
 * inside, so it needs neither a `realpath` nor a descriptor check of its own, and a file or
 * folder swapped for a symlink after the listing still cannot lead out.
 *
 * `readConfined` never throws for a file that fails a check; it says why, and the caller decides
 * between an error (a path the user named) and a count in a note (a file met during a walk).
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';

/** The C library's `realpath`: one call per path instead of an `lstat` per component. */
const realpath = realpathSync.native;
import { isAbsolute, relative, sep } from 'node:path';

/** Why a file was not read. */
export type RefusalReason = 'outside' | 'missing' | 'not-a-file' | 'too-large';

/** Why a confined read has nothing, and what was learnt on the way. */
export type ConfinedRefusal = { readonly ok: false; readonly reason: RefusalReason; readonly real?: string; readonly size?: number };

/** The result of a confined read: the text, or why there is none. */
export type ConfinedRead = { readonly ok: true; readonly real: string; readonly text: string; readonly size: number; readonly mtimeMs: number } | ConfinedRefusal;

/** A confined read's bytes, undecoded (a search rules most files out before decoding them). */
export type ConfinedBytes = { readonly ok: true; readonly real: string; readonly bytes: Buffer; readonly mtimeMs: number } | ConfinedRefusal;

/**
 * Opened read-only, without becoming the controlling terminal, and without blocking: opening a
 * FIFO that has no writer would otherwise wait forever (it is refused by the type check after).
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A folder pinned by a walk: only a real folder, never through a final symlink. */
const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Where the kernel says an open descriptor leads (Linux); absent elsewhere. */
const FD_LINK_DIR = '/proc/self/fd/';

/**
 * This process's descriptors by its number in the mounted `/proc` (what `/proc/self` leads to):
 * a path through it skips resolving the `self` link, a fifth of opening a pinned folder's file.
 * Undefined without `/proc`.
 */
const OWN_FD_DIR = ((): string | undefined => {
  try {
    return `/proc/${readlinkSync('/proc/self')}/fd/`;
  } catch {
    return undefined;
  }
})();

/** Whether the kernel says where descriptors lead (`/proc/self/fd`), checked once. */
const HAS_FD_LINKS = ((): boolean => {
  try {
    return statSync(FD_LINK_DIR).isDirectory();
  } catch {
    return false;
  }
})();

/** A `.` or `..` path segment, or a doubled separator. */
const DOT_SEGMENT = /[\\/]\.{1,2}(?:[\\/]|$)|[\\/]{2}/;

/** Whether `absolute` (a normalized absolute path) lies inside `root` (an absolute, real path). */
export function isInside(root: string, absolute: string): boolean {
  // The common case without path arithmetic: a path under the root with no `.` or `..` segment.
  if (absolute.length > root.length && absolute.startsWith(root) && absolute[root.length] === sep && !DOT_SEGMENT.test(absolute)) return true;
  const rel = relative(root, absolute);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The policy on a file already opened: what it is and how large, against the cap. */
function judge(info: Stats, maxBytes: number): RefusalReason | undefined {
  if (!info.isFile()) return 'not-a-file';
  if (info.size > maxBytes) return 'too-large';
  return undefined;
}

/** Where an open descriptor really leads, when the platform can say. */
function descriptorTarget(fd: number): string | undefined {
  try {
    return readlinkSync(`${FD_LINK_DIR}${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Reads `absolute` (a normalized absolute path) if it passes every check. `real` is returned
 * whenever it was established, so callers can cache by real location. Synchronous on purpose: a
 * source file reads in microseconds, the cap bounds the worst case, and one code path serves the
 * main thread and the search worker alike.
 */
export function readConfined(root: string, absolute: string, maxBytes: number): ConfinedRead {
  const read = readConfinedBytes(root, absolute, maxBytes);
  return read.ok ? { ok: true, real: read.real, text: read.bytes.toString('utf8'), size: read.bytes.length, mtimeMs: read.mtimeMs } : read;
}

/** `readConfined`'s bytes, undecoded. */
export function readConfinedBytes(root: string, absolute: string, maxBytes: number): ConfinedBytes {
  if (!isInside(root, absolute)) return { ok: false, reason: 'outside' };
  let real: string;
  try {
    real = realpath(absolute);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  if (!isInside(root, real)) return { ok: false, reason: 'outside', real };
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch {
    return { ok: false, reason: 'missing', real };
  }
  return readOpened(root, fd, real, maxBytes);
}

/** A folder a walk entered, opened and checked inside the root once: its files are opened relative to it. */
export interface PinnedFolder {
  readonly fd: number;
  /** Its real location (the descriptor's, when it was pinned). */
  readonly real: string;
}

/**
 * Opens a folder for a walk: `name` inside the pinned `parent`, or the absolute real `path` of the
 * walk's start. It is opened without following a final symlink (a folder swapped for a link fails
 * to open) and its descriptor's real location must be inside `root`. Undefined when it is not such
 * a folder, or folders cannot be pinned here. The caller closes it (`unpinFolder`).
 */
export function pinFolder(root: string, parent: PinnedFolder | undefined, nameOrPath: string): PinnedFolder | undefined {
  if (!HAS_FD_LINKS || OWN_FD_DIR === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(parent !== undefined ? `${OWN_FD_DIR}${parent.fd}/${nameOrPath}` : nameOrPath, FOLDER_FLAGS);
  } catch {
    return undefined;
  }
  const real = descriptorTarget(fd);
  if (real === undefined || !isInside(root, real)) {
    closeSync(fd);
    return undefined;
  }
  return { fd, real };
}

/** Closes a pinned folder. */
export function unpinFolder(folder: PinnedFolder): void {
  closeSync(folder.fd);
}

/** The entries of a pinned folder (the folder the descriptor holds, whatever its path became). */
export function readPinnedFolder(folder: PinnedFolder): Dirent[] {
  return readdirSync(`${OWN_FD_DIR as string}${folder.fd}`, { withFileTypes: true });
}

/**
 * Reads the entry `name` of a pinned folder if it is a regular file within `maxBytes`: opened
 * relative to the folder's descriptor (the kernel's own link, no path lookup from the root) and
 * without following a symlink, so it is a file of a folder already proven inside the root. With
 * `scratch`, a file that fits is read into it (the bytes are a view of it, good until its next
 * use: a search reads thousands of files and keeps none).
 */
export function readPinnedEntry(folder: PinnedFolder, name: string, maxBytes: number, scratch?: Buffer): ConfinedBytes {
  let fd: number;
  try {
    fd = openSync(`${OWN_FD_DIR as string}${folder.fd}/${name}`, OPEN_FLAGS | constants.O_NOFOLLOW);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  return readOpened(undefined, fd, `${folder.real}/${name}`, maxBytes, scratch);
}

/**
 * The checks on an opened descriptor, then the capped read; closes `fd`. With a `root`, the
 * descriptor's location must be inside it (`real` is the checked real path when there is one;
 * otherwise the descriptor's location becomes it); without, the caller proved where `fd` is.
 */
function readOpened(root: string | undefined, fd: number, real: string | undefined, maxBytes: number, scratch?: Buffer): ConfinedBytes {
  try {
    const target = root !== undefined ? descriptorTarget(fd) : undefined;
    if (target === undefined && real === undefined) return { ok: false, reason: 'outside' };
    if (target !== undefined && root !== undefined && !isInside(root, target)) return { ok: false, reason: 'outside', ...(real !== undefined ? { real } : {}) };
    real ??= target as string;
    const info = fstatSync(fd);
    const refusal = judge(info, maxBytes);
    if (refusal !== undefined) return { ok: false, reason: refusal, real, size: info.size };
    // One byte more than the size says: a file grown since is caught at the cap.
    const capacity = Math.min(info.size, maxBytes) + 1;
    const buffer = scratch !== undefined && scratch.length >= capacity ? scratch : Buffer.allocUnsafe(capacity);
    let length = 0;
    while (length < capacity) {
      const wanted = capacity - length;
      const bytesRead = readSync(fd, buffer, length, wanted, length);
      length += bytesRead;
      // A regular file reads short only at its end: no second call to learn it.
      if (bytesRead < wanted) break;
    }
    if (length > maxBytes) return { ok: false, reason: 'too-large', real, size: length };
    return { ok: true, real, bytes: buffer.subarray(0, length), mtimeMs: info.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** What a symlink leads to, for a directory walk deciding whether to list it. */
export type LinkTarget = 'file' | 'outside' | 'special';

/**
 * Whether `absolute` leads to a regular file inside `root` (`file`), out of it or nowhere
 * (`outside`), or to something that is not a regular file (`special`: a folder, FIFO, device).
 */
export function linkTarget(root: string, absolute: string): LinkTarget {
  let real: string;
  try {
    real = realpath(absolute);
  } catch {
    return 'outside';
  }
  if (!isInside(root, real)) return 'outside';
  try {
    // stat, not open: opening a device can have effects of its own.
    return statSync(real).isFile() ? 'file' : 'special';
  } catch {
    return 'outside';
  }
}

/**
 * `path` without its trailing slashes, scanned from the end: the pattern `/\/+$/` is retried from
 * every slash of a long run (quadratic on a workspace's `a//////…/x`).
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}
