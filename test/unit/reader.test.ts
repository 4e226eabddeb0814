// The situation reader (issue 24), on a small constructed atlas with its own voices, not-covered topic,
// distinction and specimen, so that what is tested is the reader's behaviour, not the current content:
// it chooses what an account states and quotes the words as typed; it never chooses what the account
// denies; it says "not covered"; it asks when two observations read alike and an answer settles it; it
// reads a pasted message against the specimens' tells; it is deterministic; explain() turns each reading
// into a result (or an honest error). The real atlas's figures are measured by npm run quality:reader.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { explain } from '../../src/analysis/explain.ts';
import { renderExplanation } from '../../src/cli/explain.ts';
import { renderCandidate } from '../../src/cli/candidate-text.ts';
import { readerModelFor, readSituation, useReaderModel, MAX_ACCOUNT_LENGTH, READER_INDEX } from '../../src/analysis/reader.ts';
import {
  correctWord,
  frontCode,
  frontCodedNames,
  frontDecode,
  loadModel,
  plainNames,
  type ReaderModel,
} from '../../src/analysis/reader-model.ts';
import { featuresOf, isContentWord, readText, CALENDAR_WORDS, STOP_WORDS } from '../../src/analysis/reader-text.ts';
import { buildReaderModel, exclusivePairs, trainedReaderModel, TOGETHER_SHARE } from '../../src/analysis/reader-train.ts';
import { readerModelText, snapshotIndexes } from '../../src/analysis/indexes.ts';
import { makeSnapshot, reusableIndexes, SNAPSHOT_FILE, writeSnapshot } from '../../src/registry/snapshot.ts';
import {
  ASK_FEATURES,
  COUNT_FEATURES,
  countOf,
  firstProbability,
  fitBoosted,
  fitStack,
  STACK_FEATURES,
} from '../../src/analysis/reader-score.ts';
import { AnalysisError } from '../../src/analysis/resolve.ts';
import { ExplainResult } from '../../src/analysis/schemas.ts';
import { Manifest, RECORDS, type Entity } from '../../src/model/schemas.ts';
import { Registry } from '../../src/registry/registry.ts';
import { TOOLS, toolAtlas } from '../../src/mcp/tools.ts';

const probe = (id: string) => ({
  id,
  action: 'Ask once for an update.',
  agency: 'candidate',
  cost: 'low',
  outcomes: [
    { id: 'reply', observation: 'A reply comes.', excludes: [] },
    { id: 'no-reply', observation: 'No reply comes.', excludes: [] },
  ],
});

const artifact = (id: string, title: string, voices: string[], extra: Record<string, unknown> = {}): Entity =>
  RECORDS.artifact.parse({
    kind: 'artifact',
    id,
    title,
    summary: `${title}.`,
    stages: ['screening'],
    non_inferences: ['It does not establish why.'],
    probes: [probe(`probe-${id.toLowerCase()}`)],
    voices,
    ...extra,
  }) as Entity;

const SILENCE = [
  'I applied three weeks ago and never heard anything back',
  'sent my application and got no reply at all',
  'applied online, nothing since, not even a rejection email',
  'I submitted my application a month ago and heard nothing',
  'no response to my application after two weeks',
  'applied to the store job and they never got back to me',
  'it has been weeks since I applied and still no answer',
  'I put in an application and it went into a black hole',
  'applied for the nursing post in march and never heard back',
  'no reply whatsoever after applying through the website',
];
const WITHDRAWN = [
  'they withdrew my offer two days before I was due to start',
  'the offer was rescinded after I had already resigned',
  'my job offer got pulled out of nowhere',
  'they called to say the offer is cancelled',
  'I accepted the offer and then they took it back',
  'the company revoked my offer last week',
  'offer withdrawn a week before my start date',
  'they rescinded the offer without giving a reason',
  'my signed offer was cancelled by the employer',
  'they pulled the offer after I handed in my notice',
];
const AGE = [
  'the interviewer asked me how old I am',
  'they asked what year I graduated so they could work out my age',
  'she asked about my age in the first interview',
  'he wanted to know my date of birth before anything else',
  'they asked if I was too old to learn new things',
  'asked about my age and whether I plan to retire soon',
  'the recruiter asked my age on the phone',
  'they asked how many years until I retire',
  'the manager asked my age straight out',
  'I was asked my birth year on the form',
];
const RECRUITER = [
  'the recruiter promised to send interview times and then went quiet',
  'recruiter said she would call me on friday and never did',
  'the agency recruiter stopped replying after promising next steps',
  'my recruiter vanished after saying the manager loved me',
  'the recruiter told me to expect times this week and then silence',
  'recruiter ghosted me after promising a second interview',
  'she said she would set up the next round and stopped answering',
  'the recruiter went quiet after the promised call',
  'recruiter promised feedback and then disappeared',
  'the recruiter stopped responding after saying I was through',
];
const DISMISSAL = [
  'I got fired yesterday with no warning',
  'my employer dismissed me after four years',
  'they laid me off along with my whole team',
  'I was made redundant last month',
  'my boss fired me for being late once',
  'terminated from my job while on sick leave',
  'they let me go after the restructuring',
  'got sacked from the warehouse without a hearing',
];

