/**
 * The background server's process, seen from another process: is a recorded pid still our server
 * (not a recycled pid of something else), and stopping it with a bounded ladder.
 */
import { readFileSync } from 'node:fs';
import { isAlive } from './record.js';

/** First delay between checks whether a stopped process is gone; doubled up to the maximum. */
const EXIT_POLL_FIRST_MS = 10;
const EXIT_POLL_MAX_MS = 200;

/**
 * Whether `pid` is alive and is a `dialect server run` process. Where /proc is readable, the
 * command line decides, so a pid recycled by an unrelated process is never signalled.
 */
export function isServerProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true; // no /proc (macOS) or not ours to read: trust the record
  }
  return cmdline.split('\0').join(' ').includes(' server run ');
}

/**
 * Waits until `pid` has exited, up to `timeoutMs`; true when it has. Bounded polling: a process
 * that is not our child announces its exit to nobody.
 */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let delay = EXIT_POLL_FIRST_MS;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 2, EXIT_POLL_MAX_MS);
  }
  return true;
}

/** SIGTERM (the server shuts its language servers down), then SIGKILL to its process group after `timeoutMs`. */
export async function terminateServer(pid: number, timeoutMs: number): Promise<void> {
  if (!isServerProcess(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  if (await waitForExit(pid, timeoutMs)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
  await waitForExit(pid, timeoutMs);
}
