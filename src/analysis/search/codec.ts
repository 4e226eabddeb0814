// Search, the index as the snapshot stores it: its format, and the number codec of its postings.

/**
 * The index as the snapshot stores it. Loading it must cost little before the first search (the CLI and
 * the MCP server load it for one query), so the postings stay compact strings, one per term, decoded
 * only for the terms a query reaches; nothing else is rebuilt (no tree, no map of maps).
 */
export interface SerialisedIndex {
  format: typeof INDEX_FORMAT;
  /** Entity IDs; a document is its position here. */
  ids: string[];
  /** Distinct words of each document's fields (document × field), the length BM25 normalises by (encoded). */
  fieldLength: string;
  averageFieldLength: number[];
  /** Index terms, sorted by code unit (so that the terms with a prefix are one run). */
  terms: string[];
  /**
   * Each term's postings (encoded): for each field, the number of documents holding the term there, then
   * for each such document the gap from the previous one and the term's occurrences in the field.
   */
  postings: string[];
  /**
   * For each term, a word of the atlas it came from, to show people (a stem such as "receiv" shows as
   * "received"): the first in title, aliases, summary, voices then body, in ID order; "" when that is the
   * term itself (an ID, or a word the stemmer left alone).
   */
  surfaces: string[];
}
export const INDEX_FORMAT = 'hoba-search/4';

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

export function decode(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let count = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = DIGIT_VALUE[text.charCodeAt(i)]!;
    if (v < 32) {
      out[count++] = n * 32 + v;
      n = 0;
    } else n = n * 32 + (v - 32);
  }
  return out.subarray(0, count);
}

/** The postings codec, for its property test (test/unit/search-index.test.ts): numbers 0 … 2^31 − 1. */
export const numberCodec = { encode, decode } as const;

export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
