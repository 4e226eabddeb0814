// Worked scenarios (S-…): every scenario's analysis matches its expectation; an edit to the content or to an
// expectation that makes them part is caught with a message saying what and where; scenarios are served
// by REST, described in OpenAPI, present in /graph, and resolvable as presets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AnalysisError } from '../../src/analysis/resolve.ts';
import { checkScenario, checkScenarios, scenarioProblems } from '../../src/analysis/scenario-checks.ts';
import { getScenario, scenarioInput } from '../../src/analysis/scenario-input.ts';
import { explain } from '../../src/analysis/explain.ts';
import { VERDICT_CODES } from '../../src/model/vocab.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { AtlasCopy, ofRule, ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

const reg: Registry = loadAtlas(ROOT).registry;
const scenarios = reg.all('scenario').filter((s) => s.status === 'active');

describe('the scenarios hold', () => {
  test('at least 16 active scenarios, at least three with probe outcomes already run', () => {
    assert.ok(scenarios.length >= 16, `${scenarios.length} scenarios`);
    assert.ok(scenarios.filter((s) => s.input.probes.length > 0).length >= 3);
  });

  for (const s of scenarios) {
    test(`${s.id} ${s.title}: explain gives the expected analysis`, () => {
      const result = explain(reg, scenarioInput(reg, s.id));
      assert.deepEqual(checkScenario(reg, s, result), []);
    });
  }

  test('the expectations are right, not only true: guards that hold across the scenarios', () => {
    const silences = new Set(['A-009', 'A-027']);
    const chosen = new Set(['A-024']);
    for (const s of scenarios) {
      const result = explain(reg, scenarioInput(reg, s.id));
      const first = result.behind.mechanisms.filter((m) => m.tier === 'produces');
      // A silence after interviews says nothing about why: no discrimination mechanism claims to produce it.
      if (s.input.artifacts.every((a) => silences.has(a))) {
        assert.deepEqual(
          first.filter((m) => m.family.startsWith('discrimination-')).map((m) => m.id),
          [],
          `${s.id}: discrimination in the first tier of a silence`,
        );
      }
      // An offer the employer withdrew: the employer chose you, so "held as backup" and your own decline are not on the table.
      if (s.input.artifacts.some((a) => chosen.has(a))) {
        const listed = result.behind.mechanisms.map((m) => m.id);
        assert.ok(!listed.includes('M-031') && !listed.includes('M-030'), `${s.id}: M-031 or M-030 listed for a rescinded offer`);
      }
      // Every scenario expects something of the first tier unless its outcomes excluded everything.
      assert.ok(s.expect.first_tier.length > 0 || s.expect.verdict === 'nothing-left', `${s.id} pins no first-tier mechanism`);
    }
  });

  test('checkScenarios runs them all and finds no mismatch', () => {
    const checks = checkScenarios(reg);
    assert.deepEqual(
      checks.map((c) => c.id),
      scenarios.map((s) => s.id),
    );
    assert.deepEqual(
      checks.filter((c) => c.mismatches.length > 0),
      [],
    );
  });
});

