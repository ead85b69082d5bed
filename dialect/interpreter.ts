/**
 * The Dialect interpreter: evaluates a program against a registry, inner calls first, independent
 * arguments concurrently, and ends in exactly one outcome (value, error or ambiguity).
 *
 * Calls are validated before they run (unknown function, missing/unknown/extra arguments) and
 * arguments are type-checked after they are evaluated; a mismatch first tries the registry's
 * conversions. Cancellation (an AbortSignal) and a deadline stop an evaluation promptly and
 * reach the functions it is running.
 */
import { ValueMeter, type EvaluationBudget } from './budget.js';
import { formatDuration, truncate } from './display.js';
import { build, replaceNode, type CallExpr, type Expr, type NamedArgument } from './ast.js';
import type { DialectCode } from './codes.js';
import { planConversion, planCost, type Plan } from './conversions.js';
import { setProperty } from './data.js';
import { Ambiguity, DialectError, EvalCode, type Candidate, type Outcome, type Refinement } from './outcome.js';
import { parse } from './parse.js';
import { printExpr, printValue } from './printer.js';
import { facetsOf, type CallContext, type CandidateSpec, type ConversionContext, type Registry, type RegisteredFunction } from './registry.js';
import { closest } from './suggest.js';
import type { SourceText} from './source.js';
import { type Span } from './source.js';
import { formatType, typeNames, type TypeExpr } from './types.js';

/** Options of one evaluation. */
export interface EvaluateOptions<Host> {
  /** The embedding application's context, handed to every function. */
  readonly host?: Host;
  /** Cancels the evaluation (and the functions it is running). */
  readonly signal?: AbortSignal;
  /** Ends the evaluation with a `deadline-exceeded` error after this many milliseconds. */
  readonly deadlineMs?: number;
  /** How the user of this host raises `deadlineMs` (`--timeout SECONDS`), for the error's hint. */
  readonly moreTime?: string;
  /**
   * How the deadline's error names the deadline, when `deadlineMs` is what was left of a larger
   * one (`the 40 s --timeout, 37.6 s of it spent waiting for the index`); default `deadlineMs`.
   */
  readonly deadlineText?: string;
  /** Values for bare names, such as the REPL's `_`. */
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** What the evaluation's values may hold (default `DEFAULT_EVALUATION_BUDGET`). */
  readonly budget?: EvaluationBudget;
  /** Observes each step (a call, a conversion) as it runs; `explain()` uses it. Absent, steps cost nothing extra. */
  readonly observer?: StepObserver;
}

/** A step of an evaluation as an observer sees it. */
export interface EvaluationStep {
  /** `call` for a function call, `conversion` for converting an argument. */
  readonly kind: 'call' | 'conversion';
  /** The call as written (`findDefinition("User")`), or what is converted to what. */
  readonly label: string;
}

/**
 * Wraps each step of an evaluation: `run` performs it (call it exactly once and return its
 * result); what runs inside it runs in the observer's context (e.g. an AsyncLocalStorage scope).
 */
export type StepObserver = <T>(step: EvaluationStep, run: () => Promise<T>) => Promise<T>;

/** The abort reason for calls still running when their evaluation has already ended. */
const FINISHED = Object.freeze({ code: EvalCode.Cancelled, message: 'the evaluation already ended' });

/** A call that is running, for deadline reports. */
interface Running {
  readonly frame: Frame;
  readonly startedAt: number;
}

/** Internal: an ambiguity travelling up to the point where it becomes the outcome. */
class AmbiguitySignal extends Error {
  constructor(readonly ambiguity: Ambiguity) {
    super(ambiguity.message);
  }
}

/** State shared by the whole evaluation. */
interface Evaluation<Host> {
  readonly registry: Registry<Host>;
  readonly host: Host;
  readonly signal: AbortSignal;
  readonly source: SourceText;
  readonly bindings: Readonly<Record<string, unknown>>;
  readonly running: Set<Running>;
  readonly notes: Set<string>;
  /** Counts every value a function or conversion produces against the budget. */
  readonly meter: ValueMeter;
  /** Ends the evaluation (with the budget error): the calls still running stop. */
  readonly abort: (reason: DialectError) => void;
  readonly observer: StepObserver | undefined;
}

