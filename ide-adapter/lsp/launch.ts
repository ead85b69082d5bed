/**
 * Launching one language-server process: the definition's `prepare` step and the server's
 * environment, then a spawn in its own process group with a private temp folder, the JSON-RPC
 * connection wired to its owner (stderr, exit, hang-up, server→client handlers) and the
 * `initialize` handshake. A failed launch leaves no process and no temp folder behind.
 */
import { basename } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  type InitializeParams,
  type InitializeResult,
  type Logger,
} from 'vscode-languageserver-protocol/node';
import { clientCapabilities } from './capabilities.js';
import { killGroup, launchCommand, type ResolvedBinary } from './discovery.js';
import { isLspClientError, LspClientError } from './errors.js';
import { boundMessages, MAX_SERVER_MESSAGE_BYTES } from './memory-bound.js';
import { FramedMessageWriter } from './message-writer.js';
import { installHandlers, type HandlerHost } from './handlers.js';
import { createServerTemp, removePrivateTemp, tempEnvironment } from './private-temp.js';
import { withSettings, type KeyedWarning, type ServerDefinition } from './servers.js';
import { Session, spawnInGroup, type RequestErrors } from './session.js';
import { pathToUri } from './uris.js';
import { TIMEOUTS } from '../timeouts.js';
import { withAbsoluteSearchPath } from '../search-path.js';

/** The name the client gives itself in `initialize`. */
const CLIENT_NAME = 'dialect';

/** Environment given to a server: ours, the definition's, then the caller's (`undefined` removes a variable). */
export function serverEnvironment(definition: ServerDefinition, callerEnv: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(definition.env ?? {}) };
  for (const [key, value] of Object.entries(callerEnv)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // A server runs in the workspace: a relative PATH folder would find the workspace's programs there.
  return withAbsoluteSearchPath(env);
}

/**
 * Applies the definition's `prepare` step for this workspace: its settings are merged into the
 * definition, its environment goes under the caller's (an explicit caller variable wins), its
 * known problems replace the definition's. Returns the definition to launch and its warnings (and
 * those still being found, which never fail).
 */
export async function prepareDefinition(
  definition: ServerDefinition,
  workspaceRoot: string,
  callerEnv: Readonly<Record<string, string | undefined>> = {},
): Promise<{ definition: ServerDefinition; warnings: readonly KeyedWarning[]; laterWarnings?: Promise<readonly KeyedWarning[]> }> {
  if (definition.prepare === undefined) return { definition, warnings: [] };
  const prepared = await definition.prepare(workspaceRoot, serverEnvironment(definition, callerEnv));
  let adjusted = prepared.settings !== undefined ? withSettings(definition, prepared.settings.section, prepared.settings.patch) : definition;
  if (prepared.knownProblems !== undefined) adjusted = { ...adjusted, knownProblems: prepared.knownProblems };
  if (prepared.env !== undefined) adjusted = { ...adjusted, env: { ...(adjusted.env ?? {}), ...prepared.env } };
  if (prepared.args !== undefined) adjusted = { ...adjusted, args: [...adjusted.args, ...prepared.args] };
  const later = prepared.laterWarnings?.catch(() => [] as readonly KeyedWarning[]);
  return { definition: adjusted, warnings: prepared.warnings ?? [], ...(later !== undefined ? { laterWarnings: later } : {}) };
}

/** What a launch needs from the client that owns the server. */
export interface LaunchHost {
  readonly definition: ServerDefinition;
  readonly workspaceRoot: string;
  readonly binary: ResolvedBinary;
  /** The server's environment ({@link serverEnvironment}); the private temp variables go over it. */
  readonly env: NodeJS.ProcessEnv;
  /** Deadline of the `initialize` handshake. */
  readonly initializeTimeoutMs: number;
  /** Aborted when the client shuts down: ends a pending `initialize`. */
  readonly stopSignal: AbortSignal;
  /** The server→client handlers' owner. */
  readonly handlers: HandlerHost;
  /** True once shutdown began. */
  stopping(): boolean;
  /** The typed errors of one message (the request path's). */
  errors(method: string, timeoutMs: number): RequestErrors;
  /** `; stderr ends with: …`, or empty. */
  stderrHint(): string;
  /** Keeps a line of JSON-RPC or connection trouble (the message log). */
  log(line: string): void;
  /** Takes a chunk of the server's stderr. */
  stderr(chunk: string): void;
  /** The client now owns `session` (it stops it on shutdown). */
  track(session: Session): void;
  /** `session` made us hold too much (`reason`): it is killed like a server past its memory bound. */
  overMemory(session: Session, reason: string): void;
  /** `session`'s process ended, or could not start; `reason` says how. */
  exited(session: Session, reason: string): void;
  /** Stops `session` politely, then by signals, within `timeoutMs`. */
  stopSession(session: Session, timeoutMs: number): Promise<void>;
}

