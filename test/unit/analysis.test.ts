// The analysis layer on the real atlas: search ranking, the HOBA protocol (union semantics, probe
// narrowing, verdicts), entity views, patterns, interventions, traversal and the methodology. Every
// result is checked against its zod schema, the shape the MCP server publishes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { z } from 'zod';
import {
  AnalysisError,
  AtlasSearch,
  CompatibleMechanisms,
  DiagnosticProbes,
  ExplainResult,
  Interventions,
  LOW_SIGNAL_TEXT,
  Methodology,
  Neighbourhood,
  NodeView,
  PatternMatches,
  SearchResult,
  UNCALIBRATED_NOTICE,
  explain,
  findCompatibleMechanisms,
  findInterventions,
  findPatterns,
  formatGraph,
  getDiagnosticProbes,
  getNode,
  methodology,
  methodologyMarkdown,
  normaliseId,
  traverse,
} from '../../src/analysis/index.ts';
import { EVIDENCE_LEVELS, FIDELITIES, KINDS, STAGES } from '../../src/model/vocab.ts';
import type { Entity } from '../../src/model/schemas.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry, compareIds } from '../../src/registry/registry.ts';
import { explainArtifacts, listTotal, ruleOutWords } from '../../src/analysis/protocol.ts';
import { LISTED_MAX } from '../../src/analysis/terms.ts';
import { renderExplanation } from '../../src/cli/explain.ts';
import { runScenario } from '../../src/analysis/scenario-checks.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { ROOT } from '../helpers.ts';

let reg: Registry;
let index: AtlasSearch;

before(() => {
  reg = loadAtlas(ROOT).registry;
  index = AtlasSearch.build(reg);
});

/** Parses a result through its schema; a structural mismatch fails the test with zod's report. */
function valid<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  assert.ok(r.success, r.success ? '' : JSON.stringify(r.error.issues.slice(0, 5), null, 2));
  return r.data;
}

