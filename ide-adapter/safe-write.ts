/**
 * The one way Dialect writes a file (walkthrough pages, REPL history, the trust store, the
 * background server's records, lock and log, the editor's discovery records). A folder we write
 * into may belong to an untrusted repository (a page is written beside its walkthrough), so:
 *
 * - **A link is never followed.** The final name is checked with `lstat`, and the bytes go to a
 *   fresh temporary file in the same folder (created with `O_EXCL | O_NOFOLLOW`), which is then
 *   linked (a new file: fails if anything appeared meanwhile) or renamed (a replacement) onto the
 *   name. A rename replaces the directory entry, never what a link points at, so even a symlink
 *   swapped in after the check only loses its entry; the file it led to is never written.
 * - **A file we did not create is never replaced.** Each writer says what it may replace
 *   ({@link ReplacePolicy}): nothing (`never`), a file whose beginning proves it is ours (`ours`,
 *   e.g. a previous walkthrough page), or a regular file of our own private folder (`private`:
 *   the history, the trust store, records). Anything else — a symlink, a folder, a FIFO, another
 *   file — is refused with a {@link SafeWriteError} saying what is there and how to fix it.
 * - Appends (`appendFileSafelySync`) and the log the background server writes to (`openFreshFileSync`)
 *   open with `O_NOFOLLOW` and check the opened descriptor.
 *
 * Folders on the way to the name are the writer's path as given (a user's `-o out/page.html`
 * through a symlinked `out` is theirs to choose); only the final name is never followed.
 */
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, readlinkSync, renameSync, rmSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DialectError } from '../dialect/outcome.js';

/** Error codes of the safe writer. */
export const WriteCode = {
  /** The name is a symbolic link: Dialect never writes through one. */
  RefusedLink: 'write-refused-link',
  /** A file is there that this writer did not create (not one of its own). */
  RefusedExisting: 'write-refused-existing',
  /** Something that is not a regular file (a folder, FIFO, socket, device) is there. */
  RefusedSpecial: 'write-refused-special',
} as const;

/** What a writer may replace when the name already exists (a symlink or special file never). */
export type ReplacePolicy =
  /** Only a new file: anything already there is refused. */
  | { readonly kind: 'never' }
  /** A regular file that starts with `prefix` (the writer's own mark), e.g. a previous page. */
  | { readonly kind: 'ours'; readonly prefix: string; readonly what: string }
  /** A regular file owned by this user, in a folder that is ours alone (history, trust store, records). */
  | { readonly kind: 'private' };

/** How one file is written. */
export interface SafeWriteOptions {
  readonly replace: ReplacePolicy;
  /** File mode of a new file (before the umask); default 0o666 like `writeFile`. */
  readonly mode?: number;
  /** How to get around a refusal, appended to the error's hint (e.g. "choose another path with -o OUT.html"). */
  readonly alternative?: string;
}

/** A write Dialect refused, with what is at the path and how to fix it. */
export class SafeWriteError extends DialectError {
  /** The path that was not written. */
  readonly path: string;

  constructor(code: (typeof WriteCode)[keyof typeof WriteCode], path: string, message: string, hint: string) {
    super({ code, message, hint });
    this.path = path;
  }
}

const DEFAULT_MODE = 0o666;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
/** Attempts at a free temporary name (each is O_EXCL; collisions need a concurrent writer of the same pid). */
const TEMP_ATTEMPTS = 100;
let tempCounter = 0;

/**
 * Writes `data` to `path` without following a link at the name and replacing only what `options.replace`
 * allows; atomic for readers (they see the old file or the new one). Throws {@link SafeWriteError}
 * for a refusal, and the file system's error (EACCES, ENOSPC, ENOENT folder…) otherwise.
 */
