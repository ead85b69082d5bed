/**
 * Connect-or-start: the client's way to the background server of its (workspace, trust,
 * environment). A live server of this build is used; a stale one (dead pid, refused connection)
 * is cleaned up; one of another build is stopped and replaced. When none runs, the caller that
 * takes the start lock spawns one and waits for its announcement; a caller that lost the lock
 * retries connecting with a bounded backoff — so two simultaneous first calls start one server.
 */
import { connectRemoteBackend, type RemoteBackend } from '../../ide-adapter/remote/remote-backend.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import { SERVER_TIMEOUTS } from './defaults.js';
import { DialectError } from '../../dialect/outcome.js';
import { BackgroundServerCode } from '../../ide-adapter/server-codes.js';
import { serverIdentity, type ServerIdentity } from './identity.js';
import { lockOwner, releaseLock, tryLock } from './lock.js';
import { isServerProcess, terminateServer } from './process.js';
import { currentProduct, readRecord, removeFile, sameProduct, type Product } from './record.js';
import { ensureRuntimeDir, isOwnSocket } from './runtime-dir.js';

/** What a client connects to. */
export interface ConnectOptions {
  /** The workspace's real path. */
  readonly workspaceRoot: string;
  /** Decided by the client: part of the server's identity. */
  readonly trusted: boolean;
  /** The client's environment: its fingerprint is part of the identity, and a spawned server gets it. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A connection to the background server, and whether this call started it. */
export interface Connected {
  readonly backend: RemoteBackend;
  readonly identity: ServerIdentity;
  readonly started: boolean;
  /** What happened on the way that the user should know: a server found dead, or one of another build replaced. */
  readonly notices: readonly string[];
}

/**
 * Connects to the workspace's background server, starting it when none runs. Throws a
 * {@link DialectError} (`unsafe-runtime-dir`, `server-start-failed`, `server-start-timeout`) when
 * there is no server to use; the caller then answers in-process.
 */
export async function connectOrStart(options: ConnectOptions): Promise<Connected> {
  const identity = serverIdentity(ensureRuntimeDir(options.env), options);
  const product = currentProduct();
  const workspace = new Workspace(options.workspaceRoot);
  const deadline = Date.now() + SERVER_TIMEOUTS.lockWaitMs;
  let delay: number = SERVER_TIMEOUTS.connectRetryFirstMs;
  let started = false;
  const notices: string[] = [];
  for (;;) {
    const retired = await retireUnusable(identity, product);
    if (retired !== undefined) notices.push(retired);
    const backend = await tryConnect(identity, workspace);
    if (backend !== undefined) {
      if (sameProduct(backend.hello.product, product) && backend.hello.trusted === options.trusted) return { backend, identity, started, notices };
      // Another build answers on our socket (its record was missing or lied): replace it.
      await backend.shutdown();
      await terminateServer(backend.hello.pid, SERVER_TIMEOUTS.stopMs);
      cleanUp(identity);
      continue;
    }
    // A live server that did not answer in time (busy, or stopping) never gets a second one beside
    // it: wait for it below, like a caller that lost the lock.
    const recorded = readRecord(identity.recordPath);
    const liveServer = recorded !== undefined && isServerProcess(recorded.pid) ? recorded.pid : undefined;
    if (liveServer === undefined && tryLock(identity.lockPath)) {
      try {
        removeFile(identity.socketPath); // nobody answers on it: stale
        // Loaded only to start one (it loads child_process): a warm call never does.
        const { spawnServer } = await import('./spawn.js');
        await spawnServer({ identity, env: options.env });
        started = true;
      } catch (error) {
        releaseLock(identity.lockPath);
        throw error;
      }
      continue; // the server holds the lock now; connect to it
    }
    // Someone else is starting it (or stopping it): wait for the socket, bounded.
    if (Date.now() >= deadline) {
      throw new DialectError({
        code: BackgroundServerCode.StartTimeout,
        message:
          liveServer !== undefined
            ? `the background server for ${identity.workspaceRoot} (pid ${liveServer}) did not answer within ${SERVER_TIMEOUTS.lockWaitMs} ms`
            : `no background server for ${identity.workspaceRoot} answered within ${SERVER_TIMEOUTS.lockWaitMs} ms, while process ${lockOwner(identity.lockPath) ?? '?'} holds its start lock ${identity.lockPath}`,
        hint: `see the log ${identity.logPath}; dialect server stop --workspace DIR stops it; --no-server answers in-process`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 2, SERVER_TIMEOUTS.connectRetryMaxMs);
  }
}

/** Removes the files of a server that is gone (socket, record, and a lock whose owner is dead). */
export function cleanUp(identity: Pick<ServerIdentity, 'socketPath' | 'recordPath' | 'lockPath'>): void {
  removeFile(identity.socketPath);
  removeFile(identity.recordPath);
  releaseLock(identity.lockPath, -1);
}

/**
 * A recorded server that is dead is cleaned up; one of another build is stopped first. Returns
 * what was done, for the user, or undefined when the record is fine (or missing).
 */
async function retireUnusable(identity: ServerIdentity, product: Product): Promise<string | undefined> {
  const record = readRecord(identity.recordPath);
  if (record === undefined) return undefined;
  if (!isServerProcess(record.pid)) {
    cleanUp(identity);
    return `the background server of this workspace (pid ${record.pid}) had stopped without cleaning up (killed or crashed; its log: ${identity.logPath}); a new one was started`;
  }
  if (!sameProduct(record.product, product)) {
    await terminateServer(record.pid, SERVER_TIMEOUTS.stopMs);
    cleanUp(identity);
    return `the background server of this workspace (pid ${record.pid}) ran another build (${record.product.version} at ${record.product.installPath}); it was replaced`;
  }
  return undefined;
}

/** Connects when a socket of ours is there and a server answers on it; undefined otherwise. */
async function tryConnect(identity: ServerIdentity, workspace: Workspace): Promise<RemoteBackend | undefined> {
  if (!isOwnSocket(identity.socketPath)) return undefined;
  try {
    return await connectRemoteBackend(identity.socketPath, workspace, { timeoutMs: SERVER_TIMEOUTS.connectMs });
  } catch {
    return undefined; // refused (stale), or the server is going away
  }
}