function throwsAnalysis(call: () => unknown, code: AnalysisError['code'], message: RegExp): AnalysisError {
  try {
    call();
  } catch (err) {
    assert.ok(err instanceof AnalysisError, `expected an AnalysisError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return err;
  }
  assert.fail('expected the call to throw');
}

/** A registry with some entities replaced or added (in memory; the real atlas is not touched). */
function withEntities(...changed: Entity[]): Registry {
  const byId = new Map(reg.entities.map((e) => [e.id, e]));
  for (const e of changed) byId.set(e.id, e);
  return new Registry({ manifest: reg.manifest, entities: [...byId.values()] });
}

const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);

describe('search', () => {
  // Realistic queries, as a candidate or a practitioner would type them, and the obvious target.
  const cases: Array<[query: string, first: string]> = [
    ['reposted', 'A-004'],
    ['ghosted after final interview', 'A-009'],
    ['salary lowered', 'A-007'],
    ['lowball offer', 'A-007'],
    ['rejected within minutes', 'A-002'],
    ['told I am overqualified', 'A-017'],
    ['offer pulled', 'A-024'],
    ['interview rescheduled again', 'A-006'],
    ['take home too long', 'A-008'],
    ['status changed in the portal weeks later', 'A-021'],
    ['feedback refused company policy', 'A-020'],
    ['resume parser', 'M-003'],
    ['age discrimination', 'M-024'],
    ['internal candidate', 'A-014'],
    ['employment gap', 'A-016'],
    ['backup candidate', 'M-031'],
    ['structured interviews', 'I-001'],
    // The observation ("the posting stays open for months") before the pattern that names it.
    ['ghost job', 'A-005'],
    ['degree required for the job', 'A-018'],
    ['no salary range in the posting', 'A-013'],
  ];
  for (const [query, first] of cases) {
    test(`"${query}" ranks ${first} first`, () => {
      const r = valid(SearchResult, index.search(query));
      assert.equal(
        r.results[0]?.id,
        first,
        `got ${r.results
          .slice(0, 3)
          .map((h) => `${h.id} ${h.title}`)
          .join(' | ')}`,
      );
    });
  }

  test('an ID in the query comes first, leniently written', () => {
    for (const q of ['M-013', 'm-13', 'm13', 'interview noise M-013']) {
      const r = index.search(q);
      assert.equal(r.results[0]?.id, 'M-013', q);
      assert.equal(r.results[0]?.exact, true, q);
    }
    // Other entities mentioning the ID follow it.
    assert.ok(index.search('M-013').results.length > 1);
  });

  test('typos and prefixes still find the target', () => {
    assert.equal(index.search('overqulaified').results[0]?.id, 'A-017');
    assert.equal(index.search('resch').results[0]?.id, 'A-006');
  });

  test('--kind filters and the limit caps, with the total before the limit', () => {
    const r = index.search('discrimination', { kinds: ['mechanism'], limit: 3 });
    assert.ok(r.results.every((h) => h.kind === 'mechanism'));
    assert.equal(r.results.length, 3);
    assert.ok(r.total > 3);
    assert.deepEqual(r.kinds, ['mechanism']);
    throwsAnalysis(() => index.search('x', { kinds: ['mechanisms'] }), 'invalid-argument', /not a kind.*artifact, barrier/);
    throwsAnalysis(() => index.search('x', { limit: 0 }), 'invalid-argument', /limit/);
    throwsAnalysis(() => index.search('   '), 'invalid-argument', /Give some text/);
  });

  test('no match is an empty result with close terms to try', () => {
    const none = valid(SearchResult, index.search('xyzzy'));
    assert.equal(none.total, 0);
    assert.deepEqual(none.results, []);
    const typo = index.search('recsinded');
    assert.equal(typo.total, 0);
    assert.ok(typo.suggestions.includes('rescinded'), typo.suggestions.join(', '));
    // The suggestion finds the target.
    assert.equal(index.search('rescinded').results[0]?.id, 'A-024');
  });

  test('a serialised index answers exactly like a fresh one', () => {
    const loaded = AtlasSearch.load(reg, index.toJSON());
    for (const q of ['reposted', 'salary lowered', 'M-013', 'recsinded']) assert.deepEqual(loaded.search(q), index.search(q));
  });

  test('every kind is searchable by its own title', () => {
    for (const kind of KINDS) {
      const e = reg.all(kind)[0]!;
      const title = e.kind === 'source' ? (e.title ?? e.cite) : e.title;
      const r = index.search(title, { kinds: [kind] });
      assert.equal(r.results[0]?.id, e.id, `${kind}: ${title}`);
    }
  });
});

describe('explain (HOBA)', () => {
  test('every artifact gives a structurally valid explanation, alone and at every stage of its own', () => {
    for (const a of reg.all('artifact')) {
      const r = valid(ExplainResult, explain(reg, { artifacts: [a.id] }));
      assert.equal(r.notice, UNCALIBRATED_NOTICE);
      assert.deepEqual(ids(r.hard_facts.artifacts), [a.id]);
      assert.ok(r.behind.mechanisms.length > 0, a.id);
      assert.ok(r.behind.non_inferences.length >= a.non_inferences.length);
      assert.ok(r.behind.non_inferences.every((n) => n.from === a.id || n.from.startsWith('P-')));
      for (const stage of a.stages) valid(ExplainResult, explain(reg, { artifacts: [a.id], stage }));
    }
  });

  test('every stage of the funnel is accepted; anything else lists them', () => {
    for (const stage of STAGES) assert.equal(explain(reg, { artifacts: ['A-001'], stage }).obstacle.stages[0], stage);
    const err = throwsAnalysis(() => explain(reg, { artifacts: ['A-001'], stage: 'final' }), 'invalid-argument', /not a funnel stage/);
    assert.deepEqual(err.allowed, [...STAGES]);
  });

  test('union semantics: emitting the artifact is enough, whatever the stage; so is acting at the barrier', () => {
    const r = explain(reg, { artifacts: ['A-009'], stage: 'technical' });
    assert.deepEqual(ids(r.obstacle.barriers), ['B-007']);
    const m = new Map(r.behind.mechanisms.map((x) => [x.id, x]));
    // M-008 (headcount freeze) emits A-009 but acts nowhere near the technical stage: still compatible.
    assert.ok(m.has('M-008'));
    assert.deepEqual(m.get('M-008')!.compatible_because.operates_at, []);
    assert.deepEqual(
      m.get('M-008')!.compatible_because.emits.map((e) => [e.artifact, e.fidelity]),
      [['A-009', 'void']],
    );
    // M-014 (stress under observation) acts at the technical assessment but does not emit A-009: compatible.
    assert.deepEqual(m.get('M-014')!.compatible_because.operates_at, ['B-007']);
    assert.deepEqual(m.get('M-014')!.compatible_because.emits, []);
    // M-026 (criminal-record screening) does neither.
    assert.ok(!m.has('M-026'));
    // The first produces the silence; the second only acts at the stage given.
    assert.equal(m.get('M-008')!.tier, 'produces');
    assert.match(m.get('M-008')!.why, /^Produces "Silence after the final interview" \(A-009\) as a silence or an absence\.$/);
    assert.equal(m.get('M-014')!.tier, 'same-stage');
    assert.match(
      m.get('M-014')!.why,
      /^Acts at .* \(B-007\), the stage where this happened; the atlas does not record it as producing what you saw\.$/,
    );
    // The stage never removes what the artifact alone brings in.
    const alone = new Set(
      ids(explain(reg, { artifacts: ['A-009'] }).behind.mechanisms.filter((x) => x.compatible_because.emits.length > 0)),
    );
    for (const id of alone) assert.ok(m.has(id), id);
  });

  test('two tiers: what produces the observation first, ranked by directness; what only acts at the stage after, by ID', () => {
    const fid = (m: { compatible_because: { emits: Array<{ fidelity: string }> } }) =>
      Math.min(...m.compatible_because.emits.map((e) => FIDELITIES.indexOf(e.fidelity as never)));
    for (const a of reg.all('artifact').filter((x) => x.status === 'active')) {
      const r = explain(reg, { artifacts: [a.id] });
      const ms = r.behind.mechanisms;
      const firstCount = ms.filter((m) => m.tier === 'produces').length;
      // Tier produces first, then same-stage; never interleaved.
      assert.ok(
        ms.slice(0, firstCount).every((m) => m.tier === 'produces') && ms.slice(firstCount).every((m) => m.tier === 'same-stage'),
        a.id,
      );
      for (const m of ms) {
        const source = reg.getOf('mechanism', m.id)!;
        const emits = source.emits.some((e) => e.artifact === a.id);
        assert.equal(m.tier, emits ? 'produces' : 'same-stage', `${a.id} ${m.id}`);
        // Honest baselines enter like every other mechanism: emitting the artifact or acting at its barriers.
        assert.ok(emits || m.compatible_because.operates_at.length > 0, `${a.id} ${m.id} is linked to the facts`);
        assert.match(
          m.why,
          emits
            ? new RegExp(`^Produces "[^"]+" \\(${a.id}\\)`)
            : /^Acts at .*\(B-\d{3}\).*the atlas does not record it as producing what you saw\.$/,
          `${a.id} ${m.id}: ${m.why}`,
        );
      }
      // Within the first tier: best fidelity first, then evidence level, then ID (one artifact: same count).
      const first = ms.slice(0, firstCount);
      for (let i = 1; i < first.length; i++) {
        const [x, y] = [first[i - 1]!, first[i]!];
        const key = (m: typeof x) => [fid(m), EVIDENCE_LEVELS.indexOf(m.evidence_level)];
        const [kx, ky] = [key(x), key(y)];
        assert.ok(
          kx[0]! < ky[0]! || (kx[0] === ky[0] && (kx[1]! < ky[1]! || (kx[1] === ky[1] && x.id < y.id))),
          `${a.id}: ${x.id} before ${y.id}`,
        );
      }
      const second = ms.slice(firstCount).map((m) => m.id);
      assert.deepEqual(second, [...second].sort(), `${a.id}: the second tier is in ID order`);
      // The issue fixes this bound: no artifact alone puts more than 8 mechanisms in its first tier.
      assert.ok(firstCount >= 1 && firstCount <= 8, `${a.id}: ${firstCount} in the first tier`);
    }
  });

  test('the issue’s cases: no scheduling or latency behind "overqualified", no discrimination producing final-round silence, no backup after an instant rejection or a rescinded offer', () => {
    const firstTier = (id: string) => ids(explain(reg, { artifacts: [id] }).behind.mechanisms.filter((m) => m.tier === 'produces'));
    for (const m of ['M-015', 'M-016']) assert.ok(!firstTier('A-017').includes(m), `A-017 first tier holds ${m}`);
    const discrimination = reg
      .all('mechanism')
      .filter((m) => /discriminat/i.test(m.title) || /discrimination/.test(m.family))
      .map((m) => m.id);
    assert.ok(discrimination.length >= 3, 'the atlas names discrimination mechanisms');
    for (const m of discrimination) assert.ok(!firstTier('A-009').includes(m), `A-009 first tier holds ${m}`);
    for (const a of ['A-002', 'A-024'])
      assert.ok(!ids(explain(reg, { artifacts: [a] }).behind.mechanisms).includes('M-031'), `${a} lists M-031`);
  });

  test('an artifact’s rules_out removes a mechanism from the case, with the reason', () => {
    const withRule = reg.all('artifact').filter((a) => a.status === 'active' && a.rules_out.length > 0);
    for (const a of withRule) {
      const r = explain(reg, { artifacts: [a.id] });
      for (const rule of a.rules_out) {
        assert.ok(!ids(r.behind.mechanisms).includes(rule.mechanism), `${a.id} still lists ${rule.mechanism}`);
        const reported = r.behind.ruled_out.find((x) => x.id === rule.mechanism);
        // Reported when it would otherwise have been on the table.
        const wouldBe = ids(explain(withEntities({ ...a, rules_out: [] }), { artifacts: [a.id] }).behind.mechanisms).includes(
          rule.mechanism,
        );
        if (wouldBe)
          assert.deepEqual(reported, { id: rule.mechanism, title: reg.get(rule.mechanism)!.title, by: a.id, reason: rule.reason });
      }
    }
    // A constructed case, independent of the content: A-009 ruling out the backup mechanism that emits it.
    const a = reg.getOf('artifact', 'A-009')!;
    const ruled = explain(withEntities({ ...a, rules_out: [{ mechanism: 'M-031', reason: 'A constructed reason.' }] }), {
      artifacts: ['A-009'],
    });
    assert.ok(!ids(ruled.behind.mechanisms).includes('M-031'));
    assert.deepEqual(ruled.behind.ruled_out, [
      { id: 'M-031', title: reg.get('M-031')!.title, by: 'A-009', reason: 'A constructed reason.' },
    ]);
    assert.ok(!ruled.agency.none.includes('M-031'));
    valid(ExplainResult, ruled);
  });

  test('next steps: every given artifact’s steps, with citations, and the verdict says there is something to do', () => {
    for (const a of reg.all('artifact').filter((x) => x.status === 'active')) {
      const r = explain(reg, { artifacts: [a.id] });
      assert.deepEqual(
        r.agency.next_steps.map((s) => s.id),
        a.next_steps.map((s) => s.id),
        a.id,
      );
      for (const [i, s] of r.agency.next_steps.entries()) {
        assert.equal(s.artifact.id, a.id);
        assert.deepEqual(
          s.citations.map((c) => c.id),
          a.next_steps[i]!.sources,
          `${a.id} ${s.id}`,
        );
        for (const c of s.citations) assert.equal(c.caveat !== undefined, c.status !== 'current', `${a.id} ${s.id} ${c.id}`);
      }
      const says = r.agency.verdict.details.some((d) => d.startsWith('What you can still do, whatever the cause:'));
      assert.equal(says, a.next_steps.length > 0, `${a.id}: ${r.agency.verdict.code}`);
      // Low signal never claims that nothing is left to do when something is.
      if (r.agency.verdict.code === 'low-signal' && a.next_steps.length > 0) assert.notEqual(r.agency.verdict.text, LOW_SIGNAL_TEXT, a.id);
    }
    // Constructed, independent of the content: a withdrawn source keeps its caveat on the step.
    const a = reg.getOf('artifact', 'A-009')!;
    const withdrawn = reg.all('source').find((x) => x.status === 'withdrawn' || x.status === 'repealed');
    if (withdrawn) {
      const step = {
        id: 'constructed-step',
        action: 'Do a constructed thing.',
        why: 'It holds whatever the cause.',
        sources: [withdrawn.id],
      };
      const r = explain(withEntities({ ...a, sources: [...a.sources, withdrawn.id], next_steps: [step] }), { artifacts: ['A-009'] });
      assert.match(r.agency.next_steps[0]!.citations[0]!.caveat ?? '', /^(Withdrawn|Repealed):/);
    }
  });

  test('probe outcomes narrow only through explicit excludes, and say what excluded what', () => {
    const before = ids(explain(reg, { artifacts: ['A-009'] }).behind.mechanisms);
    const nothing = explain(reg, { artifacts: ['A-009'], probes: [{ probe: 'final-silence-ask-timeline-once', outcome: 'no-reply' }] });
    assert.deepEqual(ids(nothing.behind.mechanisms), before);
    assert.deepEqual(nothing.behind.excluded, []);
    assert.equal(nothing.hard_facts.observed[0]?.observation, 'No reply within a week or so.');

    const funded = explain(reg, {
      artifacts: ['A-009'],
      probes: [{ probe: 'final-silence-ask-timeline-once', outcome: 'reply-offer-or-next-step' }],
    });
    assert.deepEqual(
      ids(funded.behind.mechanisms),
      before.filter((m) => m !== 'M-008'),
    );
    assert.deepEqual(funded.behind.excluded, [
      {
        id: 'M-008',
        title: reg.get('M-008')!.title,
        by: [{ probe: 'final-silence-ask-timeline-once', outcome: 'reply-offer-or-next-step' }],
      },
    ]);
    assert.ok(!funded.agency.none.includes('M-008'));
    // A probe already answered is not proposed again.
    assert.ok(!funded.agency.probes.some((p) => p.id === 'final-silence-ask-timeline-once'));

    // An outcome may exclude an honest baseline: it leaves the whole case.
    const debrief = explain(reg, {
      artifacts: ['A-009'],
      probes: [{ probe: 'final-silence-contact-checks-status', outcome: 'debrief-not-held' }],
    });
    assert.ok(!ids(debrief.behind.mechanisms).includes('M-031'));
    assert.deepEqual(ids(debrief.behind.excluded), ['M-031']);
  });

  test('bad probe input is an argument error naming the valid choices', () => {
    const unknown = throwsAnalysis(
      () => explain(reg, { artifacts: ['A-009'], probes: [{ probe: 'ask-nicely', outcome: 'x' }] }),
      'invalid-argument',
      /no probe "ask-nicely".*final-silence-ask-timeline-once/,
    );
    assert.deepEqual(unknown.allowed, ['final-silence-ask-timeline-once', 'final-silence-contact-checks-status']);
    throwsAnalysis(
      () => explain(reg, { artifacts: ['A-009'], probes: [{ probe: 'final-silence-ask-timeline-once', outcome: 'maybe' }] }),
      'invalid-argument',
      /no outcome "maybe".*reply-offer-or-next-step, reply-rejection/,
    );
    throwsAnalysis(
      () => explain(reg, { artifacts: ['A-009'], probes: [{ probe: 'repost-compare-postings', outcome: 'changed-content' }] }),
      'invalid-argument',
      /belongs to A-004/,
    );
    throwsAnalysis(
      () =>
        explain(reg, {
          artifacts: ['A-009'],
          probes: [
            { probe: 'final-silence-ask-timeline-once', outcome: 'no-reply' },
            { probe: 'final-silence-ask-timeline-once', outcome: 'reply-rejection' },
          ],
        }),
      'invalid-argument',
      /reported twice/,
    );
  });

  test('unknown and wrong-kind IDs', () => {
    const err = throwsAnalysis(
      () => explain(reg, { artifacts: ['A-099'] }),
      'unknown-id',
      /no artifact \(observation\) A-099.*run from A-001 to A-0/,
    );
    assert.ok(Array.isArray(err.suggestions));
    throwsAnalysis(() => explain(reg, { artifacts: ['M-001'] }), 'invalid-argument', /M-001 is a mechanism/);
    throwsAnalysis(() => explain(reg, { artifacts: [] }), 'invalid-argument', /at least one artifact/);
  });

  test('verdicts: run a probe, act on what is yours, or low signal', () => {
    const first = explain(reg, { artifacts: ['A-009'] }).agency;
    assert.equal(first.verdict.code, 'run-probe');
    assert.match(first.verdict.text, /final-silence-ask-timeline-once/);
    // Candidate-runnable probes come first, the cheapest first.
    assert.equal(first.probes[0]?.agency, 'candidate');

    // Asked once, no reply: what is left to run or remove decides the verdict (the content may add probes).
    const after = explain(reg, {
      artifacts: ['A-009'],
      probes: [{ probe: 'final-silence-ask-timeline-once', outcome: 'no-reply' }],
    }).agency;
    assert.ok(!after.probes.some((p) => p.id === 'final-silence-ask-timeline-once'));
    if (!after.probes.some((p) => p.agency === 'candidate')) assert.match(after.verdict.text, /^Low signal: /);

    // Constructed, independent of the content: with no candidate probe, no removable producer and no next
    // step, the verdict is the plain low-signal sentence.
    const a = reg.getOf('artifact', 'A-009')!;
    const bare = explain(withEntities({ ...a, next_steps: [], probes: a.probes.map((p) => ({ ...p, agency: 'intermediary' as const })) }), {
      artifacts: ['A-009'],
    });
    assert.ok(!bare.behind.mechanisms.some((m) => m.tier === 'produces' && m.facets.removability === 'candidate'));
    assert.equal(bare.agency.verdict.code, 'low-signal');
    assert.equal(bare.agency.verdict.text, LOW_SIGNAL_TEXT);
    assert.equal(LOW_SIGNAL_TEXT, 'Low signal: no further candidate action is justified.');
    assert.ok(
      bare.agency.verdict.details.some((d) => d.includes('final-silence-contact-checks-status')),
      'the intermediary probe is named',
    );
    // The same with a next step: still low signal, but the verdict no longer says there is nothing to do.
    const step = { id: 'keep-applying', action: 'Keep applying elsewhere.', why: 'It holds whatever the cause.', sources: [] };
    const stepped = explain(
      withEntities({ ...a, next_steps: [step], probes: a.probes.map((p) => ({ ...p, agency: 'intermediary' as const })) }),
      { artifacts: ['A-009'] },
    ).agency.verdict;
    assert.equal(stepped.code, 'low-signal');
    assert.doesNotMatch(stepped.text, /no further candidate action/);
    assert.equal(stepped.details[0], 'What you can still do, whatever the cause: Keep applying elsewhere.');
  });

  test('low signal never hides a distinguishing candidate probe or a removable producer', () => {
    for (const a of reg.all('artifact')) {
      const r = explain(reg, { artifacts: [a.id] });
      const low = r.agency.verdict.code === 'low-signal';
      const candidateProbe = r.agency.probes.some((p) => p.agency === 'candidate');
      const removable = r.behind.mechanisms.some((m) => m.facets.removability === 'candidate' && m.tier === 'produces');
      assert.equal(low, !candidateProbe && !removable, a.id);
      assert.equal(r.agency.verdict.code === 'run-probe', candidateProbe, a.id);
      for (const p of r.agency.probes) {
        assert.ok(p.distinguishes);
        assert.ok(p.outcomes.some((o) => o.narrows.length > 0 && o.narrows.length < r.behind.mechanisms.length));
      }
      // Probes narrowing the first tier come before those narrowing only the second.
      const flags = r.agency.probes.map((p) => p.narrows_first_tier);
      assert.deepEqual(
        flags,
        [...flags].sort((x, y) => Number(y) - Number(x)),
        a.id,
      );
    }
  });

  test('probes narrowing the first tier rank before those that only narrow the second, whoever runs them', () => {
    // Constructed on A-009, independent of the content: a cheap candidate probe that can only exclude a
    // same-stage mechanism, and an intermediary probe that can exclude a producer.
    const a = reg.getOf('artifact', 'A-009')!;
    const r0 = explain(reg, { artifacts: ['A-009'] });
    const producer = r0.behind.mechanisms.find((m) => m.tier === 'produces')!;
    const bystander = r0.behind.mechanisms.find((m) => m.tier === 'same-stage')!;
    const probe = (id: string, agency: 'candidate' | 'intermediary', excludes: string[]) => ({
      id,
      action: 'A constructed probe.',
      agency,
      cost: 'low' as const,
      outcomes: [
        { id: 'excludes', observation: 'Something seen.', excludes },
        { id: 'nothing', observation: 'Nothing seen.', excludes: [] },
      ],
    });
    const r = explain(
      withEntities({
        ...a,
        probes: [probe('same-stage-only', 'candidate', [bystander.id]), probe('first-tier', 'intermediary', [producer.id])],
      }),
      { artifacts: ['A-009'] },
    );
    assert.deepEqual(
      r.agency.probes.map((p) => [p.id, p.narrows_first_tier]),
      [
        ['first-tier', true],
        ['same-stage-only', false],
      ],
    );
    // Still offered, and the verdict says it only reaches the second tier.
    assert.equal(r.agency.verdict.code, 'run-probe');
    assert.match(
      r.agency.verdict.text,
      new RegExp(`same-stage-only .* rule out ${bystander.id} \\([^)]*\\), which only acts at the same stage\\.$`),
    );
  });

  test('agency: the split and the verdict speak about the same set, the first tier; the second tier has its own split', () => {
    for (const a of reg.all('artifact').filter((x) => x.status === 'active')) {
      const r = explain(reg, { artifacts: [a.id] });
      const first = r.behind.mechanisms.filter((m) => m.tier === 'produces');
      const second = r.behind.mechanisms.filter((m) => m.tier === 'same-stage');
      assert.deepEqual([...r.agency.candidate, ...r.agency.intermediary, ...r.agency.none].sort(), ids(first).sort(), a.id);
      const s = r.agency.same_stage;
      assert.deepEqual([...s.candidate, ...s.intermediary, ...s.none].sort(), ids(second).sort(), a.id);
      for (const id of r.agency.intermediary) assert.equal(reg.getOf('mechanism', id)!.facets.removability, 'intermediary');
      // No contradiction: a verdict saying nothing that produces it is removable by you comes with an empty
      // candidate split, and "within your reach" names only first-tier mechanisms the candidate can remove.
      const v = r.agency.verdict;
      const text = [v.text, ...v.details].join('\n');
      if (/is not removable by you|none of the \d+ that can produce what you observed is removable by you/.test(text))
        assert.deepEqual(r.agency.candidate, [], a.id);
      for (const m of text.matchAll(/Within your reach, if other evidence points there: ([^\n]*)/g)) {
        for (const id of m[1]!.match(/M-\d{3}/g) ?? [])
          assert.ok(r.agency.candidate.includes(id), `${a.id}: ${id} said to be within reach`);
      }
      if (v.code === 'act-on-candidate-removable') assert.ok(r.agency.candidate.length > 0, a.id);
    }
  });

  test('when the outcomes exclude everything, the verdict says so', () => {
    const a = reg.getOf('artifact', 'A-008')!;
    const compatible = ids(explain(reg, { artifacts: ['A-008'] }).behind.mechanisms);
    const everything = { id: 'everything-ruled-out', observation: 'Every explanation is ruled out.', excludes: compatible };
    const probes = [{ ...a.probes[0]!, outcomes: [...a.probes[0]!.outcomes, everything] }, ...a.probes.slice(1)];
    const r = explain(withEntities({ ...a, probes }), {
      artifacts: ['A-008'],
      probes: [{ probe: a.probes[0]!.id, outcome: 'everything-ruled-out' }],
    });
    assert.deepEqual(r.behind.mechanisms, []);
    assert.equal(r.agency.verdict.code, 'nothing-left');
  });

  test('patterns: triggered with all required artifacts, partial with what is missing', () => {
    const both = explain(reg, { artifacts: ['A-009', 'A-027'] });
    const p005 = both.behind.patterns.find((p) => p.id === 'P-005')!;
    assert.equal(p005.match, 'triggered');
    // The triggered pattern's non-inferences join the artifacts', attributed.
    assert.ok(both.behind.non_inferences.some((n) => n.from === 'P-005'));
    const one = explain(reg, { artifacts: ['A-009'] }).behind.patterns.find((p) => p.id === 'P-005')!;
    assert.equal(one.match, 'partial');
    assert.deepEqual(one.missing, ['A-027']);
    assert.ok(!explain(reg, { artifacts: ['A-009'] }).behind.non_inferences.some((n) => n.from === 'P-005'));
  });

  test('loops list their members among the remaining mechanisms', () => {
    const r = explain(reg, { artifacts: ['A-016'] });
    const l001 = r.behind.loops.find((l) => l.id === 'L-001')!;
    assert.ok(l001.compatible_members.includes('M-019'));
    assert.ok(l001.compatible_members.every((m) => ids(r.behind.mechanisms).includes(m)));
  });

  test('a deprecated artifact resolves and is analysed as its successor', () => {
    const a = reg.getOf('artifact', 'A-009')!;
    const old = { ...a, id: 'A-900', status: 'deprecated' as const, superseded_by: 'A-009' };
    const r = explain(withEntities(old), { artifacts: ['A-900'] });
    assert.equal(r.hard_facts.artifacts[0]?.id, 'A-900');
    assert.equal(r.hard_facts.artifacts[0]?.successor?.id, 'A-009');
    assert.deepEqual(ids(r.behind.mechanisms), ids(explain(reg, { artifacts: ['A-009'] }).behind.mechanisms));
  });
});