describe('a scenario fails when its analysis and its expectation part', () => {
  const copies: AtlasCopy[] = [];
  after(() =>
    copies.forEach((c) => {
      c.dispose();
    }),
  );
  const copy = () => {
    const c = new AtlasCopy();
    copies.push(c);
    return c;
  };
  const mismatchesOf = (dir: string, id: string) => checkScenarios(loadAtlas(dir).registry).find((c) => c.id === id)!.mismatches;

  test('an edited verdict is reported with both codes', () => {
    const s = scenarios[0]!;
    const other = VERDICT_CODES.find((v) => v !== s.expect.verdict)!;
    const c = copy().set(s.id, ['expect', 'verdict'], other);
    const [m, ...rest] = mismatchesOf(c.dir, s.id);
    assert.deepEqual(rest, []);
    assert.match(m!, new RegExp(`verdict should be ${other}, but explain gives ${s.expect.verdict}`));
  });

  test('a mechanism expected absent that is listed, and one expected first that is not, are each named', () => {
    const s = scenarios.find((x) => x.expect.first_tier.length > 0)!;
    const result = explain(reg, scenarioInput(reg, s.id));
    const listed = new Set(result.behind.mechanisms.map((m) => m.id));
    const present = s.expect.first_tier[0]!;
    const missing = reg.all('mechanism').find((m) => !listed.has(m.id))!.id;
    const c = copy()
      .set(s.id, ['expect', 'absent'], [present])
      .set(s.id, ['expect', 'first_tier'], [...s.expect.first_tier.slice(1), missing]);
    const mismatches = mismatchesOf(c.dir, s.id);
    assert.ok(
      mismatches.some((m) => m.startsWith(`${present} (`) && m.includes('should not appear at all, but it is in the first tier')),
      mismatches.join('\n'),
    );
    assert.ok(
      mismatches.some((m) => m.startsWith(`${missing} (`) && m.includes('should be in the first tier')),
      mismatches.join('\n'),
    );
  });

  test('an edit to the atlas that changes an answer, with the expectation left alone, fails the scenario', () => {
    // Drop an emission that puts an expected mechanism in a scenario's first tier: the analysis changes.
    const target = scenarios
      .flatMap((s) => s.expect.first_tier.map((m) => ({ s, m: reg.getOf('mechanism', m)! })))
      .find(({ s, m }) => m.emits.length > 1 && m.emits.filter((e) => s.input.artifacts.includes(e.artifact)).length === 1)!;
    assert.ok(target, 'some scenario has a first-tier mechanism emitting one of its artifacts among others');
    const { s, m } = target;
    const c = copy().set(
      m.id,
      ['emits'],
      m.emits.filter((e) => !s.input.artifacts.includes(e.artifact)),
    );
    const mismatches = mismatchesOf(c.dir, s.id);
    assert.ok(
      mismatches.some((x) => x.startsWith(`${m.id} (`) && x.includes('should be in the first tier (produces what was observed), but')),
      mismatches.join('\n'),
    );
  });

  test('scenarioProblems reports each mismatch under scenario-expectation, at the line of the expectation', () => {
    const s = scenarios[0]!;
    const other = VERDICT_CODES.find((v) => v !== s.expect.verdict)!;
    const c = copy().set(s.id, ['expect', 'verdict'], other);
    const load = loadAtlas(c.dir);
    const problems = scenarioProblems(load.registry, (id, path) => load.sourceMap.locate(id, path)).filter((p) => p.entity === s.id);
    assert.equal(problems.length, 1);
    const [p] = problems;
    assert.equal(p!.rule, 'scenario-expectation');
    assert.equal(p!.severity, 'error');
    assert.equal(p!.entity, s.id);
    assert.match(p!.file ?? '', new RegExp(`^content/scenarios/${s.id}-.+\\.yaml$`));
    const lines = readFileSync(join(c.dir, p!.file!), 'utf8').split('\n');
    assert.match(lines[p!.line! - 1]!, new RegExp(`^\\s*verdict: ${other}$`));
    assert.match(p!.message, /Update the expectation if the new answer is right/);
  });
});

describe('scenario content errors are reported with file and line', () => {
  const copies: AtlasCopy[] = [];
  after(() =>
    copies.forEach((c) => {
      c.dispose();
    }),
  );

  test('an unknown verdict code is a schema problem at its line, listing the allowed codes', () => {
    const c = new AtlasCopy();
    copies.push(c);
    c.set('S-001', ['expect', 'verdict'], 'maybe');
    const [p] = ofRule(c.problems(), 'schema').filter((x) => x.entity === 'S-001');
    assert.ok(p, 'a schema problem on S-001');
    assert.match(p.file ?? '', /^content\/scenarios\/S-001-.+\.yaml$/);
    const lines = readFileSync(join(c.dir, p.file!), 'utf8').split('\n');
    assert.match(lines[p.line! - 1]!, /verdict: maybe/);
    assert.match(p.message, /run-probe/);
  });

  test('a scenario without its situation is a schema problem naming the field', () => {
    const c = new AtlasCopy();
    copies.push(c);
    c.remove('S-002', ['situation']);
    const found = ofRule(c.problems(), 'schema').filter((x) => x.entity === 'S-002');
    assert.ok(
      found.some((p) => /situation/.test(p.message) && (p.line ?? 0) >= 1),
      found.map((p) => p.message).join('\n'),
    );
  });
});

