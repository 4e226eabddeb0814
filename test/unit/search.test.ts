// Search for how people talk (issue 11, item 7) and plain words in (item 6), on the real atlas:
// colloquial phrasings, typos, negations and narratives find the right observation; the match count is
// thresholded; another language gets an honest "English only" (also from the situation reader, whose own
// tests are test/unit/reader.test.ts); arbitrary text never throws anything but the documented errors.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { accountReader, readerModelFor, readSituation } from '../../src/analysis/reader.ts';
import { AnalysisError } from '../../src/analysis/resolve.ts';
import { AtlasSearch, MAX_QUERY_LENGTH, readsAsAccount, type AccountReader, type ReadAs } from '../../src/analysis/search.ts';
import { PHRASES, partsOf, phraseSaid, rewriteQuery } from '../../src/analysis/colloquial.ts';
import { nonEnglishLanguage } from '../../src/analysis/language.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { ROOT } from '../helpers.ts';

let reg: Registry;
let index: AtlasSearch;

before(() => {
  reg = loadAtlas(ROOT).registry;
  index = AtlasSearch.build(reg);
});

/** The first few results, for a failure message a person can act on. */
function top(query: string, n = 3): string {
  return index
    .search(query, { kinds: ['artifact'] })
    .results.slice(0, n)
    .map((h) => `${h.id} ${h.title}`)
    .join(' | ');
}

const firstArtifact = (query: string) => index.search(query, { kinds: ['artifact'] }).results[0]?.id;
const firstOverall = (query: string) => index.search(query).results.find((h) => h.kind === 'artifact')?.id;

