/**
 * What the IDE functions receive as the interpreter's host: the backend, the workspace, and the
 * session-wide bookkeeping (warnings already shown, how long to wait for indexing).
 */
import type { CallContext } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import type { Workspace } from '../workspace.js';

export interface IdeHost {
  readonly backend: IdeBackend;
  readonly workspace: Workspace;
  /** How long a query waits for servers that are still indexing before answering anyway. */
  readonly readyTimeoutMs: number;
  /** Warnings already shown once (e.g. "the standard library could not be loaded"). */
  readonly shownWarnings: Set<string>;
}

/**
 * Waits for the servers a query needs to finish indexing (bounded), and notes on the outcome
 * when answers may be incomplete, so that an empty answer never looks like "no such symbol".
 */
export async function awaitIndex(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal' | 'note'>, paths?: readonly string[]): Promise<boolean> {
  const { backend, readyTimeoutMs, shownWarnings } = ctx.host;
  const completeness = await backend.waitUntilReady({ signal: ctx.signal, timeoutMs: readyTimeoutMs, ...(paths !== undefined ? { paths } : {}) });
  for (const warning of completeness.warnings) {
    if (shownWarnings.has(warning)) continue;
    shownWarnings.add(warning);
    ctx.note(warning);
  }
  for (const note of completeness.notes ?? []) ctx.note(note);
  if (!completeness.complete) ctx.note(`results may be incomplete — still indexing: ${completeness.pending.join('; ')}`);
  return completeness.complete;
}