/** Evaluates Dialect programs against one registry. */
export class Interpreter<Host = undefined> {
  constructor(readonly registry: Registry<Host>) {}

  /** Parses and evaluates `program`. Never throws for anything a program or a function does. */
  async evaluate(program: string, options: EvaluateOptions<Host> = {}): Promise<Outcome> {
    const bindings = options.bindings ?? {};
    const parsed = parse(program, { names: new Set(Object.keys(bindings)) });
    if (!parsed.ok) {
      const first = parsed.diagnostics[0];
      const error = new DialectError({
        code: EvalCode.Syntax,
        message: first?.message ?? 'syntax error',
        ...(first?.hint !== undefined ? { hint: first.hint } : {}),
        ...(first !== undefined ? { span: first.span } : {}),
      });
      error.diagnostics = parsed.diagnostics;
      return { kind: 'error', error, source: parsed.source, notes: [] };
    }
    return this.evaluateExpr(parsed.ast, parsed.source, options);
  }

  /** Evaluates an already parsed program. */
  async evaluateExpr(ast: Expr, source: SourceText, options: EvaluateOptions<Host> = {}): Promise<Outcome> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted === true) controller.abort(options.signal.reason);
    const startedAt = Date.now();
    const evaluation: Evaluation<Host> = {
      registry: this.registry,
      host: options.host as Host,
      signal: controller.signal,
      source,
      bindings: options.bindings ?? {},
      running: new Set(),
      notes: new Set(),
      meter: new ValueMeter(options.budget),
      abort: (reason) => controller.abort(reason),
      observer: options.observer,
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      if (options.deadlineMs !== undefined) {
        timer = setTimeout(() => {
          const still = [...evaluation.running].map((r) => `${String(r.frame)} (running for ${Date.now() - r.startedAt} ms)`);
          const error = new DialectError({
            code: EvalCode.DeadlineExceeded,
            message: `the evaluation did not finish within ${options.deadlineText ?? formatDuration(options.deadlineMs as number)}`,
            hint: `narrow the query (a file: or kind: argument), or allow more time${options.moreTime !== undefined ? ` (${options.moreTime})` : ''}`,
            notes: still.length > 0 ? [`still running: ${still.join('; ')}`] : [],
          });
          controller.abort(error);
          reject(error);
        }, options.deadlineMs);
      }
    });
    const cancelled = new Promise<never>((_, reject) => {
      const fail = (): void =>
        reject(
          controller.signal.reason instanceof DialectError
            ? controller.signal.reason
            : new DialectError({ code: EvalCode.Cancelled, message: 'the evaluation was cancelled' }),
        );
      if (controller.signal.aborted) fail();
      else controller.signal.addEventListener('abort', fail, { once: true });
    });
    // The race keeps these two from rejecting unobserved.
    deadline.catch(() => undefined);
    cancelled.catch(() => undefined);
    try {
      const value = await Promise.race([evalExpr(evaluation, ast, [], false), deadline, cancelled]);
      return { kind: 'value', value: normalize(value), source, notes: [...evaluation.notes] };
    } catch (failure) {
      return this.#failureOutcome(failure, ast, source, evaluation, startedAt);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Stop whatever is still running (siblings of a failed argument). After a plain success
      // nothing runs, and an abort (whose reason captures a stack trace) would only cost time.
      if (!controller.signal.aborted && evaluation.running.size > 0) controller.abort(FINISHED);
    }
  }

  #failureOutcome(failure: unknown, root: Expr, source: SourceText, evaluation: Evaluation<Host>, _startedAt: number): Outcome {
    const notes = [...evaluation.notes];
    if (failure instanceof AmbiguitySignal) {
      const { ambiguity } = failure;
      const node = ambiguity.node ?? root;
      // Each refinement is the whole program again: listing every candidate of a long list would
      // cost candidates × program length, so the list stops at a count and at a total size.
      const refinements: Refinement[] = [];
      let printed = 0;
      for (const c of ambiguity.candidates) {
        if (refinements.length >= MAX_REFINEMENTS || (refinements.length > 0 && printed >= MAX_REFINEMENT_CHARS)) break;
        const program = printExpr(replaceNode(root, node, c.replacement), { mode: 'pretty', width: 200 });
        printed += program.length;
        refinements.push({ label: c.label, program, value: normalize(c.value) });
      }
      const left = ambiguity.candidates.length - refinements.length;
      if (left > 0) notes.push(`${left} more candidate${left === 1 ? '' : 's'} not listed (the first ${refinements.length} are): narrow the program, e.g. with pick(…, field: value)`);
      return { kind: 'ambiguity', message: ambiguity.message, refinements, source, notes };
    }
    if (failure instanceof DialectError) return { kind: 'error', error: failure, source, notes };
    const error = new DialectError({
      code: EvalCode.FunctionFailed,
      message: `internal error: ${failure instanceof Error ? failure.message : String(failure)}`,
      cause: failure,
    });
    return { kind: 'error', error, source, notes };
  }
}

