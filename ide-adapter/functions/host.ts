/**
 * What the IDE functions receive as the interpreter's host: the backend, the workspace, and the
 * session-wide bookkeeping (warnings already shown, how long to wait for indexing).
 */
import { DialectError, truncate, type CallContext, type RequirementHandler } from '../../dialect/index.js';
import type { Completeness, IdeBackend } from '../backend.js';
import { isLocation, isSymbolDefinition } from '../model.js';
import { factOf, MAX_NOTE_LINE, STATUS_POINTER, type NotesLedger } from '../notes-ledger.js';
import { degradedSummary, type ServerStatus } from '../status.js';
import type { TraceSink } from '../trace.js';
import type { Workspace } from '../workspace.js';

/** What the IDE functions get from their embedding: the backend, the workspace and how long to wait for the index. */
export interface IdeHost {
  readonly backend: IdeBackend;
  readonly workspace: Workspace;
  /** How long a query waits for servers that are still indexing before answering anyway. */
  readonly readyTimeoutMs: number;
  /** The session's facts (untrusted, std not loaded, a degraded server…): each told once (`notes-ledger.ts`). */
  readonly ledger: NotesLedger;
  /** Per evaluation: how complete its answer is (every wait for the index it made). Set by `IdeSession` for each evaluation. */
  readonly answer?: AnswerRecord;
  /** Present only while `explain()` runs a program: where functions report the candidates they dropped and why. */
  readonly trace?: TraceSink;
  /** Runs a program and says how its answer was made (`explain()`); set by `IdeSession`. */
  readonly explain?: (program: string, signal: AbortSignal) => Promise<unknown>;
}

/** What one evaluation learned about its completeness. */
export interface AnswerRecord {
  /** Every wait for the index the evaluation made, in order. */
  readonly completeness: Completeness[];
}

/** Error codes of the IDE functions' index checks. */
export const IndexCode = {
  /** A language server could not load the workspace at all: its empty answers mean nothing. */
  WorkspaceNotLoaded: 'workspace-not-loaded',
} as const;

/**
 * The host's side of `requires` (registered with `Registry.onRequires`): a function that requires
 * the index waits for the servers of the workspace and of the files its arguments name.
 */
export const prepareRequirement: RequirementHandler<IdeHost> = async (requires, args, ctx) => {
  if (requires === 'index') await awaitIndex(ctx, filesNamedBy(args, ctx.host.backend));
};

/**
 * The files a call's arguments name, whose servers it will ask: where symbols and locations are,
 * and strings that are files of a language with a server (a `path:` or `file:` argument).
 */
function filesNamedBy(args: Readonly<Record<string, unknown>>, backend: IdeBackend): string[] {
  const paths = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isSymbolDefinition(value)) paths.add(value.definedAt.path);
    else if (isLocation(value)) paths.add(value.path);
    else if (typeof value === 'string' && backend.handles(value)) paths.add(value);
  };
  Object.values(args).forEach(visit);
  return [...paths];
}

/** The wait of one evaluation (by its signal), and the files it covered. */
interface IndexWait {
  readonly paths: ReadonlySet<string>;
  /** It waited for every server of the workspace, not only the files' ones. */
  readonly all: boolean;
  readonly completeness: Promise<Completeness>;
}

/** Per evaluation, the last wait for the index: a later call of the same program that needs no other files reuses it. */
const waits = new WeakMap<AbortSignal, IndexWait>();

/**
 * Waits for the servers a query needs to finish indexing (bounded), and notes on the outcome
 * when answers may be incomplete (still indexing, or a server reports itself degraded), so that
 * an empty answer never looks like "no such symbol". Returns what it learned. Within one
 * evaluation the index is waited for once (again only for files not covered yet), so a function
 * that declares `requires: 'index'` and also needs the result gets the same wait.
 */
export async function awaitIndex(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal' | 'note'>, paths: readonly string[] = []): Promise<Completeness> {
  // A call that names files asks only their languages' servers; one that names none (a name lookup) asks every server.
  const all = paths.length === 0;
  const previous = waits.get(ctx.signal);
  if (previous !== undefined && paths.every((p) => previous.paths.has(p)) && (previous.all || !all)) return previous.completeness;
  const covered = new Set([...(previous?.paths ?? []), ...paths]);
  const wholeWorkspace = all || previous?.all === true;
  const completeness = waitAndNote(ctx, [...covered], wholeWorkspace);
  waits.set(ctx.signal, { paths: covered, all: wholeWorkspace, completeness });
  return completeness;
}

