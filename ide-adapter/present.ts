/**
 * Presenting IDE results as text for people and models: locations as `path:line:column` followed
 * by the line's text (terminals and editors turn that into links), symbols with their kind,
 * diffs as hunks. Anything else is printed as Dialect. Used by the REPL, `dialect eval` and MCP.
 */
import { printValue, renderOutcome, showControls, showFieldControls as field, type Outcome } from '../dialect/index.js';
import { formatLocation, isDiagnostic, isLocation, isReference, isSymbolDefinition, type Diagnostic, type DiffFile, type Location, type Reference, type SymbolDefinition } from './model.js';

/** How values are presented as text. */
export interface PresentOptions {
  /** ANSI colours (paths dim, kinds bold). */
  readonly color?: boolean;
  /** Show at most this many items of a list (the rest are counted). Default 200. */
  readonly maxItems?: number;
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
  return safe([valueText(outcome.value, options), ...notes].join('\n'), options);
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
  const max = options.maxItems ?? 200;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (value.every(isReference)) return capped(referencesText(value, s), value.length, max);
    if (value.every(isSymbolDefinition)) {
      if (value.some(isCallEdge)) return callsText(value.slice(0, max), s, value.length, max);
      const detailed = value.some((d) => 'signature' in d || 'documentation' in d);
      return detailed ? value.slice(0, max).map((d) => symbolBlock(d, s)).join('\n\n') : capped(value.slice(0, max).map((d) => symbolLine(d, s)), value.length, max);
    }
    if (value.every(isDiagnostic)) return capped(value.slice(0, max).map((d) => diagnosticText(d, s)), value.length, max);
    if (value.every(isLocation)) return capped(value.slice(0, max).map((l) => locationLine(l, s)), value.length, max);
    if (value.every(isDiffFile)) return value.map((d) => diffText(d, s)).join('\n\n');
    if (value.every((v) => typeof v === 'string')) return capped(value.slice(0, max).map((v: string) => field(v)), value.length, max); // one line each: a file name cannot forge another
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

function capped(lines: string[], total: number, max: number): string {
  return total > max ? [...lines, `… and ${total - max} more`].join('\n') : lines.join('\n');
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
  return `${s.kind(d.kind)} ${field(d.name)}${container}${declarationsNote(d, s)}  ${locationLine(d.definedAt, s)}`;
}

/** ` [declared 4 times: lines 4, 5, 6, 7]` or ` [interface at line 2, namespace at line 8]` for merged symbols. */
function declarationsNote(d: SymbolDefinition, s: Style): string {
  const all = d.declarations ?? [];
  if (all.length < 2) return '';
  const at = (l: Location): string => (l.path === d.definedAt.path ? `line ${l.start.line}` : where(l));
  const sameKind = all.every((x) => x.kind === d.kind);
  const text = sameKind
    ? `declared ${all.length} times: lines ${all.map((x) => (x.definedAt.path === d.definedAt.path ? String(x.definedAt.start.line) : where(x.definedAt))).join(', ')}`
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

function referencesText(refs: readonly Reference[], s: Style): string[] {
  // Group by the symbol they refer to: one header, then one line per use.
  const groups = new Map<string, Reference[]>();
  for (const r of refs) {
    const key = formatLocation(r.definedAt);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: string[] = [];
  for (const group of groups.values()) {
    const first = group[0] as Reference;
    out.push(`${group.length} reference${group.length === 1 ? '' : 's'} to ${s.kind(first.kind)} ${field(first.name)} (${s.path(where(first.definedAt))}):`);
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
function callsText(edges: readonly SymbolDefinition[], s: Style, total: number, max: number): string {
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
    for (const e of group) {
      out.push(`${indent}${symbolLine(e, s)}`);
      const sites = isCallEdge(e) ? e.callSites : [];
      for (const site of sites) out.push(`${indent}    call at ${locationLine(site, s)}`);
    }
  }
  return capped(out, total, max); // `total` and `max` count callers, not lines
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
