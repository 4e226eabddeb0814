// Search, the index as the snapshot stores it: its format (its numbers are written by number-codec.ts).

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
   * the work grows with the square of the terms; the atlas's are a few thousand). Without them, a query
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
