/** The default restart policy: backoff doubling per consecutive restart, a budget, a fresh budget after a healthy run. */
import { describe, expect, it } from 'vitest';
import { backoffRestartPolicy, CloseAction } from '../lsp/restart-policy.js';

const options = { maxRestarts: 3, firstDelayMs: 250, healthyUptimeMs: 60_000 };

describe('backoffRestartPolicy', () => {
  it('restarts with doubling delays, then gives up naming the budget', () => {
    const policy = backoffRestartPolicy(options);
    const decisions = [1, 2, 3, 4].map(() => {
      policy.closed(10);
      return policy.next();
    });
    expect(decisions).toEqual([
      { action: CloseAction.Restart, delayMs: 250 },
      { action: CloseAction.Restart, delayMs: 500 },
      { action: CloseAction.Restart, delayMs: 1000 },
      { action: CloseAction.DoNotRestart, message: 'gave up after 3 restarts' },
    ]);
  });

  it('gives a server that ran longer than the healthy uptime a fresh budget', () => {
    const policy = backoffRestartPolicy(options);
    for (let i = 0; i < options.maxRestarts; i++) policy.next();
    policy.closed(options.healthyUptimeMs + 1);
    expect(policy.next()).toEqual({ action: CloseAction.Restart, delayMs: options.firstDelayMs });
  });

  it('counts failed starts (asked again without a close) against the budget', () => {
    const policy = backoffRestartPolicy({ ...options, maxRestarts: 1 });
    expect(policy.next().action).toBe(CloseAction.Restart);
    expect(policy.next().action).toBe(CloseAction.DoNotRestart);
  });
});