/**
 * Spawns generation `generation` of the server and completes `initialize`. Throws `spawn-failed`,
 * `initialize-failed` or `server-stopped` (shut down meanwhile), after stopping the process.
 */
export async function launchSession(generation: number, host: LaunchHost): Promise<{ session: Session; result: InitializeResult }> {
  const { definition, binary } = host;
  const tempDir = await createTempDir(host);
  const env = { ...host.env, ...tempEnvironment(tempDir) };
  const { command, args } = launchCommand(binary.path, definition.args);
  let child;
  try {
    child = spawnInGroup(command, args, host.workspaceRoot, env);
  } catch (error) {
    await removePrivateTemp(tempDir);
    throw new LspClientError('spawn-failed', `${definition.displayName} (${binary.path}) could not be spawned: ${(error as Error).message}`, {
      serverId: definition.id,
      cause: error,
    });
  }
  const logger: Logger = {
    error: (m) => host.log(`[jsonrpc error] ${m}\n`),
    warn: (m) => host.log(`[jsonrpc warn] ${m}\n`),
    info: () => undefined,
    log: () => undefined,
  };
  // Its messages are bounded like its memory: the reader would buffer any length a header claims.
  const messages = boundMessages(child.stdout, MAX_SERVER_MESSAGE_BYTES, (reason) => host.overMemory(session, reason));
  const connection = createProtocolConnection(new StreamMessageReader(messages), new FramedMessageWriter(child.stdin), logger);
  const session = new Session(generation, child, connection, tempDir);
  host.track(session);

  child.stdin.on('error', () => undefined); // EPIPE after a crash: the exit handler reports it.
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => host.stderr(chunk));
  child.on('error', (error) => {
    host.stderr(`[spawn error] ${error.message}\n`);
    session.kill(`could not be started (${error.message})`);
    session.markExited();
    void session.release();
    host.exited(session, `could not be started (${error.message})`);
  });
  child.on('exit', (code, signal) => {
    const reason = signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
    session.kill(reason);
    session.markExited();
    // Helpers still running in the group would keep (and refill) the temp folder.
    void session.release();
    host.exited(session, session.unresponsive ?? reason);
  });
  connection.onClose(() => {
    if (!session.alive) return;
    // A dying server closes stdout just before it exits: give the exit a moment to arrive so
    // the report says how it ended ("exited with code 2") rather than only that it hung up.
    const grace = setTimeout(() => {
      if (!session.alive) return;
      session.kill('closed its connection');
      // A server that closed stdout but lingers is useless: make it exit so recovery starts.
      killGroup(child.pid, 'SIGKILL');
    }, TIMEOUTS.lsp.closeGraceMs);
    grace.unref();
    child.once('exit', () => clearTimeout(grace));
  });
  connection.onError(([error]) => host.log(`[connection error] ${error.message}\n`));
  installHandlers(session, host.handlers);
  connection.listen();

  const timeoutMs = host.initializeTimeoutMs;
  try {
    const result = (await session.send('initialize', initializeParams(host), Date.now() + timeoutMs, host.stopSignal, host.errors('initialize', timeoutMs))) as InitializeResult;
    if (host.stopping()) throw new Error('shut down while starting');
    return { session, result };
  } catch (error) {
    await host.stopSession(session, TIMEOUTS.lsp.failedStartShutdownMs);
    if (host.stopping()) throw new LspClientError('server-stopped', `${definition.displayName} was shut down while starting`, { serverId: definition.id });
    const crashed = isLspClientError(error, 'server-crashed');
    throw new LspClientError(
      crashed ? 'spawn-failed' : 'initialize-failed',
      `${definition.displayName} (${binary.path}) failed to start: ${(error as Error).message}${crashed ? '' : host.stderrHint()}`,
      { serverId: definition.id, cause: error },
    );
  }
}

/** The `initialize` request: one workspace folder, our capabilities, the definition's options. */
function initializeParams(host: LaunchHost): InitializeParams {
  const rootUri = pathToUri(host.workspaceRoot);
  return {
    processId: process.pid,
    clientInfo: { name: CLIENT_NAME },
    locale: 'en',
    rootPath: host.workspaceRoot,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: basename(host.workspaceRoot) }],
    capabilities: clientCapabilities(host.definition),
    initializationOptions: host.definition.initializationOptions ?? null,
  };
}

/** Creates the private temp folder of the next process (see private-temp.ts). */
async function createTempDir(host: LaunchHost): Promise<string> {
  const dir = await createServerTemp(host.definition, host.env);
  if (host.stopping()) {
    await removePrivateTemp(dir);
    throw new LspClientError('server-stopped', `${host.definition.displayName} was shut down while starting`, { serverId: host.definition.id });
  }
  return dir;
}
