// "Did you mean" suggestions, shared by the validator and every surface.

/** editDistance's two rows (grown when a longer word comes). */
let rows = new Int32Array(64);

/** Levenshtein distance, bounded: returns max + 1 as soon as the distance must exceed max. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  // Two rows of the table, in one array reused from call to call: search compares a query word with
  // every close index term, and fresh arrays per row were most of that time.
  if (rows.length < 2 * (n + 1)) rows = new Int32Array(4 * (n + 1));
  let prev = 0;
  let cur = n + 1;
  for (let j = 0; j <= n; j++) rows[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    rows[cur] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const v = Math.min(rows[prev + j]! + 1, rows[cur + j - 1]! + 1, rows[prev + j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      rows[cur + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  return rows[prev + n]!;
}

/** Up to `limit` candidates close to `word` (case-insensitive), closest first. */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(1, Math.floor(w.length / 3));
  const scored: Array<[string, number]> = [];
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), max);
    if (d <= max) scored.push([c, d]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([c]) => c);
}

/** " Did you mean X or Y?" or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = closest(word, candidates);
  if (found.length === 0) return '';
  return ` Did you mean ${found.map((f) => `"${f}"`).join(' or ')}?`;
}
