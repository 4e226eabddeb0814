// The content audit of 2026-11 (../shared/audits/content-2026-11.md): the diagnostic-logic defects that no
// validator rule can catch, held here as tests on the real content, one per defect the audit found.
//
// Why these are tests, not rules: an exclusion that is valid only for a sub-case (items 34 and 36) and an
// outcome note that contradicts the artifact's own non-inferences (items 32 and 37) are errors of meaning.
// A rule would have to know that a quality category rates the applicant's own record, that a different
// requisition can carry different knockout settings, or that sex and age are visible to everyone; no
// pattern over the text tells a sub-case from the general case. What can be automated is the rule for
// each kind's symptom the audit named (exclusion-on-say-so, discrimination-law-unreached,
// alias-title-clash, causal-overclaim, unsourced-frequency; see src/registry/rules.ts), and the fixed cases
// below, so that they cannot come back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { explain } from '../../src/analysis/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT } from '../helpers.ts';

const reg = loadAtlas(ROOT).registry;
const artifact = (id: string) => reg.getOf('artifact', id)!;
const outcome = (a: string, probe: string, id: string) =>
  artifact(a)
    .probes.find((p) => p.id === probe)!
    .outcomes.find((o) => o.id === id)!;
const emitters = (a: string) =>
  reg
    .all('mechanism')
    .filter((m) => m.emits.some((e) => e.artifact === a))
    .map((m) => m.id);
const ids = (list: ReadonlyArray<{ id: string }>) => list.map((x) => x.id);

describe('diagnostic logic (audit items 31-40)', () => {
  test('31: a rejection within the hour can come from a human skim, so M-006 produces A-002', () => {
    assert.ok(emitters('A-002').includes('M-006'));
  });

  test('32: "no record held" does not rule out a purge, and a reply on the employer\'s word rules out no discrimination', () => {
    assert.ok(!outcome('A-001', 'silence-data-access-request', 'no-record-held').excludes.includes('M-028'));
    assert.match(
      outcome('A-001', 'silence-data-access-request', 'no-record-held').observation,
      /soon after applying, directly to the employer/,
    );
    const reply = outcome('A-001', 'silence-ask-status-once', 'reply-application-not-found');
    for (const m of ['M-022', 'M-023', 'M-024', 'M-025', 'M-028']) assert.ok(!reply.excludes.includes(m), m);
  });

  test('33: withdrawn and stalled offers have disability and pregnancy producers', () => {
    for (const a of ['A-024', 'A-045']) for (const m of ['M-025', 'M-037']) assert.ok(emitters(a).includes(m), `${m} emits ${a}`);
  });

  test('34: a lower category is a judgement of your own record; only the preference sub-case rules out a gap', () => {
    assert.ok(!outcome('A-048', 'public-read-status-and-scores', 'eligible-not-referred').excludes.includes('M-001'));
    assert.ok(outcome('A-048', 'public-read-status-and-scores', 'eligible-listed-behind-preference').excludes.includes('M-001'));
    const s027 = explain(reg, {
      artifacts: ['A-048', 'A-014'],
      probes: [{ probe: 'public-read-status-and-scores', outcome: 'eligible-not-referred' }],
    });
    assert.ok(ids(s027.behind.mechanisms).includes('M-001'), 'M-001 is not silently gone (S-027)');
  });

  test('35: the employer saying everyone is asked rules nothing out; a documented uniform procedure may', () => {
    assert.deepEqual(outcome('A-047', 'rtwdocs-ask-if-everyone', 'same-for-everyone').excludes, []);
    assert.deepEqual(outcome('A-047', 'rtwdocs-ask-if-everyone', 'published-uniform-policy').excludes, ['M-022']);
  });

  test('36: a resubmission excludes rules only when it went to the same requisition', () => {
    const probe = artifact('A-002').probes.find((p) => p.id === 'instant-reject-resubmit-plain')!;
    assert.match(probe.action, /same opening/);
    assert.doesNotMatch(probe.action, /closely similar opening/);
    assert.match(outcome('A-002', 'instant-reject-resubmit-plain', 'different-result').observation, /same opening/);
  });

  test('37: a name can signal religion, and sex and age keep pregnancy discrimination open', () => {
    for (const [a, probe, id] of [
      ['A-033', 'fit-what-they-could-know', 'none-known'],
      ['A-035', 'social-round-what-they-knew', 'none-came-up'],
    ] as const) {
      const o = outcome(a, probe, id);
      assert.match(o.observation, /your name included/);
      assert.ok(!o.excludes.includes('M-037'), `${a} ${id} keeps M-037`);
    }
  });

  test('39: a disability visible or audible in a recording is not ruled out by non-disclosure', () => {
    assert.match(
      outcome('A-029', 'oneway-ask-scoring-and-alternative', 'format-posed-no-difficulty').observation,
      /seen or heard in the recording/,
    );
  });

  test('40: plain words reach the observation they name', () => {
    // What explain reads from the words (as `hoba explain "<words>"` does; the CLI's own path is tested
    // in test/e2e/reading-cli.test.ts).
    const read = (text: string) => explain(reg, { text }).input.artifacts;
    assert.ok(!artifact('A-003').aliases.some((x) => /not the right fit/i.test(x)), "A-003 no longer claims A-033's title");
    const lunch = read("I was told I'm not the right fit after a team lunch");
    assert.ok(!lunch.includes('A-003') && (lunch.includes('A-033') || lunch.includes('A-035')), `read as ${lunch.join(', ')}`);
    assert.ok(read("background check found someone else's record").includes('A-046'));
    assert.ok(read('an AI bot interviewed me').includes('A-042'));
  });
});

describe('advice that could hurt (audit items 41-47)', () => {
  const probe = (a: string, id: string) => artifact(a).probes.find((p) => p.id === id)!;

  test("41-43: no probe asks an insider for confidential assessment content, a colleague's selection or another candidate's offer", () => {
    assert.doesNotMatch(probe('A-020', 'feedback-contact-asks-informally').action, /off the record|specific reason/);
    assert.doesNotMatch(probe('A-014', 'internal-hire-contact-asks-if-open').action, /expected to get it/);
    assert.ok(
      !probe('A-009', 'final-silence-contact-checks-status').outcomes.some((o) => /offer has gone to another/i.test(o.observation)),
    );
  });

  test('45: the pay-range advice says its list is not exhaustive and names the states its sources cover', () => {
    const step = artifact('A-013').next_steps.find((s) => s.id === 'check-transparency-rules')!;
    assert.match(step.action, /not exhaustive/);
    for (const place of [
      'New York State',
      'Illinois',
      'Massachusetts',
      'New Jersey',
      'Maryland',
      'District of Columbia',
      'Hawaii',
      'Minnesota',
      'Vermont',
    ]) {
      assert.ok(step.action.includes(place), place);
    }
    assert.doesNotMatch(step.why, /where none applies, you know/);
  });

  test('46: the resignation advice handles a condition that clears only after you resign', () => {
    for (const [a, id] of [
      ['A-045', 'hold-resignation-until-unconditional'],
      ['A-024', 'hold-resignation-until-conditions-clear'],
    ] as const) {
      assert.match(artifact(a).next_steps.find((s) => s.id === id)!.action, /only after you resign/);
    }
  });

  test('47: the interim-job advice is a reasonable step, not the one indicated action', () => {
    const m019 = reg.getOf('mechanism', 'M-019')!;
    assert.doesNotMatch(m019.description ?? '', /one indicated action/);
    assert.ok(!m019.perspectives.some((p) => /one indicated action/.test(p.does)));
  });
});
