/**
 * The documents a server has open and what it published about them: `didOpen` once per file,
 * `didChange` when the file changed on disk, `didClose`, re-opening in a restarted process, the
 * lines positions are converted against, and the last `textDocument/publishDiagnostics` per
 * document with a bounded wait for them. Documents opened for questions stay open up to
 * `MAX_OPEN_DOCUMENTS`; past it the least recently used is closed (a server slows down with every
 * open document: tsgo's references took twice as long with 500 more open), except the pinned ones
 * (project anchors, which keep their projects loaded).
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LspClientError } from './errors.js';
import type { PublishedDiagnostics } from './handlers.js';
import { TextLines } from './positions.js';
import { keptDiagnostics, MAX_PUBLISHED_DIAGNOSTICS, MAX_PUBLISHED_DOCUMENTS, MAX_PUBLISHED_TEXT, PublishedStore } from './published-diagnostics.js';
import { languageFor, type ServerDefinition } from './servers.js';
import { clampDelay, type Session } from './session.js';
import { pathToUri } from './uris.js';

/**
 * Documents opened for questions that stay open at once; the least recently used beyond it is
 * closed. Enough for the files of a walkthrough or an outline-heavy lookup to stay warm.
 */
export const MAX_OPEN_DOCUMENTS = 100;

/** A document the server has open, as the server sees it. */
export interface OpenDocument {
  readonly path: string;
  readonly uri: string;
  readonly languageId: string;
  readonly version: number;
  readonly text: string;
  /** Line access for position conversion. */
  readonly lines: TextLines;
}

/** Per-call options of opening a document or waiting for its diagnostics. */
export interface DocumentCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Keep it open whatever the bound (a project anchor: closing it can unload its project). */
  readonly pinned?: boolean;
}

/** What the documents need from the client. */
export interface DocumentsHost {
  readonly definition: ServerDefinition;
  /** Default deadline of opening a document. */
  readonly requestTimeoutMs: number;
  /** Reads a document's text (the workspace's confined reader, else the file on disk). */
  readonly readText?: (absPath: string) => Promise<string>;
  /** The running, initialized session, waiting through a (re)start; throws when there is none in time. */
  usableSession(method: string, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Session>;
  /** The current session, if any. */
  currentSession(): Session | undefined;
  /** Adds the server's one-time warning (what a bound left out). */
  warn(key: string, warning: string): void;
}

interface TrackedDocument {
  doc: OpenDocument;
  mtimeMs: number;
  size: number;
  generation: number;
}

/** The open documents of one server (across its restarts) and their published diagnostics. */
export class Documents {
  readonly #host: DocumentsHost;
  readonly #docs = new Map<string, TrackedDocument>();
  readonly #opening = new Map<string, Promise<OpenDocument>>();
  /** Paths never closed for the bound. */
  readonly #pinned = new Set<string>();
  /** The last diagnostics published per URI by the current process (a server republishes after a restart), bounded. */
  readonly #published = new PublishedStore();
  readonly #diagnosticListeners = new Set<(published: PublishedDiagnostics) => void>();

  constructor(host: DocumentsHost) {
    this.#host = host;
  }

  /** Opens (or re-syncs) a file; concurrent calls for one file share one open. */
  ensureOpen(absPath: string, options: DocumentCallOptions = {}): Promise<OpenDocument> {
    const path = resolve(absPath);
    if (options.pinned === true) this.#pinned.add(path);
    const inFlight = this.#opening.get(path);
    if (inFlight !== undefined) return inFlight;
    // Used now: the Map's order is the order of use, least recent first.
    const tracked = this.#docs.get(path);
    if (tracked !== undefined) {
      this.#docs.delete(path);
      this.#docs.set(path, tracked);
    }
    const opening = this.#sync(path, options).finally(() => this.#opening.delete(path));
    this.#opening.set(path, opening);
    return opening;
  }