describe('entity view, mechanisms, probes, patterns, interventions', () => {
  test('getNode works for one entity of every kind, with relations both ways', () => {
    for (const kind of KINDS) {
      const e = reg.all(kind)[0]!;
      const v = valid(NodeView, getNode(reg, e.id));
      assert.equal(v.node.id, e.id);
      assert.equal(v.entity.kind, kind);
      assert.ok(v.relations.length > 0, kind);
    }
    const m = getNode(reg, 'm-1');
    assert.equal(m.node.id, 'M-001');
    const label = (dir: string, l: string) => m.relations.filter((r) => r.direction === dir && r.label === l).map((r) => r.node.id);
    assert.ok(label('out', 'emits').includes('A-003'));
    assert.ok(label('out', 'operates at').includes('B-005'));
    assert.ok(label('in', 'masked by').includes('M-013'));
    assert.ok(label('in', 'targeted by').includes('I-007'));
    assert.ok(m.citations.some((c) => c.id === 'E-042'));
    assert.ok(getNode(reg, 'M-031').ruled_out_by.some((x) => x.probe === 'final-silence-contact-checks-status'));
    assert.ok(getNode(reg, 'E-013').relations.some((r) => r.label === 'cited by'));
  });

  test('a deprecated entity shows its successor; the successor lists it', () => {
    const m = reg.getOf('mechanism', 'M-006')!;
    const r = withEntities({ ...m, id: 'M-900', status: 'deprecated', superseded_by: 'M-006' });
    const v = getNode(r, 'M-900');
    assert.equal(v.node.status, 'deprecated');
    assert.equal(v.successor?.id, 'M-006');
    assert.deepEqual(ids(getNode(r, 'M-006').predecessors), ['M-900']);
  });

  test('unknown IDs suggest close ones; text suggests titles', () => {
    const err = throwsAnalysis(() => getNode(reg, 'M-099'), 'unknown-id', /There is no entity M-099.*Did you mean M-009/);
    assert.ok(err instanceof AnalysisError);
    const typo = throwsAnalysis(() => getNode(reg, 'B-0055'), 'unknown-id', /Did you mean/);
    assert.ok(typo.suggestions.length > 0);
    const words = throwsAnalysis(() => getNode(reg, 'reposted'), 'unknown-id', /not an atlas ID.*A-004/);
    assert.equal(words.suggestions[0]?.id, 'A-004');
    assert.equal(normaliseId('p5'), 'P-005');
    assert.equal(normaliseId('reposted'), undefined);
  });

  test('find_compatible_mechanisms from artifacts, a stage or barriers', () => {
    const byArtifact = valid(CompatibleMechanisms, findCompatibleMechanisms(reg, { artifacts: ['A-002'] }));
    assert.ok(ids(byArtifact.mechanisms).includes('M-004'));
    const byBarrier = findCompatibleMechanisms(reg, { barriers: ['B-012'] });
    assert.deepEqual(ids(byBarrier.barriers), ['B-012']);
    assert.ok(byBarrier.mechanisms.every((m) => m.compatible_because.operates_at.includes('B-012') && m.tier === 'same-stage'));
    // The same tiers and reasons as explain.
    const explained = explain(reg, { artifacts: ['A-002'] }).behind.mechanisms;
    assert.deepEqual(
      byArtifact.mechanisms.map((m) => [m.id, m.tier, m.why]),
      explained.map((m) => [m.id, m.tier, m.why]),
    );
    const byStage = findCompatibleMechanisms(reg, { stage: 'references' });
    assert.deepEqual(ids(byStage.barriers), ['B-012']);
    throwsAnalysis(() => findCompatibleMechanisms(reg, {}), 'invalid-argument', /at least one artifact/);
  });

  test('get_diagnostic_probes weighs probes against the compatible set or given mechanisms', () => {
    const r = valid(DiagnosticProbes, getDiagnosticProbes(reg, { artifacts: ['A-009'] }));
    assert.equal(r.probes.length, reg.getOf('artifact', 'A-009')!.probes.length);
    assert.equal(r.probes[0]?.distinguishes, true);
    const narrow = getDiagnosticProbes(reg, { artifacts: ['A-009'], mechanisms: ['M-008', 'M-031'] });
    assert.deepEqual(narrow.mechanisms, ['M-008', 'M-031']);
    const contact = narrow.probes.find((p) => p.id === 'final-silence-contact-checks-status')!;
    assert.equal(contact.distinguishes, true);
    assert.deepEqual(contact.outcomes.find((o) => o.id === 'decision-date-set')!.narrows, ['M-008']);
  });

  test('find_patterns by artifacts and by mechanisms', () => {
    const r = valid(PatternMatches, findPatterns(reg, { artifacts: ['A-004', 'A-001'] }));
    assert.equal(r.patterns[0]?.id, 'P-001');
    assert.equal(r.patterns[0]?.match, 'triggered');
    assert.ok(findPatterns(reg, { mechanisms: ['M-029'] }).patterns.some((p) => p.id === 'P-006' && p.match === 'mechanism'));
    assert.equal(findPatterns(reg).patterns.length, reg.all('pattern').length);
  });

  test('get_interventions: direct ones first, then through a loop', () => {
    const r = valid(Interventions, findInterventions(reg, ['M-006']));
    const i005 = r.interventions.find((i) => i.id === 'I-005')!;
    assert.deepEqual(
      i005.via.map((v) => [v.relation, v.node.id, v.for]),
      [['targets', 'L-002', 'M-006']],
    );
    assert.equal(
      r.interventions[0]?.via.some((v) => v.node.id === 'M-006'),
      true,
    );
    assert.ok(findInterventions(reg, ['P-005']).interventions.some((i) => i.id === 'I-012'));
    throwsAnalysis(() => findInterventions(reg, ['A-001']), 'invalid-argument', /A-001 is a artifact|A-001 is an? artifact/);
    throwsAnalysis(() => findInterventions(reg, []), 'invalid-argument', /at least one/);
  });
});

