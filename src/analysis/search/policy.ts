// Search, the query policy: how far a query term reaches (prefixes, typos), the BM25 parameters and
// match weights, and which matches are relevant enough to count.
import { ID_TOKEN } from './tokenise.ts';

/** Words longer than this are matched exactly (typo tolerance costs the square of a word's length). */
const MAX_FUZZY_TERM = 24;

// Scoring is BM25 as MiniSearch (which this index replaced) computes it, so that ranking stayed as
// tuned: k 1.2, b 0.7, and d 0.5 added to every match's term-frequency part.
export const K1 = 1.2;
export const B = 0.7;
export const D = 0.5;
// A word's beginning ("resch") is a surer sign than a word one edit away ("reach"), so prefix matches
// weigh more than typo matches; both less than the word itself (weight 1).
export const PREFIX_WEIGHT = 0.45;
export const FUZZY_WEIGHT = 0.375;
/** Typos allowed: a fifth of the word's letters, rounded (1 for 5–7 letters, 2 for 8–12…), at most 6. */
const FUZZY_SHARE = 0.2;
const MAX_TYPOS = 6;

/**
 * How far a query term reaches beyond itself. IDs match exactly: M-013 is not "close to" M-012. A word
 * longer than any real one (a pasted token) is matched exactly too. Prefixes need four letters ("not"
 * would find "nothing"), typos five.
 */
export function reachOf(term: string): { prefix: boolean; typos: number } {
  if (term.length > MAX_FUZZY_TERM || ID_TOKEN.test(term)) return { prefix: false, typos: 0 };
  return { prefix: term.length >= 4, typos: term.length >= 5 ? typosAllowed(term, FUZZY_SHARE) : 0 };
}

export const typosAllowed = (term: string, share: number) => Math.min(MAX_TYPOS, Math.round(term.length * share));

/**
 * A match is relevant when its score is at least this share of the best match's. BM25 with an OR query
 * scores every entity sharing one word with the query; most of those are noise ("interview" appears in
 * most of the atlas). Measured on the real atlas: see test/unit/search.test.ts for what it keeps.
 */
export const RELEVANCE = 0.3;

/**
 * A query of at least this many words reads as an account of what happened, not as keywords: the
 * situation reader's reading of it (when a door gives one) puts the observations it states first. Shorter
 * queries are searched only. Measured by five-fold cross-validation on the reader's development accounts
 * (bench/reader-cv.ts): the reading puts a right observation into the top three at every length, but
 * under six words for only 1 account of 36, which does not pay for loading the reader's model (about
 * 20 ms of CPU in a CLI run on Node 24, 27 on Node 20).
 */
export const ACCOUNT_WORDS = 6;

/**
 * Whether a search of these words, among these kinds (every kind when none), reads them as an account of
 * what happened: ACCOUNT_WORDS or more words, and observations among the kinds searched. Every door asks
 * this before loading the reader's model, and the search asks it again before using the reader it is given.
 */
export const readsAsAccount = (query: string, kinds: readonly string[] = []) =>
  query.trim().split(/\s+/).length >= ACCOUNT_WORDS && (kinds.length === 0 || kinds.includes('artifact'));
