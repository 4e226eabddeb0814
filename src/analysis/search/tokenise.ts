// Search, splitting text into words: the tokens of a text (IDs kept whole), stop words, and the normal
// form of a word as the index holds it (lower case, accents folded, a light stemmer).
import { ID_LETTERS } from '../../model/vocab.ts';
import { stem } from '../stem.ts';

export const ID_TOKEN = new RegExp(`^[${ID_LETTERS.toLowerCase()}]-\\d{3,}$`, 'i');
export const HYPHEN = 45; // '-', the second character of every ID (ID_TOKEN)
/** Words of any script (and IDs), made on first use: a text all in ASCII (the usual query) needs only ASCII_TOKEN. */
let unicodeToken: RegExp | undefined;
const token = () => {
  unicodeToken ??= new RegExp(`[${ID_LETTERS.toLowerCase()}]-\\d{3,}|[\\p{L}\\p{N}]+`, 'giu');
  return unicodeToken;
};
// The same for a text all in ASCII (the usual query), where \p{L} and \p{N} are exactly [A-Za-z] and
// [0-9]: V8 makes a Unicode class in a fraction of a millisecond, and compiles it again on first use.
const ASCII_TOKEN = new RegExp(`[${ID_LETTERS.toLowerCase()}]-\\d{3,}|[a-z0-9]+`, 'gi');
/**
 * Text of printable ASCII and white space: the usual query, which the search's text steps (here,
 * colloquial.ts, language.ts) read without their Unicode property classes (see ASCII_TOKEN).
 */
export const PLAIN_ASCII = /^[\t\n\r -~]*$/;

// Words too common to help ranking. "no" and "not" stay: "no pay range" means something. The pieces of
// a contraction ("didn't" is split into "didn" and "t") are noise on their own.
const STOP_WORDS = new Set(
  'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its me my of on or our she so than that the their them then there these they this those to up us was we were what when where which while who why will with would you your t s d ll re ve m didn doesn don isn wasn weren aren won wouldn couldn shouldn haven hasn hadn'.split(
    ' ',
  ),
);

/** Lower-case, accents folded (résumé → resume), a light suffix stemmer; IDs kept whole. */
export function normaliseTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (ID_TOKEN.test(t)) return t;
  // In ASCII, the only diacritics are ^ and ` (and NFD changes nothing).
  const w = PLAIN_ASCII.test(t) ? t.replace(/[\^`]/g, '') : t.normalize('NFD').replace(/\p{Diacritic}/gu, '');
  if (STOP_WORDS.has(w)) return null;
  return stem(w);
}

/** The words of a text as the index splits them (IDs kept whole). */
export function tokenizeText(text: string): string[] {
  return text.match(PLAIN_ASCII.test(text) ? ASCII_TOKEN : token()) ?? [];
}
