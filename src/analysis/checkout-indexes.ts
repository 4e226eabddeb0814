// The indexes of a checkout's snapshot (the search index and the situation reader's model, trained with the
// checkout's corpus), needed only when no snapshot fits the checkout. A module of its own so that the
// bundled entry (dist/cli.cjs) loads it, with the YAML parser and the schemas the corpus needs, from the
// program's chunks on demand (scripts/build.mjs), like the content loader.
import { snapshotIndexes } from '../analysis/indexes.ts';
import { READER_INDEX } from '../analysis/reader.ts';
import { trainingCorpus } from '../registry/reader-corpus.ts';
import { reusableIndexes, type IndexBuilders } from '../registry/snapshot.ts';

/** The builders for `checkout`; a reader model trained from the same inputs is reused (reusableIndexes). */
export function checkoutIndexes(checkout: string): IndexBuilders {
  return snapshotIndexes(trainingCorpus(checkout), reusableIndexes(checkout, READER_INDEX));
}
