/**
 * The codes of the workspace's background server as its clients meet it (the server process and
 * its runtime folder live in the CLI, `cli/server/`; the codes are declared here, beside the
 * remote protocol's, so every layer's docs can name them).
 */

/** Error codes of starting and reaching a background server. */
export const BackgroundServerCode = {
  /** The runtime folder is a symbolic link, not the user's, or open to others. */
  UnsafeRuntimeDir: 'unsafe-runtime-dir',
  /** The background server could not be started (it exited, or did not announce itself in time). */
  StartFailed: 'server-start-failed',
  /** Another caller holds the start lock and no server answered in time. */
  StartTimeout: 'server-start-timeout',
} as const;