// [how a person says it, the observation it names]. Searched over every kind: the artifact must be the
// first artifact, and no other artifact may outrank it.
const PHRASINGS: Array<[query: string, artifact: string]> = [
  // Everyday words for silence, rejection and the rest.
  ['ghosted after applying', 'A-001'],
  ['never heard back', 'A-001'],
  ['applied and heard nothing for weeks', 'A-001'],
  ['radio silence after the final interview', 'A-009'],
  ['they went dark after the onsite', 'A-009'],
  ['auto-reject', 'A-002'],
  ['automatic rejection email an hour after I applied', 'A-002'],
  ['lowballed', 'A-007'],
  ['bait and switch on the salary', 'A-007'],
  ['they moved the goalposts', 'A-022'],
  ['cut me off mid interview', 'A-031'],
  ['the interviewer was on his phone the whole time', 'A-031'],
  ["interviewer didn't show up", 'A-006'],
  ['they pushed the interview back three times', 'A-006'],
  ['they pulled the offer', 'A-024'],
  ['offer got rescinded after I resigned from my job', 'A-024'],
  ['hiring freeze', 'A-010'],
  ['they put the role on ice', 'A-010'],
  ['it went to an internal candidate', 'A-014'],
  ['they already had someone in mind', 'A-014'],
  ['they asked about the gap in my CV', 'A-016'],
  ["said I'm too senior for the role", 'A-017'],
  ['what are you making now', 'A-012'],
  ['they wanted my salary expectations before telling me the range', 'A-013'],
  ["they won't tell me why I was rejected", 'A-020'],
  ['portal says no longer under consideration', 'A-021'],
  ['stuck at the background check', 'A-023'],
  ['asked if I need visa sponsorship', 'A-025'],
  ['asked if I have kids', 'A-026'],
  ['recruiter stopped replying', 'A-027'],
  ['yet another round of interviews', 'A-028'],
  ['recorded video interview with no one on the other end', 'A-029'],
  ['I accepted another offer', 'A-030'],
  ['entry level job asking for 5 years of experience', 'A-032'],
  ['job ad has been up for months', 'A-005'],
  ['same job posted again a week after they rejected me', 'A-004'],
  ['take-home took the whole weekend', 'A-008'],
  ['downleveled in the offer', 'A-011'],
  ["bachelor's degree required for a receptionist job", 'A-018'],
  ['one interviewer loved me and the other said I was weak, mixed signals', 'A-019'],
  ['rejected right after the screening questions', 'A-015'],
  ['form rejection saying they went with other candidates', 'A-003'],
  // Written after the table above was tuned, as a check that the rules generalise (30 of 31 ranked first
  // unchanged; the rules were then widened for the five misses, and one ambiguous case left out).
  ['heard crickets after my application', 'A-001'],
  ['company never got back to me after the last round', 'A-009'],
  ['they rescinded my job offer', 'A-024'],
  ['the hiring manager kept cancelling our call', 'A-006'],
  ['they said the position was frozen', 'A-010'],
  ['they asked me what my current pay is', 'A-012'],
  ['the job posting has been open for a year', 'A-005'],
  ['they want a PhD for a data entry job', 'A-018'],
  ['they said I was too experienced', 'A-017'],
  ['I was asked whether I plan to have children', 'A-026'],
  // A criminal-record question before an offer is A-051, not the personal questions of A-026.
  ['they asked if I have ever been convicted', 'A-051'],
  ['the interviewer asked about my criminal record', 'A-051'],
  ['after I answered the question about years of experience I was instantly rejected', 'A-015'],
  ["they gave the job to the boss's nephew", 'A-014'],
  ['the recruiter vanished after the phone screen', 'A-027'],
  ['offered less money than the range in the ad', 'A-007'],
  ['they made me do a 10 hour coding project', 'A-008'],
  ['i had to record answers to questions on video', 'A-029'],
  ['interviewer seemed bored and ended it after 15 minutes', 'A-031'],
  ['they keep adding interviews', 'A-028'],
  ['they said they need someone with management experience now', 'A-022'],
  ['my application status changed to rejected after two months', 'A-021'],
  ['they asked me to name my salary first', 'A-013'],
  ['i dropped out because i got another offer', 'A-030'],
  ['the company says it does not give feedback', 'A-020'],
  ['i passed all interviews but the references are taking forever', 'A-023'],
  ['they asked if I would relocate', 'A-025'],
  ['everyone said the interview went great and then they rejected me', 'A-019'],
  ['got the generic we decided not to move forward email', 'A-003'],
  ['same role reappeared on the job board', 'A-004'],
  ['I was rejected at 3am', 'A-002'],
  ['the job requires 10 years of experience with a 3 year old framework', 'A-032'],
  // Typos.
  ['rejcted within minutes', 'A-002'],
  ['ghosted after final intervew', 'A-009'],
  ['ofer rescinded', 'A-024'],
  ['overqualifed', 'A-017'],
  ['intervew rescheduled again', 'A-006'],
  ['salery history question', 'A-012'],
  // Negations: the negated word is set aside; a negated verb that is the event itself is kept.
  ['not ghosted, I got a template rejection', 'A-003'],
  ["it wasn't silence, the offer was withdrawn", 'A-024'],
  ['they did not reply after the final interview', 'A-009'],
  ['no reply after applying', 'A-001'],
  ['rejected rather than ghosted, right after the knockout questions', 'A-015'],
];

