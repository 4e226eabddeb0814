// The indexes of a checkout's snapshot (the search index and the situation reader's model, trained with the
// checkout's corpus), needed only when no snapshot fits the checkout. A module of its own so that the
// bundled entry (dist/cli.cjs) loads it, with the YAML parser and the schemas the corpus needs, from the
// program's chunks on demand (scripts/build.mjs), like the content loader.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotIndexes } from '../analysis/indexes.ts';
import { READER_INDEX } from '../analysis/reader.ts';
import { trainingCorpus } from '../registry/reader-corpus.ts';
import { BUNDLED_SNAPSHOT, readSnapshot, SNAPSHOT_FILE, type IndexBuilders } from '../registry/snapshot.ts';

/** The builders for `checkout`; a reader model trained from the same inputs is reused (reusableReaderModels). */
export function checkoutIndexes(checkout: string): IndexBuilders {
  return snapshotIndexes(trainingCorpus(checkout), reusableReaderModels(checkout));
}

/**
 * The reader models that may already be the one `checkout`'s content trains (readerModelText reuses the one
 * whose fingerprint matches; training takes minutes): the bundled snapshot's, and the checkout's own build's
 * (`dist/`), which is the one to reuse when hoba runs from source, as the tests and benchmarks do.
 */
export function reusableReaderModels(checkout: string): string[] {
  const files = [...new Set([BUNDLED_SNAPSHOT, join(checkout, 'dist', SNAPSHOT_FILE)])];
  return files.flatMap((file) => {
    const text = existsSync(file) ? readSnapshot(file)?.index(READER_INDEX) : undefined;
    return text === undefined ? [] : [text];
  });
}
