/**
 * Presenting IDE results as text for people and models: locations as `path:line:column` followed
 * by the line's text (terminals and editors turn that into links), symbols with their kind,
 * diffs as hunks. Anything else is printed as Dialect. Used by the REPL, `dialect eval` and MCP.
 */
import { printValue, renderOutcome, showControls, showFieldControls as field, type Outcome } from '../dialect/index.js';
import { formatLocation, isDiagnostic, isLocation, isReference, isSymbolDefinition, type Diagnostic, type DiffFile, type Location, type Reference, type SymbolDefinition } from './model.js';
import { isPage, LIST_BUDGET, nextPageProgram, type Page } from './paging.js';
import { explanationText } from './present-explain.js';
import { isExplanation } from './trace.js';

/** How values are presented as text. */
export interface PresentOptions {
  /** ANSI colours (paths dim, kinds bold). */
  readonly color?: boolean;
  /** Show at most this many items of a list (the rest are counted). Default `LIST_BUDGET.items`. */
  readonly maxItems?: number;
  /** Show at most about this many characters of a list. Default `LIST_BUDGET.chars`. */
  readonly maxChars?: number;
  /** The program that made the value: a cut list names `page(program, next)`, the program returning the rest. */
  readonly program?: string;
}

const style = (color: boolean | undefined) => ({
  path: (s: string) => (color === true ? `\u001b[36m${s}\u001b[0m` : s),
  kind: (s: string) => (color === true ? `\u001b[1m${s}\u001b[0m` : s),
  dim: (s: string) => (color === true ? `\u001b[2m${s}\u001b[0m` : s),
  added: (s: string) => (color === true ? `\u001b[32m${s}\u001b[0m` : s),
  removed: (s: string) => (color === true ? `\u001b[31m${s}\u001b[0m` : s),
});

/** An outcome as text: values presented, errors and ambiguities as the core renders them. */
export function presentOutcome(outcome: Outcome, options: PresentOptions = {}): string {
  if (outcome.kind !== 'value') return safe(renderOutcome(outcome, { color: options.color === true }), options);
  const notes = outcome.notes.map((n) => (options.color === true ? `\u001b[33mnote:\u001b[0m ${n}` : `note: ${n}`));
  return safe([valueText(outcome.value, { ...options, program: options.program ?? outcome.source.text }), ...notes].join('\n'), options);
}

/**
 * A value as text. Like everything presented, its control characters are shown as pictures: file
 * contents and names come from the workspace and must not drive the reader's terminal.
 */
export function presentValue(value: unknown, options: PresentOptions = {}): string {
  return safe(valueText(value, options), options);
}

function safe(text: string, options: PresentOptions): string {
  return showControls(text, { keepColours: options.color === true });
}

function valueText(value: unknown, options: PresentOptions): string {
  const s = style(options.color);
  if (typeof value === 'string') return value;
  if (isExplanation(value)) return explanationText(value);
  if (isPage(value)) return pageText(value, options, s);
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    // Plain data (numbers, objects, mixed) reads best as the JSON-like value it is, while it fits the budget.
    if (!isListOfPlaces(value) && value.length <= (options.maxItems ?? LIST_BUDGET.items)) {
      const whole = printValue(value, { width: 100 });
      if (whole.length <= (options.maxChars ?? LIST_BUDGET.chars)) return whole;
    }
    const program = options.program;
    const cut = listText(value, options, s);
    if (cut.shown === value.length) return cut.text;
    const next = program !== undefined ? `; next: ${nextPageProgram(program, cut.shown + 1)}` : '';
    return `${cut.text}\n${s.dim(`… ${cut.shown} of ${value.length} shown${perFile(value, cut.shown)}${next}`)}`;
  }
  if (isReference(value)) return referencesText([value], s).join('\n');
  if (isSymbolDefinition(value)) return symbolBlock(value, s);
  if (isDiagnostic(value)) return diagnosticText(value, s);
  if (isLocation(value)) {
    const text = (value as Location & { text?: unknown }).text;
    if (typeof text === 'string') return excerpt(value, text, s);
    return locationLine(value, s);
  }
  return printValue(value, { width: 100 });
}

type Style = ReturnType<typeof style>;

/** A location as one field: a path from the workspace never breaks (or forges) a result line. */
function where(l: Location): string {
  return field(formatLocation(l));
}

/**
 * The first items of a list that fit the budget (`maxItems` items, about `maxChars` characters;
 * at least one), as text, and how many that is.
 */
function listText(items: readonly unknown[], options: PresentOptions, s: Style): { text: string; shown: number } {
  const maxItems = options.maxItems ?? LIST_BUDGET.items;
  const maxChars = options.maxChars ?? LIST_BUDGET.chars;
  const separator = items.every(isDiffFile) || (items.every(isSymbolDefinition) && items.some((d) => 'signature' in d || 'documentation' in d)) ? '\n\n' : '\n';
  const one = itemFormatter(items, s);
  // Callers and callees are cut like any list (so a cut one names its next page), shown grouped.
  const calls = items.every(isSymbolDefinition) && items.some(isCallEdge);
  const parts: string[] = [];
  let chars = 0;
  for (const item of items) {
    if (parts.length >= maxItems) break;
    const text = one(item);
    if (parts.length > 0 && chars + text.length > maxChars) break;
    parts.push(text);
    chars += text.length + separator.length;
  }
  if (items.every(isReference)) return { text: referencesText(items.slice(0, parts.length), s, items).join('\n'), shown: parts.length };
  if (calls) return { text: callsText(items.slice(0, parts.length), s), shown: parts.length };
  return { text: parts.join(separator), shown: parts.length };
}

