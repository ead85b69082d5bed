/**
 * Typed errors of the language-server client layer. Every failure a caller can act on carries a
 * stable `code`, so callers branch on codes rather than on message text.
 */
import { DialectError } from '../../dialect/outcome.js';

/** Stable error codes; treat them as part of the API. */
export type LspErrorCode =
  /** No candidate binary of a server answered `--version`; the message names the install command. */
  | 'server-not-found'
  /** The variable that overrides a server's binary (`DIALECT_RUST_ANALYZER`) names a missing or broken program. */
  | 'server-misconfigured'
  /** The server was deliberately not started here (e.g. an untrusted workspace's config could make it run programs). */
  | 'server-refused'
  /** The server process could not be spawned or died before `initialize` completed. */
  | 'spawn-failed'
  /** The `initialize` handshake failed or timed out. */
  | 'initialize-failed'
  /** A request got no answer within its deadline; the message names the method and what the server was doing. */
  | 'request-timeout'
  /**
   * A request timed out and the server did not answer a liveness probe either: it was killed and
   * is being restarted (the message says so; `hint`: ask again).
   */
  | 'server-unresponsive'
  /** The server passed its memory bound (`memory-bound.ts`) and was killed; it is being restarted. */
  | 'server-memory-exceeded'
  /** The caller's AbortSignal fired. */
  | 'request-cancelled'
  /** The server answered with an error response (`lspCode` holds the JSON-RPC code). */
  | 'request-failed'
  /** The server process died and could not be brought back (or died again on the retried request). */
  | 'server-crashed'
  /** The server was shut down by the client. */
  | 'server-stopped'
  /** No configured server handles a file's extension. */
  | 'no-server-for-file'
  /** A document could not be read from disk. */
  | 'document-unreadable';

/** Extra, optional facts attached to an {@link LspClientError}. */
export interface LspErrorDetails {
  readonly serverId?: string;
  readonly method?: string;
  /** JSON-RPC error code of a `request-failed` error. */
  readonly lspCode?: number;
  /** How to go on, when there is more to say than the message (e.g. "ask again"). */
  readonly hint?: string;
  readonly cause?: unknown;
}

/** The one error class this layer throws. */
export class LspClientError extends Error {
  override readonly name = 'LspClientError';
  readonly code: LspErrorCode;
  readonly serverId: string | undefined;
  readonly method: string | undefined;
  readonly lspCode: number | undefined;
  readonly hint: string | undefined;

  constructor(code: LspErrorCode, message: string, details: LspErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.serverId = details.serverId;
    this.method = details.method;
    this.lspCode = details.lspCode;
    this.hint = details.hint;
  }
}

/** True when `error` is an {@link LspClientError}, optionally with one of the given codes. */
export function isLspClientError(error: unknown, ...codes: LspErrorCode[]): error is LspClientError {
  return error instanceof LspClientError && (codes.length === 0 || codes.includes(error.code));
}

/** How to go on after each failure, for people and agents (an error's own `hint` wins). */
const HINTS: Readonly<Record<LspErrorCode, string>> = {
  'server-not-found': 'install the language server (the message names the command) and start again; until then search(path, regex) finds text',
  'server-misconfigured': 'fix or unset the variable the message names, then start again',
  'server-refused': 'the message says why the server was not started; search(path, regex) and lines(path, start, end) still work',
  'spawn-failed': 'check that the language server runs from a shell; until then search(path, regex) finds text',
  'initialize-failed': 'check that the language server runs from a shell; until then search(path, regex) finds text',
  'request-timeout': 'the server did not answer in time: allow more time (dialect eval --timeout, dialect mcp --timeout) or ask about a narrower target',
  'server-unresponsive': 'the server was restarted: ask again',
  'server-memory-exceeded': 'the server was restarted: ask again; raise DIALECT_SERVER_MEMORY_MB if the workspace needs more',
  'request-cancelled': 'run the program again',
  'request-failed': 'the language server could not answer this: try another function (help() lists them) or search(path, regex)',
  'server-crashed': 'the server keeps crashing (the message shows its last output); search(path, regex) and lines(path, start, end) still work',
  'server-stopped': 'the session was shut down: start it again',
  'no-server-for-file': 'symbol functions work on files of the workspace languages; search(path, regex) and lines(path, start, end) read any file',
  'document-unreadable': 'check that the file exists and is readable',
};

/**
 * The error as it crosses the backend port: a `DialectError` with the same code and message and
 * a hint, so an outcome carries `server-not-found` or `request-timeout`, never `function-failed`.
 */
export function asDialectError(error: LspClientError): DialectError {
  return new DialectError({ code: error.code, message: error.message, hint: error.hint ?? HINTS[error.code], cause: error });
}