/** A call in the chain; described (`f(…) at 1:3`) only when an error or a deadline needs it. */
class Frame {
  constructor(
    private readonly call: CallExpr,
    private readonly source: SourceText,
  ) {}

  toString(): string {
    const p = this.source.position(this.call.span.start);
    return `${this.call.callee}(…) at ${p.line}:${p.column}`;
  }
}

/** The enclosing calls, outermost first. */
type Frames = readonly Frame[];

async function evalExpr<Host>(ev: Evaluation<Host>, expr: Expr, frames: Frames, acceptAmbiguity: boolean): Promise<unknown> {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'reference': {
      if (Object.prototype.hasOwnProperty.call(ev.bindings, expr.name)) {
        const bound = ev.bindings[expr.name];
        // A bound ambiguity (the REPL's `_` after one) is chosen from with pick/only; used where
        // one value is needed, it is the same ambiguity again, its choices substituted here.
        if (bound instanceof Ambiguity && !acceptAmbiguity) {
          const again = new Ambiguity(bound.message, bound.candidates);
          again.node = expr;
          throw new AmbiguitySignal(again);
        }
        return bound;
      }
      throw located(new DialectError({ code: EvalCode.UnknownName, message: `\`${expr.name}\` is not bound`, hint: `quote it to pass text: "${expr.name}"` }), expr.span, frames);
    }
    case 'array': {
      const values = await settleInOrder(expr.elements.map((e) => evalExpr(ev, e, frames, false)));
      return values.map((v) => (v === undefined ? null : v));
    }
    case 'object': {
      const asCall = objectCall(ev.registry, expr);
      if (asCall !== undefined) return evalCall(ev, asCall, frames, acceptAmbiguity);
      const values = await settleInOrder(expr.properties.map((p) => evalExpr(ev, p.value, frames, false)));
      const out: Record<string, unknown> = {};
      expr.properties.forEach((p, i) => {
        const v = values[i];
        if (v === undefined) delete out[p.key];
        else setProperty(out, p.key, v);
      });
      return out;
    }
    case 'call':
      return evalCall(ev, expr, frames, acceptAmbiguity);
  }
}

/**
 * The RFC's call form: `{"findReferences": {"to": "User"}}` — a single-key object whose key names
 * a registered function and whose value is an object literal — is that call with named arguments.
 */
function objectCall<Host>(registry: Registry<Host>, expr: Expr & { kind: 'object' }): CallExpr | undefined {
  if (expr.properties.length !== 1) return undefined;
  const [p] = expr.properties as [(typeof expr.properties)[number]];
  if (p.value.kind !== 'object' || registry.lookup(p.key) === undefined) return undefined;
  const namedArgs: NamedArgument[] = p.value.properties.map((q) => ({ name: q.key, nameSpan: q.keySpan, value: q.value }));
  return { kind: 'call', callee: p.key, calleeSpan: p.keySpan, args: [], namedArgs, span: expr.span };
}

