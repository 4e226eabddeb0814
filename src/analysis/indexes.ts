// The indexes a snapshot carries, precomputed when it is built: the search index (search.ts) and the
// situation reader's model (reader-train.ts, trained on the registry and the checkout's labelled corpus).
// Kept apart from both so that neither module loads the other's builder.
import type { IndexBuilders } from '../registry/snapshot.ts';
import { READER_INDEX } from './reader.ts';
import { frontCodedNames, plainNames, type SerialisedModel } from './reader-model.ts';
import { buildReaderModel, trainingInputs, type CorpusItem } from './reader-train.ts';
import { AtlasSearch } from './search.ts';
import type { Registry } from '../registry/registry.ts';

// Models trained or reused in this process, by fingerprint: a site built twice from the same content trains once.
const trained = new Map<string, string>();

/**
 * The reader's model of a registry, as the site carries it (JSON text; a snapshot carries snapshotModelText
 * of it). Training takes
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
  const mine = trained.get(fingerprint);
  if (mine !== undefined) return mine;
  const known = reuse.find((text) => text !== undefined && text.includes(`"trained_from":"${fingerprint}"`));
  // A snapshot's model has its names written out whole (snapshotModelText): front-coded again, the same text.
  // Either way it is kept for the process's next build of the same inputs (another checkout's, a copy's).
  const text =
    known !== undefined
      ? JSON.stringify(frontCodedNames(JSON.parse(known) as SerialisedModel))
      : JSON.stringify(buildReaderModel(registry, corpus));
  trained.set(fingerprint, text);
  return text;
}

/**
 * The model as a snapshot carries it: its names written out whole (plainNames), since a command that reads
 * an account loads it at start; the site's (readerModelText) has them front-coded, to download.
 */
function snapshotModelText(text: string): string {
  return JSON.stringify(plainNames(JSON.parse(text) as SerialisedModel));
}

/**
 * The builders of a snapshot's indexes; `corpus` is the checkout's training corpus
 * (quality/reader/train.yaml), `reuse` models that may already be the one to train (readerModelText).
 */
export function snapshotIndexes(corpus: readonly CorpusItem[] = [], reuse: ReadonlyArray<string | undefined> = []): IndexBuilders {
  return {
    search: (registry) => AtlasSearch.build(registry).toJSON(),
    [READER_INDEX]: (registry) => snapshotModelText(readerModelText(registry, corpus, reuse)),
  };
}
