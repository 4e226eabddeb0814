// Atlas depth (issue 12) through the built CLI: the depth targets read through `hoba stats`, and the law
// layer on the surfaces (hoba show, explain, methodology). The rules themselves: test/unit/depth.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { atlasStats } from '../../src/analysis/stats.ts';
import { itemBody } from '../../src/publish/documents.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { AtlasCopy, ofRule, ROOT } from '../helpers.ts';
import { hoba } from '../dist.ts';

const atlas = loadAtlas(ROOT).registry;
const artifacts = atlas.all('artifact');
const withLaw = [...artifacts, ...atlas.all('mechanism'), ...atlas.all('intervention'), ...atlas.all('barrier')].filter(
  (e) => e.law.length > 0,
);

describe('hoba stats: the depth targets', () => {
  test('every target is met by the real atlas', () => {
    const run = hoba(['stats', '--json', '--check']);
    const stats = JSON.parse(run.stdout) as ReturnType<typeof atlasStats>;
    const unmet = stats.targets
      .filter((t) => !t.met)
      .map((t) => `${t.id}: ${t.actual} (${t.bound} ${t.target})${t.failing ? ` ${t.failing.join(', ')}` : ''}`);
    assert.deepEqual(unmet, []);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(stats.met, true);
  });

  test('the targets are the ones the issue sets', () => {
    const ids = atlasStats(atlas).targets.map((t) => t.id);
    for (const id of [
      'artifacts',
      'barriers',
      'mechanisms',
      'patterns',
      'loops',
      'interventions',
      'scenarios',
      'sources',
      'mechanisms-unsourced',
      'topics',
      'law-us-federal',
      'law-us-state',
      'law-uk',
      'law-eu',
      'intervention-actors',
      'intervention-actor-share',
      'specimens',
      'perspectives',
      'artifact-emitters-min',
      'artifact-first-tier',
      'barrier-mechanisms',
      'mechanisms-in-motifs',
      'candidate-narrowing',
      'bibliography-revision',
      'rule-uncalibrated-likelihood',
      'rule-unsourced-frequency',
      'rule-causal-overclaim',
      'law-time-limits',
      'voices',
    ]) {
      assert.ok(ids.includes(id), `target ${id}`);
    }
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
      const remedied = withLaw.find((x) => x.law.some((n) => n.remedy !== undefined))!;
      copy.remove(remedied.id, ['law', remedied.law.findIndex((n) => n.remedy !== undefined), 'time_limit']);
      const run = hoba(['stats', '--json', '--check', '--dir', copy.dir]);
      assert.equal(run.status, 1);
      const failing = Object.fromEntries(
        (JSON.parse(run.stdout) as ReturnType<typeof atlasStats>).targets.filter((t) => !t.met).map((t) => [t.id, t.failing]),
      );
      assert.deepEqual(failing['rule-uncalibrated-likelihood'], ['A-001']);
      assert.deepEqual(failing['rule-causal-overclaim'], ['M-004']);
      assert.deepEqual(failing['rule-unsourced-frequency'], ['A-019']);
      assert.deepEqual(failing['law-time-limits'], [remedied.id]);
    });
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
    const result = JSON.parse(hoba(['explain', entity.id, '--json']).stdout) as {
      agency: { law: Array<{ artifact: { id: string }; jurisdiction: string }>; legal_notice?: string };
    };
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
    assert.deepEqual(
      m.vocabularies.effect_levels.map((t) => t.id),
      ['established', 'supported', 'mixed', 'contested', 'unmeasured'],
    );
    assert.ok(m.sections.some((s) => s.id === 'law'));
    const rules = m.sections.find((s) => s.id === 'rules-of-inference')!.body;
    assert.match(rules, /source records are the exception/);
    assert.match(rules, /Calibrated words/);
  });
});

describe('the rules added by the content audit of 2026-11, through hoba stats', () => {
  const copy = new AtlasCopy();
  after(() => copy.dispose());
  const mechanisms = atlas.all('mechanism');
  const interventions = atlas.all('intervention');

  test('bibliography-revision: with an uncited list, every entry of its range is cited or listed with a reason', () => {
    const manifest = readFileSync(join(copy.dir, 'content', 'atlas.yaml'), 'utf8');
    // The manifest without its own list, so that the test controls it.
    const original = manifest.replace(/^(?:#[^\n]*\n)*uncited:\n(?: {2}[^\n]*\n)*/m, '');
    assert.ok(!/^uncited:/m.test(original));
    copy.write('content/atlas.yaml', original);
    const cited = new Set(
      [
        ...artifacts,
        ...mechanisms,
        ...interventions,
        ...atlas.all('barrier'),
        ...atlas.all('pattern'),
        ...atlas.all('scenario'),
        ...atlas.all('loop'),
      ].flatMap((e) => e.sources),
    );
    const range = Array.from({ length: 39 }, (_, i) => `E-${169 + i}`);
    const uncited = range.filter((id) => !cited.has(id));
    const target = () =>
      (JSON.parse(hoba(['stats', '--json', '--dir', copy.dir]).stdout) as ReturnType<typeof atlasStats>).targets.find(
        (t) => t.id === 'bibliography-revision',
      );
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
