// The fast YAML reader (src/registry/fast-yaml.ts) must give exactly what the yaml package gives, or give
// up: it is checked here against the library on every content file of the checkout, on a generated
// atlas, and on corner cases of the subset's edges, each of which it must either read identically or
// leave to the library.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { generateAtlas, renderBibliography, renderFile } from '../../bench/synth/atlas.ts';
import { toYaml, type Value } from '../../bench/synth/emit.ts';
import { fastYaml } from '../../src/registry/fast-yaml.ts';
import { ROOT, seedFromEnv } from '../helpers.ts';
import { fuzzFastYaml } from '../yaml-fuzz.ts';

/** What the loader gets from the library for this text (undefined when the library reports an error). */
function library(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  return doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
}

/** Reads identically, or declines. Returns whether it read the text. */
function agrees(text: string, label: string): boolean {
  const fast = fastYaml(text);
  if (fast === undefined) return false;
  assert.deepEqual(fast, library(text), `${label}: the fast reader and the yaml package disagree on\n${text}`);
  return true;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });
}

test('every content file of the checkout reads as the yaml package reads it (or is left to it)', () => {
  const files = yamlFiles(join(ROOT, 'content'));
  let read = 0;
  for (const file of files) if (agrees(readFileSync(file, 'utf8'), file)) read++;
  // The reader exists for speed: it must take the plain files that make up nearly all of the content.
  assert.ok(read >= files.length * 0.95, `the fast reader read only ${read} of ${files.length} content files`);
});

test('every file of a generated atlas, and its bibliography, reads as the yaml package reads it', () => {
  const atlas = generateAtlas({ entities: 400, seed: 11 });
  for (const file of atlas.files)
    assert.ok(agrees(renderFile(file), file.path) || file.kind === 'manifest', `${file.path} was left to the library`);
  assert.ok(agrees(renderBibliography(atlas), 'bibliography'));
});

test('corner cases: read identically or left to the library, never read differently', () => {
  const cases: Record<string, string> = {
    'folded with paragraphs': 'a: >-\n  one\n  two\n\n  three\n\n\n  four\n',
    'folded, clipped': 'a: >\n  one\n  two\n\nb: x\n',
    'literal, clipped and stripped': 'a: |\n  one\n    two\n  three\nb: |-\n  x\n\n',
    'more-indented folded line': 'a: >-\n  one\n    two\n  three\n',
    'block scalar with a blank first line': 'a: >-\n\n  one\n',
    'keep chomping': 'a: |+\n  one\n\n',
    'indentation indicator': 'a: |2\n   one\n',
    'block scalar holding a comment-like line': 'a: >-\n  one\n  # two\n',
    'nested mapping and sequences': 'a:\n  b: 1\n  c:\n    - x\n    - y: 2\n      z: [A-001, B-002]\n  d: []\n',
    'sequence at the key indent': 'a:\n- x\n- y\nb: z\n',
    'empty values': 'a:\nb: ~\nc: null\nd: Null\n',
    'booleans and YAML 1.1 words': 'a: true\nb: False\nc: yes\nd: no\ne: on\nf: "n"\n',
    numbers: 'a: 1\nb: 007\nc: 1.5\nd: 1e3\ne: 0x1F\nf: 0o17\ng: -3\nh: .inf\ni: 12345678901234567890\nj: 2026-11-24\n',
    'quoted scalars': `a: "x: y"\nb: 'it''s'\nc: "with 'single'"\nd: ''\ne: ""\n"n": 3\n`,
    'plain scalars with punctuation': 'a: x, y (z) [w] {v}\nb: a#b\nc: 50% of €3\nd: x: y\ne: x #c\n',
    comments: '# head\na: 1 # trailing\n# between\nb: 2\n',
    'duplicate key': 'a: 1\na: 2\n',
    'anchors and aliases': 'a: &x 1\nb: *x\n',
    tag: 'a: !!str 1\n',
    'flow mapping': 'a: {b: 1}\nc: {}\n',
    'flow mappings in a sequence': 'a:\n  - { probe: x-y, outcome: z }\n  - {probe: "q", n: 3, b: true, c: null}\n',
    'flow mapping edges': 'a: { b: 1, }\nc: {d: {e: 1}}\nf: {g: [h]}\n',
    'flow mapping, repeated key': 'a: { b: 1, b: 2 }\n',
    'flow mapping, key without a value': 'a: { b, c: 1 }\n',
    'flow mapping, colon without a space': 'a: {b:1}\n',
    'flow mapping, quoted key and value': 'a: {"n": x, b: "c d"}\n',
    'flow mapping, comma in quotes': 'a: {b: "c, d"}\n',
    'flow mapping, value with a colon': 'a: {b: c: d}\n',
    'flow mapping, wrapped': 'a: { b: 1,\n  c: 2 }\n',
    'flow mapping, comment after': 'a: { b: 1 } # c\n',
    'flow mapping, then more indented': 'a: { b: 1 }\n  c: 2\n',
    'flow sequences': 'a: [x, "y", 3, true, null]\nb: [x y, z]\nc: [a, ]\nd: [[a]]\n',
    'multi-line plain scalar': 'a: one\n  two\n',
    'multi-line plain scalars': 'a: one\n  two (three)\n    four\nb:\n  - x\n    y\n  - k: v\n      w\n',
    'multi-line plain scalar, blank line inside': 'a: one\n\n  two\n',
    'multi-line plain scalar, comment inside': 'a: one\n  # c\n  two\n',
    'multi-line plain scalar, a key inside': 'a: one\n  b: two\n',
    'multi-line plain scalar, ending in a colon': 'a: one\n  two:\n',
    'multi-line plain scalar, a dash or quote inside': 'a: one\n  - two\nb: x\n  "y"\n',
    'multi-line plain scalar, a number and a word': 'a: 1\n  2\nb: true\n  x\n',
    'multi-line plain scalar, at the key column': '- k: one\n  two\n',
    'multi-line quoted scalar': 'a: "one\n  two"\n',
    escapes: 'a: "x\\ty"\n',
    'document markers': '---\na: 1\n...\n',
    'top-level sequence': '- a: 1\n  b: 2\n-\n  c: 3\n- x\n-\n- [y]\n',
    'top-level scalar': 'just text\n',
    'proto key': '__proto__: 1\n',
    'indented start': '  a: 1\n',
    tabs: 'a:\n\tb: 1\n',
    'CRLF lines': 'a: 1\r\nb: 2\r\n',
    'trailing spaces': 'a: x  \nb: >-\n  y  \n  z\n',
    'key without a space': 'a:b\n',
    'unicode text': 'a: Équipe — “quoted” ½\nb: >-\n  naïve café\n',
  };
  let read = 0;
  for (const [label, text] of Object.entries(cases)) if (agrees(text, label)) read++;
  assert.ok(read >= 12, `only ${read} corner cases were read`);
});

