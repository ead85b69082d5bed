/** Timing helpers for benchmarks: warm-up, repeated samples, medians. */

export interface Sample {
  readonly median: number;
  readonly p90: number;
  readonly min: number;
  readonly runs: number;
}

/** Runs `fn` `warmup` times, then `runs` times, and summarises the durations (ms). */
export async function sample(fn: () => unknown, runs: number, warmup = Math.max(2, Math.floor(runs / 5))): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return summarize(times);
}

/**
 * Samples several functions interleaved (a, b, c, c, b, a, …) so that drifts of the machine
 * (other load, GC state, CPU frequency) affect every contender alike.
 */
export async function interleaved(fns: Record<string, () => unknown>, runs: number, warmup = 3): Promise<Record<string, Sample>> {
  const names = Object.keys(fns);
  for (let i = 0; i < warmup; i++) for (const n of names) await (fns[n] as () => unknown)();
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    // Alternate the order (a, b, c, then c, b, a): a contender that runs right after another can
    // profit from the caches the other warmed (a language server memoizes answers).
    for (const n of i % 2 === 0 ? names : [...names].reverse()) {
      const t = performance.now();
      await (fns[n] as () => unknown)();
      (times[n] as number[]).push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((n) => [n, summarize(times[n] as number[])]));
}

export function summarize(times: readonly number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { median: at(0.5), p90: at(0.9), min: sorted[0] as number, runs: sorted.length };
}

export const fmt = {
  ms: (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)),
  us: (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(2)),
  ratio: (v: number): string => (v >= 10 ? v.toFixed(0) : v.toFixed(2)),
  int: (v: number): string => Math.round(v).toLocaleString('en-US'),
};

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
