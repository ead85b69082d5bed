/**
 * Where `present_walkthrough` writes pages when the server is not given a folder. The pages are
 * what the user opens — from the agent's answer, possibly after the server has exited — so they
 * are not deleted when it exits. Instead every server of a user shares one folder,
 * `$XDG_CACHE_HOME/dialect/walkthroughs` (default `~/.cache/dialect/walkthroughs`), private to
 * the user, where pages older than {@link PAGE_RETENTION_MS} are removed when a server first
 * writes there; before, every server run left a new temporary folder behind.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** How long a page is kept: a week, long enough to come back to a conversation. */
export const PAGE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Only files named like our pages are ever removed (`walkthrough-….html`). */
const PAGE_NAME = /^walkthrough(-[a-z0-9-]+)?\.html$/;

/** `$XDG_CACHE_HOME/dialect/walkthroughs`, or `~/.cache/dialect/walkthroughs`. */
export function defaultPagesFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const cache = env['XDG_CACHE_HOME'];
  return join(cache !== undefined && cache !== '' ? cache : join(homedir(), '.cache'), 'dialect', 'walkthroughs');
}

/** Creates the folder (private to the user) and removes the pages in it older than `retentionMs`. */
export async function preparePagesFolder(dir: string, retentionMs: number = PAGE_RETENTION_MS, now: number = Date.now()): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const name of await readdir(dir)) {
    if (!PAGE_NAME.test(name)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && info.isFile() && now - info.mtimeMs > retentionMs) await rm(path, { force: true });
  }
  return dir;
}
