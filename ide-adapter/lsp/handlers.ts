/**
 * The server→client side of one session: answers to the requests a server sends
 * (`workspace/configuration`, capability registration for file watching, `window/*`, refreshes)
 * and routing of its notifications (`$/progress`, rust-analyzer's `experimental/serverStatus`,
 * logs, messages, `textDocument/publishDiagnostics`) to the client that owns the session.
 */
import { basename } from 'node:path';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { lookupSetting } from './capabilities.js';
import type { FileWatchRegistry } from './file-watch.js';
import { isRequestToken } from './request-progress.js';
import type { ServerDefinition } from './servers.js';
import type { Session } from './session.js';
import { pathToUri } from './uris.js';

/** The diagnostics a server last published for one document (`textDocument/publishDiagnostics`). */
export interface PublishedDiagnostics {
  readonly uri: string;
  /** The document version they are for, when the server says. */
  readonly version?: number;
  readonly diagnostics: readonly LspDiagnostic[];
}

/** rust-analyzer's `experimental/serverStatus` parameters. */
export interface ServerStatusParams {
  readonly health?: string;
  readonly quiescent?: boolean;
  readonly message?: string | null;
}

/** What the handlers need from the client that owns the session. */
export interface HandlerHost {
  readonly definition: ServerDefinition;
  readonly workspaceRoot: string;
  /** The registry of the server's file watchers (fed by `client/registerCapability`). */
  readonly fileWatch: FileWatchRegistry;
  /** Whether `session` is the client's current process (stale processes are ignored). */
  isCurrent(session: Session): boolean;
  /** Whether `session` belongs to the latest launch, even before it finished initializing. */
  isLatestLaunch(session: Session): boolean;
  /** Appends to the bounded log of `window/*` traffic. */
  log(line: string): void;
  /** Matches text against the definition's known problems; true if one matched. */
  checkKnownProblems(text: string): boolean;
  /** Adds a one-time warning. */
  addWarning(key: string, warning: string): void;
  /** A `$/progress` notification. */
  onProgress(token: string | number | undefined, value: unknown): void;
  /** An `experimental/serverStatus` notification of the current process. */
  onServerStatus(params: ServerStatusParams): void;
  /** A `textDocument/publishDiagnostics` notification of the current process. */
  onDiagnostics(published: PublishedDiagnostics): void;
  /** A `window/logMessage` of the latest launch (read by its warm-up, `warm-up.ts`). */
  onLog(message: string): void;
}

/** Views whose `workspace/<view>/refresh` requests are acknowledged (we hold none of them). */
const REFRESHED_VIEWS = ['semanticTokens', 'inlayHint', 'inlineValue', 'codeLens', 'diagnostic', 'foldingRange', 'textDocumentContent'] as const;
/** `MessageType.Error` of `window/showMessage`. */
const MESSAGE_TYPE_ERROR = 1;

/** Installs every server→client handler on `session`'s connection (before it listens). */
export function installHandlers(session: Session, host: HandlerHost): void {
  const { connection } = session;
  const folders = () => [{ uri: pathToUri(host.workspaceRoot), name: basename(host.workspaceRoot) }];
  connection.onRequest('workspace/configuration', (params: { items?: { section?: string }[] }) =>
    (params.items ?? []).map((item) => lookupSetting(host.definition.settings, item.section)),
  );
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', (params: { registrations?: { id: string; method: string; registerOptions?: unknown }[] }) => {
    for (const registration of params.registrations ?? []) {
      if (registration.method === 'workspace/didChangeWatchedFiles' && host.isLatestLaunch(session)) {
        host.fileWatch.register(registration.id, registration.registerOptions);
      }
    }
    return null;
  });
  connection.onRequest('client/unregisterCapability', (params: { unregisterations?: { id: string }[]; unregistrations?: { id: string }[] }) => {
    for (const { id } of params.unregisterations ?? params.unregistrations ?? []) host.fileWatch.unregister(id);
    return null;
  });
  connection.onRequest('workspace/workspaceFolders', () => folders());
  connection.onRequest('window/showMessageRequest', (params: { message?: string }) => {
    host.log(`[showMessageRequest] ${params.message ?? ''}\n`);
    return null;
  });
  connection.onRequest('window/showDocument', () => ({ success: false }));
  connection.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'Dialect does not apply server edits' }));
  // Refresh requests ask the client to re-pull views we do not have: acknowledge them. Anything
  // else unknown gets jsonrpc's MethodNotFound.
  for (const view of REFRESHED_VIEWS) {
    connection.onRequest(`workspace/${view}/refresh`, () => null);
  }
  connection.onNotification('$/progress', (params: { token?: string | number; value?: unknown }) => {
    // A request's own progress (on a token of ours) is not the server's work.
    if (isRequestToken(params.token)) return;
    // Progress during `initialize` belongs to the launch in flight.
    if (host.isCurrent(session) || !session.initialized) host.onProgress(params.token, params.value);
  });
  connection.onNotification('experimental/serverStatus', (params: ServerStatusParams) => {
    if (host.isCurrent(session)) host.onServerStatus(params);
  });
  connection.onNotification('window/logMessage', (params: { type?: number; message?: string }) => {
    host.log(`[log ${params.type ?? '?'}] ${params.message ?? ''}\n`);
    if (typeof params.message === 'string' && host.isLatestLaunch(session)) host.onLog(params.message);
  });
  connection.onNotification('window/showMessage', (params: { type?: number; message?: string }) => {
    const message = params.message ?? '';
    host.log(`[show ${params.type ?? '?'}] ${message}\n`);
    host.checkKnownProblems(message);
    const first = message.split('\n')[0] ?? '';
    if (params.type === MESSAGE_TYPE_ERROR) host.addWarning(`show:${first}`, `${host.definition.displayName}: ${first}`);
  });
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri?: string; version?: number; diagnostics?: LspDiagnostic[] }) => {
    if (!host.isCurrent(session) || typeof params.uri !== 'string') return;
    host.onDiagnostics({ uri: params.uri, ...(typeof params.version === 'number' ? { version: params.version } : {}), diagnostics: params.diagnostics ?? [] });
  });
  connection.onNotification('telemetry/event', () => undefined);
}