describe('search: how people talk', () => {
  for (const [query, artifact] of PHRASINGS) {
    test(`"${query}" → ${artifact}`, () => {
      assert.equal(firstArtifact(query), artifact, top(query));
      assert.equal(firstOverall(query), artifact, 'the same artifact leads when every kind is searched');
    });
  }

  // Several sentences, as people tell it: the right observations come in the first three.
  const NARRATIVES: Array<[text: string, artifacts: string[]]> = [
    [
      'I applied in March and had three interviews. After the final round they said they would get back to me within a week. It has been a month and nobody answers my emails.',
      ['A-009'],
    ],
    [
      'The recruiter was enthusiastic and promised to set up the next steps with the hiring manager. Since then she has not answered any of my emails or calls.',
      ['A-027'],
    ],
    ['They asked about my gap and then said I was overqualified', ['A-016', 'A-017']],
    [
      'Everything went well and I got a verbal offer. Then HR said the budget had been cut and the salary would be 15% lower than we discussed.',
      ['A-007'],
    ],
    [
      'After four interviews they told me the role was on hold because of budget, and two weeks later the same job was posted again.',
      ['A-010', 'A-004'],
    ],
  ];
  for (const [text, artifacts] of NARRATIVES) {
    test(`narrative → ${artifacts.join(', ')} in the top 3`, () => {
      assert.ok(text.length <= MAX_QUERY_LENGTH);
      const first3 = index
        .search(text, { kinds: ['artifact'] })
        .results.slice(0, 3)
        .map((h) => h.id);
      for (const a of artifacts) assert.ok(first3.includes(a), `${a} not in ${top(text)}`);
    });
  }

  test("deterministic: a serialised index (the snapshot's) answers every phrasing exactly like a fresh one", () => {
    const loaded = AtlasSearch.load(reg, index.toJSON());
    for (const [query] of PHRASINGS) assert.deepEqual(loaded.search(query), index.search(query), query);
  });

  test('a negation drops only what it sets aside', () => {
    assert.deepEqual(rewriteQuery('not ghosted, rejected').negated, ['ghosted']);
    assert.deepEqual(rewriteQuery("it wasn't a rejection, they went silent").negated, ['a', 'rejection']);
    assert.deepEqual(rewriteQuery('rejected rather than ghosted').negated, ['ghosted']);
    // The event itself, negated: kept.
    for (const q of ['they did not reply', 'no reply', 'never heard back', 'I was not selected', 'not the right fit', "didn't hear back"]) {
      assert.deepEqual(rewriteQuery(q).negated, [], q);
    }
    // A negation with no contrast is a plain statement: kept ("I was not ghosted" alone still says ghosted).
    assert.deepEqual(rewriteQuery('I was not ghosted').negated, []);
  });

  // A large phrase is cut into parts so that a text compiles only the parts it may match; it must read
  // every text as the one expression of all its alternatives would.
  test('a phrase cut into parts says what its one expression would say, on any text', () => {
    const cutPhrases = PHRASES.filter((p) => 'parts' in p);
    assert.ok(cutPhrases.length > 0);
    const loose = (re: RegExp) => new RegExp(re.source.replace(/\\b/g, '').replace(/\(\?![^()]*(?:\([^()]*\)[^()]*)*\)/g, ''));
    for (const p of cutPhrases) {
      const parts = partsOf(p);
      const inner = (re: RegExp) => re.source.replace(/^\\b\(\?:/, '').replace(/\)\\b$/, '');
      const whole = new RegExp(String.raw`\b(?:${parts.map((part) => inner(part.re)).join('|')})\b`);
      const piece = fc.oneof(
        ...parts.map((part) => fc.stringMatching(loose(part.re))),
        fc.constantFrom('they', 'no', 'not', 'ghost job', 'never', 'went', 'the', 'day', 'a', ''),
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 5 }), (pieces) => {
          const text = pieces.join(' ');
          assert.equal(phraseSaid(p, text), whole.exec(text)?.[0], text);
        }),
        { seed: 7, numRuns: 400 },
      );
    }
  });

  // rewriteQuery runs a phrase's expression only when the text holds one of its `needs` (so that a first
  // search does not compile forty large expressions): each list must be a necessary condition of its
  // expression, or a phrase would silently stop being recognised.
  test("every text a phrase's expression matches holds one of the pieces it needs", () => {
    for (const p of PHRASES) {
      for (const part of partsOf(p)) {
        const re = p.requires ?? part.re;
        // fast-check generates text matching an expression but knows neither \b nor lookaheads: without
        // them the expression matches more texts, never fewer, so the check is as strict or stricter.
        const loose = new RegExp(re.source.replace(/\\b/g, '').replace(/\(\?![^()]*(?:\([^()]*\)[^()]*)*\)/g, ''));
        for (const text of fc.sample(fc.stringMatching(loose), { numRuns: 500, seed: 7 })) {
          const said = loose.exec(text)![0];
          assert.ok(
            part.needs.some((piece) => said.includes(piece)),
            `"${said}" matches the phrase for "${p.means}" but holds none of ${part.needs.join(', ')}: add a piece to its needs`,
          );
        }
      }
    }
  });
});

