/**
 * Finds the editor window that has a workspace open and connects to the backend it serves (the
 * Dialect extension for VS Code, see vscode/): first the socket `DIALECT_IDE` names (set in the
 * window's integrated terminals), then the discovery records of the user's private runtime folder
 * for every window whose folder is the workspace or contains it, the deepest first (see
 * choice.ts). A window on a containing folder is asked through `SubfolderBackend`, which
 * translates the paths. A window that does not answer, or serves a folder that does not contain
 * the workspace, is passed over; none answering is `undefined` and the caller uses its own servers.
 * A window answers its handshake only when its workbench does (the extension probes it, bounded:
 * a code-server window whose browser tab closed keeps its extension host for hours, and would
 * hang every call). A record whose process is gone or whose socket refuses connections is stale
 * (the editor was killed): it is removed, with its socket when that lies in the private folder.
 */
import { createConnection } from 'node:net';
import type { IdeBackend } from '../backend.js';
import { RemoteCode } from '../remote/codes.js';
import { connectRemoteBackend } from '../remote/remote-backend.js';
import type { Workspace } from '../workspace.js';
import { editorCandidates, removeStale } from './candidates.js';
import { discoveryDirPath } from './discovery.js';
import { SubfolderBackend } from './subfolder.js';

export { DIALECT_IDE_ENV, editorCandidates } from './candidates.js';

/** How long one window may take to answer the handshake before the next is tried (it probes its workbench for up to 3 s first). */
export const EDITOR_CONNECT_TIMEOUT_MS = 5_000;

/** A connection to an editor window's backend. */
export interface EditorConnection {
  /** The window's backend, in the workspace's paths (translated when the window's folder contains the workspace). */
  readonly backend: IdeBackend;
  /** The socket it answers on. */
  readonly socket: string;
  /** The editor, as its record names it (`code-server 1.139.1`), when a record led to it. */
  readonly editor?: string;
}

/** How long probing a socket that did not answer its handshake for "nobody listens" may take. */
const REFUSED_PROBE_MS = 500;

/** Whether nobody listens on a socket (connection refused, or no socket file): its record is stale. */
function refuses(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(socket);
    const finish = (refused: boolean): void => {
      clearTimeout(timer);
      probe.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => finish(false), REFUSED_PROBE_MS);
    probe.once('connect', () => finish(false));
    probe.once('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' || error.code === 'ENOENT'));
  });
}

/**
 * Connects to the first editor window that serves `workspace` or a folder containing it;
 * undefined when none answers. `passedOver` hears, once per window, why a window that has the
 * folder open was not used (its workbench did not answer, …), for the caller's one notice.
 */
export async function connectEditor(
  workspace: Workspace,
  env: Readonly<Record<string, string | undefined>> = process.env,
  timeoutMs: number = EDITOR_CONNECT_TIMEOUT_MS,
  passedOver?: (why: string) => void,
): Promise<EditorConnection | undefined> {
  const dir = discoveryDirPath(env);
  for (const candidate of editorCandidates(workspace, env)) {
    try {
      const remote = await connectRemoteBackend(candidate.socket, workspace, { timeoutMs, containing: true });
      const backend = remote.workspace.root === workspace.root ? remote : new SubfolderBackend(workspace, remote);
      return { backend, socket: candidate.socket, ...(candidate.editor !== undefined ? { editor: candidate.editor } : {}) };
    } catch (error) {
      // Gone, refused, another folder or another protocol: the next window, or our own servers.
      if (candidate.record !== undefined && (await refuses(candidate.socket))) {
        removeStale(dir, candidate.record);
        continue;
      }
      if ((error as { code?: unknown }).code === RemoteCode.ProtocolMismatch) continue; // another folder or another build: not this folder's window
      passedOver?.(`${candidate.editor ?? 'the window named by DIALECT_IDE'} has this folder open but did not answer: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
  }
  return undefined;
}
