// explain's three inputs (artifact IDs, a scenario, plain words) and its text report: leads with the
// verdict, fits a phone (about 40 lines, no line over the width), names beside every ID, and never says
// two things that contradict each other. Rendered in-process; reading-cli.test.ts runs the built CLI.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AnalysisError, ExplainResult, explain } from '../../src/analysis/index.ts';
import { explainArtifacts } from '../../src/analysis/protocol.ts';
import { renderExplanation } from '../../src/cli/explain.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { ROOT } from '../helpers.ts';

let reg: Registry;
before(() => {
  reg = loadAtlas(ROOT).registry;
});

const active = () => reg.all('artifact').filter((a) => a.status === 'active');
const lines = (text: string) => text.replace(/\n$/, '').split('\n');

function fails(call: () => unknown, code: AnalysisError['code'], message: RegExp): void {
  assert.throws(call, (err: unknown) => err instanceof AnalysisError && err.code === code && message.test(err.message));
}

describe('explain inputs: exactly one of artifacts, scenario, text', () => {
  test('more than one way, or none, is an argument error', () => {
    fails(() => explain(reg, { artifacts: ['A-009'], text: 'ghosted after the final interview' }), 'invalid-argument', /one way only/);
    fails(() => explain(reg, { scenario: 'S-001', text: 'ghosted' }), 'invalid-argument', /one way only/);
    fails(() => explain(reg, {}), 'invalid-argument', /at least one artifact ID/);
  });

  test('a scenario is a preset: the same analysis as its input, and the result says which scenario', () => {
    const scenarios = reg.all('scenario').filter((s) => s.status === 'active');
    assert.ok(scenarios.length > 0, 'the atlas has active scenarios');
    for (const s of scenarios) {
      const r = ExplainResult.parse(explain(reg, { scenario: s.id }));
      assert.deepEqual(r.input.scenario, { id: s.id, title: s.title });
      const same = explainArtifacts(reg, {
        artifacts: s.input.artifacts,
        ...(s.input.stage !== undefined ? { stage: s.input.stage } : {}),
        probes: s.input.probes.map((p) => ({ probe: p.probe, outcome: p.outcome })),
      });
      assert.deepEqual(
        { ...r, input: { ...r.input, scenario: undefined } },
        { ...same, input: { ...same.input, scenario: undefined } },
        s.id,
      );
    }
    // Leniently written, like every ID; an unknown one is an unknown ID.
    assert.equal(explain(reg, { scenario: scenarios[0]!.id.toLowerCase() }).input.scenario?.id, scenarios[0]!.id);
    fails(() => explain(reg, { scenario: 'S-999' }), 'unknown-id', /S-999/);
    fails(() => explain(reg, { scenario: 'A-009' }), 'invalid-argument', /A-009 is an artifact/);
  });

  test('plain words: the chosen observations are analysed, and the result says which and why', () => {
    const r = ExplainResult.parse(explain(reg, { text: 'I was ghosted after the final interview' }));
    const from = r.input.from_text!;
    assert.equal(from.text, 'I was ghosted after the final interview');
    assert.ok(from.matched.length >= 1);
    assert.equal(from.matched[0]!.id, 'A-009');
    assert.deepEqual(
      r.input.artifacts,
      from.matched.map((m) => m.id),
    );
    for (const m of from.matched) assert.ok(m.why.length > 0 && m.title === reg.get(m.id)!.title);
    // Everything else is the analysis of those artifacts.
    const same = explainArtifacts(reg, { artifacts: r.input.artifacts });
    assert.deepEqual(r.behind, same.behind);
    assert.deepEqual(r.agency, same.agency);
    // Another language is refused honestly rather than matched to noise.
    fails(() => explain(reg, { text: "Je n'ai jamais reçu de réponse après l'entretien final" }), 'invalid-argument', /English/);
  });
});

