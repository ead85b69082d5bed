/**
 * From evaluated values to displayable code locations: the line's text and a few lines of context
 * around it, read through the environment.
 */
import { MAX_LABEL_LENGTH, printValue, truncate } from '../dialect/index.js';
import { isReference, isSymbolDefinition, locationsOf, type Location } from '../ide-adapter/model.js';
import type { WalkthroughEnvironment } from './environment-types.js';
import type { CodeLocation } from './model.js';

/** Lines of context shown above and below a location. */
export const DEFAULT_CONTEXT_LINES = 3;
/** A multi-line location shows at most this many of its own lines besides the context. */
const MAX_SPAN_LINES = 12;

/** Reads the context of a location; a file that cannot be read gives no context, not an error. */
export async function toCodeLocation(location: Location, env: Pick<WalkthroughEnvironment, 'readLines'>, contextLines: number = DEFAULT_CONTEXT_LINES): Promise<CodeLocation> {
  const line = Math.max(1, location.start.line);
  const last = Math.max(line, Math.min(location.end.line, line + MAX_SPAN_LINES));
  const startLine = Math.max(1, line - contextLines);
  let lines: readonly string[] = [];
  try {
    lines = await env.readLines(location.path, startLine, last + contextLines);
  } catch {
    lines = [];
  }
  const text = location.content !== '' ? location.content : (lines[line - startLine] ?? '');
  return {
    path: location.path,
    line,
    column: location.start.column,
    endLine: location.end.line,
    endColumn: location.end.column,
    text,
    context: { startLine: lines.length > 0 ? startLine : line, lines },
  };
}

/** `path:line` */
export function formatCodeLocation(location: { readonly path: string; readonly line: number }): string {
  return `${location.path}:${location.line}`;
}

/** A short description of one value of a result list, for a choice's label. */
export function describeValue(value: unknown): string {
  const where = locationsOf(value)[0];
  const at = where !== undefined ? `${where.path}:${where.start.line}` : '';
  if (isReference(value)) return `${value.name} used at ${at}`;
  if (isSymbolDefinition(value)) return `${value.kind} ${value.container !== undefined ? `${value.container}::` : ''}${value.name} in ${at}`;
  if (at !== '') return at;
  const text = printValue(value, { mode: 'compact' });
  return truncate(text, MAX_LABEL_LENGTH);
}
