/**
 * The client's copy of the servers' status: seeded by the handshake, kept current by `ide/status`
 * notifications, so `IdeBackend.servers()` stays synchronous on a remote backend.
 */
import type { ServerStatus } from '../status.js';

/** The latest status of each server (in the order first seen) and the listeners of changes. */
export class StatusBook {
  readonly #statuses = new Map<string, ServerStatus>();
  readonly #listeners = new Set<(status: ServerStatus) => void>();

  /** Replaces everything with a snapshot (the handshake's, newer than any notification before it). */
  seed(statuses: readonly ServerStatus[]): void {
    this.#statuses.clear();
    for (const status of statuses) this.#statuses.set(status.id, status);
  }

  /** Records a server's new status and tells the listeners. */
  update(status: ServerStatus): void {
    this.#statuses.set(status.id, status);
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch {
        // A faulty listener must not keep the others from hearing.
      }
    }
  }

  /** Every server's latest status. */
  list(): ServerStatus[] {
    return [...this.#statuses.values()];
  }

  /** Calls `listener` on every update; returns the unsubscribe function. */
  subscribe(listener: (status: ServerStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