/** Whether a list is of the kinds shown one per line (places, symbols, diagnostics, diffs, names). */
function isListOfPlaces(items: readonly unknown[]): boolean {
  const kinds = [isReference, isSymbolDefinition, isDiagnostic, isLocation, isDiffFile, (v: unknown) => typeof v === 'string'];
  return kinds.some((is) => items.every(is));
}

/** How one item of a list is shown. */
function itemFormatter(items: readonly unknown[], s: Style): (item: unknown) => string {
  if (items.every(isReference)) return (r) => `  ${locationLine((r as Reference).referencedAt, s)}`;
  if (items.every(isSymbolDefinition) && items.some(isCallEdge)) return (e) => callEdgeLines(e as SymbolDefinition, '  ', s).join('\n');
  if (items.every(isSymbolDefinition)) return items.some((d) => 'signature' in d || 'documentation' in d) ? (d) => symbolBlock(d as SymbolDefinition, s) : (d) => symbolLine(d as SymbolDefinition, s);
  if (items.every(isDiagnostic)) return (d) => diagnosticText(d as Diagnostic, s);
  if (items.every(isLocation)) return (l) => locationLine(l as Location, s);
  if (items.every(isDiffFile)) return (d) => diffText(d as DiffFile, s);
  if (items.every((v) => typeof v === 'string')) return (v) => field(v as string); // one line each: a file name cannot forge another
  return (v) => printValue(v, { width: 100 });
}

/** ` (by file: src/a.rs 120, src/b.rs 80, … 12 files)` for a cut list of places, so the reader can narrow. */
function perFile(items: readonly unknown[], shown: number): string {
  const pathOf = (v: unknown): string | undefined => (isReference(v) ? v.referencedAt.path : isSymbolDefinition(v) ? v.definedAt.path : isLocation(v) ? v.path : undefined);
  const counts = new Map<string, number>();
  for (const item of items) {
    const path = pathOf(item);
    if (path === undefined) return '';
    counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  if (counts.size < 2 || shown === items.length) return '';
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_FILES_COUNTED);
  return ` (by file: ${top.map(([p, n]) => `${p} ${n}`).join(', ')}${counts.size > top.length ? `, … ${counts.size} files` : ''})`;
}

/** Files named in the per-file counts of a cut list. */
const MAX_FILES_COUNTED = 8;

/** A page of a longer list: its items, then where it is and the program of the next page. */
function pageText(page: Page, options: PresentOptions, s: Style): string {
  const { items, start, total, of } = page.page === undefined ? { items: [], start: 1, total: 0, of: '' } : { items: page.items, ...page.page };
  if (items.length === 0) return `(none: the list has ${total} item${total === 1 ? '' : 's'})`;
  const cut = listText(items, options, s);
  const end = start + cut.shown - 1;
  const where = end < total ? `next: ${nextPageProgram(`page(${of}, ${start})`, end + 1)}` : 'the last page';
  return `${cut.text}\n${s.dim(`… items ${start}–${end} of ${total}; ${where}`)}`;
}

function locationLine(l: Location, s: Style): string {
  return `${s.path(where(l))}  ${l.content.trim()}`;
}

/** `src/a.rs:1:26  error[E0308]: expected u32, found &str (rust-analyzer)`, then the line's code. */
function diagnosticText(d: Diagnostic, s: Style): string {
  const code = d.code !== undefined ? `[${d.code}]` : '';
  const source = d.source !== undefined ? s.dim(` (${d.source})`) : '';
  const [first, ...rest] = d.message.split('\n');
  return [`${s.path(where(d))}  ${s.kind(`${d.severity}${code}`)}: ${first ?? ''}${source}`, ...rest.map((l) => `    ${l}`), `    ${d.content.trim()}`].join('\n');
}

function symbolLine(d: SymbolDefinition, s: Style): string {
  const container = d.container !== undefined ? s.dim(` (${field(d.container)})`) : '';
  return `${kindAndName(d, s)}${container}${declarationsNote(d, s)}  ${locationLine(d.definedAt, s)}`;
}

/** `struct User`; a name that starts with its kind (Rust's `impl Entity for User`) is not told its kind again. */
function kindAndName(d: { readonly kind: string; readonly name: string }, s: Style): string {
  return d.name.startsWith(`${d.kind} `) ? `${s.kind(d.kind)}${field(d.name.slice(d.kind.length))}` : `${s.kind(d.kind)} ${field(d.name)}`;
}

