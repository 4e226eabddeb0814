// Writes dist/atlas.snapshot.json: the atlas as loaded from content/, with its search index and the
// situation reader's model (trained on content/ and quality/reader/train.yaml), for the
// bundled CLI (and, installed from the package, for the hosted variant). Run by scripts/build.mjs.
// Content with errors gets no snapshot: hoba then reads the YAML and reports the errors as it goes.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotIndexes } from '../src/analysis/indexes.ts';
import { trainingCorpus } from '../src/registry/reader-corpus.ts';
import { contentHash } from '../src/registry/hash.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { makeSnapshot, SNAPSHOT_FILE, writeSnapshot } from '../src/registry/snapshot.ts';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const out = join(root, 'dist', SNAPSHOT_FILE);
const load = loadAtlas(root);
const errors = load.problems.filter((p) => p.severity === 'error');
if (errors.length > 0) {
  if (existsSync(out)) rmSync(out);
  console.warn(`build: no atlas snapshot written: the content has ${errors.length} error(s); run hoba validate to see them.`);
} else {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeSnapshot(out, makeSnapshot(load.registry, contentHash(root), snapshotIndexes(trainingCorpus(root))));
}