// Each call reads only what concerns its inputs, through the registry's edges and indexes derived once per
// registry, instead of scanning the atlas (issue 14). These check the indexed reads against the plain
// definitions, scanned, on every entity of the atlas (and a registry where entities are deprecated).
describe('indexed reads answer exactly like a scan of the atlas', () => {
  test('compatible mechanisms: those emitting a given artifact or acting at an identified barrier, minus rules_out', () => {
    for (const a of reg.all('artifact')) {
      for (const stage of [undefined, ...STAGES]) {
        const r = findCompatibleMechanisms(reg, { artifacts: [a.id], ...(stage ? { stage } : {}) });
        const used = a.status === 'deprecated' ? reg.getOf('artifact', a.superseded_by!)! : a;
        const barriers = new Set(r.barriers.map((b) => b.id));
        const expected = reg
          .all('barrier')
          .filter((b) => b.status === 'active' && (stage ? b.stage === stage : used.stages.includes(b.stage)))
          .map((b) => b.id);
        assert.deepEqual([...barriers], expected, `${a.id} @${stage}`);
        const ruled = new Set(used.rules_out.map((x) => x.mechanism));
        const scanned = reg
          .all('mechanism')
          .filter(
            (m) => m.status === 'active' && (m.emits.some((e) => e.artifact === used.id) || m.operates_at.some((b) => barriers.has(b))),
          );
        assert.deepEqual(ids(r.mechanisms).sort(), ids(scanned.filter((m) => !ruled.has(m.id))).sort(), `${a.id} @${stage}`);
        assert.deepEqual(ids(r.ruled_out), ids(scanned.filter((m) => ruled.has(m.id))), `${a.id} @${stage}`);
      }
    }
  });

  test('get_node: predecessors and the probe outcomes excluding a mechanism', () => {
    const deprecated = withEntities({ ...reg.getOf('mechanism', 'M-002')!, status: 'deprecated', superseded_by: 'M-001' });
    for (const r of [reg, deprecated]) {
      for (const e of r.entities) {
        const node = getNode(r, e.id);
        assert.deepEqual(ids(node.predecessors), ids(r.entities.filter((p) => p.kind !== 'source' && p.superseded_by === e.id)), e.id);
        const excluding = r
          .all('artifact')
          .flatMap((a) => a.probes.flatMap((p) => p.outcomes.filter((o) => o.excludes.includes(e.id)).map((o) => [a.id, p.id, o.id])));
        assert.deepEqual(
          node.ruled_out_by.map((x) => [x.artifact.id, x.probe, x.outcome]),
          e.kind === 'mechanism' ? excluding : [],
          e.id,
        );
      }
    }
  });

  test('find_patterns: those requiring a given artifact or naming a given mechanism', () => {
    for (const e of [...reg.all('artifact'), ...reg.all('mechanism')]) {
      const r = findPatterns(reg, e.kind === 'artifact' ? { artifacts: [e.id] } : { mechanisms: [e.id] });
      const id = e.kind === 'artifact' ? (e.status === 'deprecated' && e.superseded_by) || e.id : e.id;
      const scanned = reg
        .all('pattern')
        .filter((p) => p.status === 'active' && [...p.required_artifacts, ...p.compatible_mechanisms].includes(id));
      assert.deepEqual(ids(r.patterns).sort(), ids(scanned).sort(), e.id);
    }
  });

  test('traverse: the edges among the nodes, in the registry’s edge order', () => {
    for (const e of reg.entities) {
      for (const depth of [1, 2]) {
        const r = traverse(reg, e.id, { depth });
        const nodes = new Set(ids(r.nodes));
        const follow = new Set<string>(r.relations);
        assert.deepEqual(
          r.edges,
          reg.edges.filter((x) => follow.has(x.relation) && nodes.has(x.source) && nodes.has(x.target)),
          `${e.id} depth ${depth}`,
        );
      }
    }
  });
});

