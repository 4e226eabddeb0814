// Atlas depth (issue 12): the depth targets, read through `hoba stats`, and the rules that keep the new
// layers honest: specimens quote themselves, law notes say where, by when and whether still in force,
// interventions rate their effect apart from their target, every mechanism has perspectives, and the
// atlas never says how likely a cause is.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { atlasStats } from '../src/analysis/stats.ts';
import { HEDGE_WORDS } from '../src/model/index.ts';
import { itemBody } from '../src/publish/documents.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { AtlasCopy, hoba, ofRule, ROOT } from './helpers.ts';

const atlas = loadAtlas(ROOT).registry;
const artifacts = atlas.all('artifact');
const mechanisms = atlas.all('mechanism');
const interventions = atlas.all('intervention');
const withLaw = [...artifacts, ...mechanisms, ...interventions, ...atlas.all('barrier')].filter((e) => e.law.length > 0);

describe('hoba stats: the depth targets', () => {
  test('every target is met by the real atlas', () => {
    const run = hoba(['stats', '--json', '--check']);
    const stats = JSON.parse(run.stdout) as ReturnType<typeof atlasStats>;
    const unmet = stats.targets.filter((t) => !t.met).map((t) => `${t.id}: ${t.actual} (${t.bound} ${t.target})${t.failing ? ` ${t.failing.join(', ')}` : ''}`);
    assert.deepEqual(unmet, []);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(stats.met, true);
  });

  test('the targets are the ones the issue sets', () => {
    const ids = atlasStats(atlas).targets.map((t) => t.id);
    for (const id of ['artifacts', 'barriers', 'mechanisms', 'patterns', 'loops', 'interventions', 'scenarios', 'sources', 'mechanisms-unsourced', 'topics', 'law-us-federal', 'law-us-state', 'law-uk', 'law-eu', 'intervention-actors', 'intervention-actor-share', 'specimens', 'perspectives', 'artifact-emitters-min', 'artifact-first-tier', 'barrier-mechanisms', 'mechanisms-in-motifs', 'candidate-narrowing', 'bibliography-revision', 'rule-uncalibrated-likelihood', 'rule-unsourced-frequency', 'rule-causal-overclaim', 'law-time-limits']) {
      assert.ok(ids.includes(id), `target ${id}`);
    }
  });

  test('the bounds are issue 25\'s (atlas 0.4.0)', () => {
    const bound = (id: string) => {
      const t = atlasStats(atlas).targets.find((x) => x.id === id)!;
      return `${t.bound} ${t.target}`;
    };
    assert.equal(bound('artifacts'), 'at-least 64');
    assert.equal(bound('mechanisms'), 'at-least 70');
    assert.equal(bound('interventions'), 'at-least 40');
    assert.equal(bound('scenarios'), 'at-least 36');
    assert.equal(bound('sources'), 'at-least 185');
    for (const id of ['rule-uncalibrated-likelihood', 'rule-unsourced-frequency', 'rule-causal-overclaim', 'law-time-limits']) assert.equal(bound(id), 'at-most 0', id);
    // The revision of 2026-11-27 whole: every entry from E-169 to E-207 cited or listed in the manifest.
    const revision = atlasStats(atlas).targets.find((x) => x.id === 'bibliography-revision')!;
    assert.match(revision.what, /E-169\.\.E-207/);
    assert.equal(revision.target, 39);
  });

  test('the text output says which targets are met, for people', () => {
    const run = hoba(['stats']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Atlas \d+\.\d+\.\d+: every depth target met/);
    assert.match(run.stdout, /✔ active mechanisms: \d+ \(target ≥ 70\)/);
    assert.match(run.stdout, /✔ findings of the rule causal-overclaim \(error\): 0 \(target ≤ 0\)/);
    assert.match(run.stdout, /Law notes by jurisdiction:\n {2}us-federal: \d+ notes/);
  });

  describe('on a copy that falls short', () => {
    const copy = new AtlasCopy();
    after(() => copy.dispose());
    test('--check exits 1 and names what keeps a target from being met', () => {
      copy.remove('M-001', ['perspectives']);
      const run = hoba(['stats', '--json', '--check', '--dir', copy.dir]);
      assert.equal(run.status, 1);
      const perspectives = (JSON.parse(run.stdout) as ReturnType<typeof atlasStats>).targets.find((t) => t.id === 'perspectives');
      assert.equal(perspectives?.met, false);
      assert.deepEqual(perspectives?.failing, ['M-001']);
    });
    test('a likelihood word, an overclaim, an unsourced rate and a remedy without a time limit each fail their target', () => {
      copy.set('A-001', ['summary'], 'The role was probably filled.');
      copy.set('M-004', ['emits', 0, 'note'], 'It shows that a rule made the decision.');
      copy.set('A-019', ['summary'], 'Panels tend to disagree.');
      const remedied = withLaw.find((e) => e.law.some((n) => n.remedy !== undefined))!;
      copy.remove(remedied.id, ['law', remedied.law.findIndex((n) => n.remedy !== undefined), 'time_limit']);
      const run = hoba(['stats', '--json', '--check', '--dir', copy.dir]);
      assert.equal(run.status, 1);
      const failing = Object.fromEntries((JSON.parse(run.stdout) as ReturnType<typeof atlasStats>).targets.filter((t) => !t.met).map((t) => [t.id, t.failing]));
      assert.deepEqual(failing['rule-uncalibrated-likelihood'], ['A-001']);
      assert.deepEqual(failing['rule-causal-overclaim'], ['M-004']);
      assert.deepEqual(failing['rule-unsourced-frequency'], ['A-019']);
      assert.deepEqual(failing['law-time-limits'], [remedied.id]);
    });
  });
});

