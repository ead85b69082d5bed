/**
 * What the language servers were doing when an answer was made, in the form answers carry it
 * (MCP's `structuredContent.indexing`, `dialect eval --json`): derived from `ServerStatus` and
 * who answered. MCP's output schema (`mcp/ide-operation.ts` `indexingSchema`) describes this type
 * for agents and is checked against it at compile time.
 */
import type { BackendKind, IdeBackend } from './backend.js';
import { isIncomplete, statusLine } from './status.js';

/** Whether the servers had finished indexing, as an answer reports it. */
export interface IndexingState {
  /** No server was starting, indexing or degraded: the answer is complete. */
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
  // A degraded server (e.g. rust-analyzer could not load part of the workspace) is not "ready".
  const busy = servers.filter(isIncomplete);
  const lines = servers.map((s) => statusLine(s));
  if (!started && busy.length === 0) {
    return { complete: false, pending: ['language servers: starting'], servers: lines, stillIndexing: true, backend: answeredBy };
  }
  return { complete: busy.length === 0, pending: busy.map((s) => statusLine(s)), servers: lines, stillIndexing: busy.some((s) => s.state !== 'ready'), backend: answeredBy };
}