describe('traverse and graph formats', () => {
  test('depth grows the neighbourhood; relations and direction filter it', () => {
    const one = valid(Neighbourhood, traverse(reg, 'M-008'));
    const two = traverse(reg, 'M-008', { depth: 2 });
    assert.equal(one.nodes[0]?.id, 'M-008');
    assert.ok(two.nodes.length > one.nodes.length);
    assert.ok(one.nodes.every((n) => n.distance <= 1));
    assert.ok(!one.edges.some((e) => e.relation === 'cites'));
    const emits = traverse(reg, 'M-008', { relations: ['emits'], direction: 'out' });
    assert.ok(emits.nodes.slice(1).every((n) => n.kind === 'artifact'));
    const capped = traverse(reg, 'M-008', { depth: 4, limit: 5 });
    assert.equal(capped.nodes.length, 5);
    assert.equal(capped.truncated, true);
    throwsAnalysis(() => traverse(reg, 'M-008', { depth: 5 }), 'invalid-argument', /1 to 4/);
    throwsAnalysis(() => traverse(reg, 'M-008', { relations: ['causes'] }), 'invalid-argument', /not a relation/);
  });

  test('mermaid, dot and text renderings name every node and edge', () => {
    const n = traverse(reg, 'P-005');
    const mermaid = formatGraph(n, 'mermaid');
    assert.match(mermaid, /^flowchart LR\n/);
    assert.match(mermaid, /P_005\{\{"P-005 · Final-round silence"\}\}:::pattern/);
    const dot = formatGraph(n, 'dot');
    assert.match(dot, /^digraph hoba \{\n/);
    assert.match(dot, /\}\n$/);
    assert.equal((dot.match(/ -> /g) ?? []).length, n.edges.length);
    const text = formatGraph(n, 'text');
    for (const node of n.nodes) {
      assert.ok(mermaid.includes(node.id.replace('-', '_')));
      assert.ok(dot.includes(`"${node.id}"`));
      assert.ok(text.includes(node.id));
    }
  });
});

