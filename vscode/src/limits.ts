/**
 * Every time budget and bound of the extension, in one place. Every wait on the editor is bounded:
 * when the workbench page disconnects, VS Code's provider commands hang forever (measured with
 * the code-server rig, `scripts/vscode-rig.sh`), so nothing here waits without a deadline.
 */
const SECOND = 1_000;

/** The extension's limits. */
export const EDITOR_LIMITS = {
  /** The longest one provider command (`vscode.execute…Provider`) may take before `request-timeout`. */
  commandTimeoutMs: 30 * SECOND,
  /**
   * How long the workbench (the browser page or desktop window) may take to answer a liveness
   * round trip (`workbench.ts`): a window whose page closed keeps its extension host for hours,
   * and every editor call there would hang.
   */
  workbenchProbeMs: 3 * SECOND,
  /** A provider command still unanswered after this long has the workbench probed: a dead one fails the call at once. */
  workbenchCheckAfterMs: 2 * SECOND,
  /**
   * For this long after the window starts serving, its handshake does not probe the workbench:
   * the workbench has just activated the extension, and while a window starts (on a loaded
   * machine) it can take longer than the probe's bound to answer (measured: over 1.5 s). Calls
   * still probe when they hang. `DIALECT_WORKBENCH_GRACE_MS` overrides it (tests).
   */
  workbenchStartupGraceMs: 60 * SECOND,
  /** How long `waitUntilReady` waits when the caller gives no timeout. */
  defaultReadyTimeoutMs: 60 * SECOND,
  /** Between two readiness probes of a language's provider (the editor announces no "indexed" event for it). */
  probeIntervalMs: 250,
  /**
   * After a publication that leaves a file without diagnostics, how long more come before the
   * empty list is the answer: a language client publishes from several sources (rust-analyzer's
   * pushed `cargo check` list, then its pulled native diagnostics), the first often empty.
   */
  diagnosticsQuietMs: 1_500,
  /** At most this many TypeScript projects are probed for readiness (one anchor file each). */
  maxProbedProjects: 8,
  /** How long an editor extension providing a language may take to activate. */
  activationTimeoutMs: 30 * SECOND,
  /** The longest one walkthrough comment's location may take to evaluate (the MCP tool's own deadline is longer). */
  walkthroughCommentMs: 30 * SECOND,
  /** After the last change to a file, a shown walkthrough waits this long before it re-resolves its comments. */
  livingDebounceMs: 400,
  /**
   * After re-resolving for a change, a shown walkthrough re-resolves once more this much later: a
   * language server that learns of a changed file late (a file not open in the editor) has caught
   * up by then.
   */
  livingSettleMs: 2_000,
} as const;
