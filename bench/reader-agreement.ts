#!/usr/bin/env node
// How often two careful readers agree on what an account states: the second labelling of 240 accounts of
// the development corpus (quality/reader/agreement.yaml, made blind from the definitions alone) against the
// corpus's own labels, counted as the reader is counted (the same set of observations, the same "not
// covered", the question asked when the corpus asks one). It is the reference the reader's figures are
// read against: what a person who reads the definitions gets on these accounts. With --cv, the reader's
// five-fold cross-validated reading of the same 240 accounts (reader-cv.ts, a minute) is set beside it.
// Nothing is trained or tuned on agreement.yaml.
//
//   node --import tsx bench/reader-agreement.ts [--cv] [--details]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ReaderCorpusItem, ReaderSecondLabel } from '../src/model/schemas.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { CORPUS_DIR, readSecondLabels } from '../src/registry/reader-corpus.ts';
import { developmentCorpus, foldModels, readAll, shapesOf, type Shape } from './reader-cv.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
export const AGREEMENT_FILE = 'agreement.yaml';

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Whether a second labelling reads an account as the corpus does, by the reader's own test of a reading (reader-cv.ts readAll). */
export function agrees(corpus: ReaderCorpusItem, second: ReaderSecondLabel): boolean {
  return (
    sameSet(second.artifacts, corpus.artifacts) &&
    second.out_of_scope === corpus.out_of_scope &&
    corpus.ask.every((a) => second.ask.includes(a)) &&
    (corpus.ask.length > 0 || second.ask.length === 0)
  );
}

export interface Agreement {
  /** The accounts labelled twice, each with the corpus's item, the second labelling and whether they agree. */
  pairs: Array<{ item: ReaderCorpusItem; second: ReaderSecondLabel; agree: boolean }>;
  agreed: number;
  precision: number;
  recall: number;
  /** Accounts where the second labeller chose an observation the corpus says the account denies. */
  negatedChosen: number;
  byShape: Map<Shape, { n: number; agreed: number }>;
}

/**
 * The second labelling against the corpus. Throws, naming the id, when it labels an account the corpus
 * does not hold: the two files have drifted apart.
 */
export function agreement(corpus: readonly ReaderCorpusItem[], second: readonly ReaderSecondLabel[]): Agreement {
  const byId = new Map(corpus.map((x) => [x.id, x]));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let negatedChosen = 0;
  const byShape = new Map<Shape, { n: number; agreed: number }>();
  const pairs = second.map((s) => {
    const item = byId.get(s.id);
    if (!item) throw new Error(`${CORPUS_DIR}/${AGREEMENT_FILE}: ${s.id} is not an account of train.yaml or dev.yaml`);
    const agree = agrees(item, s);
    tp += s.artifacts.filter((a) => item.artifacts.includes(a)).length;
    fp += s.artifacts.filter((a) => !item.artifacts.includes(a)).length;
    fn += item.artifacts.filter((a) => !s.artifacts.includes(a)).length;
    if (item.negated.some((a) => s.artifacts.includes(a))) negatedChosen++;
    for (const shape of shapesOf(item)) {
      const f = byShape.get(shape) ?? { n: 0, agreed: 0 };
      f.n++;
      if (agree) f.agreed++;
      byShape.set(shape, f);
    }
    return { item, second: s, agree };
  });
  return {
    pairs,
    agreed: pairs.filter((p) => p.agree).length,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    negatedChosen,
    byShape,
  };
}

