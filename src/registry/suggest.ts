// "Did you mean" suggestions, shared by the validator and every surface.

/** Levenshtein distance, bounded: returns max + 1 as soon as the distance must exceed max. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
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
