/**
 * The one owner of kept file outlines (`textDocument/documentSymbol` answers, converted). An
 * outline depends only on its file's text, and symbol lookups ask for the same outlines again and
 * again (a capped name completes its answer from hundreds of them), so each is kept by the
 * absolute path asked, with the file's real location, size and time, and the disk stamp it was
 * checked under. It is reused:
 *
 * - without touching the disk while the stamp it was checked under holds (the same watcher, no
 *   change since) and that watcher covers both the path and its real location;
 * - otherwise when the path still leads to the same real file with the same size and time (a
 *   folder the watcher skips is always checked here; a file swapped for a link is a new real
 *   location or new stats, so it is asked afresh, through the workspace's confinement check).
 *
 * The stamp is read once per question (`diskNow`, shared by all the reads of a turn).
 */
import { statSync } from 'node:fs';
import type { BackendCallOptions, OutlineSymbol } from './backend.js';
import type { DiskStamp, Workspace } from './workspace.js';

/** Outlines kept (least recently used dropped beyond it): a few MB for large monorepos. */
const MAX_KEPT_OUTLINES = 5000;

/** Where the cache gets the disk's stamp and the outlines it does not have. */
export interface OutlineSource<S extends DiskStamp> {
  /** The disk as a watcher sees it now (events before the question count), or `undefined` when none can vouch. */
  diskNow(): Promise<S | undefined>;
  /**
   * A file's outline from its server. `disk` is the stamp read before the file was checked when
   * it covers the file (else `undefined`); `mtimeMs` the file's time then; `options` the first
   * asker's (cancellation, limits).
   */
  fetch(path: string, real: string, disk: S | undefined, mtimeMs: number | undefined, options: BackendCallOptions): Promise<OutlineSymbol[]>;
}

interface Kept {
  readonly real: string;
  readonly mtimeMs: number;
  readonly size: number;
  /** The stamp that vouches for the entry (it covered the path and its real location), if any. */
  readonly owner: object | undefined;
  readonly value: number | undefined;
  readonly outline: Promise<OutlineSymbol[]>;
}

/** File outlines kept per path, valid under one rule (see the module comment). */
export class OutlineCache<S extends DiskStamp> {
  readonly #entries = new Map<string, Kept>();

  constructor(
    readonly workspace: Workspace,
    readonly source: OutlineSource<S>,
    readonly max: number = MAX_KEPT_OUTLINES,
  ) {}

  /** The outline of a workspace file (a path outside, or leading outside, is refused). */
  async outline(path: string, options: BackendCallOptions = {}): Promise<OutlineSymbol[]> {
    const disk = await this.source.diskNow();
    const abs = this.workspace.resolve(path);
    const vouchedFor = this.#entries.get(abs);
    if (vouchedFor !== undefined && disk !== undefined && vouchedFor.owner === disk.owner && vouchedFor.value === disk.value) return this.#keep(abs, vouchedFor).outline;
    const real = await this.workspace.resolveReal(path);
    // Read after the wait: a concurrent asker's entry for the same file is shared.
    const kept = this.#entries.get(abs);
    const vouched = disk !== undefined && disk.covers(abs) && disk.covers(real) ? disk : undefined;
    const info = statOrUndefined(real);
    if (kept !== undefined && kept.real === real && info !== undefined && kept.mtimeMs === info.mtimeMs && kept.size === info.size) {
      return this.#keep(abs, { ...kept, owner: vouched?.owner, value: vouched?.value }).outline;
    }
    const outline = this.source.fetch(path, real, vouched, info?.mtimeMs, options);
    const entry: Kept = { real, mtimeMs: info?.mtimeMs ?? -1, size: info?.size ?? -1, owner: vouched?.owner, value: vouched?.value, outline };
    this.#keep(abs, entry);
    // A failed outline is not kept (its caller hears the failure).
    outline.catch(() => {
      if (this.#entries.get(abs) === entry) this.#entries.delete(abs);
    });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.max) break;
      this.#entries.delete(oldest);
    }
    return outline;
  }

  /** Keeps an entry as the most recently used. */
  #keep(abs: string, entry: Kept): Kept {
    this.#entries.delete(abs);
    this.#entries.set(abs, entry);
    return entry;
  }
}

/** A file's size and time, or undefined when it cannot be stat'ed. */
function statOrUndefined(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const { mtimeMs, size } = statSync(path);
    return { mtimeMs, size };
  } catch {
    return undefined;
  }
}
