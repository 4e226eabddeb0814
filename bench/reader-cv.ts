#!/usr/bin/env node
// Five-fold cross-validation of the situation reader on the whole labelled development corpus
// (quality/reader/train.yaml and dev.yaml; never test.yaml): the accounts are cut into five folds by a hash
// of each id, each fold is read by a model trained on the content and the other four folds, and the
// figures are given by shape (one, two, three observations, a denial, out of scope, a pasted message,
// "ask", nothing stated), and `hoba search` with each fold's reading (a right observation in the top 3).
// This is the measure each change of the reader is judged by (QUALITY.md, method).
//
//   node --import tsx bench/reader-cv.ts [--details] [--json] [--train '{"trees":false}']
//
// --train: training options (reader-train.ts TrainOptions) over the defaults, to measure a variant.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { accountReader, DECISION, readSituation, type Decision } from '../src/analysis/reader.ts';
import { AtlasSearch, MAX_QUERY_LENGTH, type AccountReader } from '../src/analysis/search.ts';
import { loadModel, type ReaderModel } from '../src/analysis/reader-model.ts';
import { buildReaderModel, type TrainOptions } from '../src/analysis/reader-train.ts';
import type { ReaderCorpusItem } from '../src/model/schemas.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { CORPUS_DIR, readCorpus, TRAIN_FILE } from '../src/registry/reader-corpus.ts';
import type { Registry } from '../src/registry/registry.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
export const FOLDS = 5;

export const foldOf = (id: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FOLDS;
};

/** The development corpus: train.yaml and dev.yaml (the held-out test split is never read here). */
export function developmentCorpus(): ReaderCorpusItem[] {
  const dir = join(ROOT, CORPUS_DIR);
  return [...readCorpus(join(dir, TRAIN_FILE)), ...readCorpus(join(dir, 'dev.yaml'))];
}

export type Shape = 'all' | 'one' | 'two' | 'three' | 'nothing' | 'negation' | 'out of scope' | 'message' | 'ask';

export function shapesOf(x: ReaderCorpusItem): Shape[] {
  const out: Shape[] = ['all'];
  if (x.ask.length > 0) out.push('ask');
  else if (x.out_of_scope) out.push('out of scope');
  else if (x.artifacts.length === 0) out.push('nothing');
  else out.push(x.artifacts.length === 1 ? 'one' : x.artifacts.length === 2 ? 'two' : 'three');
  if (x.negated.length > 0) out.push('negation');
  if (x.message !== undefined) out.push('message');
  return out;
}

export interface Outcome {
  item: ReaderCorpusItem;
  chosen: string[];
  notCovered: boolean;
  asked: string[];
  exact: boolean;
  /** For an account with text that states an observation: whether `hoba search` (with the reading) has one in its top 3. */
  searchTop3?: boolean;
}

const same = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

export function readAll(
  reg: Registry,
  folds: ReadonlyArray<{ model: ReaderModel; items: ReaderCorpusItem[] }>,
  d: Decision = DECISION,
  search?: AtlasSearch,
): Outcome[] {
  const out: Outcome[] = [];
  for (const { model, items } of folds) {
    const read = accountReader(reg, model);
    for (const x of items) {
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
      const exact = same(chosen, x.artifacts) && notCovered === x.out_of_scope && x.ask.every((a) => asked.includes(a));
      out.push({ item: x, chosen, notCovered, asked, exact, ...(search ? searchOutcome(search, read, x) : {}) });
    }
  }
  return out;
}

/**
 * Whether `hoba search` finds a right observation of an account in its top 3, searching as every door does
 * (the reading of an account given): the account's first 300 characters, cut at a word, among artifacts.
 * A query the index refuses (another language) finds nothing. bench/reader-quality.ts measures with it too.
 */
export function searchFinds(search: AtlasSearch, read: AccountReader, text: string, artifacts: readonly string[]): boolean {
  const query = text.length <= MAX_QUERY_LENGTH ? text : text.slice(0, MAX_QUERY_LENGTH).replace(/\s+\S*$/, '');
  try {
    const hits = search.search(query, { kinds: ['artifact'], limit: 3, read }).results.map((h) => h.id);
    return artifacts.some((a) => hits.includes(a));
  } catch {
    return false;
  }
}

function searchOutcome(search: AtlasSearch, read: AccountReader, x: ReaderCorpusItem): { searchTop3?: boolean } {
  return x.text === undefined || x.artifacts.length === 0 ? {} : { searchTop3: searchFinds(search, read, x.text, x.artifacts) };
}

export interface ShapeFigures {
  n: number;
  exact: number;
}
export interface CvFigures {
  exact: number;
  precision: number;
  recall: number;
  outOfScope: number;
  falseNotCovered: number;
  negatedChosen: number;
  byShape: Partial<Record<Shape, ShapeFigures>>;
  /** `hoba search` with the reading: accounts searched and those with a right observation in the top 3. */
  search?: { accounts: number; top3: number };
}

