/**
 * The start lock (`<id>.lock`): created with O_EXCL, holding the pid of its owner. The caller
 * that creates it starts the server; the server takes it over once it listens and removes it when
 * it stops. A lock whose pid is dead is stale and is removed, so a crash never blocks a workspace.
 */
import { linkSync, readFileSync, renameSync, statSync } from 'node:fs';
import { SafeWriteError, WriteCode, writeFileSafelySync } from '../../ide-adapter/safe-write.js';
import { isAlive, PRIVATE_FILE_MODE, removeFile } from './record.js';

/** A lock file without a pid this old was left by a writer that died between creating and writing it. */
const EMPTY_LOCK_STALE_MS = 2_000;

/** The pid a lock file holds, or undefined when it is missing or unreadable. */
export function lockOwner(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock for this process; true when taken. A stale lock (a dead pid, or no pid long after
 * it was created) is removed first.
 */
export function tryLock(path: string, pid: number = process.pid): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // Created whole (never empty) and only where nothing is: the first caller wins.
      writeFileSafelySync(path, `${pid}\n`, { replace: { kind: 'never' }, mode: PRIVATE_FILE_MODE });
      return true;
    } catch (error) {
      if (!(error instanceof SafeWriteError && error.code === WriteCode.RefusedExisting)) throw error;
      const owner = lockOwner(path);
      if (owner !== undefined && isAlive(owner)) return false;
      if (owner === undefined && !emptyLockIsStale(path)) return false; // being written right now; the caller retries
      removeStale(path, owner);
    }
  }
  return false;
}

/** Hands the lock to `pid` (the server, once it listens): rewritten atomically. */
export function takeOverLock(path: string, pid: number = process.pid): void {
  writeFileSafelySync(path, `${pid}\n`, { replace: { kind: 'private' }, mode: PRIVATE_FILE_MODE });
}

/** Removes the lock if `pid` holds it (or nobody alive does). */
export function releaseLock(path: string, pid: number = process.pid): void {
  const owner = lockOwner(path);
  if (owner === pid || owner === undefined || !isAlive(owner)) removeFile(path);
}

/**
 * Removes a stale lock without removing a fresh one another caller made meanwhile: the file is
 * moved aside (only one mover wins), and put back when it turns out not to be the stale one.
 */
function removeStale(path: string, staleOwner: number | undefined): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another caller removed it first
  }
  const moved = lockOwner(aside);
  if (moved !== staleOwner && moved !== undefined && isAlive(moved)) {
    try {
      linkSync(aside, path); // atomic, and never over a lock made in between
    } catch {
      // a newer lock is there already
    }
  }
  removeFile(aside);
}

function emptyLockIsStale(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_STALE_MS;
  } catch {
    return true; // gone already
  }
}
