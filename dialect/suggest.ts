/**
 * "Did you mean" suggestions by edit distance. The words come from programs, walkthroughs and
 * language servers, so a suggestion is bounded work: an edit distance is computed only within
 * the band a suggestion could lie in, and a word too long to be a typo gets none (a megabyte-long
 * unknown name against each registered name was quadratic: 22 s of a blocked MCP server).
 */

/** Words longer than this (UTF-16 units) get no suggestion: nobody mistypes a name that long. */
export const MAX_SUGGESTED_WORD_LENGTH = 256;

/**
 * The distance cells one {@link closest} call may compute (about 50 ms): a server can list
 * thousands of long names near a long word; past it the candidates left are not compared.
 */
export const SUGGESTION_BUDGET_CELLS = 4_000_000;

/**
 * Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions). With
 * `max`, only the cells within `max` of the diagonal are computed, and any distance over `max`
 * is answered as `max + 1`: the work is the shorter length times `2·max + 1`.
 */
export function editDistance(a: string, b: string, max = Math.max(a.length, b.length)): number {
  const m = a.length;
  const n = b.length;
  const over = max + 1;
  if (Math.abs(m - n) > max) return over;
  // Cells outside the band count as `over`: no path through them comes back within `max`.
  let prev2 = new Int32Array(n + 1).fill(over);
  let prev = new Int32Array(n + 1).fill(over);
  let cur = new Int32Array(n + 1).fill(over);
  for (let j = 0; j <= Math.min(n, max); j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    // Only the band is computed; the cells just outside it, which the next rows read, are `over`.
    cur[0] = i <= max ? i : over;
    if (from > 1) cur[from - 1] = over;
    if (to < n) cur[to + 1] = over;
    let best = cur[0];
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = Math.min(v, over);
      if (v < best) best = v;
    }
    if (best > max) return over;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n] as number, over);
}

/**
 * The candidates closest to `word` (case-insensitive), best first. A candidate qualifies when its
 * distance is at most a third of the longer length, or when one contains the other. A word longer
 * than {@link MAX_SUGGESTED_WORD_LENGTH} has no suggestions, and the comparisons stop at
 * {@link SUGGESTION_BUDGET_CELLS} (suggestions are hints: the ones found by then are given).
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  if (word.length > MAX_SUGGESTED_WORD_LENGTH) return [];
  const w = word.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  let budget = SUGGESTION_BUDGET_CELLS;
  for (const name of candidates) {
    const n = name.toLowerCase();
    const contains = w.length >= 3 && (n.includes(w) || w.includes(n));
    // A containing name qualifies anyway: its distance only ranks it, as 0, 1 or "2 or more".
    const max = contains ? 2 : Math.max(1, Math.floor(Math.max(w.length, n.length) / 3));
    if (Math.abs(w.length - n.length) <= max) {
      budget -= Math.min(w.length, n.length) * (2 * max + 1);
      if (budget < 0) break;
    }
    const d = editDistance(w, n, max);
    if (d <= max || contains) scored.push({ name, score: contains ? Math.min(d, 2) : d });
  }
  return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, limit).map((s) => s.name);
}
