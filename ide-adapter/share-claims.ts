/**
 * How the shares of one walk (`walk.ts` `walkShareSync`, one per file worker) split its files.
 * Every share reaches every file in the same order; with claims (one `SharedArrayBuffer` for all
 * of them), a share takes the next `CLAIM_CHUNK` files whenever it reaches files nobody took yet,
 * so a share whose thread runs less (a busy core, a late start) takes fewer; without, each takes
 * every `count`th file. Small and dependency-free: the main thread makes the claims.
 */

/** One of `count` walkers of the same tree: all of them enter every folder and split its files. */
export interface WalkShare {
  /** From 0 to `count - 1`. */
  readonly index: number;
  readonly count: number;
  /** What the shares of one walk took so far (`newShareClaims`); the walk's `limit` then counts the files of all of them. */
  readonly claims?: SharedArrayBuffer;
}

/** Files a share takes at once: few enough to even out, enough that claiming costs nothing. */
const CLAIM_CHUNK = 16;
/** The claims' slots: the first file nobody took, and the files all shares listed. */
const NEXT_UNCLAIMED = 0;
const LISTED_BY_ALL = 1;

/** The claims the shares of one walk split its files by (`WalkShare.claims`). */
export function newShareClaims(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/** One share's side of the split. */
export interface ShareClaimer {
  /** Whether the file at `position` is this share's; called for every position, in order. */
  owns(position: number): boolean;
  /** Counts one more listed file; returns how many were listed before it (by all shares, with claims). */
  listOne(): number;
}

/** The claimer of `share`. */
export function shareClaimer(share: WalkShare): ShareClaimer {
  let listed = 0;
  if (share.claims === undefined) {
    return { owns: (position) => position % share.count === share.index, listOne: () => listed++ };
  }
  const claims = new Int32Array(share.claims);
  // This share's current chunk.
  let chunkStart = 0;
  let chunkEnd = 0;
  return {
    owns: (position) => {
      if (position < chunkEnd) return position >= chunkStart;
      // Every file before the first unclaimed one is some share's (a share reaching it claims it,
      // so it never lags the files reached): the share that reaches it first takes the chunk it starts.
      if (Atomics.compareExchange(claims, NEXT_UNCLAIMED, position, position + CLAIM_CHUNK) !== position) return false;
      chunkStart = position;
      chunkEnd = position + CLAIM_CHUNK;
      return true;
    },
    listOne: () => Atomics.add(claims, LISTED_BY_ALL, 1),
  };
}
