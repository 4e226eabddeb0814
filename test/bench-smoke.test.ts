// Smoke test of the scale benchmark and its synthetic-atlas generator (bench/synth), so they cannot rot:
// a small generated atlas is valid under --strict, byte-identical for the same seed, written exactly as
// generated, and the benchmark runs to completion at a tiny size. No timings are asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { BIBLIOGRAPHY_FILE, generateAtlas, renderBibliography, renderFile, writeAtlas } from '../bench/synth/atlas.ts';
import { VOCABULARY } from '../bench/synth/prose.ts';
import { Manifest, SCHEMAS } from '../src/model/index.ts';
import { loadBibliography } from '../src/registry/bibliography.ts';
import { authorSurnames } from '../src/registry/named-entities.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { validateAtlas } from '../src/registry/validate.ts';
import { scenarioProblems } from '../src/analysis/scenarios.ts';
import { stronglyConnectedComponents } from '../src/registry/graph.ts';
import { CLI, ROOT } from './helpers.ts';

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
  assert.deepEqual(problems.map((p) => `${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`), []);
});

test('the generated atlas has the structure the benchmark relies on: loops, probe exclusions, baselines, hubs', () => {
  const reg = loadAtlas(first).registry;
  const mechanisms = reg.all('mechanism');
  const adjacency = new Map(mechanisms.map((m) => [m.id, [...m.amplifies, ...m.masks]]));
  const cycles = stronglyConnectedComponents([...adjacency.keys()], adjacency).filter((c) => c.length > 1);
  // Every cycle is exactly one declared loop's members.
  assert.deepEqual(
    cycles.map((c) => c.join(' ')).sort(),
    reg.all('loop').map((l) => [...l.mechanisms].sort().join(' ')).sort(),
  );
  assert.ok(reg.all('artifact').some((a) => a.probes.some((p) => p.outcomes.some((o) => o.excludes.length > 0))), 'some probe outcome excludes a mechanism');
  assert.ok(mechanisms.some((m) => m.honest_baseline));
  assert.ok(reg.all('source').some((s) => s.status !== 'current'), 'sources of every status kind are exercised');
  // Heavy tails: the most-cited source is cited far more often than the median one.
  const cites = reg.all('source').map((s) => reg.incoming(s.id, 'cites').length).sort((a, b) => a - b);
  assert.ok(cites.at(-1)! >= 4 * cites[cites.length >> 1]!, `cites per source: median ${cites[cites.length >> 1]}, max ${cites.at(-1)}`);
});

test('the generated scenarios hold: explain on each gives what it expects (validate runs them)', () => {
  const reg = loadAtlas(first).registry;
  assert.ok(reg.all('scenario').length > 0, 'the generator writes scenarios');
  assert.deepEqual(scenarioProblems(reg).map((p) => `${p.entity}: ${p.message}`), []);
});

test('no author surname is a word of the prose vocabulary (the named-entity rule stays quiet by construction)', () => {
  const surnames = authorSurnames(atlas.bibliography.flatMap((e) => e.authors as string[]));
  assert.ok(surnames.length > 0);
  assert.deepEqual(surnames.filter((s) => VOCABULARY.has(s.toLowerCase())), []);
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

test('the scale benchmark runs to completion at a tiny size and prints its table', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'scale.ts'), '--sizes', String(ENTITIES), '--samples', '5', '--seed', String(SEED)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `bench/scale.ts failed (is ${relative(ROOT, CLI)} built?):\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, new RegExp(`^\\| ${ENTITIES} \\|`, 'm'));
  assert.match(r.stdout, /search p50/);
  assert.match(r.stdout, /explain p50/);
});

/** Runs a bench script to completion (quick mode: seconds, and figures that mean nothing). */
function bench(args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `${args.join(' ')} failed (is ${relative(ROOT, CLI)} built?):\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

test('the MCP benchmark runs to completion in quick mode: start-up against the bare server, every tool, the peer', () => {
  const { stdout } = bench(['--import', 'tsx', join(ROOT, 'bench', 'mcp.ts'), '--quick']);
  assert.match(stdout, /^\| bare SDK server, one tool \(node_modules\) \| [\d.]+ \|/m);
  assert.match(stdout, /^\| hoba-mcp hosted, get_node \| [\d.]+ \|/m);
  // Every tool has its row, with figures (a tool that failed would show ✖ and its error instead).
  for (const tool of ['get_registry_info', 'search_registry', 'get_node', 'explain_observation', 'find_compatible_mechanisms', 'get_diagnostic_probes', 'find_patterns', 'get_interventions', 'traverse_graph', 'get_methodology']) {
    assert.match(stdout, new RegExp(`^\\| ${tool} \\| [\\d.]+ / [\\d.]+ \\|`, 'm'), `no figures for ${tool}`);
  }
  assert.match(stdout, /server-memory with the same atlas \(\d+ entities, \d+ relations\)/);
  assert.match(stdout, /^\| lookup by ID .* \| [\d.]+ \/ [\d.]+ \| [\d.]+ \/ [\d.]+ \|/m);
  assert.match(stdout, /^\| search "ghosted": search_registry vs search_nodes \|/m);
});

test('the CLI start-up benchmark runs to completion in quick mode, the installed package included', () => {
  const { stdout } = bench([join(ROOT, 'bench', 'cli-start.mjs'), '--quick']);
  assert.match(stdout, /^\| node -e 0 \| [\d.]+ \|/m);
  assert.match(stdout, /^\| floor: read and parse the snapshot data \(node -e\) \| [\d.]+ \|/m);
  for (const command of ['show M-001', 'explain A-009', 'search "ghosted after final interview"']) {
    for (const variant of ['checkout', 'bundled', 'installed']) {
      assert.ok(stdout.includes(`| hoba ${command} (${variant}) |`), `no row for hoba ${command} (${variant})`);
    }
  }
  assert.match(stdout, /installed package vs the checkout's dist\//);
});

test('npm run bench (the orchestrator) runs a part in quick mode and prints the machine and the tables', () => {
  const { stdout } = bench(['--import', 'tsx', join(ROOT, 'bench', 'run.ts'), '--quick', '--no-build', '--only', 'scale']);
  assert.match(stdout, /^- machine: \d+ CPUs/m);
  assert.match(stdout, /^- load average at start/m);
  assert.match(stdout, /^## Scale$/m);
  assert.match(stdout, new RegExp(`^\\| 150 \\|`, 'm'));
  assert.doesNotMatch(stdout, /✖ exited/);
});

test('the benchmarks refuse unknown options with a usage line, not a stack trace', () => {
  for (const args of [['--import', 'tsx', join(ROOT, 'bench', 'run.ts'), '--only', 'everything'], ['--import', 'tsx', join(ROOT, 'bench', 'mcp.ts'), '--runs', 'many']]) {
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /usage: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