async function waitAndNote(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal' | 'note'>, paths: readonly string[], all: boolean): Promise<Completeness> {
  const { backend, readyTimeoutMs } = ctx.host;
  const started = Date.now();
  const completeness = await backend.waitUntilReady({ signal: ctx.signal, timeoutMs: readyTimeoutMs, ...(paths.length > 0 ? { paths } : {}), ...(!all && paths.length > 0 ? { onlyPaths: true } : {}) });
  observeFacts(ctx.host.ledger, completeness, ctx.host.workspace.root);
  // Still indexing is this answer's state, not a session fact: the answer's marker says it.
  ctx.host.answer?.completeness.push(completeness);
  ctx.host.trace?.step('wait for the index', Date.now() - started, completeness);
  return completeness;
}

/**
 * Records the warnings servers added while a call was answered (a bound it reached: a server's
 * cap a lookup could not complete) so that this answer tells them; the wait before the call saw
 * only the earlier ones.
 */
export async function observeLateWarnings(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>): Promise<void> {
  const { backend, readyTimeoutMs, ledger, workspace } = ctx.host;
  observeFacts(ledger, await backend.waitUntilReady({ signal: ctx.signal, timeoutMs: readyTimeoutMs }), workspace.root);
}

/**
 * Records what a wait for the index says about the session in its ledger: the servers' warnings,
 * the backend's notes (an untrusted workspace), and which servers are degraded and why. The
 * ledger tells each once; the answer's own marker says whether it is complete.
 */
export function observeFacts(ledger: NotesLedger, completeness: Completeness, root?: string): void {
  // Paths inside the workspace read as `./…`: the reader knows where the workspace is.
  const relative = (text: string): string => (root !== undefined ? text.split(`${root}/`).join('./') : text);
  for (const warning of completeness.warnings) {
    const fact = factOf('', warning);
    ledger.observe({ ...fact, key: `warning:${fact.line}` });
  }
  for (const note of completeness.notes) {
    const fact = factOf('', note);
    ledger.observe({ ...fact, key: note.startsWith('untrusted workspace') ? 'untrusted' : `note:${fact.line}` });
  }
  for (const s of completeness.servers) {
    const key = `health:${s.id}`;
    if (s.health === undefined) {
      if (s.state === 'ready') ledger.clear(key);
      continue;
    }
    const line = relative(`${s.displayName} is degraded: ${degradedSummary(s.health.message)}`);
    ledger.observe({ key, line: `${truncate(line, MAX_NOTE_LINE - STATUS_POINTER.length - 3)} — ${STATUS_POINTER}`, detail: `${s.displayName} is degraded: ${s.health.message}` });
  }
}

/**
 * One line per server that could not load its workspace at all, or that the workspace needs but
 * could not start (`listing`: the backend's servers; unavailable ones say why and how to fix it):
 * an empty answer then says nothing about a name, it is not "nothing found".
 */
export function unloadedServers(completeness: Completeness, listing: readonly ServerStatus[] = []): string[] {
  const unloaded = completeness.servers.filter((s) => s.health?.level === 'error').map((s) => `${s.displayName}: ${s.health?.message ?? 'the workspace could not be loaded'}`);
  const unavailable = listing.filter((s) => s.state === 'unavailable').map((s) => (s.detail !== undefined && s.detail.startsWith(s.displayName) ? s.detail : `${s.displayName} is unavailable${s.detail !== undefined ? `: ${s.detail}` : ''}`));
  return [...unloaded, ...unavailable];
}

/**
 * The error for a name lookup that found nothing while a server could not load its workspace:
 * the empty answer says nothing about the name, so it must not read as "not found".
 */
export function workspaceNotLoaded(name: string, completeness: Completeness, listing: readonly ServerStatus[] = []): DialectError {
  const trim = (text: string): string => text.trim().replace(/\.+$/, '');
  const unloaded = unloadedServers(completeness, listing).map(trim);
  // The one-time warnings usually say why (e.g. no working cargo); repeat them here, where it
  // matters, leaving out the ones that only restate (or merely quote) the server's own message.
  const why = completeness.warnings.filter((w) => !w.startsWith('no language server covers') && !unloaded.some((u) => u.includes(trim(w)) || trim(w).includes(u)));
  return new DialectError({
    code: IndexCode.WorkspaceNotLoaded,
    message: `${JSON.stringify(name)} cannot be looked up: ${unloaded.join('; ')}${why.length > 0 ? ` — ${why.map(trim).join('; ')}` : ''}`,
    hint: 'fix what the message names and start again; until then search(".", "…") finds text',
  });
}
