#!/usr/bin/env node
// In-process latency of search and explain over a checkout (src/analysis called directly, as the CLI and
// the MCP tools call it): a seeded sample of queries and of observed artifacts, each call timed on its
// own after a warm-up. Run by bench/scale.ts in a child process per atlas size; prints one JSON line.
//
//   node --import tsx bench/synth/queries.ts --dir <checkout> [--samples 200] [--seed 42]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { explain, type ExplainInput } from '../../src/analysis/explain.ts';
import { AtlasSearch } from '../../src/analysis/search.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { Prose } from './prose.ts';
import { Random } from './random.ts';

export interface QueryTimings {
  entities: number;
  load_ms: number;
  index_ms: number;
  samples: number;
  search: Percentiles;
  explain: Percentiles;
}

export interface Percentiles {
  p50: number;
  p99: number;
}

/** Nearest-rank percentiles of a list of durations in milliseconds. */
export function percentiles(ms: readonly number[]): Percentiles {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * What people search for: a few words of the atlas's vocabulary, an entity's title or alias as
 * remembered, or an ID.
 */
export function searchQueries(reg: Registry, random: Random, n: number): string[] {
  const prose = new Prose(random);
  const entities = reg.entities;
  return Array.from({ length: n }, () => {
    const e = random.pick(entities);
    const kind = random.weighted({ words: 4, title: 3, alias: 2, id: 1 });
    if (kind === 'title') return e.kind === 'source' ? e.cite : e.title;
    if (kind === 'alias' && e.kind !== 'source' && e.aliases.length > 0) return random.pick(e.aliases);
    if (kind === 'id') return e.id;
    return `${prose.phrase()} ${prose.noun()}`;
  });
}

/** What people ask explain about: one or two observed artifacts, sometimes with a probe outcome seen. */
export function explainInputs(reg: Registry, random: Random, n: number): ExplainInput[] {
  const artifacts = reg.all('artifact');
  return Array.from({ length: n }, () => {
    const first = random.pick(artifacts);
    const ids = random.chance(0.3) ? [first.id, random.pick(artifacts).id] : [first.id];
    // A deprecated artifact stands for its successor, whose probes are the ones that count.
    const probe = first.status === 'active' && random.chance(0.25) ? first.probes[0] : undefined;
    return probe ? { artifacts: ids, probes: [{ probe: probe.id, outcome: random.pick(probe.outcomes).id }] } : { artifacts: ids };
  });
}

function time(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function measureQueries(dir: string, samples: number, seed: number): QueryTimings {
  let load!: ReturnType<typeof loadAtlas>;
  const loadMs = time(() => (load = loadAtlas(dir)));
  const reg = load.registry;
  let index!: AtlasSearch;
  const indexMs = time(() => (index = AtlasSearch.build(reg)));
  const random = new Random(seed);
  const queries = searchQueries(reg, random, samples);
  const inputs = explainInputs(reg, random, samples);
  // Warm-up: the first calls compile the code paths; they are not what a long-running server sees.
  const warm = Math.min(20, samples);
  for (const q of queries.slice(0, warm)) index.search(q);
  for (const input of inputs.slice(0, warm)) explain(reg, input);
  return {
    entities: reg.entities.length,
    load_ms: loadMs,
    index_ms: indexMs,
    samples,
    search: percentiles(queries.map((q) => time(() => index.search(q)))),
    explain: percentiles(inputs.map((input) => time(() => explain(reg, input)))),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { dir: { type: 'string' }, samples: { type: 'string', default: '200' }, seed: { type: 'string', default: '42' } },
  });
  if (!values.dir) {
    console.error('usage: node --import tsx bench/synth/queries.ts --dir <checkout> [--samples 200] [--seed 42]');
    process.exitCode = 2;
  } else {
    console.log(JSON.stringify(measureQueries(values.dir, Number(values.samples), Number(values.seed))));
  }
}
