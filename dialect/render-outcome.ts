/**
 * Presenting outcomes: as text for people and models (values printed as Dialect, errors with the
 * caret snippet, ambiguities as numbered refinements) and as JSON for programs.
 */
import type { Expr } from './ast.js';
import type { DialectCode } from './codes.js';
import { resolveDiagnostic, type ResolvedDiagnostic } from './diagnostics.js';
import type { Outcome } from './outcome.js';
import { printValue } from './printer.js';
import { cutMiddle, MAX_DIAGNOSTIC_TEXT } from './display.js';
import { boundDiagnosticTexts, renderDiagnostic } from './render.js';
import type { Range } from './source.js';

/** How an outcome is rendered as text. */
export interface RenderOutcomeOptions {
  readonly color?: boolean;
  /** Prints values of types with constructors as programs. */
  readonly registry?: { toExpr(value: unknown): Expr | undefined };
  /** Line width for values. Default 100. */
  readonly width?: number;
}

/** The outcome as text. */
export function renderOutcome(outcome: Outcome, options: RenderOutcomeOptions = {}): string {
  const notes = outcome.notes.map((n) => `note: ${n}`);
  switch (outcome.kind) {
    case 'value': {
      const registry = options.registry;
      const text = printValue(outcome.value, { width: options.width ?? 100, ...(registry !== undefined ? { toExpr: (v) => registry.toExpr(v) } : {}) });
      return [text, ...notes].join('\n');
    }
    case 'error':
      return [renderError(outcome, options), ...notes].join('\n');
    case 'ambiguity': {
      const lines = [`ambiguous: ${outcome.message}`, 'Run one of these to choose:'];
      outcome.refinements.forEach((r, i) => {
        lines.push(`  ${i + 1}. ${r.label}`, `     ${r.program.replace(/\n/g, '\n     ')}`);
      });
      return [...lines, ...notes].join('\n');
    }
  }
}

function renderError(outcome: Outcome & { kind: 'error' }, options: RenderOutcomeOptions): string {
  const { error, source } = outcome;
  if (error.diagnostics.length > 0) return error.diagnostics.map((d) => renderDiagnostic(d, source, { color: options.color === true })).join('\n\n');
  const notes = [
    ...(error.signature !== undefined ? [`expected: ${error.signature}`] : []),
    ...(error.example !== undefined ? [`example: ${error.example}`] : []),
    ...(error.chain.length > 0 ? [`while evaluating ${error.chain.slice().reverse().join(', inside ')}`] : []),
    ...error.notes,
  ];
  return renderDiagnostic(
    {
      code: error.code,
      message: error.message,
      ...(error.span !== undefined ? { span: error.span } : {}),
      ...(error.hint !== undefined ? { hint: error.hint } : {}),
      notes,
    },
    source,
    { color: options.color === true },
  );
}

/** The outcome as JSON data (for `--json`, MCP structured content, tests). */
export type OutcomeJson =
  | { readonly kind: 'value'; readonly value: unknown; readonly notes: readonly string[] }
  | {
      readonly kind: 'error';
      readonly error: {
        readonly code: DialectCode;
        readonly message: string;
        readonly range?: Range;
        readonly hint?: string;
        readonly signature?: string;
        readonly example?: string;
        readonly chain: readonly string[];
        readonly notes: readonly string[];
        readonly diagnostics?: readonly ResolvedDiagnostic[];
      };
      readonly rendered: string;
      readonly notes: readonly string[];
    }
  | {
      readonly kind: 'ambiguity';
      readonly message: string;
      readonly refinements: readonly { readonly label: string; readonly program: string; readonly value: unknown }[];
      readonly notes: readonly string[];
    };

/** The outcome as JSON data, with the error rendered and spans resolved to lines and columns. */
export function outcomeToJson(outcome: Outcome): OutcomeJson {
  switch (outcome.kind) {
    case 'value':
      return { kind: 'value', value: outcome.value, notes: outcome.notes };
    case 'ambiguity':
      return { kind: 'ambiguity', message: outcome.message, refinements: outcome.refinements, notes: outcome.notes };
    case 'error': {
      const e = outcome.error;
      const cut = (text: string): string => cutMiddle(text, MAX_DIAGNOSTIC_TEXT);
      return {
        kind: 'error',
        error: {
          code: e.code,
          message: cut(e.message),
          ...(e.span !== undefined ? { range: outcome.source.range(e.span) } : {}),
          ...(e.hint !== undefined ? { hint: cut(e.hint) } : {}),
          ...(e.signature !== undefined ? { signature: e.signature } : {}),
          ...(e.example !== undefined ? { example: e.example } : {}),
          chain: e.chain.map(cut),
          notes: e.notes.map(cut),
          ...(e.diagnostics.length > 0 ? { diagnostics: e.diagnostics.map((d) => resolveDiagnostic(boundDiagnosticTexts(d), outcome.source)) } : {}),
        },
        rendered: renderOutcome(outcome),
        notes: outcome.notes,
      };
    }
  }
}
