/**
 * What the language servers were doing when an answer was made, in the form answers carry it
 * (MCP's `structuredContent.indexing`, `dialect eval --json`): derived from `ServerStatus` and
 * who answered. MCP's output schema (`mcp/ide-operation.ts` `indexingSchema`) describes this type
 * for agents and is checked against it at compile time.
 */
import type { BackendKind, Completeness, IdeBackend } from './backend.js';
import { displayState, isIncomplete, statusLine, type ServerStatus } from './status.js';

/** Whether the servers had finished indexing, as an answer reports it. */
export interface IndexingState {
  /** No server was starting, indexing, degraded, unavailable or crashed: the answer is complete. */
  readonly complete: boolean;
  /** One status line per server that was busy or degraded. */
  readonly pending: string[];
  /** The status line of every server of the workspace. */
  readonly servers: string[];
  /** A server was still starting or indexing (asking again later may give more). */
  readonly stillIndexing: boolean;
  /** Who answered: the editor's own language features, or servers Dialect started. */
  readonly backend: BackendKind;
}

/** The {@link IndexingState} of a backend whose servers have (or have not yet) been started. */
export function indexingOf(backend: Pick<IdeBackend, 'servers' | 'answeredBy'>, started: boolean): IndexingState {
  const servers = backend.servers();
  const answeredBy = backend.answeredBy ?? 'spawned';
  // A degraded server (e.g. rust-analyzer could not load part of the workspace) is not "ready",
  // nor is one the workspace needs that could not start (its files get text search only): neither
  // is complete, and neither gets better by asking again.
  const busy = servers.filter((s) => isIncomplete(s) || s.state === 'unavailable' || s.state === 'crashed');
  const lines = servers.map((s) => statusLine(s));
  if (!started && busy.length === 0) {
    return { complete: false, pending: ['language servers: starting'], servers: lines, stillIndexing: true, backend: answeredBy };
  }
  return { complete: busy.length === 0, pending: busy.map((s) => statusLine(s)), servers: lines, stillIndexing: busy.some((s) => s.state === 'idle' || s.state === 'starting' || s.state === 'indexing'), backend: answeredBy };
}

/**
 * The short marker an incomplete answer carries in its text (its structured form is
 * `IndexingState`): `[incomplete: rust-analyzer degraded]`, `[incomplete: rust-analyzer indexing 45% — ask again shortly]`.
 * Undefined when the answer asked no server or every server it asked was complete; why a server
 * is degraded is a note told once, and `status()` has the details.
 */
export function incompleteMarker(waits: readonly Completeness[]): string | undefined {
  const byServer = new Map<string, ServerStatus>();
  for (const c of waits) for (const s of c.servers) byServer.set(s.id, s);
  const incomplete = [...byServer.values()].filter((s) => s.state !== 'ready' || s.health !== undefined);
  if (incomplete.length === 0) return undefined;
  const busy = incomplete.some((s) => s.state !== 'ready');
  const words = incomplete.map((s) => {
    const state = displayState(s);
    return `${s.displayName} ${state}${state === 'indexing' && s.progress?.percentage !== undefined ? ` ${Math.round(s.progress.percentage)}%` : ''}`;
  });
  return `[incomplete: ${words.join(', ')}${busy ? ' — ask again shortly' : ''}]`;
}
