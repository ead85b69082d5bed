/**
 * The diagnostics a server published (`textDocument/publishDiagnostics`), kept per document until
 * it publishes again. A server publishes as often as it likes, for any URI it names, each message
 * within the bound on one message (`memory-bound.ts`) — but message after message, what the client
 * keeps would grow without end (a server naming ever new URIs, or diagnostics carrying megabytes
 * of `data`). So what is kept is bounded, in one place: each diagnostic only what Dialect reads
 * (range, severity, message, code, source, the URIs of related places; never `data`), its texts cut,
 * one without a valid range or a message dropped; and at most {@link MAX_PUBLISHED_DOCUMENTS}
 * documents, {@link MAX_PUBLISHED_DIAGNOSTICS} diagnostics and {@link MAX_PUBLISHED_TEXT}
 * characters in all — past any of them the documents published longest ago are dropped and the
 * owner is told, so it can say once that diagnostics were left out.
 */
import type { Diagnostic as LspDiagnostic, Position as LspPosition, Range as LspRange } from 'vscode-languageserver-protocol';
import { truncate } from '../../dialect/display.js';
import type { PublishedDiagnostics } from './handlers.js';

/** Documents whose published diagnostics are kept (the latest published); the oldest beyond are dropped. */
export const MAX_PUBLISHED_DOCUMENTS = 5_000;

/** Diagnostics kept across all documents. */
export const MAX_PUBLISHED_DIAGNOSTICS = 100_000;

/** Characters of diagnostic text (messages, codes, sources, URIs) kept across all documents: 32 MB. */
export const MAX_PUBLISHED_TEXT = 16 * 1024 * 1024;

/** Longest message kept of one diagnostic (a compiler's message with its notes fits); longer ones are cut. */
export const MAX_DIAGNOSTIC_TEXT = 4_000;

/** Longest code or source kept (a short name). */
const MAX_DIAGNOSTIC_LABEL = 200;

/** Longest URI kept: a Linux path (4,096 bytes) percent-encoded whole. A longer one names no file. */
const MAX_URI_CHARS = 3 * 4_096 + 'file://'.length;

/** Related places kept per diagnostic (only their URIs are read: where its text comes from). */
const MAX_RELATED = 8;

/** What a diagnostic costs besides its text (its range, severity and object), counted as characters. */
const DIAGNOSTIC_OVERHEAD = 64;

/**
 * The diagnostics of one publish as Dialect keeps them: valid ones, only the fields it reads, texts
 * cut, within the bounds in all (`cut` when some valid ones did not fit).
 */
export function keptDiagnostics(raw: unknown): { readonly diagnostics: LspDiagnostic[]; readonly cut: boolean } {
  if (!Array.isArray(raw)) return { diagnostics: [], cut: false };
  const diagnostics: LspDiagnostic[] = [];
  let text = 0;
  for (const item of raw) {
    const diagnostic = keptDiagnostic(item);
    if (diagnostic === undefined) continue;
    text += textOfDiagnostic(diagnostic);
    if (diagnostics.length >= MAX_PUBLISHED_DIAGNOSTICS || text > MAX_PUBLISHED_TEXT - MAX_URI_CHARS) return { diagnostics, cut: true };
    diagnostics.push(diagnostic);
  }
  return { diagnostics, cut: false };
}

function keptDiagnostic(item: unknown): LspDiagnostic | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { range, severity, message, code, source, relatedInformation } = item as Record<string, unknown>;
  const start = position((range as { start?: unknown } | undefined)?.start);
  const end = position((range as { end?: unknown } | undefined)?.end);
  // LSP 3.18 allows a message as markup; Dialect shows its text.
  const text = typeof message === 'string' ? message : typeof (message as { value?: unknown } | null | undefined)?.value === 'string' ? (message as { value: string }).value : undefined;
  if (start === undefined || end === undefined || text === undefined) return undefined;
  const keptRange: LspRange = { start, end };
  return {
    range: keptRange,
    message: truncate(text, MAX_DIAGNOSTIC_TEXT),
    ...(severity === 1 || severity === 2 || severity === 3 || severity === 4 ? { severity } : {}),
    ...(typeof code === 'string' ? { code: truncate(code, MAX_DIAGNOSTIC_LABEL) } : Number.isSafeInteger(code) ? { code: code as number } : {}),
    ...(typeof source === 'string' ? { source: truncate(source, MAX_DIAGNOSTIC_LABEL) } : {}),
    ...relatedPlaces(relatedInformation),
  };
}

