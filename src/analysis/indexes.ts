// The indexes a snapshot carries, precomputed when it is built: the search index (search.ts) and the
// situation reader's model (reader-train.ts, trained on the registry and the checkout's labelled corpus).
// Kept apart from both so that neither module loads the other's builder.
import type { IndexBuilders } from '../registry/snapshot.ts';
import { READER_INDEX } from './reader.ts';
import { buildReaderModel, type CorpusItem } from './reader-train.ts';
import { AtlasSearch } from './search.ts';
import type { Registry } from '../registry/registry.ts';

/** The reader's model of a registry, as the snapshot and the site carry it (JSON text). */
export function readerModelText(registry: Registry, corpus: readonly CorpusItem[] = []): string {
  return JSON.stringify(buildReaderModel(registry, corpus));
}

/** The builders of a snapshot's indexes; `corpus` is the checkout's training corpus (quality/reader/train.yaml). */
export function snapshotIndexes(corpus: readonly CorpusItem[] = []): IndexBuilders {
  return {
    search: (registry) => AtlasSearch.build(registry).toJSON(),
    [READER_INDEX]: (registry) => readerModelText(registry, corpus),
  };
}