function constructedAtlas(): Registry {
  const manifest = Manifest.parse({
    name: 'Hiring Obstacles & Barriers Atlas',
    registry_version: '0.0.1',
    schema_version: '1.4.0',
    description_version: '0.4.1',
    licences: { code: 'MIT', content: 'CC-BY-SA-4.0' },
    released: '2026-01-01',
    description: 'A constructed atlas for the reader’s tests.',
    covers: 'Getting hired, from a posting to the first day.',
    not_covered: [
      {
        id: 'dismissal',
        title: 'Being dismissed',
        summary: 'Losing a job you hold is employment, not hiring.',
        instead: 'An employment-rights advice service.',
        voices: DISMISSAL,
      },
    ],
    distinctions: [
      {
        id: 'recruiter-promised',
        ask: 'Did a recruiter promise you a next step?',
        answers: [
          { artifact: 'A-001', answer: 'No, I applied and heard nothing' },
          { artifact: 'A-004', answer: 'Yes, a recruiter promised a next step' },
        ],
      },
    ],
  });
  const entities = [
    artifact('A-001', 'Silence after applying', SILENCE, { aliases: ['no reply to my application'] }),
    artifact('A-002', 'Offer withdrawn', WITHDRAWN, {
      specimens: [
        {
          id: 'withdrawal-email',
          medium: 'email',
          title: 'The withdrawal',
          text: 'Dear [First name],\nUnfortunately we are no longer able to proceed with your offer of employment due to a change in business needs.\nWe wish you every success.',
          tells: [
            {
              quote: 'we are no longer able to proceed with your offer of employment due to a change in business needs',
              reading: 'The offer is withdrawn; "business needs" does not say whose decision it was or why.',
            },
          ],
        },
      ],
    }),
    artifact('A-003', 'Asked about your age', AGE),
    artifact('A-004', 'Recruiter goes quiet after promising next steps', RECRUITER),
  ];
  return new Registry({ manifest, entities });
}

const reg = constructedAtlas();
const ids = (r: ReturnType<typeof readSituation>) => r.observations.map((o) => o.id).sort();

