/**
 * The status of one language server as its client knows it: lifecycle state and its detail,
 * `$/progress` work, rust-analyzer's health, one-time warnings (the definition's known problems
 * matched in stderr and status messages), and the listeners told when what the status shows
 * changes. Readiness (`readiness.ts`) decides the state; this module only keeps and reports it.
 */
import { truncate } from '../../dialect/display.js';
import type { ServerStatusParams } from './handlers.js';
import type { ServerDefinition } from './servers.js';
import { degradedReason, type Disposable, type ServerHealth, type ServerProgress, type ServerState, type ServerStatus } from './status.js';

/** Distinct warnings kept per server; later ones are dropped (the first say what matters). */
const STATUS_WARNING_LIMIT = 20;

/**
 * Longest server text the status keeps: a health message, a detail, a warning. A server sends as
 * many as it likes, each up to the bound on one message, and the status crosses to every client
 * of a background server and into answers' notes.
 */
export const MAX_SERVER_TEXT = 2_000;

/**
 * Works in progress kept per server; past it the oldest is forgotten. A server controls how many
 * it begins (and may never end them): unbounded, each notification's work grew with them all.
 */
const MAX_ACTIVE_PROGRESS = 64;

/** Longest title or message of a work kept (a server's text, shown on one status line). */
const MAX_PROGRESS_TEXT = 200;

/** One server's status across its restarts. */
export class StatusTracker {
  readonly #definition: ServerDefinition;
  readonly #pid: () => number | undefined;
  readonly #listeners = new Set<(status: ServerStatus) => void>();
  readonly #progress = new Map<string | number, ServerProgress>();
  readonly #warnings: string[] = [];
  readonly #warningKeys = new Set<string>();
  #state: ServerState = 'starting';
  #detail: string | undefined;
  #health: ServerHealth | undefined;
  /** What a limit of ours left out of the server's view (projects not loaded): it runs degraded for good. */
  #limited: ServerHealth | undefined;
  /** The server's lasting conditions by progress token (`conditionProgress`): it could not load the workspace. */
  readonly #conditions = new Map<string | number, string>();
  #lastProgress: ServerProgress | undefined;
  #lastEmitted: string | undefined;
  #reason: string | undefined;

  /** `pid` reads the current process's id for the snapshot. */
  constructor(definition: ServerDefinition, pid: () => number | undefined) {
    this.#definition = definition;
    this.#pid = pid;
  }

  /** Current lifecycle state. */
  get state(): ServerState {
    return this.#state;
  }

  /** What the state is about (a crash reason, the server's status message), if anything. */
  get detail(): string | undefined {
    return this.#detail;
  }

