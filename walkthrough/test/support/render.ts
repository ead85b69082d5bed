/** Rendering helpers for tests that need no workspace. */
import type { Outcome } from '../../../dialect/index.js';
import { SourceText } from '../../../dialect/index.js';
import type { WalkthroughEnvironment } from '../../environment-types.js';
import type { ResolvedWalkthrough, WalkthroughDocument } from '../../model.js';
import { RenderContext } from '../../render-context.js';

/** Resolved without any evaluation (every comment unresolved, no diffs), and its body HTML. */
export function resolvedWithoutEnvironment(document: WalkthroughDocument): { resolved: ResolvedWalkthrough; html: string } {
  const resolved: ResolvedWalkthrough = {
    document,
    comments: document.elements.flatMap((e) => (e.kind === 'comment' ? [{ element: e, resolution: { status: 'unresolved', error: { code: 'no-location', message: 'not resolved', text: 'not resolved' } }, notes: [] }] : [])),
    actions: document.elements.flatMap((e) => (e.kind === 'action' ? [e] : [])),
    diagrams: document.elements.flatMap((e) => (e.kind === 'mermaid' ? [e] : [])),
    diffs: document.elements.flatMap((e) => (e.kind === 'gitdiff' ? [{ element: e, files: [] }] : [])),
    links: document.links.map((link) => ({ link })),
    warnings: document.warnings,
  };
  return { resolved, html: new RenderContext(resolved).bodyHtml() };
}

/** An environment answering every expression with the given outcome maker; files have no lines. */
export function stubEnvironment(answer: (expression: string) => Outcome | Promise<Outcome>, lines: Readonly<Record<string, readonly string[]>> = {}): WalkthroughEnvironment {
  return {
    evaluate: async (expression) => answer(expression),
    readLines: async (path, start, end) => {
      const file = lines[path];
      if (file === undefined) throw new Error(`${path} does not exist`);
      return file.slice(start - 1, end);
    },
    findLine: async (path, regex) => {
      const file = lines[path];
      if (file === undefined) throw new Error(`${path} does not exist`);
      const index = file.findIndex((l) => new RegExp(regex, 'u').test(l));
      return index < 0 ? undefined : { line: index + 1, text: file[index] ?? '' };
    },
    gitDiff: async () => [],
  };
}

/** A value outcome. */
export function valueOutcome(value: unknown, program = 'x'): Outcome {
  return { kind: 'value', value, source: new SourceText(program), notes: [] };
}
