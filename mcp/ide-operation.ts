/**
 * The `ide_operation` tool: evaluates a Dialect program against the session's workspace and
 * answers with readable text (locations as `path:line:col  line text`, errors with a caret under
 * the problem, ambiguities as numbered refinement programs) and the same outcome as structured
 * content. Bad programs are tool results with `isError: true` that teach the fix, never protocol
 * errors; every result says whether the language servers had finished indexing.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { outcomeToJson, truncate, type Outcome } from '../dialect/index.js';
import { capAnswer, incompleteMarker, indexingOf, LIST_BUDGET, nextPageProgram, presentOutcome, statusLine, type IdeSession, type IndexingState } from '../ide-adapter/index.js';
import { progressReporter, type ToolExtra } from './progress.js';

/** Default largest program, in characters. Real programs are a line or two. */
export const DEFAULT_MAX_PROGRAM_LENGTH = 1_000_000;
/** How an agent's user gives a tool call more time: the server's deadline, and the client's own timeout above it. */
const MCP_MORE_TIME = "dialect mcp --timeout SECONDS in the agent's MCP configuration, with the client's tool timeout raised to match";
/** Lists longer than this are cut in the structured content, as in the text (`LIST_BUDGET`), with the program of the next part. */
export const MAX_STRUCTURED_ITEMS = LIST_BUDGET.items;

const position = z.object({ line: z.number(), column: z.number(), offset: z.number() });

/**
 * The error of an outcome as agents get it: the core's outcome JSON without the rendered text and
 * the parser's diagnostics. `structuredOutcome` parses with it, so this schema is the one place
 * that says which fields are kept.
 */
const outcomeErrorSchema = z.object({
  code: z.string().describe('stable error code, e.g. unknown-function, missing-argument, type-mismatch, syntax-error, no-match (dialect-reference.md lists every code and its meaning)'),
  message: z.string(),
  range: z.object({ start: position, end: position }).optional().describe('the part of the program that is wrong (1-based lines and columns)'),
  hint: z.string().optional(),
  signature: z.string().optional().describe('the expected signature of the function involved'),
  example: z.string().optional().describe('a corrected, runnable example'),
  chain: z.array(z.string()).describe('the calls enclosing the failing one'),
  notes: z.array(z.string()),
});

/** What the language servers were doing when the answer was made. */
export const indexingSchema = z
  .object({
    complete: z.boolean().describe('true when no language server was still starting or indexing, reported itself degraded, or could not start (unavailable, crashed); otherwise results may be incomplete'),
    pending: z.array(z.string()).describe('one status line per server that was still busy or degraded, e.g. "rust-analyzer: indexing 45% (Indexing 12/40)"'),
    servers: z.array(z.string()).describe('the status line of every language server of the workspace'),
    stillIndexing: z.boolean().describe('true while a server is still starting or indexing (ask again shortly); false when nothing is pending or the only incomplete servers are degraded, unavailable or crashed (asking again does not help: status() says why and how to fix it)'),
    backend: z.enum(['vscode', 'spawned']).describe('who answered: "vscode" (the language features of the VS Code window that has the workspace open, through the Dialect extension) or "spawned" (language servers Dialect started)'),
  })
  .describe('whether the language servers had finished indexing');

/** The structured content of an `ide_operation` result. */
export const ideOperationOutputSchema = z.object({
  kind: z.enum(['value', 'error', 'ambiguity']).describe('value: the answer; error: the program needs fixing (see error); ambiguity: run one of the refinements'),
  value: z.unknown().optional().describe('kind "value": the result (locations, symbols, references, strings, diffs, JSON)'),
  truncated: z
    .object({ total: z.number(), shown: z.number(), next: z.string().describe('the program that returns the next part: page(program, start)') })
    .optional()
    .describe('present when a long list was cut: how many there are, how many are here, and the program of the next part'),
  error: outcomeErrorSchema.optional().describe('kind "error": what is wrong and how to fix it'),
  message: z.string().optional().describe('kind "ambiguity": what is ambiguous'),
  refinements: z
    .array(z.object({ label: z.string(), program: z.string().describe('a complete program that selects exactly this meaning') }))
    .optional()
    .describe('kind "ambiguity": the numbered choices; run the program of the one you mean'),
  indexing: indexingSchema,
  notes: z.array(z.string()).describe('things to know about the result, e.g. that a server was still indexing'),
});

/** The structured content of an `ide_operation` answer. */
export type IdeOperationResult = z.infer<typeof ideOperationOutputSchema>;
/** What the language servers were doing, as MCP answers carry it (`ide-adapter/indexing.ts` owns the type; this schema describes it). */
export type { IndexingState };
// The schema and the type it describes cannot drift: each must be assignable to the other.
const schemaMatchesType: [z.infer<typeof indexingSchema>, IndexingState] extends [IndexingState, z.infer<typeof indexingSchema>] ? true : never = true;
void schemaMatchesType;

/** The input of `ide_operation`: one program of at most `maxProgramLength` characters, with errors that teach. */
export function ideOperationInputSchema(maxProgramLength: number) {
  return {
    program: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'missing the argument "program": pass a Dialect program as a string, e.g. {"program": "findDefinitions(\\"User\\")"}'
            : `"program" must be a string holding a Dialect program (got ${describeType(issue.input)}), e.g. {"program": "findReferences(findDefinition(\\"User\\"))"}`,
      })
      .max(maxProgramLength, {
        error: `the program is longer than ${maxProgramLength} characters. A Dialect program is one short expression such as findReferences(findDefinition("User")); to read code use lines("src/a.rs", 1, 80), to find text use search("src", "regex") — never paste file contents into the program`,
      })
      .describe('A Dialect program, e.g. findReferences(findDefinition("User")) or search("src", `fn\\s+main`)'),
  };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Sessions whose servers have been started (detected and launched; not necessarily indexed). */