export function writeFileSafelySync(path: string, data: string | Uint8Array, options: SafeWriteOptions): void {
  const target = resolve(path);
  let existed = checkReplaceable(target, options);
  const temp = writeTemp(target, data, options.mode ?? DEFAULT_MODE);
  try {
    for (;;) {
      if (existed) {
        renameSync(temp, target);
        return;
      }
      try {
        linkSync(temp, target); // a new file: never over anything that appeared since the check
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') existed = checkReplaceable(target, options);
        else if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') existed = true; // no hard links here: rename, which still never writes through a link
        else throw error;
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Appends to a regular file of ours (created with `mode` when missing), opened without following
 * a link and checked on the descriptor: a link, a special file or another user's file is refused.
 */
export function appendFileSafelySync(path: string, data: string, mode: number): void {
  const target = resolve(path);
  let fd: number;
  try {
    fd = openSync(target, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | NON_BLOCK, mode);
  } catch (error) {
    throw refusalOf(target, error, { replace: { kind: 'private' } }) ?? error;
  }
  try {
    checkOwnRegular(target, fstatSync(fd), { replace: { kind: 'private' } });
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a new, empty file for writing (a log handed to a child process) and returns its descriptor;
 * a previous regular file of ours at the name is removed first (policy `private`), never a link.
 */
export function openFreshFileSync(path: string, mode: number): number {
  const target = resolve(path);
  if (checkReplaceable(target, { replace: { kind: 'private' } })) unlinkSync(target);
  try {
    return openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode);
  } catch (error) {
    throw refusalOf(target, error, { replace: { kind: 'never' } }) ?? error;
  }
}

/**
 * Whether the name holds a file this writer may replace (true), or nothing (false); throws the
 * refusal for anything else.
 */
function checkReplaceable(target: string, options: SafeWriteOptions): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (stats.isSymbolicLink()) throw linkRefusal(target, options);
  checkOwnRegular(target, stats, options);
  const policy = options.replace;
  if (policy.kind === 'never') throw existingRefusal(target, 'a file is already there', options);
  if (policy.kind === 'ours' && !startsWith(target, policy.prefix)) throw existingRefusal(target, `the file there is not ${policy.what}`, options);
  return true;
}

/** Throws unless `stats` is a regular file (and, for private files, the user's own). */
function checkOwnRegular(target: string, stats: Stats, options: SafeWriteOptions): void {
  if (!stats.isFile()) {
    throw new SafeWriteError(WriteCode.RefusedSpecial, target, `refused to write ${target}: it is ${kindOf(stats)}, not a regular file`, hintFor(`remove it`, options));
  }
  const uid = process.getuid?.();
  if (options.replace.kind === 'private' && uid !== undefined && stats.uid !== uid) {
    throw existingRefusal(target, `the file there belongs to user ${stats.uid}`, options);
  }
}

/** Whether the regular file at `target` begins with `prefix` (read without following a link, bounded by the prefix). */
function startsWith(target: string, prefix: string): boolean {
  const expected = Buffer.from(prefix, 'utf8');
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(expected.length);
    let read = 0;
    while (read < head.length) {
      const n = readSync(fd, head, read, head.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === expected.length && head.equals(expected);
  } finally {
    closeSync(fd);
  }
}

/** A fresh temporary file beside `target` holding `data`; its path. */
function writeTemp(target: string, data: string | Uint8Array, mode: number): string {
  for (let attempt = 0; ; attempt++) {
    tempCounter += 1;
    const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.${tempCounter}.tmp`);
    let fd: number;
    try {
      fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < TEMP_ATTEMPTS) continue;
      throw error;
    }
    try {
      writeAll(fd, data);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    return temp;
  }
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** The refusal an `open` error stands for (a link under O_NOFOLLOW, an existing file under O_EXCL), if any. */
function refusalOf(target: string, error: unknown, options: SafeWriteOptions): SafeWriteError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  let stats: Stats | undefined;
  try {
    stats = lstatSync(target);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink()) return linkRefusal(target, options);
  if (code === 'EEXIST') return existingRefusal(target, 'a file is already there', options);
  if (!stats.isFile()) return new SafeWriteError(WriteCode.RefusedSpecial, target, `refused to write ${target}: it is ${kindOf(stats)}, not a regular file`, hintFor('remove it', options));
  return undefined;
}

function linkRefusal(target: string, options: SafeWriteOptions): SafeWriteError {
  let to = '';
  try {
    to = ` (to ${readlinkSync(target)})`;
  } catch {
    // Gone meanwhile: still refused.
  }
  return new SafeWriteError(WriteCode.RefusedLink, target, `refused to write ${target}: it is a symbolic link${to}, and Dialect never writes through a link`, hintFor('remove the link', options));
}

function existingRefusal(target: string, why: string, options: SafeWriteOptions): SafeWriteError {
  return new SafeWriteError(WriteCode.RefusedExisting, target, `refused to replace ${target}: ${why}, and Dialect replaces only files it wrote`, hintFor('remove or rename it', options));
}

function hintFor(fix: string, options: SafeWriteOptions): string {
  return options.alternative !== undefined ? `${fix}, or ${options.alternative}` : fix;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
