// Search, the serialised index with what searching needs worked out on first use: its terms by length
// (lookup, prefixes, typo matching), decoded postings, and ranking the best documents.
import { editDistance } from '../../registry/suggest.ts';
import { ID_TOKEN, HYPHEN } from './tokenise.ts';
import { FIELD_BOOST, F } from './fields.ts';
import { K1, B, D, reachOf } from './policy.ts';
import { type SerialisedIndex, lettersOf } from './codec.ts';
import { decode, decodeFixedAt } from '../number-codec.ts';

/**
 * A term's postings, decoded: field f's documents from start[f] to start[f + 1], each with what the term
 * adds to its score there before the query's weights (BM25 × the field's boost × the document's boost).
 * That share depends on the index alone, so it is worked out once per term, not per query.
 */
interface Postings {
  docs: Int32Array;
  share: Float64Array;
  start: number[];
  /** The term's typo neighbours (SerialisedIndex.postings): term number, then edit distance, for each. */
  near: Int32Array;
}

/**
 * An index's terms as it stores them (SerialisedIndex.terms and .letters): numbered by length then code
 * unit, found, listed by prefix and by typos. All an index being built needs to find typo neighbours.
 */
export class Terms {
  /** The number of the first term of each length (first[L] … first[L + 1] − 1 are of L letters). */
  private readonly first: Int32Array;

  constructor(
    /** Entry L: the terms of L letters, one after the other (SerialisedIndex.terms). */
    private readonly runs: readonly string[],
    /** Each term's letters as bits (lettersOf), in term order. */
    private readonly letters: readonly number[],
  ) {
    this.first = new Int32Array(runs.length + 1);
    for (let length = 1; length < runs.length; length++) this.first[length + 1] = this.first[length]! + runs[length]!.length / length;
  }

  /** How many terms the index holds. */
  get size(): number {
    return this.first[this.runs.length]!;
  }

  /** The length (in code units) of term t. */
  lengthOf(t: number): number {
    // The first length whose run ends after t.
    let lo = 1;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.first[mid + 1]! > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Term t as text. */
  term(t: number): string {
    const length = this.lengthOf(t);
    const at = (t - this.first[length]!) * length;
    return this.runs[length]!.slice(at, at + length);
  }

  /** Among the terms of `length` letters, the first whose beginning is not before `text` in code-unit order. */
  private lowerBound(text: string, length: number): number {
    const run = this.runs[length] ?? '';
    let lo = 0;
    let hi = run.length / length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareAt(run, mid * length, text) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The number of an index term, or undefined when no document holds it. */
  find(term: string): number | undefined {
    const length = term.length;
    if (length === 0 || length >= this.runs.length) return undefined;
    const k = this.lowerBound(term, length);
    const run = this.runs[length]!;
    return k * length < run.length && compareAt(run, k * length, term) === 0 ? this.first[length]! + k : undefined;
  }

  /** Terms that begin with `prefix` and are longer than it, in code-unit order. */
  longerWithPrefix(prefix: string): number[] {
    const out: Array<[text: string, t: number]> = [];
    for (let length = prefix.length + 1; length < this.runs.length; length++) {
      const run = this.runs[length]!;
      // The terms of this length that begin with the prefix are one run from its lower bound.
      for (let k = this.lowerBound(prefix, length); k * length < run.length && run.startsWith(prefix, k * length); k++)
        out.push([run.slice(k * length, k * length + length), this.first[length]! + k]);
    }
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, t]) => t);
  }

  /**
   * Terms of the index within `max` edits of `term` (itself included when indexed), with the distance,
   * by length then code unit. IDs only when asked (suggestions for a mistyped ID): a word a person types
   * is not a typo of an ID.
   */
  near(term: string, max: number, ids = false): Array<[term: number, distance: number]> {
    // Only terms within `max` letters of the term's length can be that close, and only terms whose set of
    // letters differs from the term's by at most `max` each way (an edit adds or removes one letter): a
    // cheap test that leaves the edit distance to few terms.
    const letters = lettersOf(term);
    const masks = this.letters;
    const out: Array<[number, number]> = [];
    const last = Math.min(term.length + max, this.runs.length - 1);
    for (let length = Math.max(1, term.length - max); length <= last; length++) {
      const run = this.runs[length]!;
      const from = this.first[length]!;
      for (let k = 0, end = this.first[length + 1]! - from; k < end; k++) {
        const other = masks[from + k]!;
        if (bitCount(letters & ~other) > max || bitCount(other & ~letters) > max) continue;
        const text = run.slice(k * length, k * length + length);
        if (!ids && text.charCodeAt(1) === HYPHEN && ID_TOKEN.test(text)) continue;
        const d = editDistance(term, text, max);
        if (d <= max) out.push([this.first[length]! + k, d]);
      }
    }
    return out;
  }

  /**
   * The terms a query of `term` reaches by typo tolerance (near() with the typos reachOf allows the word;
   * IDs reach none), itself left out: what an index being built stores for each of its terms, and
   * TermIndex.neighbours reads back.
   */
  typoNeighbours(term: string): Array<[term: number, distance: number]> {
    const { typos } = reachOf(term);
    return typos > 0 ? this.near(term, typos).filter(([, distance]) => distance > 0) : [];
  }
}

