/** "Did you mean" suggestions by edit distance. */

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1).fill(0);
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = v;
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n] as number;
}

/**
 * The candidates closest to `word` (case-insensitive), best first. A candidate qualifies when its
 * distance is at most a third of the longer length, or when one contains the other.
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const n = name.toLowerCase();
    const d = editDistance(w, n);
    const contains = w.length >= 3 && (n.includes(w) || w.includes(n));
    if (d <= Math.max(1, Math.floor(Math.max(w.length, n.length) / 3)) || contains) scored.push({ name, score: contains ? Math.min(d, 2) : d });
  }
  return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, limit).map((s) => s.name);
}