  /** Closes the least recently used documents that are not pinned while more than the bound are open. */
  #closeBeyondBound(): void {
    let excess = this.#docs.size - MAX_OPEN_DOCUMENTS;
    for (const path of this.#docs.keys()) {
      if (excess <= 0) return;
      if (this.#pinned.has(path)) continue;
      if (this.#opening.has(path)) continue; // being used right now
      this.close(path);
      excess--;
    }
  }

  /** Closes a document (`didClose` when the current process opened it). */
  close(absPath: string): void {
    const path = resolve(absPath);
    const tracked = this.#docs.get(path);
    if (tracked === undefined) return;
    this.#docs.delete(path);
    this.#pinned.delete(path);
    const session = this.#host.currentSession();
    if (session?.generation === tracked.generation) session.notify('textDocument/didClose', { textDocument: { uri: tracked.doc.uri } });
  }

  /** Documents currently open. */
  open(): OpenDocument[] {
    return [...this.#docs.values()].map((t) => t.doc);
  }

  /** Lines of a file as the server sees it: the open document's text, else the file on disk. */
  async lines(absPath: string): Promise<TextLines> {
    const tracked = this.#docs.get(resolve(absPath));
    if (tracked !== undefined) return tracked.doc.lines;
    try {
      return new TextLines(await this.#readText(absPath));
    } catch (error) {
      throw new LspClientError('document-unreadable', `cannot read ${absPath}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** A new process starts: it publishes its own diagnostics. */
  clearPublished(): void {
    this.#published.clear();
  }

  /** Re-opens every document in a freshly initialized process. */
  reopenIn(session: Session): void {
    for (const tracked of this.#docs.values()) {
      const { uri, languageId, version, text } = tracked.doc;
      session.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
      tracked.generation = session.generation;
    }
  }

  /**
   * Records diagnostics the current process published (what of them Dialect keeps, within the
   * bounds of `published-diagnostics.ts`) and wakes their waiters.
   */
  published(raw: PublishedDiagnostics): void {
    const { diagnostics, cut } = keptDiagnostics(raw.diagnostics);
    const published: PublishedDiagnostics = { uri: raw.uri, ...(Number.isSafeInteger(raw.version) ? { version: raw.version } : {}), diagnostics };
    if (this.#published.keep(published) || cut) {
      const { displayName, id } = this.#host.definition;
      const bounds = `${MAX_PUBLISHED_DOCUMENTS.toLocaleString('en-US')} documents, ${MAX_PUBLISHED_DIAGNOSTICS.toLocaleString('en-US')} diagnostics or ${MAX_PUBLISHED_TEXT / (1024 * 1024)}M characters`;
      this.#host.warn(`published-diagnostics:${id}`, `${displayName} published more diagnostics than Dialect keeps (${bounds}): the oldest were dropped`);
    }
    for (const listener of [...this.#diagnosticListeners]) listener(published);
  }

  /** The diagnostics published per URI that are not empty. */
  publishedDiagnostics(): PublishedDiagnostics[] {
    return this.#published.nonEmpty();
  }

  /** The diagnostics last published for one document, if kept. */
  publishedDiagnosticsOf(uri: string): PublishedDiagnostics | undefined {
    return this.#published.get(uri);
  }

  /** See `LanguageServer.waitForDiagnostics`. */
  waitForDiagnostics(uri: string, options: DocumentCallOptions & { readonly timeoutMs: number; readonly minVersion?: number }): Promise<PublishedDiagnostics | undefined> {
    // A publish that names an older version of the document is about text that changed since.
    const current = (p: PublishedDiagnostics | undefined): p is PublishedDiagnostics =>
      p !== undefined && p.uri === uri && (options.minVersion === undefined || p.version === undefined || p.version >= options.minVersion);
    const known = this.#published.get(uri);
    if (current(known)) return Promise.resolve(known);
    const { definition } = this.#host;
    return new Promise((resolvePromise, reject) => {
      const { signal } = options;
      const cleanup = () => {
        clearTimeout(timer);
        this.#diagnosticListeners.delete(listener);
        signal?.removeEventListener('abort', onAbort);
      };
      const listener = (published: PublishedDiagnostics) => {
        if (!current(published)) return;
        cleanup();
        resolvePromise(published);
      };
      const onAbort = () => {
        cleanup();
        reject(new LspClientError('request-cancelled', `waiting for diagnostics from ${definition.displayName} was cancelled`, { serverId: definition.id }));
      };
      const timer = setTimeout(() => {
        cleanup();
        resolvePromise(undefined);
      }, clampDelay(options.timeoutMs));
      this.#diagnosticListeners.add(listener);
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #readText(absPath: string): Promise<string> {
    return this.#host.readText !== undefined ? this.#host.readText(absPath) : readFile(absPath, 'utf8');
  }

  async #sync(path: string, options: DocumentCallOptions): Promise<OpenDocument> {
    const { definition } = this.#host;
    const timeoutMs = options.timeoutMs ?? this.#host.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    let info;
    try {
      info = statSync(path); // microseconds; an async stat is a thread-pool round trip per query
    } catch (error) {
      throw new LspClientError('document-unreadable', `cannot open ${path}: ${(error as Error).message}`, { serverId: definition.id, cause: error });
    }
    const session = await this.#host.usableSession('textDocument/didOpen', deadline, timeoutMs, options.signal);
    const existing = this.#docs.get(path);
    if (existing?.generation === session.generation && existing.mtimeMs === info.mtimeMs && existing.size === info.size) return existing.doc;
    let text: string;
    try {
      text = await this.#readText(path);
    } catch (error) {
      throw new LspClientError('document-unreadable', `cannot read ${path}: ${(error as Error).message}`, { serverId: definition.id, cause: error });
    }
    const languageId = languageFor([definition], path)?.languageId ?? definition.languages[0]?.languageId ?? 'plaintext';
    const uri = pathToUri(path);
    if (existing?.generation === session.generation) {
      if (existing.doc.text === text) {
        existing.mtimeMs = info.mtimeMs;
        existing.size = info.size;
        return existing.doc;
      }
      const doc: OpenDocument = { ...existing.doc, version: existing.doc.version + 1, text, lines: new TextLines(text) };
      this.#docs.set(path, { doc, mtimeMs: info.mtimeMs, size: info.size, generation: session.generation });
      this.#published.delete(uri); // about the old text; the server publishes again for the new one
      session.notify('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
      return doc;
    }
    const doc: OpenDocument = { path, uri, languageId, version: (existing?.doc.version ?? 0) + 1, text, lines: new TextLines(text) };
    this.#docs.set(path, { doc, mtimeMs: info.mtimeMs, size: info.size, generation: session.generation });
    session.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: doc.version, text } });
    this.#closeBeyondBound();
    return doc;
  }
}
