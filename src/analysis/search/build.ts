// Search, building the serialised index of a registry's entities (postings, typo neighbours, field
// lengths, and the word shown for each term).
import type { Entity } from '../../model/schemas.ts';
import { FIELDS, fieldText, F } from './fields.ts';
import { normaliseTerm, tokenizeText } from './tokenise.ts';
import { type SerialisedIndex, INDEX_FORMAT, MAX_TERMS_WITH_NEIGHBOURS, byCodeUnit, lettersOf } from './codec.ts';
import { encode, encodeFixed } from '../number-codec.ts';
import { Terms } from './term-index.ts';

/** The index of a registry's entities (with typo neighbours when it has at most `withNeighbours` terms). */
export function buildIndex(entities: readonly Entity[], withNeighbours = MAX_TERMS_WITH_NEIGHBOURS): SerialisedIndex {
  const ids = entities.map((e) => e.id);
  const fieldLength: number[] = [];
  const total = new Array<number>(F).fill(0);
  // term → per field, [document, occurrences, document, occurrences…]
  const byTerm = new Map<string, number[][]>();
  // Each distinct word is normalised once (an atlas repeats its words; normalising one is a Unicode
  // decomposition and two patterns): 15% of indexing 100,000 entities before.
  const normalised = new Map<string, string | null>();
  // term → the word it was first seen as, and in which field (suggestions show words, not stems).
  const surface = new Map<string, { word: string; field: number }>();
  const normal = (w: string) => {
    let t = normalised.get(w);
    if (t === undefined) {
      t = normaliseTerm(w);
      normalised.set(w, t);
    }
    return t;
  };
  entities.forEach((e, doc) => {
    FIELDS.forEach((field, f) => {
      const words = tokenizeText(fieldText(e, field));
      // As MiniSearch (this index's predecessor) measured it: distinct words as written, before normalising.
      const length = new Set(words).size;
      fieldLength.push(length);
      total[f]! += length;
      const counts = new Map<string, number>();
      for (const w of words) {
        const t = normal(w);
        if (t === null) continue;
        counts.set(t, (counts.get(t) ?? 0) + 1);
        // Fields before documents: a word seen in an earlier field wins over one in an earlier document.
        if (field !== 'id' && (surface.get(t)?.field ?? F) > f) surface.set(t, { word: w.toLowerCase(), field: f });
      }
      for (const [t, n] of counts) {
        let fields = byTerm.get(t);
        if (!fields) {
          fields = FIELDS.map(() => []);
          byTerm.set(t, fields);
        }
        fields[f]!.push(doc, n);
      }
    });
  });
  // By length, then in code-unit order (SerialisedIndex.terms).
  const terms = [...byTerm.keys()].sort((a, b) => a.length - b.length || byCodeUnit(a, b));
  const byLength: string[][] = [];
  for (const t of terms) {
    byLength[t.length] ??= [];
    byLength[t.length]!.push(t);
  }
  const runs = Array.from(byLength, (run) => run?.join('') ?? '');
  const letters = terms.map(lettersOf);
  // Each term's typo neighbours, for an index of at most `withNeighbours` terms (SerialisedIndex.neighbours).
  const lookup = terms.length <= withNeighbours ? new Terms(runs, letters) : undefined;
  const postings = terms.map((t) => {
    const numbers: number[] = [];
    for (const list of byTerm.get(t)!) {
      numbers.push(list.length / 2);
      for (let i = 0, previous = 0; i < list.length; i += 2) {
        numbers.push(list[i]! - previous, list[i + 1]!);
        previous = list[i]!;
      }
    }
    const near = lookup?.typoNeighbours(t) ?? [];
    numbers.push(near.length);
    for (const [u, distance] of near) numbers.push(u, distance);
    return encode(numbers);
  });
  const starts = [0];
  for (const p of postings) starts.push(starts.at(-1)! + p.length);
  const averageFieldLength = total.map((n) => (ids.length === 0 ? 0 : n / ids.length));
  const surfaces = terms.map((t) => {
    const word = surface.get(t)?.word ?? t;
    return word === t ? '' : word;
  });
  return {
    format: INDEX_FORMAT,
    ids,
    fieldLength,
    averageFieldLength,
    terms: runs,
    letters,
    postings: postings.join(''),
    neighbours: lookup !== undefined,
    postingStarts: encodeFixed(starts),
    surfaces: surfaces.join(' '),
  };
}
