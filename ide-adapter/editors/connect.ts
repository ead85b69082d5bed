/**
 * Finds the editor window that has a workspace open and connects to the backend it serves (the
 * Dialect extension for VS Code, see vscode/): first the socket `DIALECT_IDE` names (set in the
 * window's integrated terminals), then the discovery records of the user's private runtime folder
 * for every window whose folder is the workspace or contains it, the deepest first (see
 * choice.ts). A window on a containing folder is asked through `SubfolderBackend`, which
 * translates the paths. A window that does not answer, or serves a folder that does not contain
 * the workspace, is passed over; none answering is `undefined` and the caller uses its own servers.
 */
import { existsSync } from 'node:fs';
import type { IdeBackend } from '../backend.js';
import { connectRemoteBackend } from '../remote/remote-backend.js';
import type { Workspace } from '../workspace.js';
import { containingRecords } from './choice.js';
import { discoveryDirPath, readRecords, unsafeFolder } from './discovery.js';
import { SubfolderBackend } from './subfolder.js';

/** The variable naming the editor's socket (the extension sets it in its terminals); `off` turns editors off. */
export const DIALECT_IDE_ENV = 'DIALECT_IDE';
/** The value of {@link DIALECT_IDE_ENV} that keeps `dialect` from asking any editor. */
const EDITORS_OFF = 'off';

/** How long one window may take to answer the handshake before the next is tried. */
export const EDITOR_CONNECT_TIMEOUT_MS = 3_000;

/** A connection to an editor window's backend. */
export interface EditorConnection {
  /** The window's backend, in the workspace's paths (translated when the window's folder contains the workspace). */
  readonly backend: IdeBackend;
  /** The socket it answers on. */
  readonly socket: string;
  /** The editor, as its record names it (`code-server 1.139.1`), when a record led to it. */
  readonly editor?: string;
}

/** Whether a process exists (a record of a window that is gone is skipped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The sockets to try for a workspace, in order, with the editor each record names. */
export function editorCandidates(workspace: Workspace, env: Readonly<Record<string, string | undefined>> = process.env): { socket: string; editor?: string }[] {
  const named = env[DIALECT_IDE_ENV];
  if (named === EDITORS_OFF) return [];
  const candidates: { socket: string; editor?: string }[] = [];
  if (named !== undefined && named !== '') candidates.push({ socket: named });
  const dir = discoveryDirPath(env);
  // Records are read only from a private folder: anyone who could write there could pose as the editor.
  if (existsSync(dir) && unsafeFolder(dir) === undefined) {
    for (const record of containingRecords(readRecords(dir), workspace.root)) {
      if (!alive(record.pid) || candidates.some((c) => c.socket === record.socket)) continue;
      candidates.push({ socket: record.socket, editor: record.editor });
    }
  }
  return candidates;
}

/** Connects to the first editor window that serves `workspace` or a folder containing it; undefined when none answers. */
export async function connectEditor(workspace: Workspace, env: Readonly<Record<string, string | undefined>> = process.env, timeoutMs: number = EDITOR_CONNECT_TIMEOUT_MS): Promise<EditorConnection | undefined> {
  for (const candidate of editorCandidates(workspace, env)) {
    try {
      const remote = await connectRemoteBackend(candidate.socket, workspace, { timeoutMs, containing: true });
      const backend = remote.workspace.root === workspace.root ? remote : new SubfolderBackend(workspace, remote);
      return { backend, ...candidate };
    } catch {
      // Gone, refused, another folder or another protocol: the next window, or our own servers.
    }
  }
  return undefined;
}
