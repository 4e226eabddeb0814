// Atlas depth (issue 12): the rules that keep the new layers honest: specimens quote themselves, law notes say where, by when and whether still in force,
// interventions rate their effect apart from their target, every mechanism has perspectives, and the
// atlas never says how likely a cause is. (The targets through `hoba stats`, and the law layer on the
// surfaces: test/e2e/depth-cli.test.ts.)
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { atlasStats } from '../../src/analysis/stats.ts';
import { HEDGE_WORDS } from '../../src/model/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { AtlasCopy, ofRule, ROOT } from '../helpers.ts';

const atlas = loadAtlas(ROOT).registry;
const artifacts = atlas.all('artifact');
const mechanisms = atlas.all('mechanism');
const interventions = atlas.all('intervention');
const withLaw = [...artifacts, ...mechanisms, ...interventions, ...atlas.all('barrier')].filter((e) => e.law.length > 0);

describe('hoba stats: the bounds of the depth targets', () => {
  test("the bounds are issue 25's (atlas 0.4.0)", () => {
    const targets = atlasStats(atlas).targets;
    const bound = (id: string) => {
      const t = targets.find((x) => x.id === id);
      return t ? `${t.bound} ${t.target}` : `no target ${id}`;
    };
    assert.equal(bound('artifacts'), 'at-least 64');
    assert.equal(bound('mechanisms'), 'at-least 70');
    assert.equal(bound('interventions'), 'at-least 40');
    assert.equal(bound('scenarios'), 'at-least 36');
    assert.equal(bound('sources'), 'at-least 185');
    for (const id of ['rule-uncalibrated-likelihood', 'rule-unsourced-frequency', 'rule-causal-overclaim', 'law-time-limits'])
      assert.equal(bound(id), 'at-most 0', id);
    // The revision of 2026-11-27 whole: every entry from E-169 to E-207 cited or listed in the manifest.
    const revision = targets.find((x) => x.id === 'bibliography-revision');
    assert.match(revision?.what ?? '', /E-169\.\.E-207/);
    assert.equal(revision?.target, 39);
    assert.deepEqual(
      targets.filter((t) => !t.met).map((t) => t.id),
      [],
      'the real atlas meets every target',
    );
  });
});

