/**
 * What `explain()` records about how an answer was made, as data: the steps of the evaluation
 * (calls and conversions), the requests each sent to which server and how long they took, the
 * candidates a step saw and dropped (and why), and how complete each step's answer was.
 *
 * The IDE functions see only {@link TraceSink}, on `ctx.host.trace`, which is present only while a
 * program is explained: `ctx.host.trace?.drop(…)` costs one property read otherwise (optional
 * chaining skips the arguments too). `explain.ts` records; `present.ts` shows it.
 */
import type { Completeness } from './backend.js';

/** Where functions report what they decided, while a program is explained. */
export interface TraceSink {
  /** A candidate the step saw and left out, and why (`a fuzzy workspace/symbol hit: "Users" is not "User"`). */
  drop(candidate: string, why: string): void;
  /** A candidate the step saw and kept (`struct User at src/model.rs:25:12`), with how it was found. */
  keep(candidate: string, how: string): void;
  /** A part of the step that took time of its own (waiting for the index), with the completeness it ended with. */
  step(label: string, ms: number, completeness?: Completeness): void;
}

/** One request a step sent. */
export interface TracedRequest {
  /** The LSP method (`workspace/symbol`, `textDocument/references`). */
  readonly method: string;
  /** What it asked about (`src/model.rs:25:12`, a query). */
  readonly target: string;
  /** Which server answered (its display name), or who: `VS Code`. */
  readonly server: string;
  readonly ms: number;
  /** The error code when it failed. */
  readonly error?: string;
}

/** One step of an explained evaluation. */
export interface TracedStep {
  readonly kind: 'call' | 'conversion';
  /** The call as written, or `"User" → symbol`. */
  readonly label: string;
  readonly ms: number;
  /** What it returned (`3 references`, `struct User at src/model.rs:25:12`), or its error. */
  readonly result: string;
  readonly requests: readonly TracedRequest[];
  readonly kept: readonly { readonly candidate: string; readonly how: string }[];
  readonly dropped: readonly { readonly candidate: string; readonly why: string }[];
  /** Sub-steps with their own time (the wait for the index). */
  readonly parts: readonly { readonly label: string; readonly ms: number }[];
  /** `complete`, or what made this step's answer incomplete (`rust-analyzer degraded`). */
  readonly completeness?: string;
}

/** How an answer was made: what `explain(program)` returns. */
export interface Explanation {
  readonly explained: string;
  /** `value`, `error` or `ambiguity`, with a one-line summary of it. */
  readonly outcome: string;
  readonly steps: readonly TracedStep[];
  readonly ms: number;
}

/** Whether a value is an {@link Explanation} (for presenting it). */
export function isExplanation(value: unknown): value is Explanation {
  return typeof value === 'object' && value !== null && typeof (value as Explanation).explained === 'string' && Array.isArray((value as Explanation).steps);
}