describe('scenarios as presets', () => {
  test('scenarioInput gives the explain input; IDs are read leniently', () => {
    const s = scenarios.find((x) => x.input.probes.length > 0)!;
    const input = scenarioInput(reg, s.id.toLowerCase().replace('-', ''));
    assert.deepEqual(input.artifacts, s.input.artifacts);
    assert.deepEqual(input.probes, s.input.probes);
    assert.equal(getScenario(reg, s.id).id, s.id);
  });

  test('an unknown scenario is an unknown-id error that says which IDs exist', () => {
    assert.throws(
      () => scenarioInput(reg, 'S-999'),
      (e: unknown) =>
        e instanceof AnalysisError &&
        e.code === 'unknown-id' &&
        /There is no scenario S-999\. Scenario IDs run from S-001 to S-\d{3}/.test(e.message),
    );
    assert.throws(
      () => scenarioInput(reg, 'A-009'),
      (e: unknown) => e instanceof AnalysisError && e.code === 'invalid-argument' && /A-009 is an artifact/.test(e.message),
    );
  });
});

describe('scenarios on the published surfaces', () => {
  let files: Map<string, Buffer>;
  const json = (path: string) => JSON.parse(files.get(path)!.toString('utf8')) as Record<string, any>;
  before(() => {
    files = new Map(sharedSite().site.files.map((f) => [f.path, f.bytes]));
  });

  test('REST serves the collection and one document per scenario, with its observes edges', () => {
    const list = json('api/v1/scenarios.json');
    assert.equal(list['kind'], 'scenario');
    assert.deepEqual(
      list['items'].map((s: { id: string }) => s.id),
      reg.all('scenario').map((s) => s.id),
    );
    const first = scenarios[0]!;
    const item = json(`api/v1/scenarios/${first.id}.json`);
    assert.equal(item['item'].situation, first.situation);
    assert.deepEqual(
      item['links'].outgoing.filter((e: { relation: string }) => e.relation === 'observes').map((e: { target: string }) => e.target),
      [...first.input.artifacts].sort(),
    );
  });

  test('OpenAPI describes the scenario paths and their schemas', () => {
    const openapi = json('openapi.json');
    assert.ok(openapi['paths']['/scenarios']?.get, '/scenarios');
    const param = openapi['paths']['/scenarios/{id}']?.get?.parameters?.[0];
    assert.equal(param?.schema?.pattern, '^S-[0-9]{3,}$');
    assert.ok(openapi['components']['schemas']['Scenario'], 'Scenario component');
    assert.ok(files.has('schemas/scenario.schema.json'));
  });

  test('/graph holds every scenario as a node and an observes edge to each artifact it observes', () => {
    const graph = json('api/v1/graph.json');
    const nodes = graph['nodes'].filter((n: { kind: string }) => n.kind === 'scenario');
    assert.deepEqual(
      nodes.map((n: { id: string }) => n.id),
      reg.all('scenario').map((s) => s.id),
    );
    const observes = graph['edges'].filter((e: { relation: string }) => e.relation === 'observes');
    const expected = reg.all('scenario').flatMap((s) => s.input.artifacts.map((a) => `${s.id}>${a}`));
    assert.deepEqual(observes.map((e: { source: string; target: string }) => `${e.source}>${e.target}`).sort(), expected.sort());
    assert.equal(graph['counts'].by_relation.observes, observes.length);
  });

  test('each scenario has a site page with the situation and the verdict explain reaches', () => {
    const index = files.get('scenarios/index.html')!.toString('utf8');
    for (const s of scenarios) {
      assert.ok(index.includes(`href="/scenarios/${s.id}/"`), s.id);
      const page = files.get(`scenarios/${s.id}/index.html`)!.toString('utf8');
      const r = explain(reg, scenarioInput(reg, s.id));
      // The page leads with the plain answer (its text without the tags), and says which verdict it is.
      const text = page.replace(/<[^>]+>/g, '');
      for (const p of [r.candidate.heading, ...r.candidate.lead]) assert.ok(text.includes(escapeHtml(p)), `${s.id} page says: ${p}`);
      assert.ok(page.includes(`data-verdict="${r.agency.verdict.code}"`), `${s.id} page shows its verdict`);
      assert.ok(page.includes(escapeHtml(s.situation)), `${s.id} page shows the situation`);
    }
  });
});

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
