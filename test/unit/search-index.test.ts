// The search index as the snapshot stores it (src/analysis/search.ts): the number codec of its postings,
// and the whole index, survive encoding and decoding, as properties over generated inputs (fast-check).
// Seeded: the seed is fixed so that runs are reproducible; HOBA_SEED=<integer> tries another.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { AtlasSearch } from '../../src/analysis/search.ts';
import { INDEX_FORMAT, lettersOf, type SerialisedIndex } from '../../src/analysis/search/codec.ts';
import { decode, decodeFixedAt, encode, encodeFixed } from '../../src/analysis/number-codec.ts';
import { reachOf } from '../../src/analysis/search/policy.ts';
import { TermIndex } from '../../src/analysis/search/term-index.ts';
import { buildIndex } from '../../src/analysis/search/build.ts';
import { editDistance } from '../../src/registry/suggest.ts';
import { fieldText } from '../../src/analysis/search/fields.ts';
import { ID_TOKEN, normaliseTerm, tokenizeText } from '../../src/analysis/search/tokenise.ts';
import type { Entity } from '../../src/model/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry } from '../../src/registry/registry.ts';
import { ROOT, seedFromEnv } from '../helpers.ts';

const SEED = seedFromEnv(28_2026);
const options = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

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

  test('fixed-width numbers (0 to 2^30 - 1) are read back one at a time, and a larger one is refused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat({ max: 2 ** 30 - 1 }), fc.constantFrom(0, 63, 64, 2 ** 30 - 1)), { maxLength: 50 }),
        (numbers) => {
          const text = encodeFixed(numbers);
          assert.match(text, /^[A-Za-z0-9_-]*$/);
          assert.equal(text.length, numbers.length * 5);
          for (const [i, n] of numbers.entries()) assert.equal(decodeFixedAt(text, i), n);
        },
      ),
      options(300),
    );
    assert.throws(() => encodeFixed([2 ** 30]), RangeError);
    assert.throws(() => encodeFixed([-1]), RangeError);
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

  test('a damaged text (a character that is no digit) is refused, not read as other numbers', () => {
    fc.assert(
      fc.property(
        fc.array(number, { maxLength: 20 }),
        fc
          .integer({ min: 0, max: 0xffff })
          .map((code) => String.fromCharCode(code))
          .filter((c) => !/[A-Za-z0-9_-]/.test(c)),
        fc.nat(),
        (numbers, bad, at) => {
          const text = encode(numbers);
          const i = text.length === 0 ? 0 : at % text.length;
          assert.throws(() => decode(text.slice(0, i) + bad + text.slice(i)), /is not a digit of a number text/);
        },
      ),
      options(200),
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

  /** Lists of queries of one to four words of the atlas (and of the `extra` words), built when a test runs (after `words`). */
  const queries = (extra: readonly string[] = []) =>
    fc.array(
      fc.array(fc.constantFrom(...words, ...extra), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' ')),
      { minLength: 1, maxLength: 5 },
    );
  const sameAnswers = (a: AtlasSearch, b: AtlasSearch, qs: readonly string[]) => {
    for (const q of qs) assert.deepEqual(a.search(q, { limit: 20 }), b.search(q, { limit: 20 }), q);
  };

  test('an index restored from its JSON answers every query exactly as the index it was written from', () => {
    fc.assert(
      fc.property(fc.subarray(entities, { minLength: 1, maxLength: 60 }), queries(), (some, qs) => {
        const reg = new Registry({ manifest, entities: some });
        const built = AtlasSearch.build(reg);
        const json = built.toJSON();
        const restored = AtlasSearch.load(reg, json);
        assert.equal(restored.toJSON(), json, 'written again, the same text');
        sameAnswers(restored, built, qs);
      }),
      options(25),
    );
  });

  test('each term carries the terms a query of it reaches by typos, as comparing every term finds them', () => {
    fc.assert(
      fc.property(fc.subarray(entities, { minLength: 1, maxLength: 40 }), (some) => {
        const reg = new Registry({ manifest, entities: some });
        const index = new TermIndex(JSON.parse(AtlasSearch.build(reg).toJSON()) as SerialisedIndex, new Float64Array(some.length).fill(1));
        const all = Array.from({ length: index.size }, (_, t) => index.term(t));
        all.forEach((term, t) => {
          const { typos } = reachOf(term);
          // Every other term within the typos allowed, IDs left out, by length then code unit.
          const plain = all.flatMap((other, u): Array<[number, number]> => {
            if (u === t || typos === 0 || ID_TOKEN.test(other)) return [];
            const d = Math.abs(other.length - term.length) > typos ? typos + 1 : plainDistance(term, other);
            return d <= typos ? [[u, d]] : [];
          });
          assert.deepEqual(index.neighbours(t), plain, term);
        });
      }),
      options(4),
    );
  });

  test('a search reaches the same terms by stored neighbours as by comparing every term', () => {
    const reg = new Registry({ manifest, entities });
    const built = AtlasSearch.build(reg);
    const index = new TermIndex(JSON.parse(built.toJSON()) as SerialisedIndex, new Float64Array(entities.length).fill(1));
    for (let t = 0; t < index.size; t++) {
      const term = index.term(t);
      const { typos } = reachOf(term);
      const compared = typos > 0 ? index.near(term, typos).filter(([, d]) => d > 0) : [];
      assert.deepEqual(index.neighbours(t), compared, term);
    }
  });

  test('an index too large to store typo neighbours answers every query as one that stores them', () => {
    fc.assert(
      fc.property(
        fc.subarray(entities, { minLength: 1, maxLength: 60 }),
        queries(['intervew', 'rejectd', 'ghostd', 'salry']),
        (some, qs) => {
          const reg = new Registry({ manifest, entities: some });
          const stored = AtlasSearch.build(reg);
          const without = buildIndex(some, 0);
          assert.equal(without.neighbours, false);
          assert.equal((JSON.parse(stored.toJSON()) as SerialisedIndex).neighbours, true);
          sameAnswers(AtlasSearch.load(reg, JSON.stringify(without)), stored, qs);
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
    const index = JSON.parse(AtlasSearch.build(reg).toJSON()) as { terms: string[]; letters: number[]; surfaces: string };
    // Terms are stored by length, one run of equal-length terms each, in code-unit order within a run.
    const terms = index.terms.flatMap((run, length) =>
      Array.from({ length: length === 0 ? 0 : run.length / length }, (_, k) => run.slice(k * length, k * length + length)),
    );
    assert.ok(
      index.terms.every((run, length) => (length === 0 ? run === '' : run.length % length === 0)),
      'each run holds whole terms',
    );
    assert.deepEqual(
      terms,
      [...terms].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)),
      'by length, then code unit',
    );
    assert.equal(new Set(terms).size, terms.length, 'each term once');
    assert.deepEqual(
      index.letters,
      terms.map((t) => lettersOf(t)),
      'each term with its letters, in term order',
    );
    const surfaces = index.surfaces.split(' ');
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

/** Levenshtein distance by the whole table, fresh arrays (the reference for editDistance). */
function plainDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i]![j] = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return table[a.length]![b.length]!;
}

describe(`the terms as stored, by length (HOBA_SEED=${SEED})`, () => {
  const word = fc.stringMatching(/^[a-e0-9-]{1,9}$/);
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  test('editDistance is the distance of the whole table; bounded by max, it is exact up to max and above max beyond', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), fc.string({ maxLength: 14 }), fc.nat({ max: 4 }), (a, b, max) => {
        const d = plainDistance(a, b);
        assert.equal(editDistance(a, b), d);
        const bounded = editDistance(a, b, max);
        if (d <= max) assert.equal(bounded, d);
        else assert.ok(bounded > max, `${bounded} > ${max}`);
      }),
      options(400),
    );
  });

  test('a term, its length, find, prefixes and typos as a plain sorted list of the terms gives them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 80 }), word, fc.nat({ max: 2 }), (words, query, max) => {
        // Numbered by length, then code unit; stored as one run of equal-length terms per length.
        const sorted = [...words].sort((a, b) => a.length - b.length || byCodeUnit(a, b));
        const runs: string[] = [];
        for (const w of sorted) runs[w.length] = (runs[w.length] ?? '') + w;
        const index = new TermIndex(
          {
            format: INDEX_FORMAT,
            ids: [],
            fieldLength: [],
            averageFieldLength: [],
            terms: Array.from(runs, (run) => run ?? ''),
            letters: sorted.map((w) => lettersOf(w)),
            postings: '',
            postingStarts: encodeFixed(sorted.map(() => 0).concat(0)),
            neighbours: false,
            surfaces: sorted.map(() => '').join(' '),
          },
          new Float64Array(0),
        );
        assert.equal(index.size, sorted.length);
        sorted.forEach((w, t) => {
          assert.equal(index.term(t), w);
          assert.equal(index.lengthOf(t), w.length);
          assert.equal(index.find(w), t);
        });
        const at = sorted.indexOf(query);
        assert.equal(index.find(query), at < 0 ? undefined : at);
        const longer = sorted
          .map((w, t) => ({ w, t }))
          .filter(({ w }) => w.length > query.length && w.startsWith(query))
          .sort((a, b) => byCodeUnit(a.w, b.w))
          .map(({ t }) => t);
        assert.deepEqual(index.longerWithPrefix(query), longer);
        const close = sorted.flatMap((w, t): Array<[number, number]> => {
          const d = plainDistance(query, w);
          return d <= max ? [[t, d]] : [];
        });
        assert.deepEqual(index.near(query, max, true), close);
      }),
      options(300),
    );
  });
});
