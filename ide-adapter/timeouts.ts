/**
 * Every time budget of Dialect's front ends, in one documented object. Budgets nest: an MCP call
 * must end before the client gives up on it, so the evaluation deadline is derived from the
 * client's timeout, and the wait for the index from that deadline (the rest of the deadline is the
 * query's own share); the same holds for the REPL. Where two values must stay consistent, one is
 * computed from the other here instead of being kept equal by hand. The language-server client's
 * defaults (`lsp`: request, initialize, readiness, liveness probe, restarts, shutdown ladder) live
 * here too; `test/timeouts.test.ts` checks that they nest inside the front ends' budgets. This
 * module imports nothing, so the CLI's entry point can read it without loading the rest.
 */
const SECOND = 1_000;

/** What common MCP clients wait for a tool call before giving up (theirs, not ours to change). */
const MCP_CLIENT_REQUEST_MS = 60 * SECOND;
/** Time left between the end of an evaluation and the client's timeout, for the answer to travel. */
const MCP_ANSWER_MARGIN_MS = 10 * SECOND;
const MCP_DEADLINE_MS = MCP_CLIENT_REQUEST_MS - MCP_ANSWER_MARGIN_MS;
/** The share of an MCP deadline a query keeps for itself after waiting for the index. */
const MCP_QUERY_SHARE_MS = 20 * SECOND;

/** Deadline of one REPL evaluation (after the index is ready). Ctrl-C cancels sooner. */
const REPL_DEADLINE_MS = 300 * SECOND;
/** The share of a REPL deadline a query keeps for itself after waiting for the index. */
const REPL_QUERY_SHARE_MS = 120 * SECOND;

/** `dialect eval`'s default `--timeout`, which covers waiting for the index and the query. */
const EVAL_TIMEOUT_MS = 120 * SECOND;

/** Overall deadline of stopping a server: `shutdown` request, then `exit` and the signal ladder. */
const LSP_SHUTDOWN_MS = 3 * SECOND;
/** How long the client waits for a server process to exit after `exit`, and again after SIGTERM. */
const LSP_EXIT_WAIT_MS = 1 * SECOND;

/**
 * How long an MCP query waits for the index within a tool call's `deadlineMs` (`dialect mcp
 * --timeout`): the deadline less the query's own share, and at least half the deadline.
 */
export function mcpReadyWaitMs(deadlineMs: number): number {
  return Math.max(deadlineMs - MCP_QUERY_SHARE_MS, Math.round(deadlineMs / 2));
}

/** The time budgets, grouped by front end. */
export const TIMEOUTS = {
  /** The MCP server (`mcp/`). */
  mcp: {
    /** What common clients wait for a tool call. */
    clientRequestMs: MCP_CLIENT_REQUEST_MS,
    /** Default deadline of one `ide_operation` evaluation: below the client's timeout. */
    deadlineMs: MCP_DEADLINE_MS,
    /** How long a query waits for indexing before it answers (with a note): within the deadline. */
    readyWaitMs: mcpReadyWaitMs(MCP_DEADLINE_MS),
  },
  /** The CLI (`cli/`). */
  cli: {
    /** Default deadline of one REPL evaluation. */
    replDeadlineMs: REPL_DEADLINE_MS,
    /** How long a REPL query waits for the index before it runs anyway: within the deadline. */
    replReadyWaitMs: REPL_DEADLINE_MS - REPL_QUERY_SHARE_MS,
    /** `dialect eval`'s default `--timeout`. */
    evalTimeoutMs: EVAL_TIMEOUT_MS,
    /** The part of `--timeout` kept for the query when `dialect eval` first waits for the index. */
    evalQueryReserveMs: 5 * SECOND,
    /** How long `tour` and `walkthrough render` wait for the servers to settle: as long as an eval. */
    settleMs: EVAL_TIMEOUT_MS,
    /** How long a tour's queries wait for the index. */
    tourReadyWaitMs: 60 * SECOND,
    /** Deadline of one tour step. */
    tourStepDeadlineMs: 60 * SECOND,
    /** Deadline of one outline a tour reads while choosing its steps. */
    tourOutlineDeadlineMs: 20 * SECOND,
    /** How long `walkthrough render` waits for the workspace session to open. */
    walkthroughOpenMs: 10 * SECOND,
  },
  /** The language-server client's defaults (`lsp/client.ts` and its modules); each is an option of `LanguageServer.start`. */
  lsp: {
    /** Deadline of one request, retries included. */
    requestMs: 30 * SECOND,
    /**
     * How long `diagnostics(file)` waits for a server that only publishes (no pull) to publish a
     * file's diagnostics, by default: it answers as soon as they come; `diagnostics(…, wait: s)`
     * raises it (pyright took 14 s under load). Within an MCP query's share of its deadline.
     */
    diagnosticsWaitMs: 15 * SECOND,
    /** Deadline of the `initialize` handshake. */
    initializeMs: 30 * SECOND,
    /** Deadline of `waitUntilReady`. */
    readyMs: 120 * SECOND,
    /** How long a warm-up (`ServerDefinition.warmUp`) waits for the server's "files listed" log before it asks anyway. */
    warmUpListMs: 20 * SECOND,
    /** Deadline of a warm-up request: past it the server counts as ready, with a warning that first answers may be slow. */
    warmUpMs: 120 * SECOND,
    /**
     * Deadline of the liveness probe sent after a request timed out. Any answer proves the server's
     * message loop runs, and servers answer unknown methods from that loop without queueing behind
     * work, so a healthy but busy server answers in milliseconds; 5 s leaves room for a loaded
     * machine while keeping a hung server's callers waiting only that much longer than their own
     * deadline.
     */
    livenessProbeMs: 5 * SECOND,
    /** First delay before restarting a crashed or hung server, doubled per consecutive restart. */
    restartDelayMs: 250,
    /** A server that ran this long before crashing gets a fresh restart budget. */
    healthyUptimeMs: 60 * SECOND,
    /** First delay before retrying a ContentModified/ServerCancelled answer, doubled per retry. */
    retryDelayMs: 50,
    /** Quiet time after the last progress ends before a `progress` server counts as ready. */
    settleMs: 250,
    /** How long after a server closed its connection the client waits for its exit before killing it. */
    closeGraceMs: 200,
    /** Overall deadline of `shutdown()`. */
    shutdownMs: LSP_SHUTDOWN_MS,
    /** Upper bound on the `shutdown` request: what is left of the shutdown once the exit wait is kept. */
    shutdownRequestMs: LSP_SHUTDOWN_MS - LSP_EXIT_WAIT_MS,
    /** Deadline of stopping a process whose `initialize` failed. */
    failedStartShutdownMs: 1 * SECOND,
    /** How long the client waits for the process to exit after `exit`, and again after SIGTERM. */
    exitWaitMs: LSP_EXIT_WAIT_MS,
    /** How long the client waits for the process to disappear after SIGKILL. */
    killWaitMs: 2 * SECOND,
  },
  /** The remote protocol's client (`remote/`): a background server answers the handshake from its message loop. */
  remote: {
    /** Deadline of connecting to a background server's socket and its `dialect/hello` answer. */
    connectMs: 5 * SECOND,
  },
  /** An `IdeSession` opened without a front end's budget (library use, tests). */
  session: {
    /** How long a query waits for indexing by default. */
    readyWaitMs: 60 * SECOND,
    /**
     * How long a session's first program waits for its start's first server to be up before it
     * is parsed (`IdeBackend.launched`): the parse then runs while the start's checks finish.
     */
    launchWaitMs: SECOND / 2,
  },
} as const;