  /** The server's own report that it runs degraded, `undefined` while healthy. */
  get health(): ServerHealth | undefined {
    const condition = [...this.#conditions.values()].at(-1);
    return this.#health ?? (condition !== undefined ? { level: 'error', message: condition } : undefined) ?? this.#limited;
  }

  /**
   * Marks the server degraded because a limit of ours left part of the workspace out of its view
   * (more projects than `MAX_PROJECTS`): answers count as incomplete, across restarts too.
   */
  setLimited(message: string): void {
    this.#limited = { level: 'warning', message };
    this.emit();
  }

  /** The most recent active progress, or the last one seen if none is active. */
  get progress(): ServerProgress | undefined {
    return [...this.#progress.values()].at(-1) ?? this.#lastProgress;
  }

  /** How many `$/progress` works are active. */
  get activeProgress(): number {
    return this.#progress.size;
  }

  /** The warnings, each distinct one once. */
  get warnings(): readonly string[] {
    return [...this.#warnings];
  }

  /** A new process starts: its progress and health are its own. */
  reset(): void {
    this.#progress.clear();
    this.#conditions.clear();
    this.#health = undefined;
  }

  /** Sets the state (and its detail, when given); tells listeners if that changed. */
  setState(state: ServerState, given?: string): void {
    // A detail may be the server's text (its status message, forwarded by readiness).
    const detail = given === undefined ? undefined : truncate(given, MAX_SERVER_TEXT);
    const changed = state !== this.#state || detail !== this.#detail;
    this.#state = state;
    if (detail !== undefined) this.#detail = detail;
    if (state !== 'indexing') this.#reason = undefined;
    if (changed) this.emit();
  }

  /**
   * Says why the server is indexing when none of its own progress is active (readiness sets it,
   * e.g. while files change on disk); shown as the progress, dropped when it leaves `indexing`.
   */
  setReason(reason: string | undefined): void {
    if (reason === this.#reason) return;
    this.#reason = reason;
    this.emit();
  }

  /**
   * Takes one `$/progress` notification; true when it changed the progress (the caller then
   * lets readiness judge before {@link emit}, so listeners see the state and progress together).
   */
  progressNotification(token: string | number | undefined, value: unknown): boolean {
    if (token === undefined || typeof value !== 'object' || value === null) return false;
    const v = value as { kind?: string; title?: string; message?: string; percentage?: number };
    const previous = this.#progress.get(token);
    if (v.kind !== 'begin' && this.#conditions.has(token)) {
      // A condition's reports update what it says; its end means it is over.
      if (v.kind === 'end') this.#conditions.delete(token);
      else if (v.kind === 'report' && typeof v.message === 'string') this.#conditions.set(token, `${progressText(v.title) ?? this.#conditions.get(token)?.split(': ')[0] ?? ''}: ${progressText(v.message) ?? ''}`);
      this.emit();
      return false;
    }
    if (v.kind === 'begin') {
      const condition = this.#definition.conditionProgress;
      if (condition !== undefined && typeof v.title === 'string' && condition.test(v.title)) {
        // A lasting condition, not work: never waited for; while it lasts the server could not
        // load its workspace (its health says so; a known problem adds its fix).
        const text = [progressText(v.title), progressText(v.message)].filter((t) => t !== undefined && t.trim() !== '').join(': ');
        this.checkKnownProblems(text);
        this.#conditions.delete(token);
        if (this.#conditions.size >= MAX_ACTIVE_PROGRESS) this.#conditions.delete(this.#conditions.keys().next().value as string | number);
        this.#conditions.set(token, text);
        this.emit();
        return false;
      }
      this.#progress.delete(token);
      if (this.#progress.size >= MAX_ACTIVE_PROGRESS) this.#progress.delete(this.#progress.keys().next().value as string | number);
      this.#progress.set(token, { title: progressText(v.title) ?? truncate(String(token), MAX_PROGRESS_TEXT), message: progressText(v.message), percentage: v.percentage });
    } else if (v.kind === 'report' && previous !== undefined) {
      this.#progress.delete(token); // re-insert: the latest report is shown
      this.#progress.set(token, { title: previous.title, message: progressText(v.message) ?? previous.message, percentage: v.percentage ?? previous.percentage });
    } else if (v.kind === 'end') {
      if (previous !== undefined) this.#lastProgress = { ...previous, message: progressText(v.message) ?? previous.message };
      this.#progress.delete(token);
    } else return false;
    return true;
  }

  /**
   * Takes rust-analyzer's `experimental/serverStatus`: health (kept until the server reports `ok`
   * again, since it describes the loaded workspace), its message as detail, and unhealthy
   * messages as warnings. Readiness judges quiescence; the caller then calls {@link emit}.
   */
  serverStatus(params: ServerStatusParams): void {
    const message = typeof params.message === 'string' ? truncate(params.message, MAX_SERVER_TEXT) : undefined;
    if (params.health === 'warning' || params.health === 'error') this.#health = { level: params.health, message: message ?? params.health };
    else if (params.health === 'ok') this.#health = undefined;
    if (params.health !== undefined && params.health !== 'ok' && message !== undefined && message !== '') {
      const known = this.checkKnownProblems(message);
      const reason = degradedReason(message);
      if (!known) this.addWarning(`status:${reason}`, `${this.#definition.displayName}: ${reason}`);
    }
    this.#detail = message;
  }

  /** Matches `text`, line by line, against the definition's known problems; true if one matched. */
  checkKnownProblems(text: string): boolean {
    let matched = false;
    const lines = text.split('\n');
    for (const problem of this.#definition.knownProblems ?? []) {
      if (lines.some((line) => problem.pattern.test(line))) {
        matched = true;
        this.addWarning(problem.key, problem.warning);
      }
    }
    return matched;
  }

  /** Adds a warning unless one with `key` was added (or the limit is reached). */
  addWarning(key: string, warning: string): void {
    // A key may hold the server's text (a message's first line): kept cut, like the warning.
    const keptKey = truncate(key, MAX_SERVER_TEXT);
    if (this.#warningKeys.has(keptKey) || this.#warnings.length >= STATUS_WARNING_LIMIT) return;
    this.#warningKeys.add(keptKey);
    this.#warnings.push(truncate(warning, MAX_SERVER_TEXT));
    this.emit();
  }

  /** Subscribes to changes of what the status shows. */
  onStatus(listener: (status: ServerStatus) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /** The status now, as the port's `ServerStatus`. */
  snapshot(): ServerStatus {
    const definition = this.#definition;
    const reason = this.#state === 'indexing' && this.#progress.size === 0 && this.#reason !== undefined ? { title: this.#reason } : undefined;
    const progress = this.#state === 'indexing' || this.#state === 'starting' ? (reason ?? this.progress) : undefined;
    const pid = this.#pid();
    return {
      id: definition.id,
      displayName: definition.displayName,
      languages: definition.languages.map((l) => l.languageId),
      state: this.#state,
      ...(progress !== undefined ? { progress } : {}),
      ...(this.#detail !== undefined ? { detail: this.#detail } : {}),
      ...(this.health !== undefined && this.#state === 'ready' ? { health: this.health } : {}),
      ...(pid !== undefined ? { pid } : {}),
    };
  }

  /** Tells listeners about a change of what the status shows (servers repeat identical reports). */
  emit(): void {
    if (this.#listeners.size === 0) {
      // Unseen changes: the next listener must hear the next report even if it looks like the last one heard.
      this.#lastEmitted = undefined;
      return;
    }
    const event = this.snapshot();
    const key = JSON.stringify(event);
    if (key === this.#lastEmitted) return;
    this.#lastEmitted = key;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not break the client.
      }
    }
  }
}

/** A server's progress text, cut to what a status line shows. */
function progressText(text: unknown): string | undefined {
  return typeof text === 'string' ? truncate(text, MAX_PROGRESS_TEXT) : undefined;
}
