/**
 * `explain(program)`: runs a program with a recorder attached and returns how its answer was made
 * (`trace.ts` has the shapes). Each step of the evaluation (a call, a conversion) runs in its own
 * AsyncLocalStorage scope, so the requests the backend's middleware sees and the drops functions
 * report land in the step that made them, even while other evaluations run beside it. Nothing is
 * attached when no program is explained.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Ambiguity, DialectError, type Interpreter, type StepObserver } from '../dialect/index.js';
import type { Completeness, IdeBackend } from './backend.js';
import type { IdeHost } from './functions/host.js';
import { formatLocation, isLocation, isReference, isSymbolDefinition } from './model.js';
import { displayState, type ServerStatus } from './status.js';
import type { Explanation, TracedRequest, TracedStep, TraceSink } from './trace.js';

/** Candidates listed per step; the rest are counted. */
export const MAX_TRACED_CANDIDATES = 20;

interface MutableStep {
  kind: TracedStep['kind'];
  label: string;
  ms: number;
  result: string;
  requests: TracedRequest[];
  kept: { candidate: string; how: string }[];
  dropped: { candidate: string; why: string }[];
  parts: { label: string; ms: number }[];
  completeness?: string;
  more: { kept: number; dropped: number };
}

/** Runs `program` on `interpreter` with `host` and records each step. */
export async function explainProgram(interpreter: Interpreter<IdeHost>, host: IdeHost, program: string, signal: AbortSignal): Promise<Explanation> {
  const scope = new AsyncLocalStorage<MutableStep>();
  const steps: MutableStep[] = [];
  const started = performance.now();
  const sink: TraceSink = {
    drop(candidate, why) {
      const step = scope.getStore();
      if (step === undefined) return;
      if (step.dropped.length < MAX_TRACED_CANDIDATES) step.dropped.push({ candidate, why });
      else step.more.dropped++;
    },
    keep(candidate, how) {
      const step = scope.getStore();
      if (step === undefined) return;
      if (step.kept.length < MAX_TRACED_CANDIDATES) step.kept.push({ candidate, how });
      else step.more.kept++;
    },
    step(label, ms, completeness) {
      const step = scope.getStore();
      if (step === undefined) return;
      step.parts.push({ label, ms: Math.round(ms) });
      if (completeness !== undefined) step.completeness = completenessText(completeness);
    },
  };
  const observer: StepObserver = (what, run) => {
    const step: MutableStep = { kind: what.kind, label: what.label, ms: 0, result: '', requests: [], kept: [], dropped: [], parts: [], more: { kept: 0, dropped: 0 } };
    steps.push(step);
    const t0 = performance.now();
    return scope.run(step, async () => {
      try {
        const value = await run();
        step.result = summarize(value);
        return value;
      } catch (error) {
        step.result = error instanceof DialectError ? `error[${error.code}]: ${error.message}` : `failed: ${String(error)}`;
        throw error;
      } finally {
        step.ms = Math.round(performance.now() - t0);
      }
    });
  };
  const remove = host.backend.use(async (request, next) => {
    const step = scope.getStore();
    // The wait for the index is a part of its own (`sink.step`), not a request to a server.
    if (step === undefined || request.target === '') return next();
    const t0 = performance.now();
    const server = serverOf(request.target, host.backend);
    try {
      const result = await next();
      step.requests.push({ method: request.method, target: request.target, server, ms: Math.round(performance.now() - t0) });
      return result;
    } catch (error) {
      step.requests.push({ method: request.method, target: request.target, server, ms: Math.round(performance.now() - t0), error: error instanceof DialectError ? error.code : String(error) });
      throw error;
    }
  });
  try {
    const outcome = await interpreter.evaluate(program, { host: { ...host, trace: sink, answer: { completeness: [] } }, signal, observer });
    const summary =
      outcome.kind === 'value'
        ? `value: ${summarize(outcome.value)}`
        : outcome.kind === 'ambiguity'
          ? `ambiguity: ${outcome.message} (${outcome.refinements.length} refinements)`
          : `error[${outcome.error.code}]: ${outcome.error.message}`;
    return {
      explained: program,
      outcome: summary,
      ms: Math.round(performance.now() - started),
      steps: steps.map(({ more, ...s }) => ({
        ...s,
        ...(more.kept > 0 ? { kept: [...s.kept, { candidate: `… and ${more.kept} more`, how: '' }] } : {}),
        ...(more.dropped > 0 ? { dropped: [...s.dropped, { candidate: `… and ${more.dropped} more`, why: '' }] } : {}),
      })),
    };
  } finally {
    remove();
  }
}

/** `complete`, or which servers made a step's answer incomplete. */
function completenessText(c: Completeness): string {
  if (c.complete) return 'complete';
  const incomplete = c.servers.filter((s) => s.state !== 'ready' || s.health !== undefined);
  return `incomplete: ${incomplete.map((s) => `${s.displayName} ${displayState(s)}`).join(', ') || 'servers not ready'}`;
}

/** The server a request went to: the one server, or the one whose language the target's file is in. */
function serverOf(target: string, backend: IdeBackend): string {
  if (backend.answeredBy === 'vscode') return 'VS Code';
  const servers: ServerStatus[] = backend.servers();
  if (servers.length === 1) return servers[0]?.displayName ?? 'the language server';
  const path = /^(.*?\.[A-Za-z0-9]+)(?::\d+:\d+)?$/.exec(target)?.[1];
  const ext = path?.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const language = ext === undefined ? undefined : ext === 'rs' ? 'rust' : /^[cm]?[jt]sx?$/.test(ext) ? (ext.includes('t') ? 'typescript' : 'javascript') : ext;
  const match = servers.find((s) => language !== undefined && s.languages.some((l) => l.startsWith(language)));
  return match?.displayName ?? `every server (${servers.map((s) => s.displayName).join(', ')})`;
}

/** A value in a few words: `3 references`, `struct User at src/model.rs:25:12`. */
export function summarize(value: unknown): string {
  if (value instanceof Ambiguity) return `ambiguous: ${value.candidates.length} candidates`;
  if (Array.isArray(value)) {
    const kind = value.every(isReference) ? 'reference' : value.every(isSymbolDefinition) ? 'symbol' : value.every(isLocation) ? 'location' : 'item';
    const first = value[0] !== undefined ? ` (first: ${summarize(value[0])})` : '';
    return `${value.length} ${kind}${value.length === 1 ? '' : 's'}${value.length > 0 ? first : ''}`;
  }
  if (isReference(value)) return `use at ${formatLocation(value.referencedAt)}`;
  if (isSymbolDefinition(value)) return `${value.kind} ${value.name} at ${formatLocation(value.definedAt)}`;
  if (isLocation(value)) return formatLocation(value);
  if (typeof value === 'string') return `text (${value.length} characters)`;
  if (value === undefined || value === null) return 'nothing';
  return typeof value;
}
