/**
 * The runtime folder that holds the background servers' sockets, records, locks and logs:
 * `$XDG_RUNTIME_DIR/dialect`, else `<tmpdir>/dialect-<uid>`. Whoever can write there could
 * impersonate a server (and be sent every query) or read its log, so on every use the folder must
 * be a real folder (not a symlink), owned by us, and closed to group and others.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DialectError } from '../../dialect/outcome.js';
import { BackgroundServerCode } from '../../ide-adapter/server-codes.js';

/** The mode the folder is created with: only its owner may list, enter or write it. */
export const RUNTIME_DIR_MODE = 0o700;

/** The group and others bits: none may be set on the folder. */
const GROUP_OTHER_BITS = 0o077;

type Env = Readonly<Record<string, string | undefined>>;

/** The user id the folder must belong to (POSIX); undefined where there is none (Windows). */
function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Where the runtime folder is, without creating or checking it. */
export function runtimeDirPath(env: Env = process.env): string {
  const xdg = env['XDG_RUNTIME_DIR'];
  // XDG says a relative value must be ignored.
  if (xdg !== undefined && xdg.startsWith('/')) return join(xdg, 'dialect');
  return join(tmpdir(), `dialect-${uid() ?? 'user'}`);
}

/**
 * The runtime folder, created (0700) when missing and checked: a real folder, ours, without group
 * or other permissions. Throws a {@link DialectError} `unsafe-runtime-dir` that says what is wrong
 * and how to fix it.
 */
export function ensureRuntimeDir(env: Env = process.env): string {
  const dir = runtimeDirPath(env);
  try {
    // A missing XDG_RUNTIME_DIR is created private too (the temp folder always exists).
    mkdirSync(dirname(dir), { recursive: true, mode: RUNTIME_DIR_MODE });
    mkdirSync(dir, { mode: RUNTIME_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw unsafe(dir, `cannot be created (${(error as Error).message})`, 'check that its parent folder exists and is writable, or set XDG_RUNTIME_DIR to a private folder');
    }
  }
  checkRuntimeDir(dir);
  return dir;
}

/** Checks an existing runtime folder (see {@link ensureRuntimeDir}); throws `unsafe-runtime-dir`. */
export function checkRuntimeDir(dir: string): void {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) throw unsafe(dir, 'is a symbolic link', `remove it (rm ${dir}); Dialect creates a private folder there`);
  if (!stat.isDirectory()) throw unsafe(dir, 'is not a folder', `remove it (rm ${dir}); Dialect creates a private folder there`);
  const me = uid();
  if (me !== undefined && stat.uid !== me) throw unsafe(dir, `belongs to user ${stat.uid}, not to you (${me})`, `remove it or set XDG_RUNTIME_DIR to a folder of yours`);
  if ((stat.mode & GROUP_OTHER_BITS) !== 0) {
    throw unsafe(dir, `is open to others (mode ${(stat.mode & 0o777).toString(8)})`, `make it private: chmod 700 ${dir}`);
  }
}

function unsafe(dir: string, what: string, hint: string): DialectError {
  return new DialectError({ code: BackgroundServerCode.UnsafeRuntimeDir, message: `the runtime folder ${dir} ${what}, so no background server can use it safely`, hint });
}

/** Whether a server's socket exists, is a socket, and is ours (its folder is checked too, on every use: {@link ensureRuntimeDir}). */
export function isOwnSocket(path: string): boolean {
  try {
    const stat = lstatSync(path);
    const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
    return stat.isSocket() && stat.uid === uid;
  } catch {
    return false;
  }
}
