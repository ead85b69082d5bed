/**
 * What the IDE functions receive as the interpreter's host: the backend, the workspace, and the
 * session-wide bookkeeping (warnings already shown, how long to wait for indexing).
 */
import { DialectError, type CallContext } from '../../dialect/index.js';
import type { Completeness, IdeBackend } from '../backend.js';
import { statusLine } from '../status.js';
import type { Workspace } from '../workspace.js';

export interface IdeHost {
  readonly backend: IdeBackend;
  readonly workspace: Workspace;
  /** How long a query waits for servers that are still indexing before answering anyway. */
  readonly readyTimeoutMs: number;
  /** Warnings already shown once (e.g. "the standard library could not be loaded"). */
  readonly shownWarnings: Set<string>;
}

/** Error codes of the IDE functions' index checks. */
export const IndexCode = {
  /** A language server could not load the workspace at all: its empty answers mean nothing. */
  WorkspaceNotLoaded: 'workspace-not-loaded',
} as const;

/**
 * Waits for the servers a query needs to finish indexing (bounded), and notes on the outcome
 * when answers may be incomplete (still indexing, or a server reports itself degraded), so that
 * an empty answer never looks like "no such symbol". Returns what it learned.
 */
export async function awaitIndex(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal' | 'note'>, paths?: readonly string[]): Promise<Completeness> {
  const { backend, readyTimeoutMs, shownWarnings } = ctx.host;
  const completeness = await backend.waitUntilReady({ signal: ctx.signal, timeoutMs: readyTimeoutMs, ...(paths !== undefined ? { paths } : {}) });
  for (const warning of completeness.warnings) {
    if (shownWarnings.has(warning)) continue;
    shownWarnings.add(warning);
    ctx.note(warning);
  }
  for (const note of completeness.notes) ctx.note(note);
  const pending = completeness.servers.filter((s) => s.state !== 'ready');
  if (pending.length > 0) {
    const lines = pending.map((s) => `${s.displayName} not ready after ${completeness.waitedMs} ms: ${statusLine(s).slice(s.displayName.length + 2)}`);
    ctx.note(`results may be incomplete — still indexing: ${lines.join('; ')}`);
  }
  const degraded = completeness.servers.filter((s) => s.state === 'ready' && s.health !== undefined);
  if (degraded.length > 0) ctx.note(`results may be incomplete — ${degraded.map((s) => statusLine(s)).join('; ')}`);
  return completeness;
}

/** One line per server that could not load its workspace at all (its answers are empty, not "nothing found"). */
export function unloadedServers(completeness: Completeness): string[] {
  return completeness.servers.filter((s) => s.health?.level === 'error').map((s) => `${s.displayName}: ${s.health?.message ?? 'the workspace could not be loaded'}`);
}

/**
 * The error for a name lookup that found nothing while a server could not load its workspace:
 * the empty answer says nothing about the name, so it must not read as "not found".
 */
export function workspaceNotLoaded(name: string, completeness: Completeness): DialectError {
  const trim = (text: string): string => text.trim().replace(/\.+$/, '');
  const unloaded = unloadedServers(completeness).map(trim);
  // The one-time warnings usually say why (e.g. no working cargo); repeat them here, where it
  // matters, leaving out the ones that only restate the server's own message.
  const why = completeness.warnings.filter((w) => !w.startsWith('no language server covers') && !unloaded.some((u) => u.includes(trim(w))));
  return new DialectError({
    code: IndexCode.WorkspaceNotLoaded,
    message: `${JSON.stringify(name)} cannot be looked up: ${unloaded.join('; ')}${why.length > 0 ? ` — ${why.join(' ')}` : ''}`,
    hint: 'fix what the message names and start again; until then search(".", "…") finds text',
  });
}