describe('the rules of the new layers', () => {
  const copy = new AtlasCopy();
  after(() => copy.dispose());
  const base = copy.problems();

  test('the real atlas breaks none of them', () => {
    for (const rule of [
      'specimen-tells',
      'law-note',
      'nested-source-unlisted',
      'effect-unsourced',
      'mechanism-perspectives',
      'uncalibrated-likelihood',
      'unsourced-frequency',
      'causal-overclaim',
      'source-finding-missing',
      'exclusion-on-say-so',
      'discrimination-law-unreached',
      'alias-title-clash',
      'perspective-citation',
      'uncited-source',
    ]) {
      assert.deepEqual(ofRule(base, rule), [], rule);
    }
  });

  test('specimen-tells: a tell must quote its specimen verbatim', () => {
    const a = artifacts.find((x) => x.specimens.length > 0)!;
    copy.set(a.id, ['specimens', 0, 'tells', 0, 'quote'], 'a line the specimen never says');
    const found = ofRule(copy.problems(), 'specimen-tells');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.entity, a.id);
    assert.match(found[0]!.message, /not in the specimen's text/);
    assert.ok(found[0]!.file?.includes(a.id) && (found[0]!.line ?? 0) > 0, 'file and line');
    copy.set(a.id, ['specimens', 0, 'tells', 0, 'quote'], a.specimens[0]!.tells[0]!.quote);
  });

  test('law-note: a state, a time limit with a remedy, a status note for law no longer in force', () => {
    const state = withLaw.find((e) => e.law.some((n) => n.jurisdiction === 'us-state'))!;
    const i = state.law.findIndex((n) => n.jurisdiction === 'us-state');
    copy.remove(state.id, ['law', i, 'where']);
    assert.ok(ofRule(copy.problems(), 'law-note').some((p) => p.entity === state.id && /which state/.test(p.message)));
    copy.set(state.id, ['law', i, 'where'], state.law[i]!.where);

    const remedied = withLaw.find((e) => e.law.some((n) => n.remedy !== undefined))!;
    const j = remedied.law.findIndex((n) => n.remedy !== undefined);
    copy.remove(remedied.id, ['law', j, 'time_limit']);
    assert.ok(ofRule(copy.problems(), 'law-note').some((p) => p.entity === remedied.id && /no time limit/.test(p.message)));
    copy.set(remedied.id, ['law', j, 'time_limit'], remedied.law[j]!.time_limit);

    // E-078 is withdrawn guidance: a note that cites it must say what changed.
    const withdrawn = withLaw.find((e) => e.law.some((n) => n.sources.includes('E-078') && n.status_note !== undefined));
    assert.ok(withdrawn, 'some law note cites the withdrawn E-078 with its status note');
    const k = withdrawn.law.findIndex((n) => n.sources.includes('E-078'));
    copy.remove(withdrawn.id, ['law', k, 'status_note']);
    assert.ok(ofRule(copy.problems(), 'law-note').some((p) => p.entity === withdrawn.id && /E-078 .* withdrawn/.test(p.message)));
    copy.set(withdrawn.id, ['law', k, 'status_note'], withdrawn.law[k]!.status_note);
    assert.deepEqual(ofRule(copy.problems(), 'law-note'), []);
  });

  test('nested-source-unlisted and effect-unsourced: nested sources are listed, and a measured effect cites them', () => {
    const i = interventions.find((x) => x.effect.level !== 'unmeasured' && x.effect.sources.length > 0)!;
    const cited = i.effect.sources[0]!;
    copy.set(
      i.id,
      ['sources'],
      i.sources.filter((s) => s !== cited),
    );
    const unlisted = ofRule(copy.problems(), 'nested-source-unlisted');
    assert.ok(
      unlisted.some((p) => p.entity === i.id && p.message.includes(cited)),
      JSON.stringify(unlisted),
    );
    copy.set(i.id, ['sources'], i.sources);

    copy.set(i.id, ['effect', 'sources'], []);
    assert.deepEqual(
      ofRule(copy.problems(), 'effect-unsourced').map((p) => p.entity),
      [i.id],
    );
    copy.set(i.id, ['effect', 'level'], 'unmeasured');
    assert.deepEqual(ofRule(copy.problems(), 'effect-unsourced'), [], 'unmeasured needs no source');
    copy.set(i.id, ['effect'], i.effect);
  });

  test('mechanism-perspectives: the candidate and two others, each once', () => {
    const m = mechanisms[0]!;
    copy.set(
      m.id,
      ['perspectives'],
      m.perspectives.filter((p) => p.viewpoint !== 'candidate'),
    );
    assert.deepEqual(
      ofRule(copy.problems(), 'mechanism-perspectives').map((p) => p.entity),
      [m.id],
    );
    copy.set(m.id, ['perspectives'], m.perspectives);
  });

  test('uncalibrated-likelihood: never in the atlas’s own words; other people’s words are exempt', () => {
    const a = artifacts.find((x) => x.specimens.length > 0)!;
    copy.set(a.id, ['summary'], `${a.summary} The employer has probably filled the role.`);
    copy.set(a.id, ['specimens', 0, 'text'], `${a.specimens[0]!.text}\nWe will most likely be in touch.`);
    const found = ofRule(copy.problems(), 'uncalibrated-likelihood');
    assert.equal(found.length, 1, 'the specimen text is exempt');
    assert.equal(found[0]!.entity, a.id);
    assert.match(found[0]!.message, /^summary says "probably": the atlas never says how likely/);
    copy.set(a.id, ['summary'], `${a.summary} Applicants were twice as likely to hear back (as a source measured).`);
    assert.deepEqual(ofRule(copy.problems(), 'uncalibrated-likelihood'), [], 'a comparative rate is a frequency, not a likelihood');
    copy.set(a.id, ['summary'], a.summary);
    copy.set(a.id, ['specimens', 0, 'text'], a.specimens[0]!.text);
    assert.ok(HEDGE_WORDS.likelihood.includes('probably') && HEDGE_WORDS.frequency.includes('often'));
  });

  test('unsourced-frequency: a rate needs a source in the same entity', () => {
    const unsourced = mechanisms.find((m) => m.sources.length === 0);
    const sourced = mechanisms.find((m) => m.sources.length > 0)!;
    assert.ok(unsourced, 'the atlas has unsourced mechanisms (hypotheses)');
    copy.set(unsourced.id, ['summary'], `${unsourced.summary} Recruiters often do this.`);
    copy.set(sourced.id, ['summary'], `${sourced.summary} Recruiters often do this.`);
    assert.deepEqual(
      ofRule(copy.problems(), 'unsourced-frequency').map((p) => p.entity),
      [unsourced.id],
    );
    copy.set(unsourced.id, ['summary'], unsourced.summary);
    copy.set(sourced.id, ['summary'], sourced.summary);
  });
});

