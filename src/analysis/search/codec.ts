// Search, the index as the snapshot stores it: its format, and the number codec of its postings.

/**
 * The index as the snapshot stores it. Loading it must cost little before the first search (the CLI and
 * the MCP server load it for one query), so it is a few long strings that JSON.parse copies whole, not
 * one small string per term: nothing is rebuilt, and a term's postings are decoded only when a query
 * reaches it.
 */
export interface SerialisedIndex {
  format: typeof INDEX_FORMAT;
  /** Entity IDs; a document is its position here. */
  ids: string[];
  /** Distinct words of each document's fields (document × field), the length BM25 normalises by. */
  fieldLength: number[];
  averageFieldLength: number[];
  /**
   * Index terms by length: entry L holds the terms of L letters, in code-unit order, written one after
   * the other ("" when there is none). Terms are numbered in that order (by length, then code unit), so
   * that the terms of one length (what typo matching compares) are one run, read without splitting.
   */
  terms: string[];
  /** The letters of each term as a set of bits (lettersOf), in term order: what typo matching compares first. */
  letters: number[];
  /**
   * Each term's record (encoded), in term order, one after another: its postings (for each field, the
   * number of documents holding the term there, then for each such document the gap from the previous one
   * and the term's occurrences in the field), then its typo neighbours (how many, then each one's term
   * number and edit distance: the terms a query of this very word reaches by typo tolerance, worked out
   * when the index is built, so that a query of a word the atlas holds compares no terms; none are stored
   * when `neighbours` is false).
   */
  postings: string;
  /**
   * Whether the records carry the terms' typo neighbours: only for an index of up to
   * MAX_TERMS_WITH_NEIGHBOURS terms (finding them compares each term with the terms of nearby lengths, so
   * the work grows with the square of the terms; the atlas holds about 6,300). Without them, a query
   * compares its words with the terms when it runs, as it does for a word the atlas does not hold.
   */
  neighbours: boolean;
  /**
   * Where each term's postings start in `postings`, and where the last ends, five digits each
   * (encodeFixed): a term's postings are read without splitting the text or reading the others.
   */
  postingStarts: string;
  /**
   * For each term, a word of the atlas it came from, to show people (a stem such as "receiv" shows as
   * "received"): the first in title, aliases, summary, voices then body, in ID order; "" when that is the
   * term itself (an ID, or a word the stemmer left alone). In term order, separated by spaces.
   */
  surfaces: string;
}
export const INDEX_FORMAT = 'hoba-search/7';
/** The most terms an index stores typo neighbours for (SerialisedIndex.neighbours): about a second of building. */
export const MAX_TERMS_WITH_NEIGHBOURS = 20_000;

// Numbers are written as base-64url digits of 5 bits, most significant first, all but the last digit
// marked by adding 32: small numbers (most gaps and counts) take one character, and the text is JSON-safe
// ASCII (no quote or backslash to escape in the snapshot).
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i;

// Joined, not appended to one string: a string grown by += is a chain of one small piece per append
// (a "rope" in V8) until something flattens it, and the index keeps its postings for good. Appended, the
// index of a 10,000-entity atlas took 77 MB of heap for 3.1 MB of text; joined, 4 MB (BENCHMARKS.md).
export function encode(numbers: readonly number[]): string {
  const out: string[] = [];
  for (let n of numbers) {
    let digits = DIGITS[n & 31]!;
    for (n >>>= 5; n > 0; n >>>= 5) digits = DIGITS[32 + (n & 31)]! + digits;
    out.push(digits);
  }
  return out.join('');
}

/** The numbers encoded in text[start, end) (all of it by default). */
export function decode(text: string, start = 0, end = text.length): Int32Array {
  const out = new Int32Array(end - start);
  let count = 0;
  let n = 0;
  for (let i = start; i < end; i++) {
    const v = DIGIT_VALUE[text.charCodeAt(i)]!;
    if (v < 32) {
      out[count++] = n * 32 + v;
      n = 0;
    } else n = n * 32 + (v - 32);
  }
  return out.subarray(0, count);
}

/** Digits of a fixed-width number (encodeFixed): six bits each, so up to 2^30 − 1. */
const FIXED_WIDTH = 5;

/** Numbers from 0 to 2^30 − 1 as five digits each, most significant first: the i-th is read alone (decodeFixedAt). */
export function encodeFixed(numbers: readonly number[]): string {
  const out: string[] = [];
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** (6 * FIXED_WIDTH)) throw new RangeError(`${n} does not fit in ${FIXED_WIDTH} digits`);
    for (let d = FIXED_WIDTH - 1; d >= 0; d--) out.push(DIGITS[(n >>> (6 * d)) & 63]!);
  }
  return out.join('');
}

/** The i-th number of an encodeFixed text. */
export function decodeFixedAt(text: string, i: number): number {
  let n = 0;
  for (let at = i * FIXED_WIDTH, end = at + FIXED_WIDTH; at < end; at++) n = n * 64 + DIGIT_VALUE[text.charCodeAt(at)]!;
  return n;
}

/** The postings codec, for its property test (test/unit/search-index.test.ts): numbers 0 … 2^31 − 1. */
export const numberCodec = { encode, decode, encodeFixed, decodeFixedAt } as const;

/**
 * The letters of a word as a set of bits (SerialisedIndex.letters): a to z one bit each, every other
 * character one of four more (a coarser set is still a bound). 30 bits, so that they parse as small integers.
 */
export function lettersOf(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    mask |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 4));
  }
  return mask;
}

export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
