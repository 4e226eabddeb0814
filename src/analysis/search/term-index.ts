// Search, the serialised index with what searching needs worked out on first use: decoded postings, terms
// by length for typo matching, and ranking the best documents.
import { editDistance } from '../../registry/suggest.ts';
import { ID_TOKEN, HYPHEN } from './tokenise.ts';
import { FIELD_BOOST, F } from './fields.ts';
import { K1, B, D } from './policy.ts';
import { type SerialisedIndex, decode } from './codec.ts';

/**
 * A term's postings, decoded: field f's documents from start[f] to start[f + 1], each with what the term
 * adds to its score there before the query's weights (BM25 × the field's boost × the document's boost).
 * That share depends on the index alone, so it is worked out once per term, not per query.
 */
interface Postings {
  docs: Int32Array;
  share: Float64Array;
  start: number[];
}

/** The serialised index with what searching needs, worked out on first use. */
export class TermIndex {
  readonly fieldLength: Int32Array;
  private readonly decoded = new Map<number, Postings>();
  /** Terms by length, with a mask of the letters in each and whether it is an ID (near()). */
  private byLength?: Map<number, { terms: number[]; letters: Int32Array; id: Uint8Array }>;

  constructor(
    readonly data: SerialisedIndex,
    /** Each document's boost (documentBoost), by position; 0 leaves it out. */
    private readonly boost: Float64Array,
  ) {
    this.fieldLength = decode(data.fieldLength);
  }

  /** The first term not before `text` in code-unit order. */
  private lowerBound(text: string): number {
    const terms = this.data.terms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The number of an index term, or undefined when no document holds it. */
  find(term: string): number | undefined {
    const i = this.lowerBound(term);
    return this.data.terms[i] === term ? i : undefined;
  }

  /** Terms that begin with `prefix` and are longer than it. */
  longerWithPrefix(prefix: string): number[] {
    const terms = this.data.terms;
    const out: number[] = [];
    for (let i = this.lowerBound(prefix); i < terms.length && terms[i]!.startsWith(prefix); i++)
      if (terms[i]!.length > prefix.length) out.push(i);
    return out;
  }

  /**
   * Terms of the index within `max` edits of `term` (itself included when indexed), with the distance.
   * IDs only when asked (suggestions for a mistyped ID): a word a person types is not a typo of an ID.
   */
  near(term: string, max: number, ids = false): Array<[term: number, distance: number]> {
    // Only terms within `max` letters of the term's length can be that close, and only terms whose set of
    // letters differs from the term's by at most `max` each way (an edit adds or removes one letter): a
    // cheap test that leaves the edit distance to few terms.
    if (!this.byLength) {
      this.byLength = new Map();
      const groups = new Map<number, number[]>();
      this.data.terms.forEach((t, i) => {
        let list = groups.get(t.length);
        if (!list) {
          list = [];
          groups.set(t.length, list);
        }
        list.push(i);
      });
      // Plain loops, not TypedArray.from with a function, and the regular expression only for terms with
      // a hyphen where an ID has one: this runs over every term before the first search of a process (the
      // CLI's), where the slower forms cost 10 ms of a 4,800-term index.
      for (const [length, terms] of groups) {
        const letters = new Int32Array(terms.length);
        const id = new Uint8Array(terms.length);
        for (let k = 0; k < terms.length; k++) {
          const t = this.data.terms[terms[k]!]!;
          letters[k] = lettersOf(t);
          id[k] = t.charCodeAt(1) === HYPHEN && ID_TOKEN.test(t) ? 1 : 0;
        }
        this.byLength.set(length, { terms, letters, id });
      }
    }
    const letters = lettersOf(term);
    const out: Array<[number, number]> = [];
    for (let length = Math.max(1, term.length - max); length <= term.length + max; length++) {
      const group = this.byLength.get(length);
      if (!group) continue;
      for (let k = 0; k < group.terms.length; k++) {
        const other = group.letters[k]!;
        if ((!ids && group.id[k] === 1) || bitCount(letters & ~other) > max || bitCount(other & ~letters) > max) continue;
        const d = editDistance(term, this.data.terms[group.terms[k]!]!, max);
        if (d <= max) out.push([group.terms[k]!, d]);
      }
    }
    return out;
  }

  postings(t: number): Postings {
    let p = this.decoded.get(t);
    if (!p) {
      const numbers = decode(this.data.postings[t]!);
      const total = (numbers.length - F) / 2;
      const documents = this.data.ids.length;
      p = { docs: new Int32Array(total), share: new Float64Array(total), start: [0] };
      let at = 0;
      let n = 0;
      for (let f = 0; f < F; f++) {
        const inField = numbers[at++]!;
        const idf = Math.log(1 + (documents - inField + 0.5) / (inField + 0.5));
        const average = this.data.averageFieldLength[f]!;
        for (let i = 0, doc = 0; i < inField; i++, n++) {
          doc += numbers[at++]!;
          const tf = numbers[at++]!;
          const bm25 = idf * (D + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.fieldLength[doc * F + f]!) / average)));
          p.docs[n] = doc;
          p.share[n] = FIELD_BOOST[f]! * this.boost[doc]! * bm25;
        }
        p.start.push(n);
      }
      this.decoded.set(t, p);
    }
    return p;
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

/** The letters of a word as a set of bits (digits and other characters share bits: a coarser set is still a bound). */
function lettersOf(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    mask |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return mask;
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