test('the methodology covers HOBA, evidence, fidelities, facets and the epistemic rules', () => {
  const m = valid(Methodology, methodology(reg));
  const md = methodologyMarkdown(m);
  for (const phrase of [
    'Hard facts',
    'Obstacle',
    'Behind',
    'Agency',
    'union',
    'uncalibrated',
    'An observation is not a cause',
    'Honest baselines',
    LOW_SIGNAL_TEXT,
  ]) {
    assert.ok(md.includes(phrase), phrase);
  }
  assert.equal(m.vocabularies.stages.length, STAGES.length);
  assert.ok(m.vocabularies.fidelities.every((f) => f.meaning.length > 20));
});

describe('fit for every surface', () => {
  test('each tool result schema converts to a JSON Schema object (MCP output schemas)', async () => {
    const { z } = await import('zod');
    for (const schema of [
      SearchResult,
      NodeView,
      ExplainResult,
      CompatibleMechanisms,
      DiagnosticProbes,
      PatternMatches,
      Interventions,
      Neighbourhood,
      Methodology,
    ]) {
      const json = z.toJSONSchema(schema, { io: 'output' }) as { type?: string; properties?: Record<string, unknown> };
      assert.equal(json.type, 'object');
      assert.ok(json.properties?.['registry_version'], 'every result carries registry_version');
    }
  });

  test('the analysis layer has no Node built-ins and no I/O, so it runs in a browser', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/analysis/', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      assert.doesNotMatch(text, /from '(node:|fs|path|os|child_process)/, f);
      assert.doesNotMatch(text, /\bprocess\.(env|argv|cwd|exit|stdout|stderr)\b/, f);
    }
  });
});

