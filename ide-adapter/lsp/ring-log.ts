/**
 * A bounded text log: keeps the most recent `limit` characters of everything appended. Servers can
 * write megabytes to stderr; we must keep reading it (a full pipe blocks the server) without
 * growing memory, and still show the last lines when something goes wrong.
 */
export class RingLog {
  readonly limit: number;
  #chunks: string[] = [];
  #length = 0;
  #dropped = 0;

  constructor(limit = 64 * 1024) {
    this.limit = Math.max(1, limit);
  }

  /** Appends text, dropping the oldest text beyond the limit. */
  append(text: string): void {
    if (text === '') return;
    if (text.length >= this.limit) {
      this.#dropped += this.#length + text.length - this.limit;
      this.#chunks = [text.slice(text.length - this.limit)];
      this.#length = this.limit;
      return;
    }
    this.#chunks.push(text);
    this.#length += text.length;
    while (this.#length > this.limit) {
      const first = this.#chunks[0] as string;
      const excess = this.#length - this.limit;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#length -= first.length;
        this.#dropped += first.length;
      } else {
        this.#chunks[0] = first.slice(excess);
        this.#length -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** Characters currently held (never more than `limit`). */
  get length(): number {
    return this.#length;
  }

  /** Characters dropped so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The retained text, optionally only its last `maxChars` characters, starting at a line boundary when one is near. */
  tail(maxChars = this.limit): string {
    if (this.#chunks.length > 1) this.#chunks = [this.#chunks.join('')];
    const all = this.#chunks[0] ?? '';
    if (all.length <= maxChars) return all;
    const cut = all.slice(all.length - maxChars);
    const newline = cut.indexOf('\n');
    return newline >= 0 && newline < 200 ? cut.slice(newline + 1) : cut;
  }
}
