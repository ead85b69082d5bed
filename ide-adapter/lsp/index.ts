/**
 * The language-server client layer: positions, server definitions and discovery, one-server
 * clients and per-workspace pools — generic; the built-in languages are `../languages/`. IDE
 * functions build on this API.
 */
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  statusLine,
  LanguageServer,
  LIVENESS_PROBE_METHOD,
  LIVENESS_PROBE_TIMEOUT_MS,
  type Disposable,
  type OpenDocument,
  type PublishedDiagnostics,
  type RequestOptions,
  type ServerHealth,
  type ServerProgress,
  type ServerState,
  type ServerStatus,
  type StartOptions,
} from './client.js';
export {
  clearDiscoveryCache,
  findServerBinary,
  launchCommand,
  probeCandidate,
  resolveCandidate,
  type DiscoveryOptions,
  type ProbeResult,
  type ResolvedBinary,
} from './discovery.js';
export { asDialectError, isLspClientError, LspClientError, type LspErrorCode, type LspErrorDetails } from './errors.js';
export { ServerPool, type PoolOptions } from './pool.js';
/** Positions: the one conversion between Dialect's code-point columns and LSP's encodings. */
export * from './positions.js';
export { RingLog } from './ring-log.js';
export {
  defineServer,
  detectServers,
  exampleServerConfigs,
  languageFor,
  mergeServers,
  withSettings,
  type DetectedServer,
  type KeyedWarning,
  type KnownProblem,
  type LanguageMapping,
  type Readiness,
  type ServerDefinition,
  type ServerPreparation,
} from './servers.js';
export type { CustomServerConfig } from './server-config.js';
export { pathToUri, uriToPath } from './uris.js';
export { restrictServers, untrustedNote, type UntrustedLimits } from './untrusted.js';
