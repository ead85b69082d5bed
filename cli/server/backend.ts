/**
 * The one place a command gets its backend: an editor window that has the workspace open (the
 * VS Code extension, found by `DIALECT_IDE` or its discovery record), else the workspace's
 * background server (connect or start), either wrapped in a {@link FailoverBackend}; or, with
 * `--no-server`/`DIALECT_NO_SERVER=1` or when no server can be used, an in-process `LspBackend`
 * exactly as before — with a notice saying why.
 */
import type { IdeBackend } from '../../ide-adapter/backend.js';
import type { ConfiguredServers } from '../../ide-adapter/session.js';
import { TIMEOUTS } from '../../ide-adapter/timeouts.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import { noServerRequested } from './defaults.js';
import { FailoverBackend } from './failover.js';

/** How a command opens its backend. */
export interface OpenBackendOptions {
  /** The workspace's real path. */
  readonly workspaceRoot: string;
  /** Trust and servers, as the client decided them (`configuredServers`). */
  readonly configured: ConfiguredServers;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--no-server`: in-process. */
  readonly noServer?: boolean;
  /** How long a call that fails over waits for the in-process servers to index. */
  readonly readyTimeoutMs?: number;
}

/** A backend and how it came about. */
export interface OpenedBackend {
  readonly backend: IdeBackend;
  /** `editor`: an editor window's own language features; `server`: through the background server; `in-process`: our own language servers. */
  readonly mode: 'editor' | 'server' | 'in-process';
  /** Why the background server is not used, or what was repaired to use it (shown as a note). */
  readonly notice?: string;
}

/**
 * An in-process backend, opened as every command opened it before the background server existed.
 * The LSP client is imported here, when it is needed: a call the background server answers never
 * loads it (nor the LSP protocol package).
 */
export async function inProcessBackend(workspaceRoot: string, configured: ConfiguredServers): Promise<IdeBackend> {
  const { LspBackend } = await import('../../ide-adapter/lsp-backend.js');
  return new LspBackend(new Workspace(workspaceRoot), configured);
}

/**
 * The backend of a command whose program asks no language server: an in-process one made only if
 * a call needs a server after all (`DeferredBackend`), so such a command never loads the LSP client.
 */
export async function serverFreeBackend(workspaceRoot: string, configured: ConfiguredServers): Promise<IdeBackend> {
  const [{ DeferredBackend }, { serverDefinitions }] = await Promise.all([import('../../ide-adapter/deferred-backend.js'), import('../../ide-adapter/languages/index.js')]);
  return new DeferredBackend(new Workspace(workspaceRoot), () => serverDefinitions(configured.definitions, configured.trusted), () => inProcessBackend(workspaceRoot, configured));
}

/** Opens the backend of a command (see the module comment). Never throws for a server that cannot be used. */
export async function openBackend(options: OpenBackendOptions): Promise<OpenedBackend> {
  const local = (): Promise<IdeBackend> => inProcessBackend(options.workspaceRoot, options.configured);
  if (options.noServer === true || noServerRequested(options.env)) return { backend: await local(), mode: 'in-process' };
  const readyTimeoutMs = options.readyTimeoutMs ?? TIMEOUTS.session.readyWaitMs;
  // The editor the workspace is open in answers first: its servers are indexed, with the user's settings.
  const { connectEditor } = await import('../../ide-adapter/editors/connect.js');
  const passedOver: string[] = [];
  const editor = await connectEditor(new Workspace(options.workspaceRoot), options.env, undefined, (why) => passedOver.push(why));
  // Said once: the window that has the folder open but cannot answer (its browser tab closed).
  const unanswered = passedOver.length > 0 ? `${passedOver.join('; ')}, so Dialect's own language servers answer` : undefined;
  if (editor !== undefined) {
    return {
      backend: new FailoverBackend(editor.backend, { local, readyTimeoutMs, answeredBy: 'vscode' }),
      mode: 'editor',
      notice: `answered by VS Code (${editor.editor ?? 'the window named by DIALECT_IDE'}, which has this folder open)`,
    };
  }
  try {
    // Loaded here, not at start-up: a program that asks no language server needs no background server.
    const { connectOrStart } = await import('./connect.js');
    const { backend, notices } = await connectOrStart({ workspaceRoot: options.workspaceRoot, trusted: options.configured.trusted, env: options.env });
    const said = [...(unanswered !== undefined ? [unanswered] : []), ...notices];
    return {
      backend: new FailoverBackend(backend, { local, readyTimeoutMs }),
      mode: 'server',
      ...(said.length > 0 ? { notice: said.join('; ') } : {}),
    };
  } catch (error) {
    const hint = (error as { hint?: unknown }).hint;
    const why = `${(error as Error).message}${typeof hint === 'string' ? ` (${hint})` : ''}`;
    return { backend: await local(), mode: 'in-process', notice: `${unanswered !== undefined ? `${unanswered}; ` : ''}the background server could not be used, so this answer was computed in-process: ${why}` };
  }
}
