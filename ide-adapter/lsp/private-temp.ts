/**
 * A private temp folder per spawned server process.
 *
 * Servers and their helpers write temp files they do not always remove: rust-analyzer's
 * proc-macro server leaves a `proc-macro-srv*` folder in the temp dir even after a clean
 * shutdown, and nothing cleans up after a killed process. Pointing TMPDIR/TEMP/TMP at a folder we
 * create before the spawn and delete after the process group is gone cleans up after any server,
 * whatever it leaves and however it ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspClientError } from './errors.js';

/** Variables that name the temp dir for Unix tools, Rust/Go/Node (TMPDIR) and Windows (TEMP, TMP). */
const TEMP_VARIABLES = ['TMPDIR', 'TEMP', 'TMP'] as const;
/** Retries of the removal, for helpers still dying (ENOTEMPTY/EBUSY while they exit). */
const REMOVE_RETRIES = 5;
/** Delay between removal retries (Node grows it linearly per try). */
const REMOVE_RETRY_DELAY_MS = 50;

/** Where private folders are made: the temp dir the server would have used, else ours. */
export function tempParent(env: Readonly<Record<string, string | undefined>>): string {
  for (const name of TEMP_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return tmpdir();
}

/**
 * Creates `dialect-<serverId>-XXXXXX` under `parent`; throws the file-system error if it cannot.
 * Synchronous (one `mkdir` in the user's temp folder, not the workspace): a start goes from the
 * server's checks to its spawn without yielding to the other work of a start.
 */
function createPrivateTemp(serverId: string, parent: string): string {
  return mkdtempSync(join(parent, `dialect-${serverId.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
}

/** The environment entries that point a process at `dir` as its temp dir. */
export function tempEnvironment(dir: string): Record<(typeof TEMP_VARIABLES)[number], string> {
  return { TMPDIR: dir, TEMP: dir, TMP: dir };
}

/** Deletes a private temp folder and everything in it; never throws (a leftover is not worth a failure). */
export async function removePrivateTemp(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: REMOVE_RETRIES, retryDelay: REMOVE_RETRY_DELAY_MS }).catch(() => undefined);
}

/** Synchronous {@link removePrivateTemp}, for the process `exit` hook where nothing async runs. */
export function removePrivateTempSync(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort while our own process is exiting.
  }
}

/**
 * Creates the private temp folder of a server's next process in the temp dir `env` names; throws
 * `spawn-failed` (saying how to fix it) when that folder is not writable.
 */
export async function createServerTemp(server: { readonly id: string; readonly displayName: string }, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const parent = tempParent(env);
  try {
    return createPrivateTemp(server.id, parent);
  } catch (error) {
    throw new LspClientError(
      'spawn-failed',
      `${server.displayName} was not started: cannot create its temp folder in ${parent} (${(error as Error).message}); make ${parent} writable or point TMPDIR at a writable folder`,
      { serverId: server.id, cause: error },
    );
  }
}