describe('the reader, on a constructed atlas', () => {
  test('it chooses what the account states, and quotes the words as typed', () => {
    const text = 'Honestly?? they WITHDREW my offer two days before i was meant to start';
    const r = readSituation(reg, { text });
    assert.deepEqual(ids(r), ['A-002']);
    const [o] = r.observations;
    assert.equal(o!.from, 'words');
    assert.ok(o!.quotes.length > 0);
    for (const q of o!.quotes) {
      assert.ok(text.includes(q), `"${q}" is a piece of the text as typed`);
      const words = readText(q).tokens;
      assert.ok(words.some(isContentWord), `"${q}" holds a word that stands alone`);
    }
  });

  test('a quote is never a lone stop word, number or month name', () => {
    const r = readSituation(reg, { text: 'In May 2024 I applied, and 3 weeks later I still may hear nothing back' });
    assert.deepEqual(ids(r), ['A-001']);
    for (const q of r.observations[0]!.quotes) {
      const words = q.toLowerCase().split(/\s+/);
      assert.ok(!(words.length === 1 && (STOP_WORDS.has(words[0]!) || CALENDAR_WORDS.has(words[0]!) || /^\d+$/.test(words[0]!))), q);
    }
  });

  test('a word of time or linking never stands alone in a quote ("since", "ago", "weeks"); a word of substance does', () => {
    const token = (word: string) => ({ word }) as Parameters<typeof isContentWord>[0];
    for (const w of ['since', 'ago', 'weeks', 'later', 'twice', 'today', 'may', 'friday', '0', 'the'])
      assert.equal(isContentWord(token(w)), false, w);
    for (const w of ['interview', 'offer', 'recruiter', 'ghosted', 'background']) assert.equal(isContentWord(token(w)), true, w);
  });

  test('two events in one account are both read', () => {
    const r = readSituation(reg, { text: 'The interviewer asked how old I am. A week later they withdrew my offer.' });
    assert.deepEqual(ids(r), ['A-002', 'A-003']);
  });

  test('what the account denies is never chosen, and is said back', () => {
    const r = readSituation(reg, { text: 'Nobody asked about my age. They withdrew my offer after I resigned.' });
    assert.deepEqual(ids(r), ['A-002']);
    assert.ok(
      r.denied.some((d) => d.id === 'A-003' && /Nobody asked about my age/i.test(d.quote)),
      JSON.stringify(r.denied),
    );
  });

  test('an account outside the atlas is "not covered", with where to turn, and nothing chosen', () => {
    const r = readSituation(reg, { text: 'I got fired from my job yesterday after three years, no warning at all' });
    assert.deepEqual(r.observations, []);
    assert.ok(r.not_covered, 'not covered');
    assert.deepEqual(
      r.not_covered!.topics.map((t) => t.id),
      ['dismissal'],
    );
    assert.equal(r.not_covered!.covers, 'Getting hired, from a posting to the first day.');
    assert.match(r.not_covered!.topics[0]!.instead, /advice service/);
  });

  test('when two observations of a distinction read alike, it asks instead of guessing; an answer settles it', () => {
    const text = 'applied for the job, the recruiter promised times, and I never heard back';
    const asked = readSituation(reg, { text });
    assert.deepEqual(ids(asked), []);
    assert.equal(asked.questions.length, 1);
    const q = asked.questions[0]!;
    assert.equal(q.id, 'recruiter-promised');
    assert.equal(q.ask, 'Did a recruiter promise you a next step?');
    assert.deepEqual(
      q.options.map((o) => o.artifact),
      ['A-001', 'A-004'],
    );
    const answered = readSituation(reg, { text, picks: ['A-004'] });
    assert.deepEqual(ids(answered), ['A-004']);
    assert.deepEqual(answered.questions, []);
    assert.deepEqual(answered.answered, ['A-004']);
    assert.equal(answered.observations[0]!.from, 'answer');
  });

  test('a clear account of one member is chosen without a question', () => {
    const r = readSituation(reg, { text: 'I applied online a month ago and got no reply at all' });
    assert.deepEqual(ids(r), ['A-001']);
    assert.deepEqual(r.questions, []);
  });

  test('a pasted message is read against the specimens’ tells: the lines, and what each establishes', () => {
    const message =
      'Hi Sam,\nThanks for your patience. Unfortunately we are no longer able to proceed with your offer of employment due to a change in business needs.\nBest of luck,\nThe Talent Team';
    const r = readSituation(reg, { message });
    assert.deepEqual(ids(r), ['A-002']);
    assert.equal(r.observations[0]!.from, 'message');
    assert.equal(r.message_tells.length, 1);
    const t = r.message_tells[0]!;
    assert.equal(t.artifact.id, 'A-002');
    assert.equal(t.tells.length, 1);
    assert.ok(message.includes(t.tells[0]!.line), 'the line as pasted');
    assert.match(t.tells[0]!.reading, /does not say whose decision/);
  });

  test('typo correction finds exactly the known words one edit away with the same first letter (against a scan of every word)', () => {
    const model = readerModelFor(reg);
    const known = model.names.filter((n) => n.length >= 4 && /^[a-z]+$/.test(n));
    /** Optimal string alignment distance ≤ 1: insert, delete, substitute, or swap two adjacent letters. */
    const withinOneEdit = (a: string, b: string): boolean => {
      if (a.length === b.length) {
        let i = 0;
        while (a[i] === b[i]) i++;
        return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
      }
      if (Math.abs(a.length - b.length) !== 1) return false;
      const [x, y] = a.length < b.length ? [a, b] : [b, a];
      let i = 0;
      while (i < x.length && x[i] === y[i]) i++;
      return x.slice(i) === y.slice(i + 1);
    };
    const scan = (word: string) => {
      if (word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
      const near = known.filter((k) => k !== word && k[0] === word[0] && withinOneEdit(word, k));
      return near.length === 1 ? near[0] : undefined;
    };
    // Known words with one edit (so that most have a neighbour, some two), and words built from other letters.
    const mutate = fc
      .tuple(
        fc.constantFrom(...known),
        fc.nat(),
        fc.constantFrom('drop', 'swap', 'change', 'add'),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      )
      .map(([w, at, edit, letter]) => {
        const i = at % (w.length + 1);
        if (edit === 'drop') return w.slice(0, i) + w.slice(i + 1);
        if (edit === 'swap') return w.slice(0, i) + (w[i + 1] ?? '') + (w[i] ?? '') + w.slice(i + 2);
        if (edit === 'change') return w.slice(0, i) + letter + w.slice(i + 1);
        return w.slice(0, i) + letter + w.slice(i);
      });
    fc.assert(
      fc.property(fc.oneof(mutate, fc.stringMatching(/^[a-z]{5,9}$/), fc.constantFrom('aabcd', 'eexpect', 'offfer')), (word) => {
        if (model.features.has(word)) return; // a known word is never corrected
        assert.equal(correctWord(model, word), scan(word), word);
      }),
      { seed: 24, numRuns: 3000 },
    );
  });

  test('a message that matches no tell names nothing from tells', () => {
    const r = readSituation(reg, { message: 'Hello, please find attached the agenda for Thursday.' });
    assert.deepEqual(r.message_tells, []);
  });

  test('a misspelt word is read as the known word one edit away', () => {
    const model = readerModelFor(reg);
    assert.equal(correctWord(model, 'recuiter'), 'recruiter');
    assert.equal(correctWord(model, 'zzzzzz'), undefined);
    assert.equal(correctWord(model, 'rescnded'.replace(/ed$/, '')), 'rescind');
    const typed = readSituation(reg, { text: 'my job offer got rescnded' });
    assert.deepEqual(ids(typed), ids(readSituation(reg, { text: 'my job offer got rescinded' })));
    assert.deepEqual(ids(typed), ['A-002']);
    // Read as known: the misspelt word weighs as the word it stands for.
    const asKnown = readSituation(reg, { text: 'they rescnded it' });
    assert.deepEqual(ids(asKnown), ids(readSituation(reg, { text: 'they rescinded it' })));
  });

  test('slang is spelled out as one word: a feature never holds a space', () => {
    for (const text of ['idk why they ghosted me', 'dunno what the hm wants', 'u said ur offer got pulled']) {
      for (const f of featuresOf(readText(text).tokens, { from: 0, to: readText(text).tokens.length })) assert.doesNotMatch(f, /\s/, f);
    }
  });

  test('training is deterministic, and a model survives its serialised form', () => {
    const a = JSON.stringify(buildReaderModel(reg));
    const b = JSON.stringify(buildReaderModel(constructedAtlas()));
    assert.equal(a, b);
    const other = constructedAtlas();
    useReaderModel(other, a);
    for (const text of ['they withdrew my offer', 'the interviewer asked my age', 'I got fired yesterday']) {
      assert.deepEqual(readSituation(other, { text }), readSituation(reg, { text }));
    }
  });

  test('empty, too long and non-English inputs are refused with a reason', () => {
    for (const input of [
      { text: '   ' },
      { text: 'x '.repeat(MAX_ACCOUNT_LENGTH) },
      { text: 'Ich habe nie eine Antwort auf meine Bewerbung bekommen, seit Wochen nicht' },
      {},
    ]) {
      assert.throws(
        () => readSituation(reg, input),
        (err: unknown) => err instanceof AnalysisError && err.code === 'invalid-argument',
      );
    }
  });
});

describe('reading text: clauses, negation scope, questions', () => {
  test('a negation reaches the end of its clause and no further', () => {
    const r = readText('Nobody asked about my age, my kids or my plans. They withdrew the offer but never said why');
    const negated = r.tokens.filter((t) => t.negated).map((t) => t.word);
    assert.deepEqual(negated, ['asked', 'about', 'my', 'age', 'my', 'kids', 'or', 'my', 'plans', 'said', 'why']);
    assert.ok(featuresOf(r.tokens, r.clauses[0]!).includes('!age'));
  });

  test('a comma before a new statement ends a negation', () => {
    const r = readText("it wasn't a scam, I checked the company");
    assert.deepEqual(
      r.tokens.filter((t) => t.negated).map((t) => t.word),
      ['a', 'scam'],
    );
  });

  test('a step said to have gone as it should is denied in its whole clause, the words before the cue too', () => {
    const r = readText('The background report came back clean, then they stopped replying');
    assert.deepEqual(
      r.tokens.filter((t) => t.negated).map((t) => t.word),
      ['the', 'background', 'report', 'came', 'back'],
    );
    assert.equal(r.negatedClauses.length, 1);
    assert.ok(featuresOf(r.tokens, r.clauses[0]!).includes('!report'));
    // The clause after "then" is stated, not denied.
    assert.ok(featuresOf(r.tokens, r.clauses[1]!).includes('reply'));
    // Under a negation it says the opposite: only what follows the negation is marked, as before.
    assert.deepEqual(
      readText("The report isn't accurate")
        .tokens.filter((t) => t.negated)
        .map((t) => t.word),
      ['accurate'],
    );
    // A word that only looks like one ("fined", "cleaner") is no cue.
    assert.deepEqual(
      readText('I was fined by the cleaner').tokens.filter((t) => t.negated),
      [],
    );
  });

  test('a question or a hypothetical is not read as an observation', () => {
    const r = readText('Should I follow up? If they ask about my age I will say so. They withdrew my offer.');
    // Their words are marked as asked ("?"), so the classifier learns them apart from what is reported.
    assert.deepEqual(
      r.tokens.filter((t) => t.asked).map((t) => t.word),
      ['should', 'i', 'follow', 'up', 'if', 'they', 'ask', 'about', 'my', 'age', 'i', 'will', 'say', 'so'],
    );
    assert.ok(featuresOf(r.tokens, r.clauses[0]!).includes('?follow'));
    assert.deepEqual(
      readSituation(reg, { text: 'Should I follow up? If they ask about my age I will say so. They withdrew my offer.' }).observations.map(
        (o) => o.id,
      ),
      ['A-002'],
    );
  });

  test('a fear or hope about what is to come wonders, from its word to the end of its clause', () => {
    const asked = (text: string) =>
      readText(text)
        .tokens.filter((t) => t.asked)
        .map((t) => t.raw);
    assert.deepEqual(asked("My interview is Monday and I'm worried they'll ask about my gap"), [
      'worried',
      "they'll",
      'ask',
      'about',
      'my',
      'gap',
    ]);
    assert.deepEqual(asked('scared that if I mention it they will drop me. They withdrew the offer'), [
      'scared',
      'that',
      'if',
      'I',
      'mention',
      'it',
      'they',
      'will',
      'drop',
      'me',
    ]);
    // A fear that came true is reported: no word of the future or a condition follows the worry closely.
    assert.deepEqual(asked('I was worried about my age and then they asked how old I am'), []);
    // Nor is a worry about what already happened.
    assert.deepEqual(asked("I'm worried because they withdrew the offer"), []);
  });
});

describe('explain() on words', () => {
  test('the text report prints a question with the --pick of each answer', () => {
    const text = renderExplanation(explain(reg, { text: 'applied for the job, the recruiter promised times, and I never heard back' }), {
      full: false,
      width: 100,
    });
    assert.match(text, /Question: Did a recruiter promise you a next step\?/);
    assert.match(text, /1\. No, I applied and heard nothing: --pick A-001/);
    assert.match(text, /2\. Yes, a recruiter promised a next step: --pick A-004/);
    assert.match(text, /Verdict: Answer one question first/);
  });

  test('one answer of a distinction chosen without a question comes with the question and the other answers; a pick changes it', () => {
    const text = 'I sent my application a month ago and heard nothing at all';
    const r = ExplainResult.parse(explain(reg, { text }));
    const t = r.input.from_text!;
    assert.deepEqual(t.questions, []);
    assert.deepEqual(
      t.matched.map((m) => [m.id, m.check]),
      [
        [
          'A-001',
          {
            id: 'recruiter-promised',
            ask: reg.manifest.distinctions![0]!.ask,
            options: [
              {
                artifact: 'A-004',
                title: 'Recruiter goes quiet after promising next steps',
                answer: 'Yes, a recruiter promised a next step',
              },
            ],
          },
        ],
      ],
    );
    // Both texts say it, with the pick that changes it.
    const flat = (x: string) => x.replace(/\s+/g, ' ');
    assert.match(
      flat(renderExplanation(r, { full: false, width: 100 })),
      /To check: Did a recruiter promise you a next step\? If "Yes, a recruiter promised a next step": --pick A-004/,
    );
    assert.match(
      flat(renderCandidate(r, { width: 100 })),
      /To check: Did a recruiter promise you a next step\? If "Yes, a recruiter promised a next step": .*--pick A-004/,
    );
    // Answering with the other reads the words as that one, with nothing left to check.
    const again = ExplainResult.parse(explain(reg, { text, picks: ['A-004'] })).input.from_text!;
    assert.deepEqual(
      again.matched.map((m) => [m.id, m.check]),
      [['A-004', undefined]],
    );
    assert.deepEqual(again.answered, ['A-004']);
    // An observation in no distinction has nothing to check; nor has a question asked.
    const withdrawn = ExplainResult.parse(explain(reg, { text: 'they withdrew my offer a week before I was due to start' })).input
      .from_text!;
    assert.deepEqual(
      withdrawn.matched.map((m) => [m.id, m.check]),
      [['A-002', undefined]],
    );
    const asked = ExplainResult.parse(explain(reg, { text: 'applied for the job, the recruiter promised times, and I never heard back' }));
    assert.ok(asked.input.from_text!.matched.every((m) => m.check === undefined));
  });

  test('a question first: nothing analysed, verdict answer-first, the question in the result', () => {
    const r = ExplainResult.parse(explain(reg, { text: 'applied for the job, the recruiter promised times, and I never heard back' }));
    assert.equal(r.agency.verdict.code, 'answer-first');
    assert.deepEqual(r.hard_facts.artifacts, []);
    assert.equal(r.input.from_text!.questions[0]!.id, 'recruiter-promised');
  });

  test('not covered: nothing analysed, verdict not-covered, where to turn', () => {
    const r = ExplainResult.parse(explain(reg, { text: 'I was made redundant last month with my whole team' }));
    assert.equal(r.agency.verdict.code, 'not-covered');
    assert.deepEqual(
      r.input.from_text!.not_covered!.topics.map((t) => t.id),
      ['dismissal'],
    );
    assert.match(r.agency.verdict.text, /outside the atlas/);
  });

  test('nothing stated is an honest not-found error that says what was set aside', () => {
    assert.throws(
      () => explain(reg, { text: 'Nobody asked about my age.' }),
      (err: unknown) => err instanceof AnalysisError && err.code === 'not-found' && /A-003/.test(err.message),
    );
  });

  test('words and IDs together are refused', () => {
    assert.throws(
      () => explain(reg, { text: 'they withdrew my offer', artifacts: ['A-002'] }),
      (err: unknown) => err instanceof AnalysisError && err.code === 'invalid-argument',
    );
  });
});

describe('trained with a labelled corpus: the learned set decision', () => {
  // Accounts written for this test, labelled by what each states (one, two, none, out of scope).
  const corpus = [
    ...[
      'applied a month ago, nothing back at all',
      'put my application in and heard nothing since',
      'no answer to my application, weeks now',
      'sent the form in spring and never heard a word',
    ].map((text) => ({ text, artifacts: ['A-001'], out_of_scope: false })),
    ...[
      'they took back my offer the week I was due to start',
      'offer cancelled after I had resigned',
      'my offer was pulled with no reason',
      'the employer rescinded my signed offer',
    ].map((text) => ({ text, artifacts: ['A-002'], out_of_scope: false })),
    ...[
      'the manager asked how old I was',
      'they wanted my birth year in the interview',
      'she asked if I was near retirement age',
      'asked my age before anything else',
    ].map((text) => ({ text, artifacts: ['A-003'], out_of_scope: false })),
    ...[
      'the interviewer asked my age, and two weeks later they withdrew my offer',
      'they asked how old I am in the interview. Then the offer was rescinded',
      'asked about my age at the final round and then my offer got pulled',
      'my offer was cancelled after the manager asked my date of birth',
    ].map((text) => ({ text, artifacts: ['A-002', 'A-003'], out_of_scope: false })),
    ...[
      'I was fired from my warehouse job on monday',
      'my boss dismissed me after a complaint',
      'made redundant with my team last week',
      'they sacked me while I was off sick',
    ].map((text) => ({ text, artifacts: [], out_of_scope: true })),
    ...[
      'nobody asked about my age, it was fine',
      'the offer came through and I start monday',
      'I have an interview tomorrow and feel ready',
      'the process was smooth, no surprises',
    ].map((text) => ({ text, artifacts: [], out_of_scope: false })),
  ];
  const model = buildReaderModel(reg, corpus);

  test('the model carries its set decision and its "not covered" decision, the same bytes each time, and they survive the serialised form', () => {
    assert.ok(model.stack, 'a set decision');
    assert.equal(model.stack!.weights.length, STACK_FEATURES.length);
    assert.ok(model.stack!.pair, 'the second pass');
    assert.ok(model.stack!.out, 'the not-covered decision');
    assert.equal(JSON.stringify(buildReaderModel(constructedAtlas(), corpus)), JSON.stringify(model));
    const loaded = loadModel(JSON.parse(JSON.stringify(model)));
    assert.ok(loaded.stack && loaded.stack.out && loaded.stack.pair);
    assert.ok(Math.abs(loaded.stack.threshold - model.stack!.threshold / 10000) < 1e-9);
    // The first pass is boosted trees (DEFAULT_TRAINING.trees), carried through the serialised form.
    assert.ok(model.stack!.boosted && model.stack!.boosted.trees.length > 0, 'the boosted first pass');
    assert.equal(loaded.stack.boosted?.trees.length, model.stack!.boosted!.trees.length);
    const plain = buildReaderModel(reg, corpus, { trees: false });
    assert.equal(plain.stack?.boosted, undefined, 'trees: false trains the logistic first pass');
  });

  test('a refit fits again the words the prune keeps, and only those; weights are written in steps of 1/steps', () => {
    const { stack, trained_from, ...words } = buildReaderModel(reg, corpus, { steps: 4, prune: 0 });
    // A budget for the words and weights that makes the prune drop some.
    const tight = { steps: 4, prune: 0, maxChars: Math.round(JSON.stringify(words).length * 0.7) };
    const pruned = buildReaderModel(reg, corpus, { ...tight, refit: 0 });
    const refit = buildReaderModel(reg, corpus, { ...tight, refit: 2 });
    assert.equal(refit.scale, 1 / 4);
    assert.ok(frontDecode(pruned.features!).length < frontDecode(words.features!).length, 'the budget prunes');
    assert.deepEqual(frontDecode(refit.features!), frontDecode(pruned.features!), 'the same words');
    assert.notEqual(refit.weights, pruned.weights, 'fitted again');
    assert.equal(JSON.stringify(buildReaderModel(constructedAtlas(), corpus, { ...tight, refit: 2 })), JSON.stringify(refit));
  });

  test('the reading with the set decision: one observation, two, none, and not covered', () => {
    const other = constructedAtlas();
    const m = useReaderModel(other, model);
    assert.ok(m.stack);
    assert.deepEqual(ids(readSituation(other, { text: 'they withdrew my offer two days before I started' })), ['A-002']);
    assert.deepEqual(ids(readSituation(other, { text: 'the interviewer asked my age, and a week later they rescinded my offer' })), [
      'A-002',
      'A-003',
    ]);
    const fired = readSituation(other, { text: 'I got fired from my job yesterday' });
    assert.deepEqual(ids(fired), []);
    assert.ok(fired.not_covered);
    // The words quoted for each observation are the person's own.
    const r = readSituation(other, { text: 'they withdrew my offer two days before I started' });
    assert.ok(r.observations[0]!.quotes.every((q) => 'they withdrew my offer two days before I started'.includes(q)));
  });

  test('two answers of a distinction that the corpus does not state together are exclusive: never both chosen', () => {
    const d = (...ids: string[]) => ({ answers: ids.map((artifact) => ({ artifact })) });
    const sets = (n: number, ids: string[]) => Array.from({ length: n }, () => ids);
    // Never together, together in 1 of the rarer's 10 accounts (the share, 10%, is not below it), together
    // in 3 of 10, and a pair the corpus never states (left alone).
    assert.deepEqual(
      exclusivePairs(
        [d('A-004', 'A-001'), d('A-002', 'A-003'), d('A-005', 'A-006'), d('A-007', 'A-008')],
        [
          ...sets(10, ['A-001']),
          ...sets(12, ['A-004']),
          ...sets(9, ['A-002']),
          ...sets(1, ['A-002', 'A-003']),
          ...sets(9, ['A-003']),
        ].concat(sets(7, ['A-005']), sets(3, ['A-005', 'A-006']), sets(7, ['A-006']), sets(5, ['A-007'])),
      ),
      ['A-001+A-004'],
    );
    assert.ok(TOGETHER_SHARE > 0 && TOGETHER_SHARE < 1);
    // The same model read with and without the pair held exclusive: the account states both members.
    const other = constructedAtlas();
    const text =
      'I applied a month ago and heard nothing at all. Separately the agency recruiter promised interview times and then went quiet.';
    const both = readSituation(other, { text }, loadModel({ ...model, stack: { ...model.stack!, exclusive: [] } }));
    assert.deepEqual(ids(both), ['A-001', 'A-004'], 'without the rule, both are read');
    const one = readSituation(other, { text }, loadModel({ ...model, stack: { ...model.stack!, exclusive: ['A-001+A-004'] } }));
    const chosen = ids(one);
    const asked = one.questions.flatMap((q) => q.options.map((o) => o.artifact));
    assert.ok(
      (chosen.length === 1 && ['A-001', 'A-004'].includes(chosen[0]!)) ||
        (chosen.length === 0 && asked.includes('A-001') && asked.includes('A-004')),
      `one of the two, or a question: ${JSON.stringify({ chosen, asked })}`,
    );
    // It survives the serialised form.
    assert.deepEqual(
      loadModel(JSON.parse(JSON.stringify({ ...model, stack: { ...model.stack!, exclusive: ['A-001+A-004'] } }))).stack?.exclusive,
      ['A-001+A-004'],
    );
  });

  test('the count takes away: when it reads fewer observations than the set decision took, the likeliest that many', () => {
    const other = constructedAtlas();
    // Boosted trees with no tree: a count model that always (bias 10) or never (bias -10) says "at least j".
    const yes = { bias: 10, trees: [] };
    const no = { bias: -10, trees: [] };
    const withCount = (count: NonNullable<NonNullable<ReaderModel['stack']>['count']>): ReaderModel => {
      const m = loadModel(model);
      return { ...m, stack: { ...m.stack!, count } };
    };
    const two = 'the interviewer asked my age, and a week later they rescinded my offer';
    const one = 'they withdrew my offer two days before I started';
    assert.deepEqual(ids(readSituation(other, { text: two })), ['A-002', 'A-003'], 'read without a count: both');
    const cut = ids(readSituation(other, { text: two }, withCount([yes, no, no])));
    assert.equal(cut.length, 1, 'a count of one keeps the likelier');
    assert.ok(['A-002', 'A-003'].includes(cut[0]!));
    assert.deepEqual(ids(readSituation(other, { text: one }, withCount([yes, yes, yes]))), ['A-002'], 'a count never adds a candidate');
    assert.deepEqual(ids(readSituation(other, { text: one }, withCount([no, yes, yes]))), [], 'the count stops at its first "no"');
    // countOf alone, on the same trees.
    assert.equal(countOf([yes, yes, no], new Float64Array(COUNT_FEATURES.length)), 2);
  });

  test('the count is learned when the corpus has enough accounts of each count, and not from a few', () => {
    assert.equal(model.stack?.count, undefined, 'this corpus has 4 accounts of two observations: no count');
    // Forty accounts of each count, none to three, each worded a little differently.
    const many = Array.from({ length: 40 }, (_, i) => [
      { text: `the process went fine, interview number ${i} was smooth`, artifacts: [], out_of_scope: false },
      { text: `applied ${i} weeks ago and heard nothing since`, artifacts: ['A-001'], out_of_scope: false },
      { text: `they asked my age and ${i} days later my offer was pulled`, artifacts: ['A-002', 'A-003'], out_of_scope: false },
      {
        text: `applied and heard nothing for ${i} weeks, then they asked my age at interview, then my offer was cancelled`,
        artifacts: ['A-001', 'A-002', 'A-003'],
        out_of_scope: false,
      },
    ]).flat();
    const counted = buildReaderModel(reg, many);
    assert.equal(counted.stack?.count?.length, 3, 'at least one, two and three');
    assert.equal(loadModel(JSON.parse(JSON.stringify(counted))).stack?.count?.length, 3);
    assert.equal(buildReaderModel(reg, many, { count: false }).stack?.count, undefined, 'count: false reads by the threshold');
  });

  test('a learned question asks when its trees say the fact is open, and takes both answers away; else the weaker of an exclusive pair goes', () => {
    const other = constructedAtlas();
    // Boosted trees with no tree: a question model that always (bias 10) or never (bias -10) asks.
    const withAsk = (bias: number, exclusive: string[] = []): ReaderModel => {
      const m = loadModel(model);
      return { ...m, stack: { ...m.stack!, exclusive, ask: { trees: { bias, trees: [] }, threshold: 0.5 } } };
    };
    const text =
      'I applied a month ago and heard nothing at all. Separately the agency recruiter promised interview times and then went quiet.';
    const asked = readSituation(other, { text }, withAsk(10));
    assert.deepEqual(ids(asked), [], 'both answers are taken away');
    assert.deepEqual(
      asked.questions.flatMap((q) => q.options.map((o) => o.artifact)),
      ['A-001', 'A-004'],
    );
    const told = readSituation(other, { text }, withAsk(-10));
    assert.deepEqual(told.questions, [], 'never asked');
    assert.deepEqual(ids(told), ['A-001', 'A-004'], 'a pair the corpus states together: both kept');
    const one = ids(readSituation(other, { text }, withAsk(-10, ['A-001+A-004'])));
    assert.equal(one.length, 1, `an exclusive pair: one of the two (${one.join(', ')})`);
    // An account where neither answer is in play raises no question, whatever the trees say.
    assert.deepEqual(readSituation(other, { text: 'the manager asked how old I was' }, withAsk(10)).questions, []);
    // An answer to the question is taken as said.
    assert.deepEqual(ids(readSituation(other, { text, picks: ['A-004'] }, withAsk(10))), ['A-004']);
  });

  test('the question is learned when the corpus has enough accounts that leave a fact open, and not from a few', () => {
    assert.equal(model.stack?.ask, undefined, 'this corpus has no account that leaves a fact open: the hand rule');
    // Accounts that could be either: nothing says whether a recruiter promised a next step.
    const open = [
      'applied online and the recruiter never got back to me',
      'sent my application, then silence from the recruiter',
      'the recruiter has not replied since I applied',
      'no word back on my application, the recruiter is quiet',
      'applied weeks ago, recruiter went silent',
      'I applied and nobody from recruiting replied',
      'heard nothing since applying, the recruiter ignores me',
      'the recruiter stopped answering after I applied',
      'applied in march and the recruiter never replied',
      'my application went nowhere and the recruiter vanished',
      'still nothing from the recruiter about my application',
      'applied to the store, the recruiter never called back',
      'the recruiter has gone quiet on my application',
      'applied twice, no reply, recruiter silent',
      'the recruiter never responded to my application at all',
      'applied last month, the recruiter never followed up',
      'nothing back from the recruiter after applying',
      'I sent my application to the recruiter and heard nothing',
      'recruiter went quiet, application still pending',
      'applied online, recruiter never answered my emails',
    ].map((text) => ({ text, artifacts: [], out_of_scope: false, ask: ['A-001', 'A-004'] }));
    const stated = Array.from({ length: 60 }, (_, i) => [
      { text: `applied online ${i + 2} weeks ago, nobody ever contacted me`, artifacts: ['A-001'], out_of_scope: false },
      { text: `the recruiter vanished ${i + 2} days ago after promising me times`, artifacts: ['A-004'], out_of_scope: false },
    ]).flat();
    const learned = buildReaderModel(reg, [...corpus, ...open, ...stated]);
    const ask = learned.stack?.ask;
    assert.ok(ask, 'a question model');
    assert.equal(loadModel(JSON.parse(JSON.stringify(learned))).stack?.ask?.trees.trees.length, ask.trees.trees.length);
    assert.ok(
      ask.trees.trees.every((t) => t[0].every((f) => f < ASK_FEATURES.length)),
      'trees over the question numbers',
    );
    assert.equal(buildReaderModel(reg, [...corpus, ...open, ...stated], { ask: false }).stack?.ask, undefined, 'ask: false: the hand rule');
  });

  test('feature names are front-coded in the serialised model, and read back as they were', () => {
    const cases = [[], ['a'], ['ab', 'abc', 'abd', 'b', 'b', 'ba'], ['z', 'a'], ['x'.repeat(60), `${'x'.repeat(60)}y`, '!0_0', '?ask']];
    for (const names of cases) assert.deepEqual(frontDecode(frontCode(names)), names);
    assert.equal(frontCode(['apply', 'applied']), '0apply 4ied');
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9_!?']{1,50}$/), { maxLength: 40 }), (names) => {
        assert.deepEqual(frontDecode(frontCode(names)), names);
      }),
      { seed: 20261128, numRuns: 300 },
    );
    const loaded = loadModel(model);
    assert.ok(loaded.names.length > 0);
    assert.deepEqual(frontDecode(model.features!), loaded.names);
    // The snapshot's form, names written out whole: the same model, and the same bytes back.
    const plain = plainNames(model);
    assert.equal(plain.features, undefined);
    assert.equal(plain.plain_features, loaded.names.join(' '));
    assert.deepEqual(loadModel(plain), loaded);
    assert.equal(JSON.stringify(frontCodedNames(JSON.parse(JSON.stringify(plain)))), JSON.stringify(model));
    assert.equal(plainNames(plain), plain);
  });

  test('the set decision is fitted by Newton steps: separable numbers give a separating weight', () => {
    const rows = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ x: Float64Array.from([i < 4 ? -1 : 1, 0.5]), y: i < 4 ? 0 : 1 }));
    const { weights } = fitStack(rows);
    assert.ok(weights[0]! > 1, String(weights[0]));
  });

  test('the boosted first pass learns a rule a straight line cannot, the same trees each time', () => {
    // Stated when the number is in the middle band: no single weight separates it.
    const rows = Array.from({ length: 60 }, (_, i) => ({ x: Float64Array.from([i / 60, (i % 7) / 7]), y: i >= 20 && i < 40 ? 1 : 0 }));
    const fitted = fitBoosted(rows, 30, 2, 0.3, 1, 1);
    const p = (v: number) => firstProbability({ weights: new Float64Array(2), bias: 0, boosted: fitted }, Float64Array.from([v, 0]));
    assert.ok(p(0.5) > 0.8 && p(0.1) < 0.2 && p(0.9) < 0.2, `${p(0.1)} ${p(0.5)} ${p(0.9)}`);
    assert.deepEqual(fitBoosted(rows, 30, 2, 0.3, 1, 1), fitted);
  });
});