describe('the rules of the new layers', () => {
  const copy = new AtlasCopy();
  after(() => copy.dispose());
  const base = copy.problems();

  test('the real atlas breaks none of them', () => {
    for (const rule of ['specimen-tells', 'law-note', 'nested-source-unlisted', 'effect-unsourced', 'mechanism-perspectives', 'uncalibrated-likelihood', 'unsourced-frequency', 'causal-overclaim', 'source-finding-missing', 'exclusion-on-say-so', 'discrimination-law-unreached', 'alias-title-clash', 'perspective-citation', 'uncited-source']) {
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
    copy.set(i.id, ['sources'], i.sources.filter((s) => s !== cited));
    const unlisted = ofRule(copy.problems(), 'nested-source-unlisted');
    assert.ok(unlisted.some((p) => p.entity === i.id && p.message.includes(cited)), JSON.stringify(unlisted));
    copy.set(i.id, ['sources'], i.sources);

    copy.set(i.id, ['effect', 'sources'], []);
    assert.deepEqual(ofRule(copy.problems(), 'effect-unsourced').map((p) => p.entity), [i.id]);
    copy.set(i.id, ['effect', 'level'], 'unmeasured');
    assert.deepEqual(ofRule(copy.problems(), 'effect-unsourced'), [], 'unmeasured needs no source');
    copy.set(i.id, ['effect'], i.effect);
  });

  test('mechanism-perspectives: the candidate and two others, each once', () => {
    const m = mechanisms[0]!;
    copy.set(m.id, ['perspectives'], m.perspectives.filter((p) => p.viewpoint !== 'candidate'));
    assert.deepEqual(ofRule(copy.problems(), 'mechanism-perspectives').map((p) => p.entity), [m.id]);
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
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency').map((p) => p.entity), [unsourced.id]);
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
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency').map((p) => p.entity), [a.id], 'a source elsewhere in the entity is not enough');
    copy.set(a.id, ['summary'], `${a.summary} In laboratory studies, interviewers tend to feel equally confident (E-048).`);
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency'), [], 'a citation in the sentence is');
    copy.set(a.id, ['summary'], `${a.summary} Keep applying at your usual pace; a routine check is a kind, not a rate.`);
    assert.deepEqual(ofRule(copy.problems(), 'unsourced-frequency'), [], 'your usual pace and a routine check state no rate');
    copy.set(a.id, ['summary'], a.summary);
  });

  test('causal-overclaim: a denial or a possibility is not a claim', () => {
    const m = mechanisms.find((x) => x.id === 'M-004')!;
    copy.set(m.id, ['emits', 0, 'note'], 'It does not show that a rule made the decision, and a skim can show that nobody read it closely.');
    assert.deepEqual(ofRule(copy.problems(), 'causal-overclaim'), []);
    copy.set(m.id, ['emits', 0, 'note'], 'The speed directly shows that a rule decided.');
    assert.deepEqual(ofRule(copy.problems(), 'causal-overclaim').map((p) => p.message.slice(0, 40)), ['emits[0].note says "directly shows": an ']);
    copy.set(m.id, ['emits', 0, 'note'], m.emits[0]!.note);
  });

  test("exclusion-on-say-so: a document may exclude what the employer's word may not", () => {
    const a = artifacts.find((x) => x.id === 'A-047')!;
    const p = a.probes.findIndex((x) => x.id === 'rtwdocs-ask-if-everyone');
    const o = a.probes[p]!.outcomes.findIndex((x) => x.id === 'same-for-everyone');
    assert.deepEqual(a.probes[p]!.outcomes[o]!.excludes, [], 'the audit case (item 35) excludes nothing now');
    copy.set(a.id, ['probes', p, 'outcomes', o, 'excludes'], ['M-022']);
    assert.deepEqual(ofRule(copy.problems(), 'exclusion-on-say-so').map((x) => x.entity), [a.id]);
    copy.set(a.id, ['probes', p, 'outcomes', o, 'observation'], 'They send the written procedure, which asks every candidate for the same documents.');
    assert.deepEqual(ofRule(copy.problems(), 'exclusion-on-say-so'), [], 'a written procedure is a document');
    copy.set(a.id, ['probes', p, 'outcomes', o], a.probes[p]!.outcomes[o]);
  });

  test('bibliography-revision: with an uncited list, every entry of its range is cited or listed with a reason', () => {
    const manifest = readFileSync(join(copy.dir, 'content', 'atlas.yaml'), 'utf8');
    // The manifest without its own list, so that the test controls it.
    const original = manifest.replace(/^(?:#[^\n]*\n)*uncited:\n(?: {2}[^\n]*\n)*/m, '');
    assert.ok(!/^uncited:/m.test(original));
    copy.write('content/atlas.yaml', original);
    const cited = new Set([...artifacts, ...mechanisms, ...interventions, ...atlas.all('barrier'), ...atlas.all('pattern'), ...atlas.all('scenario'), ...atlas.all('loop')].flatMap((e) => e.sources));
    const range = Array.from({ length: 39 }, (_, i) => `E-${169 + i}`);
    const uncited = range.filter((id) => !cited.has(id));
    const target = () => (JSON.parse(hoba(['stats', '--json', '--dir', copy.dir]).stdout) as ReturnType<typeof atlasStats>).targets.find((t) => t.id === 'bibliography-revision');
    assert.equal(target(), undefined, 'no list, no target');
    copy.write('content/atlas.yaml', `${original}uncited:\n  from: E-169\n  to: E-207\n  sources: []\n`);
    const open = target();
    assert.equal(open?.met, uncited.length === 0);
    assert.deepEqual(open?.failing ?? [], uncited);
    const listed = uncited.map((id) => `    - id: ${id}\n      reason: Listed by the test.\n`).join('');
    copy.write('content/atlas.yaml', `${original}uncited:\n  from: E-169\n  to: E-207\n  sources:${listed ? `\n${listed}` : ' []\n'}`);
    assert.equal(target()?.met, true);
    assert.deepEqual(ofRule(copy.problems(), 'uncited-source'), [], 'the listed entries are uncited and in range');
    copy.write('content/atlas.yaml', manifest);
  });
});

describe('the law layer on the surfaces', () => {
  const entity = withLaw.find((e) => e.kind === 'artifact')!;
  const plain = artifacts.find((a) => a.law.length === 0);

  test('hoba show prints the law notes, with time limits and the not-legal-advice notice', () => {
    const run = hoba(['show', entity.id]);
    assert.equal(run.status, 0, run.stderr);
    const flat = run.stdout.replace(/\s+/g, ' ');
    assert.match(flat, / Law • (us-federal|us-state|uk|eu)/);
    assert.match(flat, /Not legal advice\./);
    if (entity.law.some((n) => n.time_limit)) assert.match(flat, /time limit: /);
  });

  test('the REST item document and MCP get_node carry the notice only where there is law', () => {
    assert.match((itemBody(atlas, entity) as { legal_notice?: string }).legal_notice ?? '', /^Not legal advice\./);
    if (plain) assert.equal((itemBody(atlas, plain) as { legal_notice?: string }).legal_notice, undefined);
    const view = JSON.parse(hoba(['show', entity.id, '--json']).stdout) as { legal_notice?: string };
    assert.match(view.legal_notice ?? '', /^Not legal advice\./);
  });

  test('hoba explain carries the observations’ law notes and the notice; --full prints their time limits', () => {
    const result = JSON.parse(hoba(['explain', entity.id, '--json']).stdout) as { agency: { law: Array<{ artifact: { id: string }; jurisdiction: string }>; legal_notice?: string } };
    assert.equal(result.agency.law.length, entity.law.length);
    assert.ok(result.agency.law.every((n) => n.artifact.id === entity.id));
    assert.match(result.agency.legal_notice ?? '', /^Not legal advice\./);
    const full = hoba(['explain', entity.id, '--full']).stdout.replace(/\s+/g, ' ');
    assert.match(full, /The law, by jurisdiction \(not legal advice\)/);
    if (plain) {
      const none = JSON.parse(hoba(['explain', plain.id, '--json']).stdout) as { agency: { law: unknown[]; legal_notice?: string } };
      assert.deepEqual(none.agency.law, []);
      assert.equal(none.agency.legal_notice, undefined);
    }
  });

  test('the methodology defines the allowed hedges, the effect levels and the law layer, and scopes the naming rule', () => {
    const m = JSON.parse(hoba(['methodology', '--json']).stdout) as {
      sections: Array<{ id: string; body: string }>;
      vocabularies: { hedges: { likelihood: string[] }; effect_levels: Array<{ id: string }> };
    };
    assert.ok(m.vocabularies.hedges.likelihood.includes('probably'));
    assert.deepEqual(m.vocabularies.effect_levels.map((t) => t.id), ['established', 'supported', 'mixed', 'contested', 'unmeasured']);
    assert.ok(m.sections.some((s) => s.id === 'law'));
    const rules = m.sections.find((s) => s.id === 'rules-of-inference')!.body;
    assert.match(rules, /source records are the exception/);
    assert.match(rules, /Calibrated words/);
  });
});