describe('search: a match count that means something', () => {
  const ORDINARY = [
    'interview',
    'rejected',
    'salary',
    'ghosted after final interview',
    'offer',
    'recruiter',
    'feedback',
    'application',
    'hiring manager',
    'discrimination',
  ];

  test('an ordinary query matches far fewer than half the atlas', () => {
    const size = reg.entities.length;
    for (const q of ORDINARY) {
      const r = index.search(q);
      assert.ok(r.total > 0, q);
      assert.ok(r.total < size / 4, `"${q}" matched ${r.total} of ${size}`);
    }
  });

  test('every counted match is at least a set share of the best one, and the count is the number shown when nothing is cut', () => {
    for (const q of ORDINARY) {
      const all = index.search(q, { limit: 10_000 });
      assert.equal(all.results.length, all.total, q);
      const best = all.results[0]!.score;
      for (const h of all.results) assert.ok(h.score >= best * 0.3 - 0.001, `${q}: ${h.id} ${h.score} vs best ${best}`);
    }
  });

  test('a page of a broad query is its best matches in order, the same whatever the limit', () => {
    for (const q of ORDINARY) {
      const all = index.search(q, { limit: 10_000 });
      for (const limit of [1, 3, 10]) {
        const page = index.search(q, { limit });
        assert.equal(page.total, all.total, q);
        assert.deepEqual(page.results, all.results.slice(0, limit), `${q}, limit ${limit}`);
      }
      // rank() orders only the best `top`, but counts and returns every relevant match.
      const ranked = index.rank(q, undefined, undefined, 3);
      const sorted = index.rank(q);
      assert.deepEqual(
        ranked.slice(0, 3).map((r) => r.id),
        sorted.slice(0, 3).map((r) => r.id),
        q,
      );
      assert.deepEqual(ranked.map((r) => r.id).sort(), sorted.map((r) => r.id).sort(), q);
    }
  });

  test('matched: false leaves out the matched terms and nothing else', () => {
    for (const q of [...ORDINARY, 'A-004 reposted']) {
      const full = index.search(q);
      const lean = index.search(q, { matched: false });
      assert.ok(
        full.results.some((h) => !h.exact && h.matched.length > 0),
        q,
      );
      assert.deepEqual(
        lean.results,
        full.results.map((h) => ({ ...h, matched: h.exact ? h.matched : [] })),
        q,
      );
      assert.deepEqual({ ...lean, results: [] }, { ...full, results: [] }, q);
    }
  });

  test('a mistyped ID gets IDs close to it as suggestions; a word gets words', () => {
    const id = index.search('M-099');
    assert.equal(id.total, 0);
    assert.ok(
      id.suggestions.some((s) => /^m-0\d\d$/.test(s)),
      JSON.stringify(id.suggestions),
    );
    const word = index.search('xqzrejectoin');
    assert.ok(
      word.suggestions.every((s) => !/^[abmplise]-\d{3,}$/.test(s)),
      JSON.stringify(word.suggestions),
    );
  });

  test('an index serialised in another form is refused with what to do', () => {
    assert.throws(
      () => AtlasSearch.load(reg, JSON.stringify({ documentCount: 1, index: [] })),
      /search index is of format .*written by another version of hoba.*Rebuild it: npm run build/,
    );
  });

  test('a narrow query stays narrow', () => {
    assert.ok(index.search('cut me off mid interview').total <= 5);
    assert.ok(index.search('offer rescinded').total <= 12);
  });
});

