/**
 * The background server's typed errors. They belong to the CLI layer (outside the `DialectCode`
 * union, whose documentation lives in the MCP layer, which must not import the CLI), so they have
 * their own class; the CLI prints them like a `DialectError`: message, then hint.
 */
import type { CodeOf } from '../../dialect/codes.js';

/** Error codes of the background server. */
export const ServerCode = {
  /** The runtime folder is a symlink, not ours, or open to others. */
  UnsafeRuntimeDir: 'unsafe-runtime-dir',
  /** The background server could not be started (it exited, or did not announce itself in time). */
  StartFailed: 'server-start-failed',
  /** Another caller holds the start lock and no server appeared in time. */
  StartTimeout: 'server-start-timeout',
  /** No background server runs for the workspace. */
  NotRunning: 'server-not-running',
} as const;

/** One code of {@link ServerCode}. */
export type ServerErrorCode = CodeOf<typeof ServerCode>;

/** A background server error: what happened and where (`message`), how to fix it (`hint`). */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  readonly code: ServerErrorCode;
  readonly hint: string;

  constructor(init: { code: ServerErrorCode; message: string; hint: string }) {
    super(init.message);
    this.code = init.code;
    this.hint = init.hint;
  }
}