describe('the text report', () => {
  test('every artifact alone: about 40 lines by default, none over 80 columns; --full is longer and complete', () => {
    for (const a of active()) {
      const r = explainArtifacts(reg, { artifacts: [a.id] });
      const short = lines(renderExplanation(r, { full: false, width: 80 }));
      const full = lines(renderExplanation(r, { full: true, width: 80 }));
      assert.ok(short.length <= 45, `${a.id}: ${short.length} lines`);
      for (const l of [...short, ...full])
        assert.ok(l.length <= 80 || /https?:\/\/\S{60,}/.test(l), `${a.id}: a line of ${l.length} columns: ${l}`);
      assert.ok(full.length > short.length, a.id);
      // --full lists every mechanism of both tiers, every probe and every next step.
      const text = full.join('\n');
      for (const m of r.behind.mechanisms) assert.ok(text.includes(`${m.id} ${m.title.split(' ')[0]}`), `${a.id}: --full names ${m.id}`);
      for (const p of r.agency.probes) assert.ok(text.includes(p.id), `${a.id}: --full shows ${p.id}`);
    }
  });

  test('a phone-width terminal: no line over its width', () => {
    for (const a of active()) {
      const r = explainArtifacts(reg, { artifacts: [a.id] });
      for (const full of [false, true]) {
        for (const l of lines(renderExplanation(r, { full, width: 40 })))
          assert.ok(l.length <= 40 || /^\s*\(?https?:\/\/\S+$/.test(l), `${a.id}: ${l}`);
      }
    }
  });

  test('it leads with the verdict, then the explanations, what tells them apart, what you can do, what is not established', () => {
    for (const a of active()) {
      const r = explainArtifacts(reg, { artifacts: [a.id] });
      const text = renderExplanation(r, { full: false, width: 80 });
      const at = (heading: RegExp) => text.search(heading);
      const order = [
        /^Verdict: /m,
        /^What could have produced this/m,
        /^What would tell them apart/m,
        /^What you can still do, whatever the cause/m,
        /^What these facts do NOT establish/m,
      ];
      const found = order
        .map(at)
        .filter((i, k) => i >= 0 || (k === 2 && r.agency.probes.length === 0) || (k === 3 && r.agency.next_steps.length === 0));
      const present = order.map(at).filter((i) => i >= 0);
      assert.deepEqual(
        present,
        [...present].sort((x, y) => x - y),
        `${a.id}: sections in order`,
      );
      assert.equal(found.length, order.length, `${a.id}: every section that has content is shown`);
      assert.ok(text.replace(/\n\s*/g, ' ').startsWith(`You saw: ${a.id} ${a.title}`), a.id);
      // The first tier is shown, the second collapsed to one line that says how many and where the rest is.
      const first = r.behind.mechanisms.filter((m) => m.tier === 'produces');
      assert.ok(text.replace(/\n\s*/g, ' ').includes(`1. ${first[0]!.id} ${first[0]!.title}`), a.id); // a long title wraps
      const second = r.behind.mechanisms.length - first.length;
      if (second > 0)
        assert.match(
          text.replace(/\n\s*/g, ' '),
          new RegExp(
            `${second === 1 ? 'One more mechanism acts' : `${second} more act`} at the same stage, not recorded as producing what you saw.*--full lists (it|them)`,
          ),
          a.id,
        );
      // Next steps, when there are any, are shown, the first of them in full or cut at a sentence.
      if (r.agency.next_steps.length > 0)
        assert.ok(text.replace(/\n\s*/g, ' ').includes(`- ${r.agency.next_steps[0]!.action.trim().split(/(?<=[.!?])\s+/)[0]}`), a.id);
    }
  });

  test('names beside every ID, never a bare ID list', () => {
    const titles = new Map(reg.entities.map((e) => [e.id, e.kind === 'source' ? e.cite : e.title]));
    const start = (t: string) => t.replace(/\(/g, '[').replace(/\)/g, ']').slice(0, 15);
    for (const a of active()) {
      const r = explainArtifacts(reg, { artifacts: [a.id] });
      for (const full of [false, true]) {
        // One line per paragraph, so a title is never cut by wrapping; command lines are left out.
        // Authored prose (it may cite an ID in parentheses) is left out: the check is on what the report adds.
        const prose = [
          ...r.agency.next_steps.flatMap((x) => [x.action, x.why, x.by_when ?? '']),
          ...r.agency.probes.flatMap((p) => [p.action, p.risk ?? '', ...p.outcomes.flatMap((o) => [o.observation, o.note ?? ''])]),
          ...r.behind.non_inferences.map((n) => n.text),
          ...r.behind.ruled_out.map((x) => x.reason),
          ...r.behind.mechanisms.map((m) => m.summary),
        ].filter((x) => x.length > 0);
        let text = renderExplanation(r, { full, width: 10_000 })
          .split('\n')
          .filter((l) => !l.includes('hoba '))
          .join('\n');
        for (const p of prose) text = text.split(p.trim()).join('…');
        for (const m of text.matchAll(/\b([MBPL]-\d{3})\b/g)) {
          const id = m[1]!;
          const after = text.slice(m.index! + id.length, m.index! + id.length + 20);
          const title = titles.get(id)!;
          const before = text.slice(Math.max(0, m.index! - title.length - 2), m.index!);
          const ok = after.startsWith(` ${title.slice(0, 15)}`) || after.startsWith(` (${start(title)}`) || before === `${title} (`;
          assert.ok(ok, `${a.id}${full ? ' --full' : ''}: ${id} is followed by "${after}", not its title`);
        }
      }
    }
  });

  test('no sentence contradicts another: the agency and the verdict speak about the same tier', () => {
    for (const a of active()) {
      const r = explainArtifacts(reg, { artifacts: [a.id] });
      const text = renderExplanation(r, { full: true, width: 1000 });
      // The old contradiction: "removable by you: M-001" above "none of those … is removable by you".
      const says = /none of the \d+ that can produce what you observed is removable by you|is not removable by you/.test(text);
      if (says) assert.match(text, /- you: none$/m, a.id);
      if (r.agency.candidate.length > 0) assert.doesNotMatch(text, /Low signal/, a.id);
      // Low signal and a list of things still to do are never in the same breath as "nothing is justified".
      if (r.agency.next_steps.length > 0) assert.doesNotMatch(text, /no further candidate action is justified/, a.id);
    }
  });

  test('plain words and scenarios say at the top what was read', () => {
    const words = renderExplanation(explain(reg, { text: 'ghosted after the final interview' }), { full: false, width: 80 });
    assert.match(
      words,
      /^You wrote: "ghosted after the final interview"\nRead as this observation:\n {2}- A-009 Silence after the final interview\n/,
    );
    const scenario = reg.all('scenario').find((s) => s.status === 'active');
    assert.ok(scenario, 'the atlas has an active scenario');
    const text = renderExplanation(explain(reg, { scenario: scenario.id }), { full: false, width: 80 });
    assert.ok(text.startsWith(`Scenario ${scenario.id}: ${scenario.title}`), text.slice(0, 120));
    // The command to report an outcome repeats the scenario (the short report may leave it out to fit).
    assert.match(
      renderExplanation(explain(reg, { scenario: scenario.id }), { full: true, width: 80 }),
      /hoba explain --scenario S-\d{3} --probe/,
    );
  });
});