/** The second labelling of the development corpus, checked; undefined when the checkout has none. */
export function developmentAgreement(corpus: readonly ReaderCorpusItem[] = developmentCorpus()): Agreement | undefined {
  const second = readSecondLabels(join(ROOT, CORPUS_DIR, AGREEMENT_FILE));
  return second.length > 0 ? agreement(corpus, second) : undefined;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The figures of an agreement, as the reader's report (reader-quality.ts) carries them. */
export interface AgreementSummary {
  accounts: number;
  agreed: number;
  precision: number;
  recall: number;
  negated_chosen: number;
}

export const summaryOf = (a: Agreement): AgreementSummary => ({
  accounts: a.pairs.length,
  agreed: a.agreed,
  precision: a.precision,
  recall: a.recall,
  negated_chosen: a.negatedChosen,
});

/** One line for the reader's report: the reference the reader's exact figure is read against. */
export function agreementLine(a: AgreementSummary): string {
  return `reference: a second labeller, blind, gives the corpus's exact set on ${a.agreed} of ${a.accounts} accounts (${pct(a.agreed / a.accounts)}; precision ${pct(a.precision)}, recall ${pct(a.recall)}, a denied observation chosen in ${a.negated_chosen}; bench/reader-agreement.ts)`;
}

const labels = (x: { artifacts: readonly string[]; out_of_scope: boolean; ask: readonly string[] }) =>
  `${x.artifacts.join(',') || '-'}${x.out_of_scope ? ' not covered' : ''}${x.ask.length ? ` ask ${x.ask.join('/')}` : ''}`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let values: { cv: boolean; details: boolean };
  try {
    ({ values } = parseArgs({ options: { cv: { type: 'boolean', default: false }, details: { type: 'boolean', default: false } } }));
  } catch (err) {
    console.error(`${(err as Error).message}\nusage: node --import tsx bench/reader-agreement.ts [--cv] [--details]`);
    process.exit(2);
  }
  const corpus = developmentCorpus();
  const a = developmentAgreement(corpus);
  if (!a) {
    console.error(`reader-agreement: no second labelling (${CORPUS_DIR}/${AGREEMENT_FILE}); nothing to compare.`);
    process.exit(1);
  }
  const n = a.pairs.length;
  console.log(`Two labellers on ${n} accounts of train.yaml and dev.yaml (${CORPUS_DIR}/${AGREEMENT_FILE}):`);
  console.log(`  the same exact set: ${a.agreed} of ${n} (${pct(a.agreed / n)})`);
  console.log(`  observations: precision ${pct(a.precision)}, recall ${pct(a.recall)}; a denied observation chosen in ${a.negatedChosen}`);
  console.log(
    `  by shape: ${[...a.byShape]
      .filter(([s]) => s !== 'all')
      .map(([s, f]) => `${s} ${f.agreed}/${f.n}`)
      .join(', ')}`,
  );
  let readRight: Set<string> | undefined;
  if (values.cv) {
    const reg = loadAtlas(ROOT).registry;
    const ids = new Set(a.pairs.map((p) => p.item.id));
    const outcomes = readAll(reg, foldModels(reg, corpus)).filter((o) => ids.has(o.item.id));
    readRight = new Set(outcomes.filter((o) => o.exact).map((o) => o.item.id));
    const labellerOnly = a.pairs.filter((p) => p.agree && !readRight!.has(p.item.id)).length;
    const readerOnly = a.pairs.filter((p) => !p.agree && readRight!.has(p.item.id)).length;
    console.log(`The reader (five-fold CV) on the same accounts: the exact set on ${readRight.size} of ${n} (${pct(readRight.size / n)})`);
    console.log(`  the labeller right and the reader wrong: ${labellerOnly}; the reader right and the labeller wrong: ${readerOnly}`);
  }
  if (values.details) {
    for (const p of a.pairs) {
      if (p.agree) continue;
      const text = `${p.item.text ?? ''}${p.item.message ? ` || MSG ${p.item.message}` : ''}`.replace(/\s+/g, ' ').slice(0, 160);
      const reader = readRight ? ` | reader ${readRight.has(p.item.id) ? 'right' : 'wrong'}` : '';
      console.log(
        `${p.item.id} corpus ${labels(p.item)} | second ${labels(p.second)}${p.second.unsure ? ` (${p.second.unsure})` : ''}${reader} | ${text}`,
      );
    }
  }
}