/** Awaits all promises; rethrows the first failure in source order (not the first to happen). */
async function settleInOrder(promises: readonly Promise<unknown>[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(promises);
  const values: unknown[] = [];
  for (const s of settled) {
    if (s.status === 'rejected') throw s.reason;
    values.push(s.value);
  }
  return values;
}

function located(error: DialectError, span: Span, frames: Frames): DialectError {
  if (error.span === undefined) error.span = span;
  if (error.chain.length === 0) error.chain = frames.map(String);
  return error;
}

async function evalCall<Host>(ev: Evaluation<Host>, call: CallExpr, frames: Frames, acceptAmbiguity: boolean): Promise<unknown> {
  const fn = ev.registry.lookup(call.callee);
  if (fn === undefined) throw located(unknownFunction(ev.registry, call), call.calleeSpan, frames);
  const here = [...frames, new Frame(call, ev.source)];
  const binding = bindArguments(ev.registry, fn, call, frames);

  // Evaluate every argument expression concurrently; fail on the first failure in source order.
  const evaluated = await settleInOrder(
    binding.map((b) =>
      b.kind === 'value'
        ? evalExpr(ev, b.expr, here, fn.parameters[b.param]?.acceptsAmbiguity === true)
        : b.kind === 'rest-positional'
          ? settleInOrder(b.exprs.map((e) => evalExpr(ev, e, here, false)))
          : b.kind === 'rest-named'
            ? settleInOrder(b.entries.map(([, e]) => evalExpr(ev, e, here, false)))
            : Promise.resolve(b.value),
    ),
  );

  const args: Record<string, unknown> = {};
  await settleInOrder(
    binding.map(async (b, i) => {
      const param = fn.parameters[b.param];
      if (param === undefined) return;
      let value = evaluated[i];
      if (b.kind === 'rest-named') {
        const entries: Record<string, unknown> = {};
        b.entries.forEach(([name], j) => setProperty(entries, name, (value as unknown[])[j]));
        args[param.name] = entries;
        return;
      }
      if (b.kind === 'rest-positional') {
        const type = fn.parameterTypes[b.param] as TypeExpr;
        args[param.name] = await settleInOrder((value as unknown[]).map((v, j) => coerce(ev, fn, param.name, v, type, b.exprs[j] ?? call, here)));
        return;
      }
      if (value === undefined && b.kind === 'value') value = param.default;
      if (value === undefined) {
        // An explicit `undefined` counts as omitted, which a required parameter does not allow.
        if (param.optional !== true && b.kind === 'value') {
          throw located(
            new DialectError({
              code: EvalCode.MissingArgument,
              message: `\`${fn.name}\` needs a value for \`${param.name}\` (${param.type}), but it evaluated to undefined`,
              hint: `pass ${param.type} here`,
              signature: ev.registry.signature(fn),
            }),
            b.expr.span,
            here,
          );
        }
        return;
      }
      if (value instanceof Ambiguity && param.acceptsAmbiguity === true) {
        args[param.name] = value;
        return;
      }
      const expr = b.kind === 'value' ? b.expr : call;
      args[param.name] = await coerce(ev, fn, param.name, value, fn.parameterTypes[b.param] as TypeExpr, expr, here);
    }),
  );

  return invoke(ev, fn, call, args, frames, here, acceptAmbiguity);
}

/** How each parameter is supplied. */
type Bound =
  | { readonly kind: 'value'; readonly param: number; readonly expr: Expr }
  | { readonly kind: 'default'; readonly param: number; readonly value: unknown }
  | { readonly kind: 'rest-positional'; readonly param: number; readonly exprs: readonly Expr[] }
  | { readonly kind: 'rest-named'; readonly param: number; readonly entries: readonly (readonly [string, Expr])[] };

/** Maps positional and named arguments to parameters; validates before anything runs. */
function bindArguments<Host>(registry: Registry<Host>, fn: RegisteredFunction<Host>, call: CallExpr, frames: Frames): Bound[] {
  const params = fn.parameters;
  const signature = registry.signature(fn);
  const example = fn.examples[0]?.program;
  const fail = (code: DialectCode, message: string, span: Span, hint: string): never => {
    throw located(new DialectError({ code, message, hint, signature, ...(example !== undefined ? { example } : {}) }), span, frames);
  };
  const bound: Bound[] = [];
  const supplied = new Set<number>();
  const restPositional = params.findIndex((p) => p.rest === 'positional');
  const restNamed = params.findIndex((p) => p.rest === 'named');
  const fixed = params.filter((p) => p.rest === undefined).length;

  // Positional arguments fill the non-rest parameters in declared order, then the positional rest.
  const positionalRest: Expr[] = [];
  call.args.forEach((expr, i) => {
    if (i < fixed) {
      bound.push({ kind: 'value', param: i, expr });
      supplied.add(i);
    } else if (restPositional >= 0) positionalRest.push(expr);
    else {
      fail(
        EvalCode.TooManyArguments,
        `\`${fn.name}\` takes at most ${fixed} argument${fixed === 1 ? '' : 's'}, but ${call.args.length} were given`,
        expr.span,
        fixed === 0 ? `call it with no arguments: ${fn.name}()` : `remove the extra argument(s), or name them: ${signature}`,
      );
    }
  });
  if (restPositional >= 0) bound.push({ kind: 'rest-positional', param: restPositional, exprs: positionalRest });

  const namedRest: (readonly [string, Expr])[] = [];
  for (const arg of call.namedArgs) {
    const wanted = arg.name.toLowerCase();
    const index = params.findIndex((p) => p.rest === undefined && (p.name.toLowerCase() === wanted || (p.aliases ?? []).some((a) => a.toLowerCase() === wanted)));
    if (index < 0) {
      if (restNamed >= 0) {
        namedRest.push([arg.name, arg.value]);
        continue;
      }
      const known = params.filter((p) => p.rest === undefined).map((p) => p.name);
      const near = closest(arg.name, known, 1);
      fail(
        EvalCode.UnknownArgument,
        `\`${fn.name}\` has no parameter named \`${arg.name}\``,
        arg.nameSpan,
        near.length > 0 ? `did you mean \`${near[0]}\`? Parameters: ${known.join(', ')}` : known.length > 0 ? `its parameters are: ${known.join(', ')}` : `${fn.name} takes no named arguments`,
      );
    }
    if (supplied.has(index)) {
      fail(EvalCode.TooManyArguments, `\`${params[index]?.name}\` is given both by position and by name`, arg.nameSpan, `give it once: ${signature}`);
    }
    bound.push({ kind: 'value', param: index, expr: arg.value });
    supplied.add(index);
  }
  if (restNamed >= 0) bound.push({ kind: 'rest-named', param: restNamed, entries: namedRest });

  params.forEach((p, i) => {
    if (p.rest !== undefined || supplied.has(i)) return;
    if (p.optional === true) {
      if (p.default !== undefined) bound.push({ kind: 'default', param: i, value: p.default });
      return;
    }
    fail(
      EvalCode.MissingArgument,
      `\`${fn.name}\` needs the argument \`${p.name}\` (${p.type}): ${p.description}`,
      { start: call.span.end - 1, end: call.span.end },
      `for example: ${example ?? signature}`,
    );
  });
  return bound;
}

/** Type-checks one argument, converting it when a registered conversion path applies. */
async function coerce<Host>(
  ev: Evaluation<Host>,
  fn: RegisteredFunction<Host>,
  paramName: string,
  value: unknown,
  type: TypeExpr,
  expr: Expr,
  frames: Frames,
): Promise<unknown> {
  const plan = planConversion(ev.registry, value, type);
  if (plan !== undefined && planCost(plan) > 0) refuseBareLiteralName(ev, fn, paramName, value, type, expr, frames);
  if (plan === undefined) {
    const have = ev.registry.typesOf(value);
    throw located(
      new DialectError({
        code: EvalCode.TypeMismatch,
        message: `argument \`${paramName}\` of \`${fn.name}\` must be ${formatType(type)}, but got ${describeValue(value, have)}`,
        hint: have.length > 0 ? `no registered conversion turns ${have[0]} into ${formatType(type)}` : 'pass a value of the expected type',
        signature: ev.registry.signature(fn),
        ...(fn.examples[0] !== undefined ? { example: fn.examples[0].program } : {}),
      }),
      expr.span,
      frames,
    );
  }
  if (planCost(plan) === 0) return checkWords(fn, paramName, value, expr, frames);
  const prefers = fn.parameters.find((p) => p.name === paramName)?.prefers;
  if (prefers === undefined) return checkWords(fn, paramName, await applyPlan(ev, plan, value, expr, frames), expr, frames);
  try {
    return await applyPlan(ev, plan, value, expr, frames);
  } catch (error) {
    if (!(error instanceof AmbiguitySignal)) throw error;
    const usable = error.ambiguity.candidates.filter((c) => prefers(c.value));
    if (usable.length === 1) return (usable[0] as { value: unknown }).value;
    if (usable.length === 0 || usable.length === error.ambiguity.candidates.length) throw error;
    // The message counted every candidate; the list holds only those this function applies to.
    const narrowed = new Ambiguity(`${error.ambiguity.message}, ${usable.length} of which \`${fn.name}\` applies to`, usable);
    narrowed.node = error.ambiguity.node;
    throw new AmbiguitySignal(narrowed);
  }
}

/**
 * A number, boolean or null (or a list holding one) given where a parameter accepts a type named
 * by text (a symbol): an error at the argument, never the number written out and looked up as a
 * name. The fix quotes it, when it is written as a literal.
 */
function refuseBareLiteralName<Host>(ev: Evaluation<Host>, fn: RegisteredFunction<Host>, paramName: string, value: unknown, type: TypeExpr, expr: Expr, frames: Frames): void {
  const named = [...new Set(typeNames(type))].filter((t) => ev.registry.type(t)?.namedByText === true);
  if (named.length === 0) return;
  const bare = (v: unknown): boolean => v === null || typeof v === 'number' || typeof v === 'boolean';
  const found: unknown = bare(value) ? value : Array.isArray(value) ? (value as unknown[]).find(bare) : undefined;
  if (found === undefined) return;
  const written = printValue(found, { mode: 'compact' });
  const quoted = expr.kind === 'literal' ? ev.source.text.slice(0, expr.span.start) + JSON.stringify(written) + ev.source.text.slice(expr.span.end) : undefined;
  throw located(
    new DialectError({
      code: EvalCode.TypeMismatch,
      message: `argument \`${paramName}\` of \`${fn.name}\` is a name or a ${named.join(' or ')}, but got ${found === null ? 'null' : `the ${typeof found} ${written}`}`,
      hint: `a name is text in quotes: ${JSON.stringify(written)}`,
      signature: ev.registry.signature(fn),
      ...(quoted !== undefined ? { example: quoted } : fn.examples[0] !== undefined ? { example: fn.examples[0].program } : {}),
    }),
    Array.isArray(value) && expr.kind === 'array' ? (expr.elements[value.indexOf(found)]?.span ?? expr.span) : expr.span,
    frames,
  );
}

/** The value, when its parameter takes any word or this one; else an `invalid-argument` error at the argument with the closest words. */
function checkWords<Host>(fn: RegisteredFunction<Host>, paramName: string, value: unknown, expr: Expr, frames: Frames): unknown {
  const words = fn.parameters.find((p) => p.name === paramName)?.words;
  if (words === undefined || typeof value !== 'string' || words.accepts(value)) return value;
  const list = words.list();
  const near = closest(value, list);
  throw located(
    new DialectError({
      code: EvalCode.InvalidArgument,
      message: `${JSON.stringify(value)} is not ${words.describe}`,
      hint: `${near.length > 0 ? `did you mean ${near.map((n) => JSON.stringify(n)).join(', ')}? ` : ''}\`${paramName}\` takes one of: ${list.join(', ')}`,
    }),
    expr.span,
    frames,
  );
}

async function applyPlan<Host>(ev: Evaluation<Host>, plan: Plan<Host>, value: unknown, expr: Expr, frames: Frames): Promise<unknown> {
  switch (plan.kind) {
    case 'direct':
      return value;
    case 'lift':
      return [await applyPlan(ev, plan.inner, value, expr, frames)];
    case 'unwrap': {
      const items = value as unknown[];
      if (items.length === 1) return applyPlan(ev, plan.plans[0] as Plan<Host>, items[0], expr, frames);
      const values = await settleInOrder(plan.plans.map((p, i) => applyPlan(ev, p, items[i], expr, frames)));
      const ambiguity = new Ambiguity(
        `one value is expected here, but the list has ${items.length}`,
        values.map((v, i) => ({
          label: ev.registry.describe(items[i]),
          value: v,
          replacement: build.call('pick', [expr, build.literal(i + 1)]),
          facets: {},
        })),
      );
      ambiguity.node = expr;
      throw new AmbiguitySignal(ambiguity);
    }
    case 'elements': {
      const items = value as unknown[];
      const elementExprs = expr.kind === 'array' && expr.elements.length === items.length ? expr.elements : undefined;
      return settleInOrder(plan.plans.map((p, i) => applyPlan(ev, p, items[i], elementExprs?.[i] ?? expr, frames)));
    }
    case 'path': {
      const target = plan.steps[plan.steps.length - 1]?.toType ?? 'the expected type';
      const original = describeValue(value, ev.registry.typesOf(value));
      let current = value;
      for (const step of plan.steps) {
        const ctx: ConversionContext<Host> = {
          signal: ev.signal,
          host: ev.host,
          registry: ev.registry,
          expression: expr,
          ambiguous: (message, candidates) => {
            const a = new Ambiguity(
              message,
              candidates.map((c) => ({ label: c.label, value: c.value, replacement: c.replacement, facets: c.facets ?? {} })),
            );
            a.node = expr;
            return a;
          },
          note: (message) => ev.notes.add(message),
        };
        let result: unknown;
        try {
          const input = current;
          result = ev.observer === undefined ? await step.convert(input, ctx) : await ev.observer({ kind: 'conversion', label: `${describeValue(input, ev.registry.typesOf(input))} → ${step.toType}` }, async () => step.convert(input, ctx));
        } catch (error) {
          if (error instanceof AmbiguitySignal) throw error;
          const base = error instanceof DialectError ? error : undefined;
          throw located(
            new DialectError({
              code: base?.code ?? EvalCode.ConversionFailed,
              message: `cannot use ${original} as ${target}: ${error instanceof Error ? error.message : String(error)}`,
              hint: base?.hint ?? step.description,
              cause: error,
            }),
            expr.span,
            frames,
          );
        }
        if (result instanceof Ambiguity) {
          if (result.node === undefined) result.node = expr;
          throw new AmbiguitySignal(result);
        }
        meter(ev, () => ev.meter.charge(result, `a conversion to ${step.toType}`), expr.span, frames);
        current = result;
      }
      return current;
    }
  }
}

async function invoke<Host>(
  ev: Evaluation<Host>,
  fn: RegisteredFunction<Host>,
  call: CallExpr,
  args: Record<string, unknown>,
  frames: Frames,
  here: Frames,
  acceptAmbiguity: boolean,
): Promise<unknown> {
  if (ev.signal.aborted) throw cancellation(ev);
  const ctx: CallContext<Host> = {
    signal: ev.signal,
    host: ev.host,
    call,
    registry: ev.registry,
    ambiguous: (message, candidates) => makeAmbiguity(message, call, candidates),
    fail: (code, message, hint) => {
      throw located(new DialectError({ code, message, ...(hint !== undefined ? { hint } : {}), signature: ev.registry.signature(fn) }), call.span, frames);
    },
    note: (message) => ev.notes.add(message),
    reserve: (bytes, items = 0) => {
      prepaid.bytes += bytes;
      prepaid.items += items;
      meter(ev, () => ev.meter.reserve(bytes, items, `${fn.name}(…)`), call.span, frames);
    },
  };
  const prepaid = { bytes: 0, items: 0 };
  const running: Running = { frame: here[here.length - 1] as Frame, startedAt: Date.now() };
  ev.running.add(running);
  let result: unknown;
  try {
    if (ev.observer === undefined) {
      await ev.registry.prepare(fn, args, ctx);
      result = await fn.implementation(args, ctx);
    } else {
      result = await ev.observer({ kind: 'call', label: ev.source.text.slice(call.span.start, call.span.end) }, async () => {
        await ev.registry.prepare(fn, args, ctx);
        return fn.implementation(args, ctx);
      });
    }
  } catch (error) {
    if (error instanceof DialectError) throw located(error, call.span, frames);
    if (ev.signal.aborted) throw cancellation(ev);
    throw located(
      new DialectError({
        code: EvalCode.FunctionFailed,
        message: `${fn.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      }),
      call.span,
      frames,
    );
  } finally {
    ev.running.delete(running);
  }
  const counted = result instanceof Ambiguity ? result.candidates.map((c) => c.value) : result;
  meter(ev, () => ev.meter.charge(counted, `${fn.name}(…)`, prepaid), call.span, frames);
  if (result instanceof Ambiguity) {
    if (result.node === undefined) result.node = call;
    if (acceptAmbiguity) return result;
    throw new AmbiguitySignal(result);
  }
  return result;
}

/**
 * Runs a count against the budget; past it, the budget error (located here) also ends the
 * evaluation, so concurrent calls stop instead of building more.
 */
function meter<Host>(ev: Evaluation<Host>, count: () => void, span: Span, frames: Frames): void {
  try {
    count();
  } catch (error) {
    if (!(error instanceof DialectError)) throw error;
    const located_ = located(error, span, frames);
    ev.abort(located_);
    throw located_;
  }
}

function cancellation<Host>(ev: Evaluation<Host>): DialectError {
  const reason: unknown = ev.signal.reason;
  return reason instanceof DialectError ? reason : new DialectError({ code: EvalCode.Cancelled, message: 'the evaluation was cancelled' });
}

/** Builds an ambiguity whose candidates re-run `call` with their refinement arguments. */
export function makeAmbiguity(message: string, call: CallExpr, specs: readonly CandidateSpec[]): Ambiguity {
  const candidates: Candidate[] = specs.map((spec) => ({
    label: spec.label,
    value: spec.value,
    replacement: spec.replacement ?? refineCall(call, spec.refine ?? {}),
    facets: facetsOf(spec),
  }));
  const ambiguity = new Ambiguity(message, candidates);
  ambiguity.node = call;
  return ambiguity;
}

/** `call` with the given named arguments added (replacing any of the same name). */
export function refineCall(call: CallExpr, refine: Readonly<Record<string, unknown>>): CallExpr {
  const names = new Set(Object.keys(refine).map((k) => k.toLowerCase()));
  const kept = call.namedArgs.filter((a) => !names.has(a.name.toLowerCase()));
  const added = Object.entries(refine).map(([name, value]) => [name, valueExpr(value)] as const);
  return build.call(call.callee, call.args, [...kept.map((a) => [a.name, a.value] as const), ...added]);
}

function valueExpr(value: unknown): Expr {
  const r = parse(printValue(value, { mode: 'compact' }));
  return r.ok ? r.ast : build.literal(null);
}

function unknownFunction<Host>(registry: Registry<Host>, call: CallExpr): DialectError {
  const names = registry.callableNames;
  const near = closest(call.callee, names);
  return new DialectError({
    code: EvalCode.UnknownFunction,
    message: `unknown function \`${call.callee}\``,
    hint: near.length > 0 ? `did you mean ${near.map((n) => `\`${n}\``).join(', ')}?` : 'call help() to list the functions',
    notes: [`available functions: ${registry.functions.map((f) => f.name).join(', ')}`],
  });
}

/** Values described in type errors are cut to this many characters. */
const MAX_DESCRIBED_VALUE = 60;

/** An ambiguity lists at most this many refinements (each a whole program), and a note says how many more there were. */
const MAX_REFINEMENTS = 100;

/** …and stops once its refinements total this many characters (always listing one). */
const MAX_REFINEMENT_CHARS = 1_000_000;

function describeValue(value: unknown, types: readonly string[]): string {
  const shown = printValue(value, { mode: 'compact' });
  const text = truncate(shown, MAX_DESCRIBED_VALUE);
  return `${types[0] ?? typeof value} ${text}`;
}

/** Makes a result plain JSON data (drops undefined properties, turns undefined elements into null). */
function normalize(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Ambiguity) return value.candidates.map((c) => normalize(c.value));
  return value;
}
