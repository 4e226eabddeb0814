// Search, words people use for what the atlas names otherwise: expanded at query time only.
import { normaliseTerm } from './tokenise.ts';

/**
 * Words people use for what the atlas names otherwise, expanded at query time only (the index keeps
 * the atlas's own words). Keys and values are normalised terms.
 */
// A Map, not an object literal: query words are looked up in it, and "constructor" must not find
// Object.prototype's.
const SYNONYMS = new Map<string, string[]>([
  ['salary', ['pay', 'compensation']],
  ['pay', ['salary', 'compensation']],
  ['wage', ['pay', 'salary']],
  ['compensation', ['pay', 'salary']],
  ['lower', ['cut', 'reduc', 'below']],
  ['cut', ['lower', 'reduc']],
  ['ghost', ['silenc']],
  ['cv', ['resum']],
  ['job', ['role', 'posting']],
  ['fire', ['rescind']],
  ['withdrawn', ['rescind']],
]);

export function expandQueryTerm(term: string): string | string[] | null {
  const t = normaliseTerm(term);
  if (t === null) return null;
  const more = SYNONYMS.get(t);
  return more ? [t, ...more] : t;
}
