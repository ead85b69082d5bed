/**
 * Renders diagnostics in the rustc style: a header, the offending source line(s) with a gutter,
 * carets under the exact spot (`^` for the primary place, `-` for related places), and a hint.
 *
 * ```text
 * error[unclosed-call]: expected `)` to close the call to `findDefinitions`
 *   |
 * 1 | findDefinitions("MyClass"
 *   |                -         ^ expected `)`
 *   |                |
 *   |                the call to `findDefinitions` starts here
 *   |
 *   = hint: add `)` at the end
 * ```
 *
 * Long lines are cut to a window around the carets, tabs and control characters are shown
 * visibly, so the caret always sits under the right character.
 */
import type { DialectCode } from './codes.js';
import { controlPicture, cutMiddle, MAX_DIAGNOSTIC_TEXT } from './display.js';
import type { Span } from './source.js';
import type { SourceText } from './source.js';

/** What the renderer needs of a diagnostic (syntax and evaluation errors both fit). */
export interface RenderableDiagnostic {
  readonly code: DialectCode;
  readonly message: string;
  readonly span?: Span;
  readonly label?: string;
  readonly labels?: readonly { readonly span: Span; readonly message: string }[];
  readonly hint?: string;
  /** Extra lines printed after the snippet as `= note: …`. */
  readonly notes?: readonly string[];
}

/** How a diagnostic is rendered. */
export interface RenderOptions {
  /** Use ANSI colours. Default false. */
  readonly color?: boolean;
  /** A name for the source shown as `--> name:line:col` (omitted when not given). */
  readonly sourceName?: string;
}

interface Annotation {
  readonly start: number; // UTF-16 offset
  readonly end: number;
  readonly message: string | undefined;
  readonly primary: boolean;
}

/** Characters of context shown either side of the carets. */
const WINDOW_MARGIN = 40;
/** How far apart carets on one line may be to share a window, and how much of one long span is shown. */
const MAX_WINDOW = 160;
const TAB_WIDTH = 4;

/** Renders one diagnostic against its source text. */
export function renderDiagnostic(diagnostic: RenderableDiagnostic, source: SourceText, options: RenderOptions = {}): string {
  return renderBounded(boundDiagnosticTexts(diagnostic), source, options);
}

/**
 * `diagnostic` with its message, labels, hint and notes each cut to {@link MAX_DIAGNOSTIC_TEXT}
 * code points: they echo what a program wrote, which may be megabytes long.
 */
export function boundDiagnosticTexts<D extends RenderableDiagnostic>(diagnostic: D): D {
  const cut = (text: string): string => cutMiddle(text, MAX_DIAGNOSTIC_TEXT);
  return {
    ...diagnostic,
    message: cut(diagnostic.message),
    ...(diagnostic.label !== undefined ? { label: cut(diagnostic.label) } : {}),
    ...(diagnostic.labels !== undefined ? { labels: diagnostic.labels.map((l) => ({ ...l, message: cut(l.message) })) } : {}),
    ...(diagnostic.hint !== undefined ? { hint: cut(diagnostic.hint) } : {}),
    ...(diagnostic.notes !== undefined ? { notes: diagnostic.notes.map(cut) } : {}),
  };
}

function renderBounded(diagnostic: RenderableDiagnostic, source: SourceText, options: RenderOptions): string {
  const paint = painter(options.color === true);
  const out: string[] = [];
  out.push(`${paint.error(`error[${diagnostic.code}]`)}${paint.bold(`: ${diagnostic.message}`)}`);

  const annotations: Annotation[] = [];
  if (diagnostic.span !== undefined) annotations.push({ ...diagnostic.span, message: diagnostic.label, primary: true });
  for (const l of diagnostic.labels ?? []) annotations.push({ ...l.span, message: l.message, primary: false });

  if (annotations.length > 0) {
    const byLine = new Map<number, Annotation[]>();
    for (const a of annotations) {
      const line = source.position(a.start).line;
      byLine.set(line, [...(byLine.get(line) ?? []), a]);
    }
    const lines = [...byLine.keys()].sort((a, b) => a - b);
    const gutter = String(lines[lines.length - 1]).length;
    const bar = paint.gutter(`${' '.repeat(gutter)} |`);
    if (options.sourceName !== undefined && diagnostic.span !== undefined) {
      const p = source.position(diagnostic.span.start);
      out.push(`${' '.repeat(gutter)}${paint.gutter('-->')} ${options.sourceName}:${p.line}:${p.column}`);
    }
    out.push(bar);
    let previous: number | undefined;
    for (const line of lines) {
      if (previous !== undefined && line > previous + 1) out.push(paint.gutter('...'));
      out.push(...renderLine(source, line, byLine.get(line) as Annotation[], gutter, paint));
      previous = line;
    }
    out.push(bar);
  }
  const pad = annotations.length > 0 ? ' '.repeat(gutterWidth(source, annotations)) : '';
  if (diagnostic.hint !== undefined) {
    for (const [i, hintLine] of diagnostic.hint.split('\n').entries()) {
      out.push(`${pad} ${paint.gutter('=')} ${i === 0 ? paint.bold('hint') + ': ' : '      '}${hintLine}`);
    }
  }
  for (const note of diagnostic.notes ?? []) out.push(`${pad} ${paint.gutter('=')} ${paint.bold('note')}: ${note}`);
  return out.join('\n');
}

