/**
 * What a program said about itself, kept across processes: the version probes of servers and
 * toolchains (`--version`) and a compiler's fixed answers (`rustc --print sysroot`, `--print cfg`)
 * cost a process each, hundreds of milliseconds on a loaded machine, at every cold start. An
 * answer is kept per program identity — its real path, device, inode, size and change times — so
 * a program that is replaced, rebuilt or reinstalled is asked again; a program that is a link to
 * a program of another name (rustup's `cargo`, `rustc`, `rust-analyzer` all lead to `rustup`,
 * which runs whichever toolchain its settings choose) or has other hard links answers for more
 * than its file, so it is asked every time. Only answers are kept, never failures: a fix shows at
 * once.
 *
 * The files live in Dialect's private cache folder (`$XDG_CACHE_HOME/dialect/probes`, default
 * `~/.cache/dialect/probes`), never in a workspace; they are written by the safe writer and read
 * through the confinement check. Nothing a workspace controls is kept: probes run from a neutral
 * folder (`discovery.ts`), and the key names the program and the arguments and environment that
 * steer its answer.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { readConfined } from '../confine.js';
import { writeFileSafelySync } from '../safe-write.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A kept answer is a line or a few: anything longer is not one of ours. */
const MAX_KEPT_BYTES = 64 * 1024;
/** Mode of the folder and of each file: the user's alone. */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/** `$XDG_CACHE_HOME/dialect/probes` (an absolute XDG_CACHE_HOME; else `~/.cache`). */
export function probeCacheDir(env: Env): string {
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(env['HOME'] ?? homedir(), '.cache');
  return join(base, 'dialect', 'probes');
}

/**
 * The identity of the program at `path`, or `undefined` when its answers may depend on more than
 * its file (a link to a program of another name, hard links) or it cannot be read.
 */
export function programIdentity(path: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    // A link to the same program under a versioned name (`clangd` → `clangd-19`) is that program.
    if (lstatSync(path).isSymbolicLink() && !basename(real).startsWith(basename(path))) return undefined;
    const stat = statSync(real, { bigint: true });
    if (!stat.isFile() || stat.nlink > 1n) return undefined;
    return [real, stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(':');
  } catch {
    return undefined;
  }
}

/** Where the answer for (`what`, `program`'s identity) is kept; `undefined` when it is not kept. */
function keptFile(what: string, program: string, env: Env): { file: string; dir: string; id: string } | undefined {
  const identity = programIdentity(program);
  if (identity === undefined) return undefined;
  const id = JSON.stringify([what, identity]);
  const dir = probeCacheDir(env);
  return { dir, id, file: join(dir, `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`) };
}

/**
 * The answer kept for `what` (the question: arguments and the environment that steers the
 * answer, as the caller words it) asked of `program`; `undefined` when none is kept for this
 * identity of the program.
 */
export function keptAnswer(what: string, program: string, env: Env): unknown {
  const kept = keptFile(what, program, env);
  if (kept === undefined) return undefined;
  const read = readConfined(kept.dir, kept.file, MAX_KEPT_BYTES);
  if (!read.ok) return undefined;
  try {
    const entry = JSON.parse(read.text) as { id?: unknown; answer?: unknown };
    return entry.id === kept.id ? entry.answer : undefined;
  } catch {
    return undefined; // a torn or foreign file: asked again, and rewritten
  }
}

/** Keeps `answer` (JSON) for `what` asked of `program`. Best effort: a cache that cannot be written only costs time. */
export function keepAnswer(what: string, program: string, env: Env, answer: unknown): void {
  const kept = keptFile(what, program, env);
  if (kept === undefined) return;
  try {
    mkdirSync(kept.dir, { recursive: true, mode: FOLDER_MODE });
    writeFileSafelySync(kept.file, `${JSON.stringify({ id: kept.id, answer })}\n`, { replace: { kind: 'private' }, mode: FILE_MODE });
  } catch {
    // A read-only home, a full disk, something else at the name: the next start probes again.
  }
}
