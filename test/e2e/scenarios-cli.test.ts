// Worked scenarios (S-…) through the built CLI: hoba validate reports a failing scenario as an error with
// file and line. The scenarios themselves: test/unit/scenarios.test.ts.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { VERDICT_CODES } from '../../src/model/vocab.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { hoba } from '../dist.ts';

const scenarios = loadAtlas(ROOT)
  .registry.all('scenario')
  .filter((s) => s.status === 'active');

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

  test('hoba validate merges the scenario check: a failing scenario is an error with file and line', () => {
    const s = scenarios[0]!;
    const other = VERDICT_CODES.find((v) => v !== s.expect.verdict)!;
    const c = copy().set(s.id, ['expect', 'verdict'], other);
    const r = hoba(['validate', '--json', '--no-mirror', '--dir', c.dir]);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      problems: Array<{ rule: string; entity?: string; file?: string; line?: number }>;
    };
    assert.equal(report.ok, false);
    const found = report.problems.filter((p) => p.rule === 'scenario-expectation' && p.entity === s.id);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.entity, s.id);
    assert.match(found[0]!.file ?? '', /^content\/scenarios\//);
    assert.ok((found[0]!.line ?? 0) > 1);
  });
});
