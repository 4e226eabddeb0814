import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cycleThrough, cyclicComponents, stronglyConnectedComponents } from '../../src/registry/graph.ts';
import { closest, editDistance } from '../../src/registry/suggest.ts';

const adj = (edges: string) => {
  const m = new Map<string, string[]>();
  for (const e of edges.split(/\s+/).filter(Boolean)) {
    const [a, b] = e.split('>') as [string, string];
    m.set(a, [...(m.get(a) ?? []), b]);
    if (!m.has(b)) m.set(b, []);
  }
  return m;
};

test('strongly connected components are found and sorted', () => {
  const g = adj('a>b b>c c>a c>d d>e e>d f>f');
  assert.deepEqual(stronglyConnectedComponents([...g.keys()], g), [['a', 'b', 'c'], ['d', 'e'], ['f']]);
  assert.deepEqual(cyclicComponents([...g.keys()], g), [['a', 'b', 'c'], ['d', 'e'], ['f']]);
  const dag = adj('a>b b>c a>c');
  assert.deepEqual(cyclicComponents([...dag.keys()], dag), []);
});

test('a deep chain does not overflow the stack', () => {
  const g = new Map<string, string[]>();
  const n = 50_000;
  for (let i = 0; i < n; i++) g.set(`n${i}`, [`n${(i + 1) % n}`]);
  assert.equal(stronglyConnectedComponents([...g.keys()], g).length, 1);
});

test('cycleThrough returns a shortest cycle as a closed path', () => {
  const g = adj('a>b b>c c>a b>a');
  assert.deepEqual(cycleThrough('a', g), ['a', 'b', 'a']);
  assert.deepEqual(cycleThrough('c', g), ['c', 'a', 'b', 'c']);
  assert.equal(cycleThrough('a', adj('a>b b>c')), undefined);
  assert.equal(cycleThrough('a', g, new Set(['a', 'c'])), undefined);
});

test('suggestions find close words and ignore distant ones', () => {
  assert.equal(editDistance('summery', 'summary'), 1);
  assert.deepEqual(closest('summery', ['summary', 'stages', 'sources']), ['summary']);
  assert.deepEqual(closest('zzz', ['summary']), []);
});

test('the content hash changes with content and only with content', async () => {
  const { contentHash } = await import('../../src/registry/hash.ts');
  const { AtlasCopy } = await import('../helpers.ts');
  const a = new AtlasCopy();
  const b = new AtlasCopy();
  try {
    assert.equal(contentHash(a.dir), contentHash(b.dir));
    b.set('M-004', ['title'], 'Changed');
    assert.notEqual(contentHash(a.dir), contentHash(b.dir));
  } finally {
    a.dispose();
    b.dispose();
  }
});
