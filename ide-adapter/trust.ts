/**
 * Workspace trust (VS Code's model): a workspace is untrusted unless the user trusted it. Only the
 * user grants trust — `dialect trust DIR`, or `--trust` for one run — never an agent: no MCP tool
 * and no Dialect function reaches this module's writers.
 *
 * Trust is kept by real path (symlinks resolved) in `$XDG_CONFIG_HOME/dialect/trusted.json`
 * (else `~/.config/dialect/trusted.json`), written atomically with mode 0600. Trusting a folder
 * trusts everything below it, as in VS Code.
 */
import { mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { DialectError } from '../dialect/outcome.js';
import { writeFileSafelySync } from './safe-write.js';

/** Error codes of the trust store. */
export const TrustCode = {
  /** The folder to trust does not exist or is not a folder. */
  NotAFolder: 'trust-not-a-folder',
  /** The trust store exists but cannot be read or parsed. */
  StoreUnreadable: 'trust-store-unreadable',
} as const;

/** File mode of the trust store: the user's alone, like other credentials-adjacent config. */
const STORE_MODE = 0o600;
/** Mode of the folder that holds it. */
const DIR_MODE = 0o700;
const STORE_FILE = 'trusted.json';
const STORE_VERSION = 1;

type Env = Readonly<Record<string, string | undefined>>;

interface StoreFile {
  readonly version: number;
  readonly trusted: readonly string[];
}

/** Where the trust store lives for this environment. */
export function trustStorePath(env: Env = process.env): string {
  // The XDG spec says to ignore a relative XDG_CONFIG_HOME.
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(env['HOME'] ?? homedir(), '.config');
  return join(base, 'dialect', STORE_FILE);
}

/** The trusted folders (real paths), sorted; empty when nothing was ever trusted. */
export async function listTrusted(env: Env = process.env): Promise<string[]> {
  const file = trustStorePath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DialectError({ code: TrustCode.StoreUnreadable, message: `cannot read the trust store ${file}: ${(error as Error).message}`, hint: 'fix its permissions, or delete it to start over' });
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    if (!Array.isArray(parsed.trusted) || !parsed.trusted.every((p) => typeof p === 'string')) throw new Error('"trusted" is not a list of paths');
    return [...new Set(parsed.trusted)].sort();
  } catch (error) {
    throw new DialectError({ code: TrustCode.StoreUnreadable, message: `the trust store ${file} is damaged: ${(error as Error).message}`, hint: `delete it and trust your folders again (dialect trust DIR)` });
  }
}

/** The real path of an existing folder; a clear error otherwise. */
async function realFolder(dir: string): Promise<string> {
  const absolute = resolve(dir);
  try {
    const real = await realpath(absolute);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // Reported below.
  }
  throw new DialectError({ code: TrustCode.NotAFolder, message: `${absolute} is not an existing folder`, hint: 'pass the folder of the project to trust' });
}

/** Whether `inner` is `outer` or lies below it. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/**
 * Whether a workspace folder is trusted: its real path is a trusted folder or lies below one.
 * A folder that cannot be resolved is untrusted.
 */
export async function isTrusted(dir: string, env: Env = process.env): Promise<boolean> {
  let real: string;
  try {
    real = await realpath(resolve(dir));
  } catch {
    return false;
  }
  return (await listTrusted(env)).some((t) => within(real, t));
}

/** Writes the store atomically through the safe writer (a private temp file in the same folder, then a rename; never through a link). */
async function writeStore(trusted: readonly string[], env: Env): Promise<void> {
  const file = trustStorePath(env);
  await mkdir(dirname(file), { recursive: true, mode: DIR_MODE });
  const body: StoreFile = { version: STORE_VERSION, trusted: [...new Set(trusted)].sort() };
  writeFileSafelySync(file, `${JSON.stringify(body, null, 2)}\n`, { replace: { kind: 'private' }, mode: STORE_MODE });
}

/** Trusts a folder (and everything below it); returns its real path. Idempotent. */
export async function trustFolder(dir: string, env: Env = process.env): Promise<string> {
  const real = await realFolder(dir);
  const current = await listTrusted(env);
  if (!current.includes(real)) await writeStore([...current, real], env);
  return real;
}

/**
 * Removes a folder's trust; returns the entries removed (none when it was not trusted itself).
 * A folder that no longer exists can still be untrusted by the path it was trusted under.
 */
export async function untrustFolder(dir: string, env: Env = process.env): Promise<string[]> {
  const absolute = resolve(dir);
  const real = await realpath(absolute).catch(() => absolute);
  const current = await listTrusted(env);
  const removed = current.filter((t) => t === real || t === absolute);
  if (removed.length > 0) await writeStore(current.filter((t) => !removed.includes(t)), env);
  return removed;
}

/** The trusted folder that covers `dir`, if any (for messages such as "trusted via /home/me"). */
export async function trustedBy(dir: string, env: Env = process.env): Promise<string | undefined> {
  const real = await realpath(resolve(dir)).catch(() => undefined);
  if (real === undefined) return undefined;
  return (await listTrusted(env)).find((t) => within(real, t));
}

/** The command that trusts a folder, for notes and errors (the folder quoted for a shell when it must be). */
export function trustCommand(root: string): string {
  return `dialect trust ${/^[\w@%+=:,./-]+$/.test(root) ? root : `'${root.replace(/'/g, `'\\''`)}'`}`;
}
