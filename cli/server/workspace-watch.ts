/**
 * A background server lives as long as its workspace folder: a folder deleted (or replaced by
 * another folder at the same path — a new checkout, a `git worktree` recreated) leaves the server
 * answering for files that are gone while its language servers hold hundreds of megabytes. One
 * `stat` per interval (cheap, bounded, no watcher on a folder that may hold millions of files)
 * compares the folder's device and inode with the ones it had when the server started.
 */
import { statSync, type Stats } from 'node:fs';

/** Why the workspace folder no longer is the server's. */
export type WorkspaceChange = 'workspace-gone' | 'workspace-replaced';

/** The folder's identity on disk, or undefined when it is gone or no folder. */
function folderIdentity(root: string): Pick<Stats, 'dev' | 'ino'> | undefined {
  try {
    const stat = statSync(root);
    return stat.isDirectory() ? { dev: stat.dev, ino: stat.ino } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `onChange` once when `root` is gone or is another folder than now; checks every
 * `intervalMs` (the timer does not keep the process alive). Returns the function that stops checking.
 */
export function watchWorkspaceFolder(root: string, intervalMs: number, onChange: (change: WorkspaceChange) => void): () => void {
  const original = folderIdentity(root);
  const timer = setInterval(() => {
    const now = folderIdentity(root);
    const change: WorkspaceChange | undefined = now === undefined ? 'workspace-gone' : original === undefined || now.dev !== original.dev || now.ino !== original.ino ? 'workspace-replaced' : undefined;
    if (change === undefined) return;
    clearInterval(timer);
    onChange(change);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