/** ` [declared 4 times: lines 4, 5, 6, 7]`, ` [declared 2 times: include/a.h:3:5, line 9]` across files, or ` [interface at line 2, namespace at line 8]` for merged symbols. */
function declarationsNote(d: SymbolDefinition, s: Style): string {
  const all = d.declarations ?? [];
  if (all.length < 2) return '';
  const at = (l: Location): string => (l.path === d.definedAt.path ? `line ${l.start.line}` : where(l));
  const sameKind = all.every((x) => x.kind === d.kind);
  const text = sameKind
    ? `declared ${all.length} times: ${all.every((x) => x.definedAt.path === d.definedAt.path) ? `lines ${all.map((x) => x.definedAt.start.line).join(', ')}` : all.map((x) => at(x.definedAt)).join(', ')}`
    : all.map((x) => `${x.kind} at ${at(x.definedAt)}`).join(', ');
  return s.dim(` [${text}]`);
}

function symbolBlock(d: SymbolDefinition, s: Style): string {
  const lines = [symbolLine(d, s)];
  const info = d as SymbolDefinition & { signature?: unknown; documentation?: unknown };
  if (typeof info.signature === 'string') lines.push(...info.signature.split('\n').map((l) => `    ${l}`));
  if (typeof info.documentation === 'string') lines.push('', ...info.documentation.split('\n').map((l) => `    ${l}`));
  return lines.join('\n');
}

function referencesText(refs: readonly Reference[], s: Style, all: readonly unknown[] = refs): string[] {
  // Group by the symbol they refer to: one header (counting every use, shown or not), then one line per use.
  const totals = new Map<string, number>();
  for (const r of all as readonly Reference[]) totals.set(formatLocation(r.definedAt), (totals.get(formatLocation(r.definedAt)) ?? 0) + 1);
  const groups = new Map<string, Reference[]>();
  for (const r of refs) {
    const key = formatLocation(r.definedAt);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [r]);
    else group.push(r);
  }
  const out: string[] = [];
  for (const [key, group] of groups) {
    const first = group[0] as Reference;
    const count = totals.get(key) ?? group.length;
    out.push(`${count} reference${count === 1 ? '' : 's'} to ${kindAndName(first, s)} (${s.path(where(first.definedAt))}):`);
    for (const r of group) out.push(`  ${locationLine(r.referencedAt, s)}`);
  }
  return out;
}

/** A caller or callee (`callers`, `callees`): a symbol with the places of the calls, and the function it was asked for. */
interface CallEdgeValue extends SymbolDefinition {
  readonly callSites: readonly Location[];
  readonly of?: { readonly name: string; readonly kind: string; readonly definedAt: Location };
}

function isCallEdge(v: unknown): v is CallEdgeValue {
  return isSymbolDefinition(v) && Array.isArray((v as Partial<CallEdgeValue>).callSites);
}

/** Callers or callees grouped by the function asked about, each with its call sites. */
function callsText(edges: readonly SymbolDefinition[], s: Style): string {
  const groups = new Map<string, SymbolDefinition[]>();
  for (const e of edges) {
    const of = isCallEdge(e) ? e.of : undefined;
    const key = of !== undefined ? `${of.kind} ${of.name} (${formatLocation(of.definedAt)})` : '';
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const out: string[] = [];
  for (const [header, group] of groups) {
    const indent = groups.size > 1 || header !== '' ? '  ' : '';
    if (indent !== '' && header !== '') out.push(`for ${s.kind(header)}:`);
    for (const e of group) out.push(...callEdgeLines(e, indent, s));
  }
  return out.join('\n');
}

/** A caller or callee's line, then one line per call site. */
function callEdgeLines(e: SymbolDefinition, indent: string, s: Style): string[] {
  const sites = isCallEdge(e) ? e.callSites : [];
  return [`${indent}${symbolLine(e, s)}`, ...sites.map((site) => `${indent}    call at ${locationLine(site, s)}`)];
}

function excerpt(l: Location, text: string, s: Style): string {
  const lines = text.split('\n');
  const width = String(l.start.line + lines.length - 1).length;
  return [s.path(`${field(l.path)}:${l.start.line}-${l.start.line + lines.length - 1}`), ...lines.map((t, i) => `${s.dim(`${String(l.start.line + i).padStart(width)} |`)} ${t}`)].join('\n');
}

function isDiffFile(v: unknown): v is DiffFile {
  return typeof v === 'object' && v !== null && typeof (v as DiffFile).path === 'string' && Array.isArray((v as DiffFile).hunks) && typeof (v as DiffFile).status === 'string';
}

function diffText(d: DiffFile, s: Style): string {
  const out = [`${s.path(field(d.path))} (${d.status}${d.oldPath !== undefined ? ` from ${field(d.oldPath)}` : ''}, +${d.additions} -${d.deletions})`];
  for (const h of d.hunks) {
    out.push(s.dim(h.header));
    for (const l of h.lines) out.push(l.kind === 'added' ? s.added(`+${l.text}`) : l.kind === 'removed' ? s.removed(`-${l.text}`) : ` ${l.text}`);
  }
  return out.join('\n');
}
