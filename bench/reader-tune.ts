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
import { DECISION, readSituation, type Decision } from '../src/analysis/reader.ts';
import { loadModel, type ReaderModel } from '../src/analysis/reader-model.ts';
import { buildReaderModel } from '../src/analysis/reader-train.ts';
import type { ReaderCorpusItem } from '../src/model/schemas.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { CORPUS_DIR, readCorpus, TRAIN_FILE } from '../src/registry/reader-corpus.ts';
import type { Registry } from '../src/registry/registry.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const FOLDS = 5;

const foldOf = (id: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FOLDS;
};

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

interface Figures {
  exact: number;
  precision: number;
  recall: number;
  outOfScope: number;
  negatedChosen: number;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

function figures(reg: Registry, folds: ReadonlyArray<{ model: ReaderModel; items: ReaderCorpusItem[] }>, d: Decision): Figures {
  let n = 0;
  let exact = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let oos = 0;
  let oosOk = 0;
  let neg = 0;
  for (const { model, items } of folds) {
    for (const x of items) {
      n++;
      let chosen: string[] = [];
      let notCovered = false;
      let asked: string[] = [];
      try {
        const r = readSituation(
          reg,
          { ...(x.text !== undefined ? { text: x.text } : {}), ...(x.message !== undefined ? { message: x.message } : {}) },
          model,
          d,
        );
        chosen = r.observations.map((o) => o.id);
        notCovered = r.not_covered !== undefined;
        asked = r.questions.flatMap((q) => q.options.map((o) => o.artifact));
      } catch {
        // Read as nothing.
      }
      if (same(chosen, x.artifacts) && notCovered === x.out_of_scope && x.ask.every((a) => asked.includes(a))) exact++;
      for (const c of chosen) x.artifacts.includes(c) ? tp++ : fp++;
      for (const a of x.artifacts) if (!chosen.includes(a)) fn++;
      if (x.out_of_scope) {
        oos++;
        if (notCovered) oosOk++;
      }
      if (x.negated.some((a) => chosen.includes(a))) neg++;
    }
  }
  return {
    exact: exact / n,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    outOfScope: oosOk / Math.max(1, oos),
    negatedChosen: neg,
  };
}

const show = (f: Figures) =>
  `exact ${(f.exact * 100).toFixed(1)}%, precision ${(f.precision * 100).toFixed(1)}%, recall ${(f.recall * 100).toFixed(1)}%, out of scope ${(f.outOfScope * 100).toFixed(1)}%, negated chosen in ${f.negatedChosen}`;
const better = (a: Figures, b: Figures) =>
  a.exact > b.exact + 1e-9 || (Math.abs(a.exact - b.exact) <= 1e-9 && a.precision > b.precision + 1e-9);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
  const reg = loadAtlas(ROOT).registry;
  const train = readCorpus(join(ROOT, CORPUS_DIR, TRAIN_FILE));
  if (train.length === 0) {
    console.error(`reader-tune: no training corpus (${CORPUS_DIR}/${TRAIN_FILE}); nothing to tune on.`);
    process.exit(1);
  }
  process.stderr.write(`reader-tune: training ${FOLDS} fold models on ${train.length} accounts…\n`);
  const folds = Array.from({ length: FOLDS }, (_, k) => ({
    model: loadModel(
      buildReaderModel(
        reg,
        train.filter((x) => foldOf(x.id) !== k),
      ),
    ),
    items: train.filter((x) => foldOf(x.id) === k),
  }));
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
