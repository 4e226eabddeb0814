// The synthetic-atlas generator of the scale benchmark (bench/synth), so that it cannot rot: a small
// generated atlas is valid under --strict, byte-identical for the same seed and written exactly as
// generated. (test/e2e/bench-smoke.test.ts runs the benchmarks themselves.)
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { BIBLIOGRAPHY_FILE, generateAtlas, renderBibliography, renderFile, writeAtlas } from '../../bench/synth/atlas.ts';
import { VOCABULARY } from '../../bench/synth/prose.ts';
import { Manifest, SCHEMAS } from '../../src/model/index.ts';
import { loadBibliography } from '../../src/registry/bibliography.ts';
import { authorSurnames } from '../../src/registry/named-entities.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { validateAtlas } from '../../src/registry/validate.ts';
import { scenarioProblems } from '../../src/analysis/scenario-checks.ts';
import { stronglyConnectedComponents } from '../../src/registry/graph.ts';

const SEED = 7;
const ENTITIES = 150;
const work = mkdtempSync(join(tmpdir(), 'hoba-bench-smoke-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`, by relative path, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.set(relative(dir, join(d, e.name)), readFileSync(join(d, e.name)));
    }
  };
  walk(dir);
  return out;
}

const atlas = generateAtlas({ entities: ENTITIES, seed: SEED });
const first = join(work, 'first');
writeAtlas(atlas, first);

test(`a generated atlas of ${ENTITIES} entities passes validate --strict: no errors, no warnings (seed ${SEED})`, () => {
  const bibliography = loadBibliography(join(first, BIBLIOGRAPHY_FILE));
  assert.ok(bibliography, 'the generator writes its bibliography beside content/');
  const load = loadAtlas(first);
  assert.equal(load.registry.entities.length, ENTITIES);
  const problems = validateAtlas(load, { bibliography });
  assert.deepEqual(
    problems.map((p) => `${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`),
    [],
  );
});

test('the generated atlas has the structure the benchmark relies on: loops, probe exclusions, baselines, hubs', () => {
  const reg = loadAtlas(first).registry;
  const mechanisms = reg.all('mechanism');
  const adjacency = new Map(mechanisms.map((m) => [m.id, [...m.amplifies, ...m.masks]]));
  const cycles = stronglyConnectedComponents([...adjacency.keys()], adjacency).filter((c) => c.length > 1);
  // Every cycle is exactly one declared loop's members.
  assert.deepEqual(
    cycles.map((c) => c.join(' ')).sort(),
    reg
      .all('loop')
      .map((l) => [...l.mechanisms].sort().join(' '))
      .sort(),
  );
  assert.ok(
    reg.all('artifact').some((a) => a.probes.some((p) => p.outcomes.some((o) => o.excludes.length > 0))),
    'some probe outcome excludes a mechanism',
  );
  assert.ok(mechanisms.some((m) => m.honest_baseline));
  assert.ok(
    reg.all('source').some((s) => s.status !== 'current'),
    'sources of every status kind are exercised',
  );
  // Heavy tails: the most-cited source is cited far more often than the median one.
  const cites = reg
    .all('source')
    .map((s) => reg.incoming(s.id, 'cites').length)
    .sort((a, b) => a - b);
  assert.ok(cites.at(-1)! >= 4 * cites[cites.length >> 1]!, `cites per source: median ${cites[cites.length >> 1]}, max ${cites.at(-1)}`);
});

test('the generated scenarios hold: explain on each gives what it expects (validate runs them)', () => {
  const reg = loadAtlas(first).registry;
  assert.ok(reg.all('scenario').length > 0, 'the generator writes scenarios');
  assert.deepEqual(
    scenarioProblems(reg).map((p) => `${p.entity}: ${p.message}`),
    [],
  );
});

test('no author surname is a word of the prose vocabulary (the named-entity rule stays quiet by construction)', () => {
  const surnames = authorSurnames(atlas.bibliography.flatMap((e) => e.authors as string[]));
  assert.ok(surnames.length > 0);
  assert.deepEqual(
    surnames.filter((s) => VOCABULARY.has(s.toLowerCase())),
    [],
  );
});

test('the same seed gives byte-identical files; another seed gives another atlas', () => {
  const again = join(work, 'again');
  writeAtlas(generateAtlas({ entities: ENTITIES, seed: SEED }), again);
  const a = tree(first);
  const b = tree(again);
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
  for (const [path, bytes] of a) assert.ok(bytes.equals(b.get(path)!), `${path} differs between two generations with seed ${SEED}`);
  const other = generateAtlas({ entities: ENTITIES, seed: SEED + 1 });
  assert.notEqual(renderBibliography(other), renderBibliography(atlas));
});

test('every file parses back to the record it was generated from', () => {
  for (const file of atlas.files) {
    const parsed: unknown = parse(renderFile(file));
    const schema = file.kind === 'manifest' ? Manifest : SCHEMAS[file.kind];
    assert.deepEqual(schema.parse(parsed), file.record, file.path);
  }
  assert.deepEqual(parse(renderBibliography(atlas)), atlas.bibliography);
});

test('the generator refuses too small an atlas and a directory that is not empty, saying why', () => {
  assert.throws(() => generateAtlas({ entities: 20, seed: 1 }), /at least 100 entities/);
  assert.throws(() => writeAtlas(atlas, first), /is not empty/);
});
