// Withdrawn guidance and repealed law (issue #10 §0): the source-status-unstated rule flags prose that
// relies on such a source without saying so. E-078, the 2023 US technical assistance on AI selection tools,
// is withdrawn; M-005, A-029 and I-005 cite it. The labels on every surface:
// test/e2e/source-status-surfaces.test.ts.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { loadAtlas } from '../../src/registry/load.ts';
import { validateAtlas } from '../../src/registry/validate.ts';
import { AtlasCopy, BIBLIOGRAPHY, ofRule, ROOT } from '../helpers.ts';

const RULE = 'source-status-unstated';

describe(`${RULE}: prose relying on a withdrawn or repealed source must say so`, () => {
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
  const found = (c: AtlasCopy) => ofRule(c.problems(), RULE).map((p) => `${p.entity} ${p.message.split(' ')[0]} ${p.file}:${p.line}`);

  test('the real atlas is clean', () => {
    assert.deepEqual(ofRule(validateAtlas(loadAtlas(ROOT), { bibliography: BIBLIOGRAPHY }), RULE), []);
  });

  test('fires on each text that cites E-078 once its wording is dropped, with file and line', () => {
    const c = copy();
    const drop = (text: unknown) =>
      String(text)
        .replace(/withdrawn/g, 'issued')
        .replace(/no\s+longer\s+current/g, 'in use');
    c.set('M-005', ['description'], drop(c.get('M-005', ['description'])));
    c.set('A-029', ['description'], drop(c.get('A-029', ['description'])));
    c.set('I-005', ['tradeoffs', 4], drop(c.get('I-005', ['tradeoffs', 4])));
    const problems = ofRule(c.problems(), RULE);
    assert.deepEqual(problems.map((p) => `${p.entity} ${p.message.split(' ')[0]}`).sort(), [
      'A-029 description',
      'I-005 tradeoffs[4]',
      'M-005 description',
    ]);
    for (const p of problems) {
      assert.equal(p.severity, 'warning');
      assert.match(
        p.message,
        /cites E-078 \(.+\), which is withdrawn \(guidance taken down\), without saying so there\. Say that it was withdrawn/,
      );
      assert.match(p.file ?? '', /^content\/(mechanisms|artifacts|interventions)\/[AIM]-0\d\d-.+\.yaml$/);
      assert.ok((p.line ?? 0) >= 1);
    }
  });

  test('one paragraph saying so does not cover another paragraph that cites the source', () => {
    const c = copy();
    c.set('M-005', ['summary'], 'Guidance that was withdrawn in early 2025 (E-078) is no longer current.');
    c.set('M-005', ['description'], 'This is not about the source.\n\nUS guidance treats these tools as selection procedures (E-078).');
    assert.deepEqual(
      found(c).map((p) => p.split(' ').slice(0, 2).join(' ')),
      ['M-005 description'],
    );
  });

  test('a source cited only in the sources list needs the wording somewhere in the entity’s prose', () => {
    const c = copy();
    c.edit('M-004', (d) => d.addIn(['sources'], 'E-078'));
    const [p, ...rest] = ofRule(c.problems(), RULE);
    assert.equal(rest.length, 0);
    assert.equal(p?.entity, 'M-004');
    assert.match(p?.message ?? '', /M-004 cites E-078 .* but its prose never says so/);
  });

  test('a repealed source: withdrawal wording does not stand in for repeal', () => {
    const c = copy();
    // In the copy, the New York City law (E-076) is repealed: every text that cites it must now say so.
    c.set('E-076', ['status'], 'repealed');
    const problems = found(c);
    assert.ok(
      problems.some((p) => p.startsWith('I-005 expected_effects[2] ')),
      problems.join('\n'),
    );
    // A text that says "withdrawn" next to E-076 still fails: repeal needs its own words.
    c.set('I-005', ['summary'], 'Audits matter even though the city rule was withdrawn (E-076).');
    assert.ok(
      found(c).some((p) => p.startsWith('I-005 summary ')),
      `"withdrawn" does not say "repealed":\n${found(c).join('\n')}`,
    );
  });
});