describe('the model as the site and a snapshot carry it', () => {
  test("the site has front-coded names, a snapshot whole ones; a snapshot's model is reused as the site's, the same text", () => {
    const fresh = constructedAtlas();
    const site = readerModelText(fresh);
    assert.ok(site.includes('"features":') && !site.includes('"plain_features":'));
    const snapshot = snapshotIndexes()[READER_INDEX]!(fresh);
    assert.ok(snapshot.includes('"plain_features":') && !snapshot.includes('"features":'));
    assert.deepEqual(loadModel(JSON.parse(snapshot)), loadModel(JSON.parse(site)));
    // A snapshot's model is reused for the same inputs, its names front-coded again.
    // (A corpus of its own, so that no model of these inputs was trained in this process before.)
    const corpus = [{ text: 'they withdrew the offer on the day I resigned from my old job', artifacts: ['A-002'], out_of_scope: false }];
    const trainedText = JSON.stringify(buildReaderModel(fresh, corpus));
    // One bias marked, to tell the reused model from one trained again.
    const marked = JSON.parse(trainedText);
    marked.bias[0] += 1;
    const snapshotText = JSON.stringify(plainNames(marked));
    assert.equal(readerModelText(fresh, corpus, [snapshotText]), JSON.stringify(marked));
    // And it is kept for the process's next build of the same inputs, with nothing given to reuse.
    assert.equal(readerModelText(fresh, corpus), JSON.stringify(marked));
  });

  test("a checkout's own build (dist/) is a model to reuse, as the bundled snapshot is; a checkout without one offers none of its own", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoba-reuse-'));
    try {
      const fresh = constructedAtlas();
      const own = (dirs: string[]) => reusableIndexes(join(dir, ...dirs), READER_INDEX).filter((t) => t.includes('"bias":[-99'));
      assert.deepEqual(own([]), []);
      const text = snapshotIndexes()[READER_INDEX]!(fresh);
      const marked = JSON.parse(text);
      marked.bias[0] = -99;
      mkdirSync(join(dir, 'dist'));
      writeSnapshot(
        join(dir, 'dist', SNAPSHOT_FILE),
        makeSnapshot(fresh, '0'.repeat(64), { [READER_INDEX]: () => JSON.stringify(marked) }),
      );
      assert.deepEqual(own([]), [JSON.stringify(marked)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a registry without a model trains its own, once', () => {
  test('readerModelFor returns the same model for the same registry', () => {
    const fresh = constructedAtlas();
    assert.equal(readerModelFor(fresh), readerModelFor(fresh));
    assert.deepEqual(loadModel(buildReaderModel(fresh)).classes, trainedReaderModel(fresh).classes);
    assert.deepEqual(readerModelFor(fresh).classes, ['A-001', 'A-002', 'A-003', 'A-004', '~out', '~nc:dismissal']);
  });
});

describe('explain_observation (MCP) on words', () => {
  const tool = TOOLS.find((t) => t.name === 'explain_observation')!;
  const atlas = toolAtlas({ registry: reg, index: () => undefined, from: 'content', problems: [], content_hash: '0'.repeat(64) });
  const run = (args: Record<string, unknown>) => tool.run(atlas, tool.arguments().parse(args)) as ExplainResult;

  test('questions come back structured, and picks answer them', () => {
    const text = 'applied for the job, the recruiter promised times, and I never heard back';
    const asked = run({ text });
    assert.equal(asked.agency.verdict.code, 'answer-first');
    assert.deepEqual(
      asked.input.from_text!.questions[0]!.options.map((o) => o.artifact),
      ['A-001', 'A-004'],
    );
    const answered = run({ text, picks: ['A-001'], detail: 'full' });
    assert.deepEqual(answered.input.artifacts, ['A-001']);
    assert.deepEqual(answered.input.from_text!.answered, ['A-001']);
  });

  test('a message alone is read, with its tell-tale lines', () => {
    const r = run({
      message: 'Unfortunately we are no longer able to proceed with your offer of employment due to a change in business needs.',
    });
    assert.deepEqual(r.input.artifacts, ['A-002']);
    assert.equal(r.input.from_text!.message_tells[0]!.artifact.id, 'A-002');
  });

  test('picks without words are refused, and so are words with IDs', () => {
    assert.throws(
      () => run({ artifacts: ['A-001'], picks: ['A-001'] }),
      (err: unknown) => err instanceof AnalysisError && err.code === 'invalid-argument',
    );
    assert.throws(
      () => run({ artifacts: ['A-001'], message: 'hello there' }),
      (err: unknown) => err instanceof AnalysisError && err.code === 'invalid-argument',
    );
  });
});