describe('the rules added by the content audit of 2026-11', () => {
  const copy = new AtlasCopy();
  after(() => copy.dispose());

  test('unsourced-frequency: a rate paraphrase needs its source in the same sentence, not elsewhere in the entity', () => {
    const a = artifacts.find((x) => x.id === 'A-019')!;
    assert.ok(a.sources.length > 0, 'A-019 cites sources elsewhere');
    copy.set(a.id, ['summary'], `${a.summary} Panels tend to disagree.`);
    assert.deepEqual(
      ofRule(copy.problems(), 'unsourced-frequency').map((p) => p.entity),
      [a.id],
      'a source elsewhere in the entity is not enough',
    );
    copy.set(a.id, ['summary'], `${a.summary} In laboratory studies, interviewers tend to feel equally confident (E-048).`);
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency'), [], 'a citation in the sentence is');
    copy.set(a.id, ['summary'], `${a.summary} Keep applying at your usual pace; a routine check is a kind, not a rate.`);
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency'), [], 'your usual pace and a routine check state no rate');
    copy.set(a.id, ['summary'], a.summary);
  });

  test('causal-overclaim: a denial or a possibility is not a claim', () => {
    const m = mechanisms.find((x) => x.id === 'M-004')!;
    copy.set(
      m.id,
      ['emits', 0, 'note'],
      'It does not show that a rule made the decision, and a skim can show that nobody read it closely.',
    );
    assert.deepEqual(ofRule(copy.problems(), 'causal-overclaim'), []);
    copy.set(m.id, ['emits', 0, 'note'], 'The speed directly shows that a rule decided.');
    assert.deepEqual(
      ofRule(copy.problems(), 'causal-overclaim').map((p) => p.message.slice(0, 40)),
      ['emits[0].note says "directly shows": an '],
    );
    copy.set(m.id, ['emits', 0, 'note'], m.emits[0]!.note);
  });

  test("exclusion-on-say-so: a document may exclude what the employer's word may not", () => {
    const a = artifacts.find((x) => x.id === 'A-047')!;
    const p = a.probes.findIndex((x) => x.id === 'rtwdocs-ask-if-everyone');
    const o = a.probes[p]!.outcomes.findIndex((x) => x.id === 'same-for-everyone');
    assert.deepEqual(a.probes[p]!.outcomes[o]!.excludes, [], 'the audit case (item 35) excludes nothing now');
    copy.set(a.id, ['probes', p, 'outcomes', o, 'excludes'], ['M-022']);
    assert.deepEqual(
      ofRule(copy.problems(), 'exclusion-on-say-so').map((x) => x.entity),
      [a.id],
    );
    copy.set(
      a.id,
      ['probes', p, 'outcomes', o, 'observation'],
      'They send the written procedure, which asks every candidate for the same documents.',
    );
    assert.deepEqual(ofRule(copy.problems(), 'exclusion-on-say-so'), [], 'a written procedure is a document');
    copy.set(a.id, ['probes', p, 'outcomes', o], a.probes[p]!.outcomes[o]);
  });
});
