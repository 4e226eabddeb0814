// Writes dist/atlas.snapshot.json: the atlas as loaded from content/, with its search index and the
// situation reader's model (trained on content/ and quality/reader/train.yaml), for the
// bundled CLI (and, installed from the package, for the hosted variant); and beside it dist/atlas.texts,
// the texts of `hoba show` and `hoba explain <artifact>` laid out from that snapshot
// (src/cli/stored-text.ts). Run by scripts/build.mjs with standard output not a terminal, as the texts are
// laid out for a pipe. Content with errors gets neither: hoba then reads the YAML and reports the errors
// as it goes.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READER_INDEX } from '../src/analysis/reader.ts';
import { snapshotIndexes } from '../src/analysis/indexes.ts';
import { trainingCorpus } from '../src/registry/reader-corpus.ts';
import { contentHash } from '../src/registry/hash.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { makeSnapshot, openBundled, reusableIndexes, SNAPSHOT_FILE, writeSnapshot } from '../src/registry/snapshot.ts';
import { TEXTS_FILE } from '../src/cli/stored-text.ts';
import { writeTexts } from '../src/cli/stored-text-build.ts';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const out = join(root, 'dist', SNAPSHOT_FILE);
const texts = join(root, 'dist', TEXTS_FILE);
const load = loadAtlas(root);
const errors = load.problems.filter((p) => p.severity === 'error');
if (errors.length > 0) {
  for (const file of [out, texts]) if (existsSync(file)) rmSync(file);
  console.warn(`build: no atlas snapshot written: the content has ${errors.length} error(s); run hoba validate to see them.`);
} else {
  mkdirSync(join(root, 'dist'), { recursive: true });
  // The reader's model of the build before is reused when it was trained from the same inputs (training
  // takes minutes; TRAINER_REVISION in src/analysis/reader-train.ts marks a change of the training itself).
  const indexes = snapshotIndexes(trainingCorpus(root), reusableIndexes(root, READER_INDEX));
  writeSnapshot(out, makeSnapshot(load.registry, contentHash(root), indexes));
  const bundled = openBundled(out);
  if (bundled === undefined) throw new Error(`build: the snapshot just written (${out}) does not read back`);
  writeTexts(texts, bundled);
}
