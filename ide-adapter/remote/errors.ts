/**
 * Errors across the remote protocol: a `DialectError` on the serving side becomes an error
 * response whose `data` carries its fields, and the client rethrows a `DialectError` with the same
 * code, hint and notes. Plus the protocol's own codes (a lost connection, a mismatched server).
 */
import { ResponseError } from 'vscode-jsonrpc/node';
import type { DialectCode } from '../../dialect/codes.js';
import { DialectError } from '../../dialect/outcome.js';
import { asDialectError, isLspClientError } from '../lsp/errors.js';
import { IN_PROCESS_HINT, RemoteCode } from './codes.js';
import { DIALECT_ERROR_CODE } from './methods.js';
import type { ErrorData } from './protocol.js';
import { errorData } from './wire-checks.js';

export { IN_PROCESS_HINT, RemoteCode } from './codes.js';

/** The error for a call the lost connection will never answer. */
export function serverLost(what: string, detail?: string): DialectError {
  return new DialectError({
    code: RemoteCode.ServerLost,
    message: `the background server stopped answering (${what})${detail !== undefined && detail !== '' ? `: ${detail}` : ''}`,
    hint: IN_PROCESS_HINT,
  });
}

/** The error for a message that does not follow the protocol. */
export function protocolMismatch(message: string): DialectError {
  return new DialectError({ code: RemoteCode.ProtocolMismatch, message, hint: IN_PROCESS_HINT });
}

/**
 * The error response for whatever a handler threw: a `DialectError` keeps its fields (an LSP
 * client error becomes one first, as `LspBackend` would have made it); anything else is a
 * `background-server-error` with its message.
 */
export function toResponseError(error: unknown): ResponseError<ErrorData> {
  const dialect =
    error instanceof DialectError
      ? error
      : isLspClientError(error)
        ? asDialectError(error)
        : new DialectError({ code: RemoteCode.ServerError, message: `the background server failed: ${error instanceof Error ? error.message : String(error)}`, hint: IN_PROCESS_HINT });
  const data: ErrorData = {
    code: dialect.code,
    ...(dialect.hint !== undefined ? { hint: dialect.hint } : {}),
    ...(dialect.notes.length > 0 ? { notes: [...dialect.notes] } : {}),
    ...(dialect.signature !== undefined ? { signature: dialect.signature } : {}),
    ...(dialect.example !== undefined ? { example: dialect.example } : {}),
  };
  return new ResponseError(DIALECT_ERROR_CODE, dialect.message, data);
}

/**
 * The `DialectError` an error response stands for: the same code and fields when it carries one,
 * else a protocol mismatch naming the JSON-RPC error (e.g. a method the server does not know).
 */
export function fromResponseError(error: ResponseError<unknown>, method: string): DialectError {
  const data = error.code === DIALECT_ERROR_CODE ? errorData(error.data) : undefined;
  if (data === undefined) return protocolMismatch(`the background server refused ${method}: ${error.message} (JSON-RPC error ${error.code})`);
  const { code, hint, notes, signature, example } = data;
  // Both sides speak the same protocol version (the handshake checks it), so the code is one of ours.
  return new DialectError({ code: code as DialectCode, message: error.message, hint, notes, signature, example });
}
