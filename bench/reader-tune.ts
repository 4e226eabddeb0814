#!/usr/bin/env node
// How the situation reader's decision values (DECISION in src/analysis/reader.ts) were chosen: by
// cross-validation on the training corpus, never by eye and never on the held-out test split. The corpus
// (quality/reader/train.yaml) is cut into five folds by a hash of each id; for each fold a model is trained
// on the content and the other four, and every account is read by the model that did not see it. Then each
// value is searched in turn over its grid (coordinate ascent, two rounds), keeping the one that reads the
// most accounts exactly (ties: the higher precision). It prints the values found and their figures beside
// those of the values in the code.
//
// A model trained with a corpus carries its own set decision and "not covered" decision, fitted when it is
// trained (reader-train.ts, setDecision, on out-of-fold readings; reader-score.ts): for such models only
// the values that decide questions (ASK_MARGIN, ASK_FLOOR, APART) are still in play and searched here. The
// cross-validation every change is judged by is bench/reader-cv.ts (train.yaml + dev.yaml, by shape).
//
//   node --import tsx bench/reader-tune.ts [--rounds 2]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DECISION, type Decision } from '../src/analysis/reader.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { CORPUS_DIR, readCorpus, TRAIN_FILE } from '../src/registry/reader-corpus.ts';
import type { Registry } from '../src/registry/registry.ts';
import { type CvFigures, figuresOf, foldModels, readAll } from './reader-cv.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

const GRID: { [K in keyof Decision]: ReadonlyArray<Decision[K]> } = {
  PRIMARY: [0.5, 1, 2, 4, 8],
  SENTENCE: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
  SUPPORT: [0.01, 0.02, 0.05, 0.1, 0.2],
  SECOND: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  OUT: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
  OUT_VERSUS: ['topic', 'class'],
  ASK_MARGIN: [0, 0.5, 1, 1.5, 2],
  ASK_FLOOR: [0.05, 0.1, 0.2, 0.3],
  APART: [0.4, 0.5, 0.6, 0.7, 0.8],
  MESSAGE: [0.7, 0.8, 0.9, 0.95, 1.01],
};

type Folds = ReturnType<typeof foldModels>;
const figures = (reg: Registry, folds: Folds, d: Decision): CvFigures => figuresOf(readAll(reg, folds, d));

const show = (f: CvFigures) =>
  `exact ${(f.exact * 100).toFixed(1)}%, precision ${(f.precision * 100).toFixed(1)}%, recall ${(f.recall * 100).toFixed(1)}%, out of scope ${(f.outOfScope * 100).toFixed(1)}%, negated chosen in ${f.negatedChosen}`;
const better = (a: CvFigures, b: CvFigures) =>
  a.exact > b.exact + 1e-9 || (Math.abs(a.exact - b.exact) <= 1e-9 && a.precision > b.precision + 1e-9);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
  const reg = loadAtlas(ROOT).registry;
  const train = readCorpus(join(ROOT, CORPUS_DIR, TRAIN_FILE));
  if (train.length === 0) {
    console.error(`reader-tune: no training corpus (${CORPUS_DIR}/${TRAIN_FILE}); nothing to tune on.`);
    process.exit(1);
  }
  const folds = foldModels(reg, train);
  const inCode = figures(reg, folds, DECISION);
  let best: Decision = { ...DECISION };
  let bestFigures = inCode;
  for (let round = 0; round < Number(values.rounds); round++) {
    const inPlay = (key: keyof Decision) => !folds[0]!.model.stack || key === 'ASK_MARGIN' || key === 'ASK_FLOOR' || key === 'APART';
    for (const key of (Object.keys(GRID) as Array<keyof Decision>).filter(inPlay)) {
      for (const value of GRID[key]) {
        const trial = { ...best, [key]: value } as Decision;
        const f = figures(reg, folds, trial);
        if (better(f, bestFigures)) {
          best = trial;
          bestFigures = f;
        }
      }
    }
    process.stderr.write(`reader-tune: round ${round + 1}: ${show(bestFigures)}\n`);
  }
  console.log(`The values in the code: ${JSON.stringify(DECISION)}\n  ${show(inCode)}`);
  console.log(`The values found:       ${JSON.stringify(best)}\n  ${show(bestFigures)}`);
}
