// The indexes a snapshot carries, precomputed when it is built: the search index (search.ts) and the
// situation reader's model (reader-train.ts, trained on the registry and the checkout's labelled corpus).
// Kept apart from both so that neither module loads the other's builder.
import type { IndexBuilders } from '../registry/snapshot.ts';
import { READER_INDEX } from './reader.ts';
import { buildReaderModel, trainingInputs, type CorpusItem } from './reader-train.ts';
import { AtlasSearch } from './search.ts';
import type { Registry } from '../registry/registry.ts';

// Models trained in this process, by fingerprint: a site built twice from the same content trains once.
const trained = new Map<string, string>();

/**
 * The reader's model of a registry, as the snapshot and the site carry it (JSON text). Training takes
 * seconds, so a model trained from the same inputs is reused: one trained earlier in this process, or one
 * of `reuse` (e.g. the bundled snapshot's) whose fingerprint matches. Most edits of the atlas (a
 * mechanism, a source, a law note) do not change what the reader learns from.
 */
export function readerModelText(
  registry: Registry,
  corpus: readonly CorpusItem[] = [],
  reuse: ReadonlyArray<string | undefined> = [],
): string {
  const { fingerprint } = trainingInputs(registry, corpus);
  const known = trained.get(fingerprint) ?? reuse.find((text) => text !== undefined && text.includes(`"trained_from":"${fingerprint}"`));
  if (known !== undefined) return known;
  const text = JSON.stringify(buildReaderModel(registry, corpus));
  trained.set(fingerprint, text);
  return text;
}

/**
 * The builders of a snapshot's indexes; `corpus` is the checkout's training corpus
 * (quality/reader/train.yaml), `reuse` models that may already be the one to train (readerModelText).
 */
export function snapshotIndexes(corpus: readonly CorpusItem[] = [], reuse: ReadonlyArray<string | undefined> = []): IndexBuilders {
  return {
    search: (registry) => AtlasSearch.build(registry).toJSON(),
    [READER_INDEX]: (registry) => readerModelText(registry, corpus, reuse),
  };
}
