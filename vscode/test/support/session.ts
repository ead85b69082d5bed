/**
 * A Dialect session answered by VS Code: a fresh copy of a fixture opened in a real code-server
 * (see rig.ts), and a `RemoteBackend` connected to the socket the Dialect extension advertises for
 * it — the same client a `dialect` process outside the editor uses.
 */
import { connectRemoteBackend } from '../../../ide-adapter/remote/remote-backend.js';
import { IdeSession } from '../../../ide-adapter/session.js';
import { fixtureSession, type FixtureSession } from '../../../ide-adapter/test/support/session.js';
import { copyFixture } from '../../../ide-adapter/test/support/servers.js';
import { Workspace } from '../../../ide-adapter/workspace.js';
import { openVsCode, type OpenOptions, type RigPaths, type VsCodeWindow } from './rig.js';

/** How long a session waits for VS Code's language features to load the fixture. */
const READY_TIMEOUT_MS = 90_000;
/** The connection's handshake deadline. */
const CONNECT_TIMEOUT_MS = 10_000;

/** A fixture session whose answers come from VS Code, with the window it runs in. */
export interface VsCodeFixtureSession extends FixtureSession {
  readonly window: VsCodeWindow;
}

/** Opens a copy of `fixture` (changed by `prepare` first) in VS Code (with `options`) and a session asking it. */
export async function openVsCodeSession(rig: RigPaths, fixture: string, prepare?: (root: string) => Promise<void>, options: OpenOptions = {}): Promise<VsCodeFixtureSession> {
  const copy = await copyFixture(fixture);
  let window: VsCodeWindow | undefined;
  try {
    await prepare?.(copy.root);
    window = await openVsCode(rig, copy.root, options);
    const workspace = new Workspace(copy.root);
    const backend = await connectRemoteBackend(window.record.socket, workspace, { timeoutMs: CONNECT_TIMEOUT_MS });
    const session = await IdeSession.open({ workspaceRoot: workspace.root, backend, readyTimeoutMs: READY_TIMEOUT_MS });
    await session.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    const opened = window;
    return { ...fixtureSession(session, workspace.root, async () => {
      await opened.close();
      await copy.dispose();
    }), window: opened };
  } catch (error) {
    await window?.close();
    await copy.dispose();
    throw error;
  }
}
