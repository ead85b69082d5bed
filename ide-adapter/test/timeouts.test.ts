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
  });

  it('nests the CLI budgets', () => {
    const { cli } = TIMEOUTS;
    expect(cli.replReadyWaitMs).toBeLessThan(cli.replDeadlineMs);
    expect(cli.evalQueryReserveMs).toBeLessThan(cli.evalTimeoutMs);
    expect(cli.tourOutlineDeadlineMs).toBeLessThanOrEqual(cli.tourStepDeadlineMs);
  });

  it('keeps the values the front ends had before they were gathered here', () => {
    expect(TIMEOUTS.mcp).toEqual({ clientRequestMs: 60_000, deadlineMs: 50_000, readyWaitMs: 30_000 });
    expect(TIMEOUTS.cli).toMatchObject({ replDeadlineMs: 300_000, replReadyWaitMs: 180_000, evalTimeoutMs: 120_000, settleMs: 120_000, tourReadyWaitMs: 60_000 });
    expect(TIMEOUTS.session.readyWaitMs).toBe(60_000);
  });
});
