/**
 * A server's record file (`<id>.json` beside its socket): who runs it (pid), for what (workspace,
 * trust), which build, since when. Clients read it to tell a live server from a stale one and a
 * server of another build from theirs, before connecting.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile, packageVersion } from '../../ide-adapter/package-files.js';
import { writeFileSafelySync } from '../../ide-adapter/safe-write.js';
import type { ServerIdentity } from './identity.js';

/** A server's record (the file is another process's output: {@link readRecord} checks it). */
export interface ServerRecord {
  readonly pid: number;
  readonly workspace: string;
  readonly trusted: boolean;
  readonly product: { readonly version: string; readonly installPath: string };
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

/**
 * Whether a parsed record file is a {@link ServerRecord}. By hand, not with zod: every call reads
 * the record before connecting, and zod would be most of what a warm call loads.
 */
export function isServerRecord(value: unknown): value is ServerRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { pid, workspace, trusted, product, startedAt } = value as Record<string, unknown>;
  const build = product as Record<string, unknown> | null | undefined;
  return (
    Number.isInteger(pid) &&
    (pid as number) > 0 &&
    typeof workspace === 'string' &&
    typeof trusted === 'boolean' &&
    typeof build === 'object' &&
    build !== null &&
    typeof build['version'] === 'string' &&
    typeof build['installPath'] === 'string' &&
    typeof startedAt === 'number'
  );
}

/** Mode of the record (and of every file the server writes in the runtime folder). */
export const PRIVATE_FILE_MODE = 0o600;

/** Writes the record atomically (a reader sees the old file or the new one, never half of one). */
export function writeRecord(path: string, record: ServerRecord): void {
  writeFileSafelySync(path, `${JSON.stringify(record)}\n`, { replace: { kind: 'private' }, mode: PRIVATE_FILE_MODE });
}

/** The record at `path`, or undefined when it is missing or not a valid record. */
export function readRecord(path: string): ServerRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isServerRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a file if it is there. */
export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Whether a process with this pid is alive (signal 0 checks without sending anything). A zombie
 * is dead: a detached server whose parent is gone may wait for a reaper that never comes.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc (macOS): signal 0 said it exists
  }
}

/** Hex digits of the identity hash kept in file names. */
export const ID_HEX_DIGITS = 16;

/** The build a server runs: a server of another build is replaced, never used. */
export interface Product {
  /** `version` of package.json. */
  readonly version: string;
  /** The package folder. */
  readonly installPath: string;
}

/** This process's build. */
export function currentProduct(): Product {
  return { version: packageVersion(), installPath: packageFile() };
}

/** Whether two builds are the same (version and install path). */
export function sameProduct(a: Product, b: Product): boolean {
  return a.version === b.version && a.installPath === b.installPath;
}

/** Whether a file name in the runtime folder is a server record (`<16 hex>.json`). */
export function isRecordFile(name: string): boolean {
  return new RegExp(`^[0-9a-f]{${ID_HEX_DIGITS}}\\.json$`).test(name);
}

/** The identity files of a record file name (for `server status`/`stop --all`, which read records they did not compute). */
export function identityFiles(runtimeDir: string, recordName: string): Pick<ServerIdentity, 'id' | 'socketPath' | 'recordPath' | 'lockPath' | 'logPath'> {
  const id = recordName.replace(/\.json$/, '');
  const file = (ext: string): string => join(runtimeDir, `${id}.${ext}`);
  return { id, socketPath: file('sock'), recordPath: file('json'), lockPath: file('lock'), logPath: file('log') };
}
