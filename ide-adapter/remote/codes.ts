/**
 * The remote protocol's error codes, apart from `errors.ts` (which loads vscode-jsonrpc): code that
 * only tells a lost server from other errors, like `FailoverBackend`, imports them from here.
 */

/** Error codes of the remote protocol. */
export const RemoteCode = {
  /** The connection to the background server closed or failed while (or before) a call was answered. */
  ServerLost: 'background-server-lost',
  /** The other side speaks another protocol version, serves another workspace, or sent an invalid message. */
  ProtocolMismatch: 'remote-protocol-mismatch',
  /** The background server failed with an error that is not one of Dialect's. */
  ServerError: 'background-server-error',
} as const;

/** The hint of every error that says the call can be answered without the background server. */
export const IN_PROCESS_HINT = 'run the command again: it starts a new background server, or add --no-server to answer in this process';
