// Large documents are written as parts (src/publish/json-text.ts), never as one string; the bytes must be
// exactly those of JSON.stringify, which the site's digest, mirror parity and every reader rely on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonBytes, jsonParts, utf8Of } from '../../src/publish/json-text.ts';

test('utf8Of writes parts of many megabytes, with characters of every width, as one string would', () => {
  // Parts that cross the encoder's one-megabyte batches, with one-, two-, three- and four-byte characters.
  const parts = Array.from({ length: 3000 }, (_, i) => `${i}: ${'é’🙂a'.repeat((i % 97) + 1)}${'x'.repeat(1500)}\n`);
  assert.ok(parts.join('').length > 3 * (1 << 20), 'several batches');
  assert.ok(utf8Of(parts).equals(Buffer.from(parts.join(''), 'utf8')));
  assert.equal(utf8Of([]).length, 0);
});

test('jsonParts: exactly the text of JSON.stringify, two-space and compact, for any JSON-like value', () => {
  // Values as documents hold them, and the members JSON.stringify leaves out or writes as null.
  const odd = fc.constantFrom(undefined, () => 1, Symbol('s'), new Date(0), { toJSON: () => 'own' }, -0, NaN, Infinity);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      odd,
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 5 }),
    ),
  }));
  fc.assert(
    fc.property(value, fc.constantFrom(0 as const, 2 as const), (v, indent) => {
      const expected = (JSON.stringify(v, null, indent) ?? 'null') + '\n';
      assert.equal([...jsonParts(v, indent, '\n')].join(''), expected);
    }),
    { numRuns: 2000, seed: 14 },
  );
});

test('jsonParts: a large document comes as parts no larger than one element', () => {
  const doc = {
    version: '1',
    counts: { n: 3 },
    data: { manifest: { name: 'x' }, entities: Array.from({ length: 5000 }, (_, i) => ({ id: `E-${i}`, text: 'w '.repeat(50) })) },
    edges: Array.from({ length: 5000 }, (_, i) => ({ from: i, to: i + 1 })),
  };
  const parts = [...jsonParts(doc, 2)];
  const longest = Math.max(...parts.map((p) => p.length));
  assert.ok(longest < 300, `the longest part is ${longest} characters`);
  assert.ok(jsonBytes(doc).equals(Buffer.from(JSON.stringify(doc, null, 2) + '\n', 'utf8')));
});
