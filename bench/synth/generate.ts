#!/usr/bin/env node
// Writes a synthetic atlas checkout: a seeded, valid atlas of any size shaped like the real one (see
// atlas.ts), for benchmarks. The same seed and size give byte-identical files.
//
//   node --import tsx bench/synth/generate.ts --entities 10000 --seed 42 --out /tmp/atlas-10k
//   HOBA_BIBLIOGRAPHY=/tmp/atlas-10k/bibliography.yaml node dist/cli.cjs validate --strict --no-mirror --dir /tmp/atlas-10k
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BIBLIOGRAPHY_FILE, generateAtlas, writeAtlas } from './atlas.ts';

const USAGE = 'usage: node --import tsx bench/synth/generate.ts --entities <n> [--seed <n>] --out <dir>';

function main(): number {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        entities: { type: 'string' },
        seed: { type: 'string', default: '42' },
        out: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const entities = Number(values.entities);
  const seed = Number(values.seed);
  if (!values.out || !Number.isInteger(entities) || !Number.isInteger(seed)) {
    console.error(`--entities and --out are required, and --entities and --seed are whole numbers.\n${USAGE}`);
    return 2;
  }
  const out = resolve(values.out);
  try {
    const atlas = generateAtlas({ entities, seed });
    const written = writeAtlas(atlas, out);
    const counts = Object.entries(atlas.counts)
      .map(([k, n]) => `${n} ${k}s`)
      .join(', ');
    console.log(`wrote ${out}: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB (${counts})`);
    console.log(`validate it with: HOBA_BIBLIOGRAPHY=${resolve(out, BIBLIOGRAPHY_FILE)} hoba validate --strict --no-mirror --dir ${out}`);
    return 0;
  } catch (err) {
    console.error(`generate: ${(err as Error).message}`);
    return 1;
  }
}

process.exitCode = main();
