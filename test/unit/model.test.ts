import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { Barrier, KINDS, Mechanism, SCHEMAS, STAGES, kindOfId } from '../../src/model/index.ts';

const barrier = { id: 'B-001', title: 'Gate', summary: 'A gate.', stage: 'screening', order: 1, pass_condition: 'Pass.' };

test('schemas reject unknown keys and closed-enum violations', () => {
  assert.equal(Barrier.safeParse(barrier).success, true);
  assert.equal(Barrier.safeParse({ ...barrier, colour: 'red' }).success, false);
  assert.equal(Barrier.safeParse({ ...barrier, stage: 'lunch' }).success, false);
  assert.equal(Barrier.safeParse({ ...barrier, id: 'B-01' }).success, false);
  assert.equal(Barrier.safeParse({ ...barrier, precedes: ['M-001'] }).success, false);
});

test('defaults are applied: status active, empty relation lists', () => {
  const parsed = Barrier.parse(barrier);
  assert.equal(parsed.status, 'active');
  assert.deepEqual(parsed.precedes, []);
  assert.deepEqual(parsed.sources, []);
});

test('IDs name their kind', () => {
  assert.equal(kindOfId('M-001'), 'mechanism');
  assert.equal(kindOfId('E-0100'), 'source');
  assert.equal(kindOfId('M-01'), undefined);
  assert.equal(kindOfId('X-001'), undefined);
});

test('every kind derives a 2020-12 JSON Schema from its zod definition', () => {
  for (const kind of KINDS) {
    const schema = z.toJSONSchema(SCHEMAS[kind], { io: 'output' }) as { $schema: string; additionalProperties: boolean };
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', kind);
    assert.equal(schema.additionalProperties, false, `${kind} forbids unknown keys`);
  }
  const mechanism = z.toJSONSchema(Mechanism, { io: 'output' }) as { properties: Record<string, { pattern?: string }> };
  assert.equal(mechanism.properties['id']!.pattern, '^M-[0-9]{3,}$');
  assert.equal(STAGES.length, 13);
});

test('IDs inside prose: atlas IDs are found, document numbers of the same shape are not (rule inline-reference; site links)', async () => {
  const { idsInProse } = await import('../../src/model/index.ts');
  const text =
    'See M-016 (E-068); Form I-129, Forms I-130, Handbook M-274, Publication E-123 and Schedule B-100 are documents; Form I-9 is not ID-shaped; the form A-015 names is.';
  assert.deepEqual(
    idsInProse(text).map((f) => f.id),
    ['M-016', 'E-068', 'A-015'],
  );
  // The site links an existing ID, but not the same token after a document word.
  const { loadAtlas } = await import('../../src/registry/load.ts');
  const { linked } = await import('../../src/site/pages/entity-parts.ts');
  const { ROOT } = await import('../helpers.ts');
  const html = String(linked(loadAtlas(ROOT).registry, 'Form M-001 is not M-001.'));
  assert.equal((html.match(/<a /g) ?? []).length, 1, html);
  // An ID in running text reads as the entity's title, its ID in the tooltip (issue 25, item 8).
  assert.match(html, /not <a href="\/mechanisms\/M-001\/" title="M-001">Genuine skill or experience gap[^<]*<\/a>/);
  // A group of IDs in parentheses becomes a note: a source's short citation, another entity a "see" link.
  const note = String(linked(loadAtlas(ROOT).registry, 'Pay matters (M-017; E-070).'));
  assert.match(
    note,
    /^Pay matters<sup class="ref"><a href="\/mechanisms\/M-017\/" [^>]*aria-label="see: Compensation band mismatch">see<\/a>, <a href="\/sources\/E-070\/"[^>]*>[^<]+<\/a><\/sup>\.$/,
  );
});
