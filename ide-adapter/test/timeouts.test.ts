/** The time budgets nest: each inner wait ends inside the budget that contains it. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MS, LIVENESS_PROBE_TIMEOUT_MS } from '../lsp/client.js';
import { TIMEOUTS } from '../timeouts.js';

describe('TIMEOUTS', () => {
  it('nests the MCP budgets inside the client timeout, and a hung server inside the deadline', () => {
    const { mcp } = TIMEOUTS;
    expect(mcp.readyWaitMs).toBeLessThan(mcp.deadlineMs);
    expect(mcp.deadlineMs).toBeLessThan(mcp.clientRequestMs);
    // A request that times out on a hung server, plus the liveness probe, still answers before the deadline.
    expect(DEFAULT_REQUEST_TIMEOUT_MS + LIVENESS_PROBE_TIMEOUT_MS).toBeLessThan(mcp.deadlineMs);
    // A file's diagnostics wait ends within a query's share of the deadline, so its note is shown.
    expect(TIMEOUTS.lsp.diagnosticsWaitMs).toBeLessThan(mcp.deadlineMs - mcp.readyWaitMs);
  });

  it('nests the CLI budgets', () => {
    const { cli } = TIMEOUTS;
    expect(cli.replReadyWaitMs).toBeLessThan(cli.replDeadlineMs);
    expect(cli.evalQueryReserveMs).toBeLessThan(cli.evalTimeoutMs);
    expect(cli.tourOutlineDeadlineMs).toBeLessThanOrEqual(cli.tourStepDeadlineMs);
  });

  it('holds the LSP client defaults with their old values, the shutdown request inside the shutdown ladder', () => {
    const { lsp } = TIMEOUTS;
    expect(lsp).toEqual({
      requestMs: 30_000,
      diagnosticsWaitMs: 15_000,
      initializeMs: 30_000,
      readyMs: 120_000,
      warmUpListMs: 20_000,
      warmUpMs: 120_000,
      livenessProbeMs: 5_000,
      restartDelayMs: 250,
      healthyUptimeMs: 60_000,
      retryDelayMs: 50,
      settleMs: 250,
      closeGraceMs: 200,
      shutdownMs: 3_000,
      shutdownRequestMs: 2_000,
      failedStartShutdownMs: 1_000,
      exitWaitMs: 1_000,
      killWaitMs: 2_000,
    });
    expect(lsp.shutdownRequestMs + lsp.exitWaitMs).toBeLessThanOrEqual(lsp.shutdownMs);
    expect([DEFAULT_REQUEST_TIMEOUT_MS, LIVENESS_PROBE_TIMEOUT_MS]).toEqual([lsp.requestMs, lsp.livenessProbeMs]);
  });

  it('keeps the values the front ends had before they were gathered here', () => {
    expect(TIMEOUTS.mcp).toEqual({ clientRequestMs: 60_000, deadlineMs: 50_000, readyWaitMs: 30_000 });
    expect(TIMEOUTS.cli).toMatchObject({ replDeadlineMs: 300_000, replReadyWaitMs: 180_000, evalTimeoutMs: 120_000, settleMs: 120_000, tourReadyWaitMs: 60_000 });
    expect(TIMEOUTS.session.readyWaitMs).toBe(60_000);
  });
});
