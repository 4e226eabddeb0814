// The search's text steps read a text all in ASCII (the usual query) without their Unicode classes, which
// V8 compiles on the first search of a process (bench/cli-start.mjs). These check, on many random ASCII
// texts, that the fast paths answer exactly as the Unicode ones: each text is also given with a character
// the Unicode path reads as nothing (a combining accent, which folding removes; a dash, which is neither a
// letter nor part of a word), which sends it down the Unicode path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rewriteQuery } from '../../src/analysis/colloquial.ts';
import { nonEnglishLanguage } from '../../src/analysis/language.ts';
import { normaliseTerm, PLAIN_ASCII, tokenizeText } from '../../src/analysis/search/tokenise.ts';
import { Rng, seedFromEnv } from '../helpers.ts';

const seed = seedFromEnv(29);
const random = new Rng(seed);
const PIECES = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...` '-^\`.,;:!?()"/&_`,
  'not ',
  'no ',
  'never ',
  "wasn't ",
  'rather than ',
  'it was ',
  'ghosted',
  'rejected',
  'A-009',
  'm-13',
  'went dark',
  'le ',
  'und ',
  'de ',
  'entretien ',
  'resume',
  'interview ',
];
const texts = Array.from({ length: 3000 }, () => {
  let text = '';
  for (let n = random.int(12); n >= 0; n--) text += PIECES[random.int(PIECES.length)];
  return text;
});

test(`ASCII texts read the same on the fast and the Unicode paths (seed ${seed})`, () => {
  for (const text of texts) {
    assert.match(text, PLAIN_ASCII, 'the fast paths read it');
    assert.deepEqual(tokenizeText(text), tokenizeText(`${text} \u2014`), JSON.stringify(text));
    for (const word of [text, ...tokenizeText(text)])
      assert.equal(normaliseTerm(word), normaliseTerm(`${word}\u0301`), JSON.stringify(word));
    assert.equal(nonEnglishLanguage(text), nonEnglishLanguage(`${text} \u2014`), JSON.stringify(text));
    const fast = rewriteQuery(text);
    const unicode = rewriteQuery(`${text} \u2014`);
    assert.deepEqual(fast.negated, unicode.negated, JSON.stringify(text));
    assert.deepEqual(fast.phrases, unicode.phrases, JSON.stringify(text));
  }
});

test('the markers are real: they send a text down the Unicode path, where the fast one would differ', () => {
  // A combining accent is removed by folding, and a dash is a token of its own to the Unicode path only.
  assert.equal(normaliseTerm('re\u0301sume\u0301'), normaliseTerm('resume'));
  assert.deepEqual(tokenizeText('a \u2014'), ['a']);
  assert.deepEqual(tokenizeText('caf\u00e9'), ['caf\u00e9']);
  assert.equal(nonEnglishLanguage('il a dit que la r\u00e9ponse \u00e9tait non'), 'French');
});