describe('search: an account of what happened is read too', () => {
  const ACCOUNT = 'they told me the budget was cut and then the same job ad went back up';
  /** A reader that says what it was asked and reads the given observations. */
  function stub(out: ReadAs[]): { read: AccountReader; calls: string[] } {
    const calls: string[] = [];
    return {
      read: (text) => {
        calls.push(text);
        return out;
      },
      calls,
    };
  }

  test('a query of six words or more reads as an account, when observations are searched; fewer is keywords', () => {
    assert.equal(readsAsAccount('ghosted after the final interview'), false);
    assert.equal(readsAsAccount('ghosted after the final interview round'), true);
    assert.equal(readsAsAccount('  a  b  c  d  e  f  '), true);
    // …and only when observations are among the kinds searched.
    const account = 'ghosted after the final interview round';
    assert.equal(readsAsAccount(account, ['artifact', 'mechanism']), true);
    assert.equal(readsAsAccount(account, ['mechanism', 'pattern']), false);
  });

  test('the observations read come right after exact IDs, each once, with the words that state them, and count', () => {
    const query = `A-001 ${ACCOUNT}`;
    const plain = index.search(query, { kinds: ['artifact'], limit: 10_000 });
    assert.equal(plain.results[0]!.id, 'A-001');
    // One the words match anyway (it keeps its score and terms) and one they do not reach at all.
    const matched = plain.results[2]!;
    const unmatched = reg.all('artifact').find((a) => a.status === 'active' && !plain.results.some((h) => h.id === a.id))!;
    const { read, calls } = stub([
      { id: unmatched.id, quote: 'went back up', open: false },
      { id: matched.id, quote: 'budget was cut', open: true },
      { id: unmatched.id, quote: 'again', open: false },
      { id: 'A-999', quote: 'no such entry', open: false },
    ]);
    const r = index.search(query, { kinds: ['artifact'], limit: 10_000, read });
    assert.deepEqual(calls, [query]);
    assert.deepEqual(
      r.results.slice(0, 3).map((h) => [h.id, h.exact, h.read]),
      [
        ['A-001', true, undefined],
        [unmatched.id, false, { quote: 'went back up', open: false }],
        [matched.id, false, { quote: 'budget was cut', open: true }],
      ],
    );
    assert.equal(r.results[1]!.score, 0);
    assert.deepEqual(r.results[1]!.matched, []);
    assert.equal(r.results[2]!.score, matched.score);
    assert.deepEqual(r.results[2]!.matched, matched.matched);
    // Every other hit is a plain match, once, in the order of the plain search.
    const rest = r.results.slice(3);
    assert.ok(rest.every((h) => h.read === undefined && !h.exact));
    assert.deepEqual(
      rest.map((h) => h.id),
      plain.results.map((h) => h.id).filter((id) => id !== matched.id && id !== 'A-001'),
    );
    assert.equal(new Set(r.results.map((h) => h.id)).size, r.results.length);
    assert.equal(r.total, plain.total + 1);
    // A page of it is the same hits.
    assert.deepEqual(index.search(query, { kinds: ['artifact'], limit: 2, read }).results, r.results.slice(0, 2));
  });

  test('keywords, or a search for other kinds, are not read', () => {
    const { read, calls } = stub([{ id: 'A-001', quote: 'x', open: false }]);
    assert.deepEqual(index.search('budget cut job reposted', { read }), index.search('budget cut job reposted'));
    assert.deepEqual(index.search(ACCOUNT, { kinds: ['mechanism'], read }), index.search(ACCOUNT, { kinds: ['mechanism'] }));
    assert.deepEqual(calls, []);
  });

  test("the situation reader's reading of an account puts what it states first, with the person's words", () => {
    const read = accountReader(reg, readerModelFor(reg));
    const text = 'an AI bot interviewed me and then I never heard anything';
    const r = index.search(text, { kinds: ['artifact'], limit: 3, read });
    const first = r.results[0]!;
    assert.equal(first.id, 'A-042', top(text));
    assert.ok(first.read && first.read.quote.length > 0 && text.includes(first.read.quote), JSON.stringify(first.read));
    // Words it cannot read give no reading: search says why.
    assert.deepEqual(read('hola me rechazaron después de la entrevista final sin explicación'), []);
  });
});

