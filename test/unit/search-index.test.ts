// The search index as the snapshot stores it (src/analysis/search.ts): the number codec of its postings,
// and the whole index, survive encoding and decoding, as properties over generated inputs (fast-check).
// Seeded: the seed is fixed so that runs are reproducible; HOBA_SEED=<integer> tries another.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { AtlasSearch } from '../../src/analysis/search.ts';
import { numberCodec } from '../../src/analysis/search/codec.ts';
import { fieldText } from '../../src/analysis/search/fields.ts';
import { normaliseTerm, tokenizeText } from '../../src/analysis/search/tokenise.ts';
import type { Entity } from '../../src/model/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry } from '../../src/registry/registry.ts';
import { ROOT, seedFromEnv } from '../helpers.ts';

const SEED = seedFromEnv(28_2026);
const options = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });
const { encode, decode } = numberCodec;

/** The numbers the codec carries: gaps, counts and lengths, 0 to 2^31 − 1, the 5-bit digit edges included. */
const number = fc.oneof(fc.nat(), fc.nat({ max: 40 }), fc.constantFrom(0, 31, 32, 1023, 1024, 32767, 32768, 2 ** 31 - 1));

describe(`the postings codec (HOBA_SEED=${SEED})`, () => {
  test('decode(encode(numbers)) gives the numbers back', () => {
    fc.assert(
      fc.property(fc.array(number, { maxLength: 200 }), (numbers) => {
        assert.deepEqual([...decode(encode(numbers))], numbers);
      }),
      options(500),
    );
  });

  test('the text is JSON-safe ASCII, one character for each number below 32, and self-delimiting', () => {
    fc.assert(
      fc.property(fc.array(number, { maxLength: 50 }), fc.array(number, { maxLength: 50 }), (a, b) => {
        const text = encode(a);
        assert.match(text, /^[A-Za-z0-9_-]*$/);
        assert.equal(JSON.parse(JSON.stringify(text)), text);
        assert.equal(text.length >= a.length, true);
        if (a.every((n) => n < 32)) assert.equal(text.length, a.length);
        // Two encodings side by side are the encoding of both lists: a term's postings are joined pieces.
        assert.equal(encode(a) + encode(b), encode([...a, ...b]));
      }),
      options(300),
    );
  });
});

describe(`the whole index (HOBA_SEED=${SEED})`, () => {
  let entities: Entity[];
  let manifest: Registry['manifest'];
  let words: string[];
  before(() => {
    const reg = loadAtlas(ROOT).registry;
    entities = reg.entities as Entity[];
    manifest = reg.manifest;
    words = [
      ...new Set(entities.flatMap((e) => `${e.title} ${'summary' in e ? e.summary : ''}`.toLowerCase().split(/[^a-z0-9-]+/))),
    ].filter((w) => w.length > 2);
  });

  test('an index restored from its JSON answers every query exactly as the index it was written from', () => {
    const query = () => fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.subarray(entities, { minLength: 1, maxLength: 60 }),
        fc.array(query(), { minLength: 1, maxLength: 5 }),
        (some, queries) => {
          const reg = new Registry({ manifest, entities: some });
          const built = AtlasSearch.build(reg);
          const json = built.toJSON();
          const restored = AtlasSearch.load(reg, json);
          assert.equal(restored.toJSON(), json, 'written again, the same text');
          for (const q of queries) assert.deepEqual(restored.search(q, { limit: 20 }), built.search(q, { limit: 20 }), q);
        },
      ),
      options(25),
    );
  });

  test('an index of another format is refused with what to do', () => {
    const reg = new Registry({ manifest, entities: entities.slice(0, 3) });
    const json = JSON.parse(AtlasSearch.build(reg).toJSON()) as Record<string, unknown>;
    assert.throws(
      () => AtlasSearch.load(reg, JSON.stringify({ ...json, format: 'hoba-search/1' })),
      /format "hoba-search\/1".*npm run build/,
    );
  });

  test('each term carries the word people see for it: the first in title, aliases, summary, voices, body (ID order), built once with the index', () => {
    const reg = new Registry({ manifest, entities: entities.filter((_, i) => i % 7 === 0) });
    const { terms, surfaces } = JSON.parse(AtlasSearch.build(reg).toJSON()) as { terms: string[]; surfaces: string[] };
    assert.equal(surfaces.length, terms.length);
    // The first word of each term, read in that order (each text tokenised once, not once per term).
    const first = new Map<string, string>();
    for (const field of ['title', 'aliases', 'summary', 'voices', 'body'] as const) {
      for (const e of reg.entities)
        for (const word of tokenizeText(fieldText(e as Entity, field))) {
          const term = normaliseTerm(word);
          if (term !== null && !first.has(term)) first.set(term, word.toLowerCase());
        }
    }
    const firstWord = (term: string) => first.get(term) ?? term;
    const wrong = terms.filter((t, i) => (surfaces[i] || t) !== firstWord(t));
    assert.deepEqual(wrong, [], 'terms whose shown word is not the first the atlas has');
    assert.ok(
      surfaces.some((w) => w !== ''),
      'stems are shown as words',
    );
  });
});
