/**
 * The IDE adapter: IDE functions for the Dialect language over real language servers.
 */
export type {
  BackendCallOptions,
  BackendMiddleware,
  BackendRequest,
  BackendSymbol,
  CallEdge,
  CallItem,
  Completeness,
  HoverInfo,
  IdeBackend,
  OutlineSymbol,
  ReadyOptions,
  ReferenceList,
  ReferenceOptions,
  ServerHealth,
  ServerProgress,
  ServerState,
  ServerStatus,
} from './backend.js';
export { degradedReason, displayState, isIncomplete, SETTLED_STATES, statusLine, type DisplayState } from './status.js';
export { incompleteMarker, indexingOf, type IndexingState } from './indexing.js';
export { capAnswer, LIST_BUDGET, MAX_ANSWER_CHARS, nextPageProgram } from './paging.js';
export { CapabilityCode, noEditor, SelectionCode, unsupportedByServer, type BackendKind, type DiagnosticReport, type TypeItem } from './backend.js';
export { IDE_CODE_DOCS, type IdeCode } from './codes.js';
export { mcpReadyWaitMs, TIMEOUTS } from './timeouts.js';
export { packageFile, packageVersion } from './package-files.js';
export { createIdeRegistry, type IdeHost } from './functions/index.js';
export { readSelection } from './functions/selection.js';
export { gitDiff, parseUnifiedDiff, type GitDiffOptions } from './git.js';
export { LspBackend, type LspBackendOptions } from './lsp-backend.js';
export * from './model.js';
export { searchWorkspace, walkFiles, type SearchOptions, type SearchResult } from './search.js';
export { ignoreRulesFor, isIgnored } from './walk.js';
export { isInside } from './confine.js';
export { configuredServers, IdeSession, type ConfiguredServers, type ConfiguredSessionOptions, type IdeSessionOptions, type SessionAnswer, type SessionEvaluateOptions } from './session.js';
export { Workspace, WorkspaceCode } from './workspace.js';
export { presentOutcome, presentValue, type PresentOptions } from './present.js';
export { CONFIG_FILE, loadWorkspaceConfig, type WorkspaceConfig } from './config.js';
export { isTrusted, listTrusted, trustedBy, trustFolder, trustStorePath, untrustFolder, TrustCode } from './trust.js';
export { trustCommand } from './trust.js';
export { PROTOCOL_VERSION, RemoteMethod, RemoteNotification, type RemoteMethodName } from './remote/methods.js';
export type { HelloInfo, LanguageInfo, ServerInfo } from './remote/protocol.js';
export { RemoteCode } from './remote/errors.js';
export { BackgroundServerCode } from './server-codes.js';
export { serveBackend, type ServeOptions } from './remote/serve.js';
export { connectRemoteBackend, RemoteBackend, type RemoteCloseListener, type RemoteConnectOptions } from './remote/remote-backend.js';
export { socketConnection } from './remote/transport.js';
export { connectEditor, DIALECT_IDE_ENV, editorCandidates, type EditorConnection } from './editors/connect.js';