export function figuresOf(outcomes: readonly Outcome[]): CvFigures {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let oos = 0;
  let oosOk = 0;
  let falseNc = 0;
  let neg = 0;
  const byShape: Partial<Record<Shape, ShapeFigures>> = {};
  for (const o of outcomes) {
    for (const c of o.chosen) o.item.artifacts.includes(c) ? tp++ : fp++;
    for (const a of o.item.artifacts) if (!o.chosen.includes(a)) fn++;
    if (o.item.out_of_scope) {
      oos++;
      if (o.notCovered) oosOk++;
    } else if (o.notCovered) falseNc++;
    if (o.item.negated.some((a) => o.chosen.includes(a))) neg++;
    for (const s of shapesOf(o.item)) {
      byShape[s] ??= { n: 0, exact: 0 };
      const f = byShape[s];
      f.n++;
      if (o.exact) f.exact++;
    }
  }
  const searched = outcomes.filter((o) => o.searchTop3 !== undefined);
  return {
    ...(searched.length > 0 ? { search: { accounts: searched.length, top3: searched.filter((o) => o.searchTop3).length } } : {}),
    exact: byShape.all ? byShape.all.exact / byShape.all.n : 0,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    outOfScope: oosOk / Math.max(1, oos),
    falseNotCovered: falseNc,
    negatedChosen: neg,
    byShape,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
export function showFigures(f: CvFigures): string {
  const shapes = (Object.keys(f.byShape) as Shape[])
    .filter((s) => s !== 'all')
    .map((s) => `${s} ${pct(f.byShape[s]!.exact / f.byShape[s]!.n)} (${f.byShape[s]!.n})`);
  const search = f.search
    ? `\n  hoba search, a right observation in the top 3: ${f.search.top3} of ${f.search.accounts} (${pct(f.search.top3 / f.search.accounts)})`
    : '';
  return `exact ${pct(f.exact)}, precision ${pct(f.precision)}, recall ${pct(f.recall)}, out of scope ${pct(f.outOfScope)} (${f.falseNotCovered} false), negated chosen ${f.negatedChosen}\n  ${shapes.join(', ')}${search}`;
}

/** The fold models: each trained on the content and the other folds of the corpus. */
export function foldModels(
  reg: Registry,
  corpus: readonly ReaderCorpusItem[],
  options: Partial<TrainOptions> = {},
): Array<{ model: ReaderModel; items: ReaderCorpusItem[] }> {
  return Array.from({ length: FOLDS }, (_, k) => {
    process.stderr.write(`reader-cv: fold ${k + 1} of ${FOLDS}…\n`);
    return {
      model: loadModel(
        buildReaderModel(
          reg,
          corpus.filter((x) => foldOf(x.id) !== k),
          options,
        ),
      ),
      items: corpus.filter((x) => foldOf(x.id) === k),
    };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const USAGE = `usage: node --import tsx bench/reader-cv.ts [--details] [--json] [--train '{"trees":false}']`;
  let values: { details: boolean; json: boolean; train: string };
  let train: Partial<TrainOptions>;
  try {
    ({ values } = parseArgs({
      options: {
        details: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        train: { type: 'string', default: '{}' },
      },
    }));
    train = JSON.parse(values.train) as Partial<TrainOptions>;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const reg = loadAtlas(ROOT).registry;
  const corpus = developmentCorpus();
  const started = Date.now();
  const folds = foldModels(reg, corpus, train);
  const outcomes = readAll(reg, folds, DECISION, AtlasSearch.build(reg));
  const f = figuresOf(outcomes);
  if (values.json) console.log(JSON.stringify(f));
  else
    console.log(
      `5-fold CV on train.yaml + dev.yaml (${corpus.length} accounts, ${((Date.now() - started) / 1000).toFixed(0)} s):\n  ${showFigures(f)}`,
    );
  if (values.details) {
    for (const o of outcomes) {
      if (o.exact) continue;
      const x = o.item;
      console.log(
        `${x.id} [${shapesOf(x).slice(1).join(',')}] gold ${x.artifacts.join(',') || '-'}${x.out_of_scope ? ' OOS' : ''}${x.ask.length ? ` ask ${x.ask.join('/')}` : ''}${x.negated.length ? ` neg ${x.negated.join(',')}` : ''} | read ${o.chosen.join(',') || '-'}${o.notCovered ? ' NC' : ''}${o.asked.length ? ` asked ${o.asked.join('/')}` : ''} | ${(x.text ?? '').replace(/\s+/g, ' ').slice(0, 160)}${x.message ? ` || MSG ${x.message.replace(/\s+/g, ' ').slice(0, 100)}` : ''}`,
      );
    }
  }
}
