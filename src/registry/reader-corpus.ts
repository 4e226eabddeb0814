// The situation reader's labelled corpus (quality/reader/*.yaml: train.yaml, dev.yaml, the held-out
// test.yaml, test2.yaml and test3.yaml, and the second labelling agreement.yaml), read and checked against
// its schema. The build trains on train.yaml; npm run quality:reader measures on the others (the test
// splits are held out: nothing is ever tuned on them).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { z } from 'zod';
import { ReaderCorpusItem, ReaderSecondLabel } from '../model/schemas.ts';

export const CORPUS_DIR = 'quality/reader';
/** What the build trains on. */
export const TRAIN_FILE = 'train.yaml';

/** The items of one corpus file; [] when it does not exist. Throws with the file and item when one is malformed. */
export function readCorpus(file: string): ReaderCorpusItem[] {
  return readItems(file, ReaderCorpusItem);
}

/** A second labelling of corpus accounts (agreement.yaml), checked as readCorpus checks the corpus. */
export function readSecondLabels(file: string): ReaderSecondLabel[] {
  return readItems(file, ReaderSecondLabel);
}

function readItems<T extends { id: string }>(file: string, schema: z.ZodType<T, unknown>): T[] {
  if (!existsSync(file)) return [];
  const data = parse(readFileSync(file, 'utf8')) as unknown;
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data)) throw new Error(`${file}: must be a YAML list of accounts`);
  const seen = new Set<string>();
  return data.map((raw, i) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown })?.id;
      throw new Error(
        `${file}: item ${i + 1}${typeof id === 'string' ? ` (${id})` : ''}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'item'} ${x.message}`).join('; ')}`,
      );
    }
    if (seen.has(parsed.data.id)) throw new Error(`${file}: the id ${parsed.data.id} is used twice`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
}

/** The training corpus of a checkout (quality/reader/train.yaml), or [] when it has none. */
export function trainingCorpus(checkout: string): ReaderCorpusItem[] {
  return readCorpus(join(checkout, CORPUS_DIR, TRAIN_FILE));
}