test('random documents in and around the subset: read identically or left to the library', () => {
  const word = fc.constantFrom(
    'a',
    'b',
    'id',
    'n',
    'title',
    'true',
    'null',
    'No',
    '1',
    '007',
    '1.5',
    'x y',
    'E-001',
    'it’s',
    "it's",
    'x: y',
    'x #y',
    '#',
    '-',
    '~',
    '"q"',
    "'q'",
    '[a]',
    '{}',
    '|',
    '>',
    'é',
  );
  const key = fc.constantFrom('a', 'b', 'c', 'n', '"n"', 'id', 'x_y');
  const indentStep = fc.constantFrom('  ', '   ', ' ');
  const line = fc
    .tuple(
      fc.integer({ min: 0, max: 3 }),
      indentStep,
      fc.oneof(
        fc.tuple(key, word).map(([k, v]) => `${k}: ${v}`),
        key.map((k) => `${k}:`),
        word.map((v) => `- ${v}`),
        fc.tuple(key, word).map(([k, v]) => `- ${k}: ${v}`),
        fc.array(word, { maxLength: 3 }).map((ws) => `[${ws.join(', ')}]`),
        fc
          .array(fc.tuple(key, word), { maxLength: 3 })
          .chain((kvs) => fc.constantFrom(', ', ',', ' , ').map((sep) => `{ ${kvs.map(([k, v]) => `${k}: ${v}`).join(sep)} }`)),
        fc.tuple(fc.constantFrom('- ', 'a: '), key, word, key, word).map(([lead, k1, v1, k2, v2]) => `${lead}{${k1}: ${v1}, ${k2}: ${v2}}`),
        fc.constantFrom('>-', '|', '>', '|-', '', '# c', '-'),
        fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' ')),
      ),
    )
    .map(([depth, step, text]) => step.repeat(depth) + text);
  let read = 0;
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
      const text = lines.join('\n') + '\n';
      const fast = fastYaml(text);
      if (fast === undefined) return;
      read++;
      assert.deepEqual(fast, library(text), text);
    }),
    { numRuns: 3000, seed: 14 },
  );
  assert.ok(read >= 30, `only ${read} of the random documents were read: the property checked too little`);
});

test('random records written in the content style: read identically (or left to the library)', () => {
  const text = fc.oneof(
    fc.constantFrom(
      'A-001',
      'plain words',
      'x: y',
      'it’s',
      'yes',
      'n',
      '007',
      '1.5',
      'true',
      '',
      ' lead',
      'trail ',
      'two  spaces',
      'é ½ —',
      '#tag',
      'a #b',
    ),
    fc
      .array(fc.constantFrom('word', 'another', 'the', 'candidate', '(E-001).', 'x:', '50%'), { minLength: 1, maxLength: 40 })
      .map((ws) => ws.join(' ')),
    fc
      .array(
        fc.array(fc.constantFrom('one', 'two', 'three', 'four'), { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' ')),
        { minLength: 2, maxLength: 3 },
      )
      .map((ps) => ps.join('\n\n')),
  );
  const scalar = fc.oneof(text, fc.integer({ min: 0, max: 3000 }), fc.boolean(), fc.constant(null));
  const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'id', 'n', 'title'), tie('v'), { maxKeys: 3 }),
    ),
  })).v;
  let read = 0;
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom('id', 'title', 'summary', 'n', 'sources', 'probes'), value, { minKeys: 1, maxKeys: 5 }),
      (record) => {
        const yaml = toYaml(record);
        const fast = fastYaml(yaml);
        if (fast === undefined) return;
        read++;
        assert.deepEqual(fast, library(yaml), yaml);
      },
    ),
    { numRuns: 1000, seed: 15 },
  );
  assert.ok(read >= 500, `only ${read} of 1000 records were read`);
});

test('content files edited with Unicode spaces, tabs and odd line ends: read identically or left to the library (differential fuzz; attacks-yaml.test.ts runs more)', (t) => {
  const seed = seedFromEnv(27);
  t.diagnostic(`HOBA_SEED=${seed}`);
  const { edits, read } = fuzzFastYaml(seed, 400);
  t.diagnostic(`${edits} edited files, ${read} read by the fast reader, the rest left to the yaml package`);
  // Edits that only add spaces, newlines or indentation of blank lines leave files the reader still reads.
  assert.ok(read >= 30, `only ${read} of ${edits} edited files were read: the comparison checked too little`);
});
