/**
 * Where a VS Code window advertises the backend it serves, so a `dialect` process started outside
 * the editor (an agent's MCP configuration, a shell) finds it with no configuration: one JSON
 * record per window and workspace folder in a private folder of the user's runtime directory
 * (`$XDG_RUNTIME_DIR/dialect/vscode`, else `<tmp>/dialect-<uid>/vscode`, mode 0700), next to the
 * sockets. Records are keyed by folder (a hash of its real path) and by the window's process,
 * since two windows may open one folder. Plain Node: the extension (vscode/) writes, the CLI
 * (`editors/connect.ts`) and tests read.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSafelySync } from '../safe-write.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The record's shape version; a reader ignores records of other versions. */
export const DISCOVERY_VERSION = 1;

/** Private to the user: the sockets in it are the bridge into their editor. */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Enough of the folder hash to tell folders apart in a file name. */
const FOLDER_KEY_LENGTH = 16;

/** What a window advertises for one workspace folder. */
export interface DiscoveryRecord {
  readonly version: typeof DISCOVERY_VERSION;
  /** The folder's real path. */
  readonly workspaceRoot: string;
  /** The Unix socket the backend is served on (the workspace-server protocol). */
  readonly socket: string;
  /** The extension host's process id (gone → the record is stale). */
  readonly pid: number;
  /** When the window started serving (epoch ms). */
  readonly startedAt: number;
  /** The editor (`VS Code`, `code-server`, …) and its version. */
  readonly editor: string;
}

/** Group and other permission bits: none may be set on the private folders. */
const GROUP_OTHER_BITS = 0o077;

/** Where the private folder is, without creating or checking it. */
export function discoveryDirPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  // XDG says a relative value must be ignored.
  const base = runtime !== undefined && runtime.startsWith('/') ? join(runtime, 'dialect') : join(tmpdir(), `dialect-${process.getuid?.() ?? 'user'}`);
  return join(base, 'vscode');
}

/**
 * Why a folder may not hold the bridge's sockets and records, or undefined when it may: it must
 * be a real folder (not a symlink), the user's own, closed to group and others, the way the
 * background server checks its runtime folder (cli/server/runtime-dir.ts) — whoever could write
 * there could pose as the editor and be sent every question.
 */
export function unsafeFolder(folder: string): string | undefined {
  const stat = lstatSync(folder);
  const uid = process.getuid?.();
  if (stat.isSymbolicLink() || !stat.isDirectory()) return `${folder} is not a real folder`;
  if (uid !== undefined && stat.uid !== uid) return `${folder} belongs to user ${stat.uid}`;
  if ((stat.mode & GROUP_OTHER_BITS) !== 0) return `${folder} is open to other users`;
  return undefined;
}

/** The private folder holding the sockets and records, made (0700) when missing and checked with its parent; throws when unsafe. */
export function ensureDiscoveryDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const dir = discoveryDirPath(env);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const folder of [dirname(dir), dir]) {
    const problem = unsafeFolder(folder);
    if (problem !== undefined) throw new Error(`${problem}: remove it (Dialect creates a private folder there) or set XDG_RUNTIME_DIR to a private folder`);
  }
  return dir;
}

/** The key of a folder in record file names. */
export function folderKey(workspaceRoot: string): string {
  return createHash('sha256').update(workspaceRoot).digest('hex').slice(0, FOLDER_KEY_LENGTH);
}

/** The file of one window's record for a folder. */
export function recordPath(dir: string, workspaceRoot: string, pid: number): string {
  return join(dir, `${folderKey(workspaceRoot)}-${pid}.json`);
}

/** Writes a record atomically (a reader never sees half of it); returns its path. */
export function writeRecord(dir: string, record: DiscoveryRecord): string {
  const path = recordPath(dir, record.workspaceRoot, record.pid);
  writeFileSafelySync(path, `${JSON.stringify(record)}\n`, { replace: { kind: 'private' }, mode: PRIVATE_FILE_MODE });
  return path;
}

/** Removes a record (a window closing its folder). */
export function removeRecord(path: string): void {
  rmSync(path, { force: true });
}

/** Every well-formed record in the folder, newest first; stale ones are the reader's to judge. */
export function readRecords(dir: string): DiscoveryRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const records: DiscoveryRecord[] = [];
  for (const name of names) {
    try {
      const value = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Partial<DiscoveryRecord>;
      if (value.version === DISCOVERY_VERSION && typeof value.workspaceRoot === 'string' && typeof value.socket === 'string' && typeof value.pid === 'number') {
        records.push(value as DiscoveryRecord);
      }
    } catch {
      // A record being replaced or removed right now: skip it.
    }
  }
  return records.sort((a, b) => b.startedAt - a.startedAt);
}
