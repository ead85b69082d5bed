/**
 * Status vocabulary of the client layer: the port's structured status (see `../status.ts`, which
 * owns the types and their one text rendering), re-exported for the client, and `Disposable`.
 */
export { degradedReason, statusLine, type ServerHealth, type ServerProgress, type ServerState, type ServerStatus } from '../status.js';

/** Something to unsubscribe. */
export interface Disposable {
  dispose(): void;
}