describe('search: English only', () => {
  const FOREIGN: Array<[text: string, language: RegExp]> = [
    ["Je n'ai jamais eu de réponse après l'entretien final", /French/],
    ['Ich habe nach dem Vorstellungsgespräch nie eine Antwort bekommen', /German/],
    ['No me respondieron después de la entrevista final', /Spanish/],
    ['面试之后公司再也没有回复我', /Chinese/],
    ['Mi hanno ritirato l’offerta dopo il colloquio', /Italian/],
    ['После собеседования мне так и не ответили', /Cyrillic/],
  ];
  for (const [text, language] of FOREIGN) {
    test(`${language.source}: an honest "English only", not noise`, () => {
      for (const call of [() => index.search(text), () => readSituation(reg, { text })]) {
        assert.throws(call, (err: unknown) => {
          assert.ok(err instanceof AnalysisError);
          assert.equal(err.code, 'invalid-argument');
          assert.match(err.message, language);
          assert.match(err.message, /English only/);
          assert.match(err.message, /does not translate/);
          return true;
        });
      }
    });
  }

  test('English with a foreign word or a borrowed one still works', () => {
    for (const q of [
      'they asked about my Elternzeit gap on my résumé',
      'the recruiter said my CV was très impressive and then ghosted me',
      'AI interview per the job ad',
      'Bertrand et al field experiment',
      'non-compete clause',
      'ghosted',
      'café job',
    ]) {
      assert.equal(nonEnglishLanguage(q), undefined, q);
      assert.doesNotThrow(() => index.search(q), q);
    }
    assert.equal(firstArtifact('they asked about my Elternzeit gap on my résumé'), 'A-016');
  });
});

describe('properties', () => {
  const documented = (err: unknown) => err instanceof AnalysisError && ['invalid-argument', 'not-found'].includes(err.code);

  test('search never throws on arbitrary text except the documented AnalysisErrors', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }), fc.constantFrom(...PHRASINGS.map(([q]) => q))),
        (q) => {
          try {
            const r = index.search(q);
            return r.results.length <= 10 && r.total >= r.results.length;
          } catch (err) {
            return documented(err);
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  test('whatever a reader reads, the hits are unique: exact IDs, then what was read, then matches; the total counts them all', () => {
    const ids = [...reg.all('artifact').map((a) => a.id), 'M-001', 'A-999', 'A-004'];
    const readAs = fc.array(fc.record({ id: fc.constantFrom(...ids), quote: fc.string({ maxLength: 12 }), open: fc.boolean() }), {
      maxLength: 6,
    });
    const query = fc.constantFrom(
      'they told me the budget was cut and the job was reposted',
      'A-004 and then silence after my final interview for weeks',
      'ghosted after final interview',
    );
    fc.assert(
      fc.property(
        query,
        readAs,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<string[]>([], ['artifact'], ['mechanism'], ['artifact', 'pattern']),
        (q, out, limit, kinds) => {
          const r = index.search(q, { limit, kinds, read: () => out });
          const got = r.results.map((h) => h.id);
          assert.equal(new Set(got).size, got.length, 'unique');
          assert.ok(r.results.length <= limit && r.total >= r.results.length);
          // Exact first, then read, then plain; a read hit is an artifact the reader named, in its order.
          const order = r.results.map((h) => (h.exact ? 0 : h.read ? 1 : 2));
          assert.deepEqual(order, [...order].sort());
          const read = r.results.filter((h) => h.read);
          if (!readsAsAccount(q) || !r.kinds.includes('artifact')) assert.equal(read.length, 0);
          const named = [...new Set(out.map((x) => x.id))].filter(
            (id) => reg.get(id)?.kind === 'artifact' && !r.results.some((h) => h.exact && h.id === id),
          );
          assert.deepEqual(
            read.map((h) => h.id),
            named.slice(0, read.length),
          );
          for (const h of r.results) assert.ok(r.kinds.includes(h.kind) || h.exact, `${h.id} of kind ${h.kind}`);
        },
      ),
      { numRuns: 200, seed: 29 },
    );
  });

  test('the situation reader never throws on arbitrary text except the documented AnalysisErrors, and quotes only the text', () => {
    const words = fc.constantFrom(
      'ghosted',
      'offer',
      'not',
      'interview',
      'rescinded',
      'gap',
      ',',
      'and then',
      'salary',
      'lower',
      'le',
      'und',
      'x',
      'A-009',
      "wasn't",
      '.',
      'May',
      '3',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 120 }),
          fc.array(words, { maxLength: 30 }).map((w) => w.join(' ')),
        ),
        (text) => {
          try {
            const r = readSituation(reg, { text });
            return r.observations.every(
              (m) => reg.get(m.id)?.kind === 'artifact' && m.why.length > 0 && m.quotes.every((q) => r.text.includes(q)),
            );
          } catch (err) {
            return documented(err);
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});