/** The serialised index with what searching needs, worked out on first use. */
export class TermIndex extends Terms {
  private readonly decoded = new Map<number, Postings>();
  private surfaceList?: string[];

  constructor(
    readonly data: SerialisedIndex,
    /** Each document's boost (documentBoost), by position; 0 leaves it out. */
    private readonly boost: Float64Array,
  ) {
    super(data.terms, data.letters);
  }

  /** The word of the atlas shown for term t (SerialisedIndex.surfaces): "" when it is the term itself. */
  surface(t: number): string {
    this.surfaceList ??= this.data.surfaces.split(' ');
    return this.surfaceList[t] ?? '';
  }

  postings(t: number): Postings {
    let p = this.decoded.get(t);
    if (!p) {
      const numbers = decode(this.data.postings, decodeFixedAt(this.data.postingStarts, t), decodeFixedAt(this.data.postingStarts, t + 1));
      // The postings' fields, then the typo neighbours (SerialisedIndex.postings).
      let end = 0;
      let total = 0;
      for (let f = 0; f < F; f++) {
        total += numbers[end]!;
        end += 1 + 2 * numbers[end]!;
      }
      const documents = this.data.ids.length;
      p = {
        docs: new Int32Array(total),
        share: new Float64Array(total),
        start: [0],
        near: numbers.subarray(end + 1, end + 1 + 2 * numbers[end]!),
      };
      let at = 0;
      let n = 0;
      for (let f = 0; f < F; f++) {
        const inField = numbers[at++]!;
        const idf = Math.log(1 + (documents - inField + 0.5) / (inField + 0.5));
        const average = this.data.averageFieldLength[f]!;
        for (let i = 0, doc = 0; i < inField; i++, n++) {
          doc += numbers[at++]!;
          const tf = numbers[at++]!;
          const bm25 = idf * (D + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.data.fieldLength[doc * F + f]!) / average)));
          p.docs[n] = doc;
          p.share[n] = FIELD_BOOST[f]! * this.boost[doc]! * bm25;
        }
        p.start.push(n);
      }
      this.decoded.set(t, p);
    }
    return p;
  }

  /**
   * The terms a query of term t reaches by typo tolerance (near() of the term, with the typos its length
   * allows, itself left out), with the distance, as worked out when the index was built; undefined when
   * the index stores none (SerialisedIndex.neighbours).
   */
  neighbours(t: number): Array<[term: number, distance: number]> | undefined {
    if (!this.data.neighbours) return undefined;
    const { near } = this.postings(t);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < near.length; i += 2) out.push([near[i]!, near[i + 1]!]);
    return out;
  }

  /** Whether document `doc` holds term t in field f (postings are sorted by document). */
  holds(t: number, f: number, doc: number): boolean {
    const { docs, start } = this.postings(t);
    let lo = start[f]!;
    let hi = start[f + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] === doc) return true;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }

  /** How many documents hold term t in any field. */
  documentsWith(t: number): number {
    return new Set(this.postings(t).docs).size;
  }
}

/** Compares text[at, at + word.length) with word in code-unit order (negative: before). */
function compareAt(text: string, at: number, word: string): number {
  for (let i = 0; i < word.length; i++) {
    const d = text.charCodeAt(at + i) - word.charCodeAt(i);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Documents by descending score, equal scores in the order given. When only the `top` few are wanted,
 * they are picked in one pass (a page of a broad query at scale is 10 of thousands) and the rest follow
 * in the order given.
 */
export function bestFirst(docs: number[], score: Float64Array, top: number): number[] {
  if (top <= 0) return docs;
  if (top * 8 >= docs.length) return docs.sort((a, b) => score[b]! - score[a]!);
  const chosen: number[] = [];
  const rest: number[] = [];
  for (const doc of docs) {
    const s = score[doc]!;
    if (chosen.length === top && s <= score[chosen[top - 1]!]!) {
      rest.push(doc);
      continue;
    }
    // After every chosen document scoring at least as much: equal scores keep their order.
    let at = chosen.length;
    while (at > 0 && score[chosen[at - 1]!]! < s) at--;
    chosen.splice(at, 0, doc);
    if (chosen.length > top) rest.push(chosen.pop()!);
  }
  return [...chosen, ...rest];
}

/** Set bits of a 32-bit word. */
export function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
