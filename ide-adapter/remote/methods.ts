/**
 * The names and numbers of the remote protocol (`protocol.ts` has its wire types): what a client
 * needs at run time to speak it. Kept apart from the zod schemas so the client path (a warm
 * `dialect eval`) loads no zod; this module imports nothing.
 */

/** The protocol's version: a client and a server speak only when theirs are equal. */
export const PROTOCOL_VERSION = 1;

/** The requests of the protocol: the port's methods (`ide/…`) and the server's own (`dialect/…`). */
export const RemoteMethod = {
  /** The handshake: what the server serves (`HelloInfo` in `protocol.ts`). */
  Hello: 'dialect/hello',
  /** The server's state for `dialect server status` (`ServerInfo` in `protocol.ts`). */
  Info: 'dialect/info',
  /** Stops the server process (the explicit way; clients never shut the language servers down). */
  Stop: 'dialect/stop',
  /** The active editor's selection (an editor's backend only; others answer `no-editor`); null without an active editor. */
  Selection: 'dialect/selection',
  WorkspaceSymbols: 'ide/workspaceSymbols',
  DocumentSymbols: 'ide/documentSymbols',
  Definition: 'ide/definition',
  References: 'ide/references',
  Hover: 'ide/hover',
  Implementation: 'ide/implementation',
  PrepareCallHierarchy: 'ide/prepareCallHierarchy',
  IncomingCalls: 'ide/incomingCalls',
  OutgoingCalls: 'ide/outgoingCalls',
  TypeDefinition: 'ide/typeDefinition',
  PrepareTypeHierarchy: 'ide/prepareTypeHierarchy',
  TypeHierarchy: 'ide/typeHierarchy',
  Diagnostics: 'ide/diagnostics',
  ModulePath: 'ide/modulePath',
  /** Where a name is declared in files the build leaves out here (`IdeBackend.unbuiltDeclarations`). */
  UnbuiltDeclarations: 'ide/unbuiltDeclarations',
  /** The import that brings a name into the workspace (`IdeBackend.importOf`); null when none. */
  ImportOf: 'ide/importOf',
  Start: 'ide/start',
  WaitUntilReady: 'ide/waitUntilReady',
  Servers: 'ide/servers',
} as const;

/** A request method of the protocol. */
export type RemoteMethodName = (typeof RemoteMethod)[keyof typeof RemoteMethod];

/** The notifications of the protocol (server → client). */
export const RemoteNotification = {
  /** A server's status changed: the params are the new `ServerStatus`. */
  Status: 'ide/status',
} as const;

/**
 * The JSON-RPC error code of every error response that carries a `DialectError` (its fields are
 * in `data`, see `ErrorData` in `protocol.ts`); outside JSON-RPC's reserved range.
 */
export const DIALECT_ERROR_CODE = 1000;