const startedSessions = new WeakSet<IdeSession>();

/** Remembers when a session's servers have started, for {@link indexingState}. */
export function watchStartup(session: IdeSession): void {
  void session.started.then(() => startedSessions.add(session));
}

/** The servers' state right now, as MCP answers carry it (`IndexingState`: the wire form). Before the session's servers have started, nothing is complete. */
export function indexingState(session: IdeSession): IndexingState {
  return indexingOf(session.backend, startedSessions.has(session));
}

/**
 * The status of every server in one bracketed line, for answers that did not run (an internal
 * error). Ordinary answers carry `incompleteMarker` only when incomplete, and their notes once.
 */
export function indexingLine(state: IndexingState): string {
  // Said once per answer, at its end: who answered, when it is not Dialect's own servers.
  const by = state.backend === 'vscode' ? 'answered by VS Code; ' : '';
  if (state.servers.length === 0) return `[${by}language servers: none for this workspace]`;
  if (state.complete) return `[${by}language servers ready: ${state.servers.join('; ')}]`;
  if (!state.stillIndexing) return `[${by}results may be incomplete: ${state.pending.join('; ')}]`;
  return `[${by}still indexing, results may be incomplete — ask again shortly: ${state.pending.join('; ')}]`;
}

/** The structured form of an outcome. */
export function structuredOutcome(outcome: Outcome, indexing: IndexingState): IdeOperationResult {
  const json = outcomeToJson(outcome);
  const notes = [...outcome.notes];
  switch (json.kind) {
    case 'value': {
      const value = json.value;
      if (Array.isArray(value) && value.length > MAX_STRUCTURED_ITEMS) {
        const next = nextPageProgram(outcome.source.text, MAX_STRUCTURED_ITEMS + 1);
        return { kind: 'value', value: value.slice(0, MAX_STRUCTURED_ITEMS), truncated: { total: value.length, shown: MAX_STRUCTURED_ITEMS, next }, indexing, notes };
      }
      return { kind: 'value', value, indexing, notes };
    }
    case 'ambiguity':
      return { kind: 'ambiguity', message: json.message, refinements: json.refinements.map((r) => ({ label: r.label, program: r.program })), indexing, notes };
    case 'error':
      return { kind: 'error', error: outcomeErrorSchema.parse(json.error), indexing, notes };
  }
}

/**
 * The text an agent reads: the answer, its notes (each session fact once), and, when the answer
 * is incomplete, a short marker; never longer than `MAX_ANSWER_CHARS`.
 */
export function outcomeText(outcome: Outcome, marker?: string): string {
  const body = presentOutcome(outcome);
  const lead =
    outcome.kind === 'error'
      ? 'The program did not run. Fix it and call ide_operation again:\n\n'
      : outcome.kind === 'ambiguity'
        ? 'The program is ambiguous. Call ide_operation again with the program of the choice you mean:\n\n'
        : '';
  return capAnswer(`${lead}${body}${marker !== undefined ? `\n${marker}` : ''}`);
}

/** What one `ide_operation` call runs with. */
export interface IdeOperationContext {
  readonly session: IdeSession;
  readonly deadlineMs: number;
  readonly log: (line: string) => void;
}

/** Programs quoted in progress and log lines are cut to this many characters. */
const MAX_QUOTED_PROGRAM = 100;

function abbreviate(program: string): string {
  return truncate(program.replace(/\s+/g, ' ').trim(), MAX_QUOTED_PROGRAM);
}

/** Runs one `ide_operation` call. */
export async function runIdeOperation(ctx: IdeOperationContext, program: string, extra: ToolExtra): Promise<CallToolResult> {
  const { session } = ctx;
  const progress = progressReporter(extra, { onError: (error) => ctx.log(`progress notification failed: ${String(error)}`) });
  let unsubscribe: (() => void) | undefined;
  if (progress.enabled) {
    const state = indexingState(session);
    progress.report(`evaluating ${abbreviate(program)}${state.complete ? '' : ` — waiting for ${state.pending.join('; ')}`}`);
    unsubscribe = session.backend.onStatus((status) => progress.report(statusLine(status)));
  }
  let outcome: Outcome;
  let marker: string | undefined;
  try {
    const answer = await session.answer(program, { signal: extra.signal, deadlineMs: ctx.deadlineMs, moreTime: MCP_MORE_TIME });
    outcome = answer.outcome;
    marker = incompleteMarker(answer.completeness);
  } catch (error) {
    // The interpreter never throws for anything a program does; this is a bug, reported as such.
    ctx.log(`ide_operation failed unexpectedly for ${abbreviate(program)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const indexing = indexingState(session);
    return {
      isError: true,
      content: [{ type: 'text', text: `internal error while evaluating the program: ${error instanceof Error ? error.message : String(error)}\n\n${indexingLine(indexing)}` }],
    };
  } finally {
    unsubscribe?.();
    progress.dispose();
  }
  const indexing = indexingState(session);
  return {
    ...(outcome.kind === 'error' ? { isError: true } : {}),
    content: [{ type: 'text', text: outcomeText(outcome, marker) }],
    structuredContent: structuredOutcome(outcome, indexing),
  };
}
