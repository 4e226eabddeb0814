// The second labelling of the reader's corpus (quality/reader/agreement.yaml, bench/reader-agreement.ts):
// two labellings agree as the reader's reading is counted right, on constructed accounts; the checked-in
// file parses, labels only accounts of the development corpus, and is compared without error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agreement, agrees, developmentAgreement } from '../../bench/reader-agreement.ts';
import { ReaderCorpusItem, ReaderSecondLabel } from '../../src/model/schemas.ts';

const item = (id: string, fields: Record<string, unknown>) => ReaderCorpusItem.parse({ id, text: 'an account', artifacts: [], ...fields });
const second = (id: string, fields: Record<string, unknown>) => ReaderSecondLabel.parse({ id, artifacts: [], ...fields });

test('two labellings agree on the same set, the same "not covered" and the question the corpus asks', () => {
  const x = item('tr-1', { artifacts: ['A-001', 'A-009'] });
  assert.ok(agrees(x, second('tr-1', { artifacts: ['A-009', 'A-001'] })), 'order does not matter');
  assert.ok(!agrees(x, second('tr-1', { artifacts: ['A-009'] })), 'one missing');
  assert.ok(!agrees(x, second('tr-1', { artifacts: ['A-001', 'A-009', 'A-027'] })), 'one more');
  const out = item('tr-2', { out_of_scope: true });
  assert.ok(agrees(out, second('tr-2', { out_of_scope: true })));
  assert.ok(!agrees(out, second('tr-2', {})), 'out of scope read as nothing stated');
  const ask = item('tr-3', { ask: ['A-009', 'A-027'] });
  assert.ok(agrees(ask, second('tr-3', { ask: ['A-027', 'A-009'] })));
  assert.ok(!agrees(ask, second('tr-3', { artifacts: ['A-027'] })), 'a guess where the corpus asks');
  assert.ok(
    !agrees(item('tr-4', { artifacts: ['A-027'] }), second('tr-4', { ask: ['A-009', 'A-027'] })),
    'a question where the corpus reads one',
  );
});

test('the figures: agreed accounts, precision and recall of the observations, denials chosen, by shape', () => {
  const corpus = [
    item('tr-1', { artifacts: ['A-001'] }),
    item('tr-2', { artifacts: ['A-012', 'A-013'] }),
    item('tr-3', { artifacts: ['A-013'], negated: ['A-012'] }),
  ];
  const a = agreement(corpus, [
    second('tr-1', { artifacts: ['A-001'] }),
    second('tr-2', { artifacts: ['A-013'] }),
    second('tr-3', { artifacts: ['A-013', 'A-012'] }),
  ]);
  assert.equal(a.agreed, 1);
  assert.deepEqual(
    a.pairs.map((p) => p.agree),
    [true, false, false],
  );
  // Right; wrong: A-012 (denied); missed: A-012.
  assert.equal(a.precision, 3 / 4);
  assert.equal(a.recall, 3 / 4);
  assert.equal(a.negatedChosen, 1);
  assert.deepEqual(a.byShape.get('two'), { n: 1, agreed: 0 });
  assert.deepEqual(a.byShape.get('one'), { n: 2, agreed: 1 });
});

test('a second labelling of an account the corpus does not hold is refused, naming it', () => {
  assert.throws(() => agreement([item('tr-1', {})], [second('tr-9', {})]), /tr-9 is not an account of train\.yaml or dev\.yaml/);
});

test('the checked-in second labelling parses and labels accounts of the development corpus', () => {
  const a = developmentAgreement();
  assert.ok(a, 'quality/reader/agreement.yaml is missing');
  assert.equal(a.pairs.length, 240);
  assert.equal(new Set(a.pairs.map((p) => p.item.id)).size, 240, 'each account once');
  assert.ok(a.agreed > 0 && a.agreed <= 240);
});