/** The related places' URIs (the policy on outside text reads them), their messages left out. */
function relatedPlaces(related: unknown): Pick<LspDiagnostic, 'relatedInformation'> {
  if (!Array.isArray(related)) return {};
  const kept: NonNullable<LspDiagnostic['relatedInformation']> = [];
  for (const item of related.slice(0, MAX_RELATED)) {
    const location = (item as { location?: { uri?: unknown; range?: unknown } } | null)?.location;
    const start = position((location?.range as { start?: unknown } | undefined)?.start);
    const end = position((location?.range as { end?: unknown } | undefined)?.end);
    if (typeof location?.uri !== 'string' || location.uri.length > MAX_URI_CHARS || start === undefined || end === undefined) continue;
    kept.push({ location: { uri: location.uri, range: { start, end } }, message: '' });
  }
  return kept.length > 0 ? { relatedInformation: kept } : {};
}

function position(value: unknown): LspPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { line, character } = value as { line?: unknown; character?: unknown };
  return isCoordinate(line) && isCoordinate(character) ? { line, character } : undefined;
}

/** LSP positions are unsigned integers. */
function isCoordinate(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The characters a kept diagnostic counts against {@link MAX_PUBLISHED_TEXT}. */
function textOfDiagnostic(d: LspDiagnostic): number {
  let related = 0;
  for (const r of d.relatedInformation ?? []) related += r.location.uri.length + DIAGNOSTIC_OVERHEAD;
  return (d.message as string).length + String(d.code ?? '').length + (d.source ?? '').length + related + DIAGNOSTIC_OVERHEAD;
}

/** The characters a kept publish counts against {@link MAX_PUBLISHED_TEXT}. */
function textOf(published: PublishedDiagnostics): number {
  let chars = published.uri.length;
  for (const d of published.diagnostics) chars += textOfDiagnostic(d);
  return chars;
}

/** The last diagnostics published per document, within the bounds above. */
export class PublishedStore {
  /** By URI, in the order published (a publish moves its document to the end). */
  readonly #byUri = new Map<string, { readonly published: PublishedDiagnostics; readonly text: number }>();
  #diagnostics = 0;
  #text = 0;

  /**
   * Keeps a publish (its diagnostics already {@link keptDiagnostics}) in place of the document's
   * last one, dropping the documents published longest ago while past a bound. Returns whether a
   * document was dropped (or the publish itself was not kept: a URI too long to name a file).
   */
  keep(published: PublishedDiagnostics): boolean {
    this.delete(published.uri);
    if (published.uri.length > MAX_URI_CHARS) return true;
    const text = textOf(published);
    this.#byUri.set(published.uri, { published, text });
    this.#diagnostics += published.diagnostics.length;
    this.#text += text;
    let dropped = false;
    for (const uri of this.#byUri.keys()) {
      if (this.#byUri.size <= MAX_PUBLISHED_DOCUMENTS && this.#diagnostics <= MAX_PUBLISHED_DIAGNOSTICS && this.#text <= MAX_PUBLISHED_TEXT) break;
      if (uri === published.uri) break; // the newest is kept: alone it is within every bound (`keptDiagnostics`)
      this.delete(uri);
      dropped = true;
    }
    return dropped;
  }

  /** The last publish for `uri`, if kept. */
  get(uri: string): PublishedDiagnostics | undefined {
    return this.#byUri.get(uri)?.published;
  }

  /** Forgets the document's diagnostics. */
  delete(uri: string): void {
    const entry = this.#byUri.get(uri);
    if (entry === undefined) return;
    this.#byUri.delete(uri);
    this.#diagnostics -= entry.published.diagnostics.length;
    this.#text -= entry.text;
  }

  /** Forgets everything (a new process publishes its own). */
  clear(): void {
    this.#byUri.clear();
    this.#diagnostics = 0;
    this.#text = 0;
  }

  /** The kept publishes that are not empty, oldest first. */
  nonEmpty(): PublishedDiagnostics[] {
    const out: PublishedDiagnostics[] = [];
    for (const { published } of this.#byUri.values()) if (published.diagnostics.length > 0) out.push(published);
    return out;
  }
}