describe('bounded lists at scale: the second tier, the barriers and the loops past LISTED_MAX', () => {
  // The real atlas grown in memory at A-008's only barrier (B-008, take-home): 150 more mechanisms that
  // only act there (all removable by the candidate), 120 more barriers at the stage and 120 more loops.
  // Every probe of A-008 reported with an outcome that rules nothing out: the verdict is low-signal.
  const EXTRA = 150;
  let big: Registry;
  let probes: Array<{ probe: string; outcome: string }>;
  const input = () => ({ artifacts: ['A-008'], probes });
  before(() => {
    const a = reg.getOf('artifact', 'A-008')!;
    const barrier = reg.getOf('barrier', 'B-008')!;
    const model = reg.all('mechanism').find((m) => m.status === 'active')!;
    const loop = reg.all('loop').find((l) => l.status === 'active')!;
    const clone = (i: number) => `M-${9000 + i}`;
    const mechanisms = Array.from({ length: EXTRA }, (_, i) => ({
      ...model,
      id: clone(i),
      title: `Clone mechanism ${i}`,
      operates_at: ['B-008'],
      emits: [],
      amplifies: [],
      masks: [],
      honest_baseline: false,
      facets: { ...model.facets, removability: 'candidate' as const },
      sources: [],
    }));
    const barriers = Array.from({ length: 120 }, (_, i) => ({
      ...barrier,
      id: `B-${9000 + i}`,
      title: `Clone barrier ${i}`,
      precedes: [],
      sources: [],
    }));
    const loops = Array.from({ length: 120 }, (_, i) => ({
      ...loop,
      id: `L-${9000 + i}`,
      title: `Clone loop ${i}`,
      mechanisms: [clone(i), clone(i + 1)],
      edges: [],
      entry_points: [clone(i)],
      sources: [],
    }));
    // One outcome of A-008's first probe also rules out the last clone, far past the listed part.
    const [p0, ...rest] = a.probes;
    const [o0, ...others] = p0!.outcomes;
    const artifact = {
      ...a,
      probes: [{ ...p0!, outcomes: [{ ...o0!, excludes: [...o0!.excludes, clone(EXTRA - 1)] }, ...others] }, ...rest],
    };
    big = withEntities(artifact, ...mechanisms, ...barriers, ...loops);
    probes = a.probes.map((p) => ({ probe: p.id, outcome: (p.outcomes.find((o) => o.excludes.length === 0) ?? p.outcomes[0]!).id }));
  });

  test('the first tier is complete and unchanged; the others are cut with their totals and how to get the rest', () => {
    const small = valid(ExplainResult, explain(reg, input()));
    const r = valid(ExplainResult, explain(big, input()));
    const firstOf = (x: ExplainResult) => x.behind.mechanisms.filter((m) => m.tier === 'produces');
    assert.ok(firstOf(small).length > 0);
    assert.deepEqual(firstOf(r), firstOf(small));
    // The same analysis with nothing cut gives the totals.
    const complete = explainArtifacts(big, input(), {}, Infinity);
    assert.equal(complete.truncated_lists, undefined);
    assert.deepEqual(firstOf(complete), firstOf(small));
    const second = r.behind.mechanisms.filter((m) => m.tier === 'same-stage');
    const secondTotal = complete.behind.mechanisms.length - firstOf(small).length;
    assert.ok(secondTotal > LISTED_MAX + 40);
    assert.equal(second.length, LISTED_MAX);
    // The second tier goes by ID: its first LISTED_MAX.
    assert.deepEqual(ids(second), ids(second).sort(compareIds));
    assert.deepEqual(second, complete.behind.mechanisms.slice(firstOf(small).length, firstOf(small).length + LISTED_MAX));
    const cut = new Map((r.truncated_lists ?? []).map((t) => [t.list, t]));
    assert.deepEqual([...cut.keys()], ['obstacle.barriers', 'behind.mechanisms', 'behind.loops']);
    assert.deepEqual(cut.get('behind.mechanisms')!.shown, r.behind.mechanisms.length);
    assert.equal(cut.get('behind.mechanisms')!.total, firstOf(small).length + secondTotal);
    assert.match(
      cut.get('behind.mechanisms')!.more,
      new RegExp(
        `^${secondTotal - LISTED_MAX} more mechanisms only act at the same stage .*last shown is ${second.at(-1)!.id}.*find_compatible_mechanisms with barriers`,
      ),
    );
    assert.equal(r.obstacle.barriers.length, LISTED_MAX);
    assert.deepEqual(cut.get('obstacle.barriers'), {
      list: 'obstacle.barriers',
      shown: LISTED_MAX,
      total: 121,
      more: `21 more barriers at take-home (listed by ID; the last shown is ${r.obstacle.barriers.at(-1)!.id}): every barrier, with its stage, is in the REST API’s barrier collection (/api/v1/barriers)`,
    });
    assert.equal(r.behind.loops.length, LISTED_MAX);
    assert.ok(complete.behind.loops.length > 120);
    assert.deepEqual(r.behind.loops, complete.behind.loops.slice(0, LISTED_MAX));
    assert.equal(cut.get('behind.loops')!.total, complete.behind.loops.length);
    assert.equal(listTotal(r, 'behind.loops', r.behind.loops.length), complete.behind.loops.length);
    assert.deepEqual(r.agency.verdict, complete.agency.verdict);
    assert.deepEqual(r.agency.probes, complete.agency.probes);
    assert.equal(listTotal(small, 'behind.loops', small.behind.loops.length), small.behind.loops.length);
    // The same-stage split speaks about what is listed; the caveats about what is shown.
    const split = r.agency.same_stage;
    assert.equal(split.candidate.length + split.intermediary.length + split.none.length, LISTED_MAX);
    const shown = new Set([...ids(r.behind.mechanisms), ...ids(r.behind.loops), ...ids(r.behind.patterns), 'A-008']);
    for (const c of r.behind.source_caveats)
      assert.ok(
        c.cited_by.some((id) => shown.has(id)),
        c.id,
      );
    // The answer stays small whatever the atlas: the lists are what grows.
    assert.ok(JSON.stringify(r).length < 400_000);
  });

  test('the verdict weighs every remaining mechanism, names a few same-stage ones and counts the rest', () => {
    const r = explain(big, input());
    assert.equal(r.agency.verdict.code, 'low-signal');
    const elsewhere = r.agency.verdict.details.find((d) => d.includes('within your reach but only act at the same stage'));
    assert.ok(elsewhere);
    const named = elsewhere.match(/M-\d+/g)!;
    assert.equal(named.length, 10);
    const reachable = explainArtifacts(big, input(), {}, Infinity).agency.same_stage.candidate.length;
    assert.match(elsewhere, new RegExp(`and ${reachable - 10} more are within your reach`));
    assert.match(
      r.agency.verdict.details.join(' '),
      new RegExp(`No probe you can run tells the ${listTotal(r, 'behind.mechanisms', 0)} remaining mechanisms apart`),
    );
  });

  test('what a probe would rule out is counted from narrows, which stays complete', () => {
    // Nothing reported: A-008's first probe is open, and one outcome would rule out the last clone.
    const r = explain(big, { artifacts: ['A-008'] });
    const outcome = r.agency.probes.flatMap((p) => p.outcomes).find((o) => o.narrows.includes('M-9149'))!;
    assert.ok(!ids(r.behind.mechanisms).includes('M-9149'), 'past the listed part');
    const first = r.behind.mechanisms.filter((m) => m.tier === 'produces').length;
    assert.match(ruleOutWords(outcome.narrows, r.behind.mechanisms, first), /only acts? at the same stage$/);
    assert.equal(ruleOutWords(['M-9149'], r.behind.mechanisms, first), 'M-9149, which only acts at the same stage');
    const text = renderExplanation(r, { full: true, width: 100 });
    assert.match(text, /\+ \d+ more, after M-\d+ by ID: hoba show <barrier>/);
    assert.match(text, new RegExp(`${listTotal(r, 'behind.mechanisms', 0) - first} more mechanisms act at the same stage`));
  });

  test('an outcome reported as excluding a same-stage mechanism past the listed part takes it out of the counts', () => {
    // A-008's first probe has an outcome that also excludes the last clone (see before()).
    const a = big.getOf('artifact', 'A-008')!;
    const outcome = a.probes[0]!.outcomes.find((o) => o.excludes.includes(`M-${9000 + EXTRA - 1}`))!;
    const reported = { artifacts: ['A-008'], probes: [{ probe: a.probes[0]!.id, outcome: outcome.id }] };
    const r = explain(big, reported);
    const complete = explainArtifacts(big, reported, {}, Infinity);
    assert.ok(ids(r.behind.excluded).includes(`M-${9000 + EXTRA - 1}`));
    assert.deepEqual(r.behind.excluded, complete.behind.excluded);
    assert.equal(listTotal(r, 'behind.mechanisms', r.behind.mechanisms.length), complete.behind.mechanisms.length);
    assert.ok(!ids(complete.behind.mechanisms).includes(`M-${9000 + EXTRA - 1}`));
    assert.deepEqual(r.agency.verdict, complete.agency.verdict);
    assert.deepEqual(r.agency.probes, complete.agency.probes);
  });

  test('find_compatible_mechanisms is bounded the same way, with its totals', () => {
    const r = valid(CompatibleMechanisms, findCompatibleMechanisms(big, { stage: 'take-home' }));
    assert.equal(r.mechanisms.length, LISTED_MAX);
    assert.equal(r.barriers.length, LISTED_MAX);
    const cut = new Map((r.truncated_lists ?? []).map((t) => [t.list, t]));
    assert.equal(cut.get('barriers')!.total, 121);
    assert.equal(cut.get('mechanisms')!.total, findCompatibleMechanisms(reg, { stage: 'take-home' }).mechanisms.length + EXTRA);
    // The real atlas is far from the bound: nothing is cut, and no field is added.
    assert.equal(findCompatibleMechanisms(reg, { stage: 'take-home' }).truncated_lists, undefined);
  });

  test('the MCP summaries keep the analysis’s cuts and the whole lists’ lengths', () => {
    const call = (name: string, args: Record<string, unknown>) => {
      const tool = TOOLS.find((t) => t.name === name)!;
      return tool.run(
        {
          registry: big,
          search: () => assert.fail('no search here'),
          reader: () => assert.fail('no reader here'),
          origin: { from: 'bundled snapshot' },
        },
        tool.arguments().parse(args),
      ) as {
        truncated_lists?: Array<{ list: string; shown: number; total?: number; more: string }>;
      };
    };
    const complete = explainArtifacts(big, input(), {}, Infinity);
    const summary = call('explain_observation', input());
    const cut = new Map((summary.truncated_lists ?? []).map((t) => [t.list, t]));
    for (const list of ['obstacle.barriers', 'behind.mechanisms', 'behind.loops']) assert.ok(cut.has(list), list);
    const mechanisms = cut.get('behind.mechanisms')!;
    assert.equal(mechanisms.total, complete.behind.mechanisms.length, 'the whole list, not the analysis’s first 100');
    assert.ok(mechanisms.shown <= 16);
    assert.match(
      mechanisms.more,
      new RegExp(
        `^${complete.behind.mechanisms.length - mechanisms.shown} more .*Past the first ${LISTED_MAX + complete.behind.mechanisms.filter((m) => m.tier === 'produces').length}: .*find_compatible_mechanisms with barriers`,
      ),
    );
    assert.equal(cut.get('obstacle.barriers')!.total, 121);
    assert.equal(cut.get('behind.loops')!.total, complete.behind.loops.length);
    // Shown in full by the summary, the analysis's cut stays as it was.
    const full = call('find_compatible_mechanisms', { stage: 'take-home', limit: 60 });
    const found = new Map((full.truncated_lists ?? []).map((t) => [t.list, t]));
    assert.equal(found.get('barriers')!.total, 121);
    assert.equal(found.get('mechanisms')!.shown, 60);
    assert.equal(found.get('mechanisms')!.total, findCompatibleMechanisms(big, { stage: 'take-home' }, Infinity).mechanisms.length);
  });

  test('a scenario’s must-not-appear list is checked against the whole second tier', () => {
    const model = reg.all('scenario').find((s) => s.status === 'active')!;
    const last = `M-${9000 + EXTRA - 2}`;
    const scenario = {
      ...model,
      id: 'S-9000',
      input: { artifacts: ['A-008'], probes: [] },
      expect: { ...model.expect, first_tier: [], absent: [last], probes: [] },
    };
    assert.ok(!ids(explain(big, { artifacts: ['A-008'] }).behind.mechanisms).includes(last), 'past the listed part');
    const { mismatches } = runScenario(big, scenario as never);
    assert.ok(
      mismatches.some((m) => m.path.join('.') === 'expect.absent.0' && m.message.includes('should not appear at all')),
      JSON.stringify(mismatches),
    );
  });
});
