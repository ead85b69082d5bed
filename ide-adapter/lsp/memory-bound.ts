/**
 * The memory bound of a language server: the resident memory of its process and every process
 * it started (read from `/proc`) is polled while it runs, and a server past the bound is killed
 * and restarted like a crashed one; requests it was handling fail with `server-memory-exceeded`.
 *
 * Why polling and not `RLIMIT_AS` (`prlimit`): runtimes reserve far more address space than they
 * use — Go (tsgo) and V8 map large arenas up front — so an address-space limit that bounds real
 * use makes them fail at start or at a random allocation, with no error we could name. Resident
 * memory is what the machine runs out of. Where `/proc` is missing (macOS) nothing is polled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Transform } from 'node:stream';

const MIB = 1024 * 1024;

/**
 * A server using more than this (with its helper processes) is killed: four times what tsgo or
 * rust-analyzer use on large real projects, and far less than a runaway (tsgo reading a
 * `tsconfig.json` linked to `/dev/zero` passed 3 GB within a minute and kept growing).
 */
export const DEFAULT_SERVER_MEMORY_BYTES = 4096 * MIB;

/** Overrides {@link DEFAULT_SERVER_MEMORY_BYTES}, in MiB. */
export const SERVER_MEMORY_ENV = 'DIALECT_SERVER_MEMORY_MB';

/** How often a server's memory is read: a runaway grows at most a few hundred MB in this time. */
export const MEMORY_POLL_MS = 500;

/** Processes followed below a server (helpers of helpers); bounds the walk whatever `/proc` says. */
const MAX_PROCESSES = 256;

/** The bound for a server: `maxMemoryBytes` when given, else the environment's, else the default. */
export function serverMemoryBound(maxMemoryBytes: number | undefined, env: Readonly<Record<string, string | undefined>> = process.env): number {
  if (maxMemoryBytes !== undefined) return maxMemoryBytes;
  const mb = Number(env[SERVER_MEMORY_ENV]);
  return Number.isFinite(mb) && mb > 0 ? mb * MIB : DEFAULT_SERVER_MEMORY_BYTES;
}

/** Resident bytes of one process (`VmRSS`), `undefined` when it is gone or `/proc` is missing. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] !== undefined ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The children of a process, from each of its threads' `children` lists (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const tid of threads) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (child.trim() !== '') children.push(Number(child));
    } catch {
      // The thread ended while we looked.
    }
  }
  return children;
}

/** Resident bytes of a process and its descendants, `undefined` when the process is gone. */
export function treeResidentBytes(pid: number): number | undefined {
  const own = residentBytes(pid);
  if (own === undefined) return undefined;
  let total = own;
  const queue = childrenOf(pid);
  const seen = new Set<number>([pid]);
  while (queue.length > 0 && seen.size < MAX_PROCESSES) {
    const next = queue.shift() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    total += residentBytes(next) ?? 0;
    queue.push(...childrenOf(next));
  }
  return total;
}

/**
 * Polls the memory of the process tree of `pid` every {@link MEMORY_POLL_MS} until stopped (or
 * the process is gone), hands each reading to `sampled`, and calls `exceeded` once with the bytes
 * used when they pass `bound`. The timer never keeps the process alive. Returns the stop function.
 */
export function watchMemory(pid: number | undefined, bound: number, exceeded: (usedBytes: number) => void, sampled?: (usedBytes: number) => void): () => void {
  if (pid === undefined) return () => undefined;
  const timer = setInterval(() => {
    const used = treeResidentBytes(pid);
    if (used === undefined) return clearInterval(timer);
    sampled?.(used);
    if (used <= bound) return;
    clearInterval(timer);
    exceeded(used);
  }, MEMORY_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The reason a server was killed for its memory, for its status and the error of its requests. */
export function memoryReason(usedBytes: number, bound: number): string {
  return `used ${Math.round(usedBytes / MIB)} MB of memory, over its bound of ${Math.round(bound / MIB)} MB (${SERVER_MEMORY_ENV})`;
}

/**
 * The largest message a server may send: what it makes *us* hold. The JSON-RPC reader buffers a
 * whole message before parsing it, whatever length its header claims, so one `Content-Length`
 * of gigabytes would exhaust the heap of the process serving every client. Real answers (a large
 * file's outline, a big `workspace/symbol` list) stay far below.
 */
export const MAX_SERVER_MESSAGE_BYTES = 256 * MIB;

/** Longest header block read before a message (LSP sends two short lines). */
const MAX_HEADER_BYTES = 8 * 1024;

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Passes a server's stdout through unchanged while reading its framing (`Content-Length`
 * headers); a message longer than `maxBytes`, or a header block that never ends, calls
 * `onTooLarge` once with a reason and drops everything after, so nothing of it is buffered.
 * Each byte is looked at once (a header at most {@link MAX_HEADER_BYTES} twice).
 */
export function boundMessages(source: NodeJS.ReadableStream, maxBytes: number, onTooLarge: (reason: string) => void): Transform {
  let header = Buffer.alloc(0);
  let bodyLeft = 0;
  let refused = false;
  const refuse = (reason: string) => {
    refused = true;
    onTooLarge(reason);
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (refused) return done();
      let at = 0;
      while (at < chunk.length && !refused) {
        if (bodyLeft > 0) {
          const take = Math.min(bodyLeft, chunk.length - at);
          bodyLeft -= take;
          at += take;
          continue;
        }
        // In a header: look for its end in what is held plus this chunk (both bounded). Nearly
        // always nothing is held and the header is in this chunk: found in place, nothing copied
        // (a copy of the bound's worth per message cost more than the rest of the reading).
        const room = MAX_HEADER_BYTES - header.length;
        const part = chunk.subarray(at, at + room + HEADER_END.length);
        const joined = header.length === 0 ? part : Buffer.concat([header, part]);
        const end = joined.indexOf(HEADER_END);
        if (end < 0) {
          if (joined.length > MAX_HEADER_BYTES) refuse(`sent a message header of over ${MAX_HEADER_BYTES} bytes`);
          // Held until the next chunk: a copy, since the chunk's memory is not ours to keep.
          header = Buffer.from(joined);
          at += part.length;
          continue;
        }
        const length = /(?:^|\r\n)content-length:\s*(\d+)/i.exec(joined.subarray(0, end).toString('latin1'))?.[1];
        const bytes = length === undefined ? 0 : Number(length);
        if (bytes > maxBytes) refuse(`sent a message of ${Math.round(bytes / MIB)} MB, over the bound of ${Math.round(maxBytes / MIB)} MB on one message`);
        at += end + HEADER_END.length - header.length;
        header = Buffer.alloc(0);
        bodyLeft = bytes;
      }
      // Up to the refusal the bytes pass as they came; after it, nothing.
      if (!refused) this.push(chunk);
      done();
    },
  });
  source.pipe(out);
  return out;
}