function gutterWidth(source: SourceText, annotations: readonly Annotation[]): number {
  return String(Math.max(...annotations.map((a) => source.position(a.start).line))).length;
}

function renderLine(source: SourceText, line: number, annotations: Annotation[], gutter: number, paint: Painter): string[] {
  const lineStart = source.lineStarts[line - 1] as number;
  const text = source.lineText(line);
  const lineEnd = lineStart + text.length;

  // Window: the part of the line that holds the carets, with some context either side.
  const primary: Annotation = annotations.find((a) => a.primary) ?? annotations[0] ?? { start: lineStart, end: lineStart, message: undefined, primary: true };
  let shown = annotations.filter((a) => Math.abs(a.start - primary.start) <= MAX_WINDOW);
  const lo = Math.max(lineStart, Math.min(...shown.map((a) => a.start)) - WINDOW_MARGIN);
  // A long span is shown by its start: the window never exceeds the carets' starts plus MAX_WINDOW.
  const hi = Math.min(lineEnd, Math.max(...shown.map((a) => Math.min(a.end, a.start + MAX_WINDOW))) + WINDOW_MARGIN);
  const windowStart = safeBoundary(source.text, lo);
  const windowEnd = safeBoundary(source.text, hi);
  const { display, columnAt } = displayText(source.text, windowStart, windowEnd);
  const prefix = windowStart > lineStart ? '…' : '';
  const suffix = windowEnd < lineEnd ? '…' : '';
  const col = (offset: number): number => prefix.length + columnAt(Math.max(windowStart, Math.min(offset, windowEnd)));

  const lineNo = paint.gutter(`${String(line).padStart(gutter)} |`);
  const bar = paint.gutter(`${' '.repeat(gutter)} |`);
  const out = [`${lineNo} ${prefix}${display}${suffix}`];

  shown = [...shown].sort((a, b) => a.start - b.start);
  const marks: string[] = [];
  for (const a of shown) {
    const from = col(a.start);
    const to = Math.max(from + 1, col(Math.min(a.end, lineEnd)));
    while (marks.length < from) marks.push(' ');
    for (let c = from; c < to; c++) marks[c] = a.primary ? '^' : '-';
  }
  const last = shown[shown.length - 1] as Annotation;
  const markText = marks.join('').replace(/[\^]+/g, (m) => paint.error(m)).replace(/-+/g, (m) => paint.note(m));
  out.push(`${bar} ${markText}${last.message !== undefined ? ` ${last.primary ? paint.error(last.message) : paint.note(last.message)}` : ''}`);

  // Messages of the other annotations hang below their start column, right to left.
  const pending = shown.slice(0, -1).filter((a) => a.message !== undefined);
  for (let i = pending.length - 1; i >= 0; i--) {
    const connectors = (upTo: number): string => {
      const row: string[] = [];
      for (let j = 0; j <= upTo; j++) {
        const c = col((pending[j] as Annotation).start);
        while (row.length < c) row.push(' ');
        row[c] = '|';
      }
      return row.join('');
    };
    out.push(`${bar} ${paint.gutter(connectors(i))}`);
    const a = pending[i] as Annotation;
    const before = connectors(i - 1).padEnd(col(a.start), ' ');
    const message = a.message as string;
    out.push(`${bar} ${paint.gutter(before)}${a.primary ? paint.error(message) : paint.note(message)}`);
  }
  for (const a of annotations.filter((x) => !shown.includes(x))) {
    const p = source.position(a.start);
    out.push(`${bar} ${paint.note(`(${a.message ?? 'related'} at ${p.line}:${p.column})`)}`);
  }
  return out;
}

/** Moves an offset off the second half of a surrogate pair. */
function safeBoundary(text: string, offset: number): number {
  const c = text.charCodeAt(offset);
  const before = text.charCodeAt(offset - 1);
  return c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff ? offset - 1 : offset;
}

/** Renders `text[from, to)` for a terminal and maps each offset to its display column. */
function displayText(text: string, from: number, to: number): { display: string; columnAt: (offset: number) => number } {
  const columns = new Array<number>(to - from + 1);
  let display = '';
  let column = 0;
  for (let i = from; i < to; ) {
    const cp = text.codePointAt(i) as number;
    const units = cp > 0xffff ? 2 : 1;
    let shown: string;
    if (cp === 9) shown = ' '.repeat(TAB_WIDTH);
    else if (controlPicture(cp) !== undefined) shown = controlPicture(cp) as string; // one column, or `\xNN` for C1
    else if (cp >= 0xd800 && cp <= 0xdfff) shown = '\ufffd';
    else shown = String.fromCodePoint(cp);
    for (let u = 0; u < units; u++) columns[i - from + u] = column;
    display += shown;
    column += cp === 9 ? TAB_WIDTH : cp > 0xffff ? 1 : shown.length;
    i += units;
  }
  columns[to - from] = column;
  return { display, columnAt: (offset) => columns[offset - from] ?? column };
}

interface Painter {
  error(s: string): string;
  note(s: string): string;
  gutter(s: string): string;
  bold(s: string): string;
}

function painter(color: boolean): Painter {
  const wrap = (open: string) => (s: string) => (color ? `\u001b[${open}m${s}\u001b[0m` : s);
  return { error: wrap('1;31'), note: wrap('1;34'), gutter: wrap('1;34'), bold: wrap('1') };
}
