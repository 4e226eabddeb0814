#!/usr/bin/env node
// `npm run quality:reader`: how well the situation reader (src/analysis/reader.ts) reads people's accounts,
// measured on labelled accounts it was not trained on (issue 24; QUALITY.md has the targets and commands).
//
//   dev        quality/reader/dev.yaml (never trained on), read with the shipped model
//   train-dev  a fifth of quality/reader/train.yaml (ids whose hash falls in fold 0), read with a model
//              trained on the content and the other four fifths
//   voices-cv  with --cv: each artifact's voices in five folds, each read with a model trained without it
//   scenarios  the worked scenarios' situations, unedited, read with the shipped model (never trained on)
//   test       quality/reader/test.yaml, test2.yaml and test3.yaml, held out: only with --test (nothing is ever
//              tuned on them)
//
// For each: exact-set accuracy, precision, recall, out-of-scope recognised, negated observations chosen,
// questions asked, per-observation precision and recall, the pairs confused; and `hoba search` on the same
// accounts (the right observation in the top 3). Then the time a reading takes and the model's size.
//
//   npm run quality:reader [-- --test] [-- --cv] [-- --json] [-- --details]
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accountReader, readSituation, useReaderModel, type Reading } from '../src/analysis/reader.ts';
import type { ReaderModel } from '../src/analysis/reader-model.ts';
import { buildReaderModel } from '../src/analysis/reader-train.ts';
import { AtlasSearch } from '../src/analysis/search.ts';
import type { ReaderCorpusItem } from '../src/model/schemas.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { CORPUS_DIR, readCorpus, TRAIN_FILE } from '../src/registry/reader-corpus.ts';
import { Registry } from '../src/registry/registry.ts';
import { loadModel } from '../src/analysis/reader-model.ts';
import { agreementLine, developmentAgreement, summaryOf, type AgreementSummary } from './reader-agreement.ts';
import { searchFinds } from './reader-cv.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

export const TARGETS = {
  exact: 0.9,
  precision: 0.95,
  recall: 0.9,
  outOfScope: 0.9,
  negatedChosen: 0,
  /** Of the 28 scenarios the issue named (S-001..S-028): at least 26; the later ones in the same share. */
  scenariosExact: 26,
  scenariosNamed: 28,
  searchTop3: 0.95,
  readingP50Ms: 20,
  modelGzipKb: 150,
};

/**
 * The held-out test splits, each written without access to the training data and read only for a report:
 * test.yaml (485 accounts, read once on 27 November 2026, then seen), test2.yaml (407, written after
 * that reading by another writer who saw neither the training data nor test.yaml) and test3.yaml (150 long
 * accounts, 300 to 1,000 characters, written on 28 November by a writer who saw none of the corpus).
 */
const HELD_OUT = ['test', 'test2', 'test3'];

/** The scenarios' line: the 28 the issue named (S-001..S-028, target 26) and all of them in the same share. */
function scenarioLine(sc: QualityReport['scenarios']): string {
  const named = (id: string) => Number(id.slice(2)) <= TARGETS.scenariosNamed;
  const namedTotal = Math.min(sc.total, TARGETS.scenariosNamed);
  const namedExact = namedTotal - sc.misses.filter((m) => named(m.id)).length;
  const share = TARGETS.scenariosExact / TARGETS.scenariosNamed;
  const ok = namedExact >= TARGETS.scenariosExact && sc.exact >= Math.ceil(share * sc.total);
  return `scenarios (situations unedited): exact set for ${namedExact} of the first ${namedTotal} (≥ ${TARGETS.scenariosExact}), ${sc.exact} of all ${sc.total} (≥ ${Math.ceil(share * sc.total)}) ${mark(ok)}`;
}

/** The fold of train.yaml held out for development: a fifth, by a hash of the id (stable as items are added). */
export const devFold = (id: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 5 === 0;
};

interface Case {
  id: string;
  text?: string;
  message?: string;
  artifacts: string[];
  negated: string[];
  out_of_scope: boolean;
  ask: string[];
}

export interface SplitReport {
  split: string;
  accounts: number;
  exact: number;
  /** Exact when each question is answered with the gold observation among its options (the person's answer). */
  exact_answered: number;
  precision: number;
  recall: number;
  out_of_scope: { gold: number; recognised: number; recall: number; false_alarms: number };
  negated: { accounts: number; chosen: number; denied_said: number };
  questions: { asked: number; gold_ask: number; gold_ask_asked: number };
  messages: { accounts: number; exact: number };
  per_artifact: Array<{ id: string; gold: number; chosen: number; right: number; precision: number; recall: number }>;
  confusions: Array<{ gold: string; chosen: string; count: number }>;
  search_top3?: { accounts: number; found: number; share: number };
  misses: Array<{
    id: string;
    gold: string[];
    chosen: string[];
    out_of_scope: boolean;
    not_covered: boolean;
    asked: string[];
    text: string;
  }>;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function evaluate(split: string, reg: Registry, model: ReaderModel, cases: readonly Case[], search?: AtlasSearch): SplitReport {
  // Search as every door does: an account of six words or more is read too (by the model reading this split).
  const read = accountReader(reg, model);
  let exact = 0;
  let exactAnswered = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const oos = { gold: 0, recognised: 0, recall: 0, false_alarms: 0 };
  const negated = { accounts: 0, chosen: 0, denied_said: 0 };
  const questions = { asked: 0, gold_ask: 0, gold_ask_asked: 0 };
  const messages = { accounts: 0, exact: 0 };
  const per = new Map<string, { gold: number; chosen: number; right: number }>();
  const count = (id: string) => per.get(id) ?? (per.set(id, { gold: 0, chosen: 0, right: 0 }), per.get(id)!);
  const confusions = new Map<string, number>();
  const misses: SplitReport['misses'] = [];
  let searched = 0;
  let found = 0;
  for (const c of cases) {
    let r: Reading;
    try {
      r = readSituation(
        reg,
        { ...(c.text !== undefined ? { text: c.text } : {}), ...(c.message !== undefined ? { message: c.message } : {}) },
        model,
      );
    } catch {
      r = { text: c.text ?? '', observations: [], denied: [], questions: [], message_tells: [], answered: [] };
    }
    const chosen = r.observations.map((o) => o.id);
    const asked = r.questions.flatMap((q) => q.options.map((o) => o.artifact));
    const coveredOk = c.out_of_scope ? r.not_covered !== undefined : r.not_covered === undefined;
    const askOk = c.ask.length === 0 || c.ask.every((a) => asked.includes(a));
    const ok = sameSet(chosen, c.artifacts) && coveredOk && askOk;
    if (ok) exact++;
    // The person answers each question with the observation of theirs among its options.
    const answered = [
      ...chosen,
      ...r.questions.flatMap((q) =>
        q.options
          .map((o) => o.artifact)
          .filter((a) => c.artifacts.includes(a))
          .slice(0, 1),
      ),
    ];
    if (sameSet(answered, c.artifacts) && coveredOk) exactAnswered++;
    for (const a of chosen) {
      count(a).chosen++;
      if (c.artifacts.includes(a)) {
        tp++;
        count(a).right++;
      } else fp++;
    }
    for (const a of c.artifacts) {
      count(a).gold++;
      if (!chosen.includes(a)) fn++;
    }
    const missed = c.artifacts.filter((a) => !chosen.includes(a));
    const extra = chosen.filter((a) => !c.artifacts.includes(a));
    for (const g of missed.length > 0 ? missed : ['(none)'])
      for (const x of extra) confusions.set(`${g} ${x}`, (confusions.get(`${g} ${x}`) ?? 0) + 1);
    for (const g of missed) if (extra.length === 0) confusions.set(`${g} (none)`, (confusions.get(`${g} (none)`) ?? 0) + 1);
    if (c.out_of_scope) {
      oos.gold++;
      if (r.not_covered) oos.recognised++;
    } else if (r.not_covered) oos.false_alarms++;
    if (c.negated.length > 0) {
      negated.accounts++;
      if (c.negated.some((n) => chosen.includes(n))) negated.chosen++;
      if (c.negated.some((n) => r.denied.some((d) => d.id === n))) negated.denied_said++;
    }
    if (r.questions.length > 0) questions.asked++;
    if (c.ask.length > 0) {
      questions.gold_ask++;
      if (askOk) questions.gold_ask_asked++;
    }
    if (c.message !== undefined) {
      messages.accounts++;
      if (ok) messages.exact++;
    }
    if (!ok)
      misses.push({
        id: c.id,
        gold: c.artifacts,
        chosen,
        out_of_scope: c.out_of_scope,
        not_covered: r.not_covered !== undefined,
        asked,
        text: (c.text ?? c.message ?? '').slice(0, 200),
      });
    if (search && c.text !== undefined && c.artifacts.length > 0) {
      searched++;
      if (searchFinds(search, read, c.text, c.artifacts)) found++;
    }
  }
  oos.recall = ratio(oos.recognised, oos.gold);
  return {
    split,
    accounts: cases.length,
    exact: ratio(exact, cases.length),
    exact_answered: ratio(exactAnswered, cases.length),
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    out_of_scope: oos,
    negated,
    questions,
    messages,
    per_artifact: [...per.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([id, x]) => ({ id, ...x, precision: ratio(x.right, x.chosen), recall: ratio(x.right, x.gold) })),
    confusions: [...confusions.entries()]
      .map(([k, count]) => ({ gold: k.split(' ')[0]!, chosen: k.split(' ')[1]!, count }))
      .sort((a, b) => b.count - a.count || (a.gold + a.chosen < b.gold + b.chosen ? -1 : 1)),
    ...(search ? { search_top3: { accounts: searched, found, share: ratio(found, searched) } } : {}),
    misses,
  };
}

/** The folds of a cross-validation as one report (counts summed, rates recomputed). */
function mergeReports(split: string, parts: SplitReport[]): SplitReport {
  const accounts = parts.reduce((n, p) => n + p.accounts, 0);
  const weighted = (f: (p: SplitReport) => number) => parts.reduce((n, p) => n + f(p) * p.accounts, 0) / accounts;
  const per = new Map<string, { gold: number; chosen: number; right: number }>();
  for (const p of parts)
    for (const a of p.per_artifact) {
      const x = per.get(a.id) ?? { gold: 0, chosen: 0, right: 0 };
      per.set(a.id, { gold: x.gold + a.gold, chosen: x.chosen + a.chosen, right: x.right + a.right });
    }
  const tp = [...per.values()].reduce((n, x) => n + x.right, 0);
  const chosen = [...per.values()].reduce((n, x) => n + x.chosen, 0);
  const gold = [...per.values()].reduce((n, x) => n + x.gold, 0);
  const confusions = new Map<string, number>();
  for (const p of parts)
    for (const c of p.confusions) confusions.set(`${c.gold} ${c.chosen}`, (confusions.get(`${c.gold} ${c.chosen}`) ?? 0) + c.count);
  return {
    split,
    accounts,
    exact: weighted((p) => p.exact),
    exact_answered: weighted((p) => p.exact_answered),
    precision: ratio(tp, chosen),
    recall: ratio(tp, gold),
    out_of_scope: { gold: 0, recognised: 0, recall: 1, false_alarms: parts.reduce((n, p) => n + p.out_of_scope.false_alarms, 0) },
    negated: { accounts: 0, chosen: 0, denied_said: 0 },
    questions: { asked: parts.reduce((n, p) => n + p.questions.asked, 0), gold_ask: 0, gold_ask_asked: 0 },
    messages: { accounts: 0, exact: 0 },
    per_artifact: [...per.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([id, x]) => ({ id, ...x, precision: ratio(x.right, x.chosen), recall: ratio(x.right, x.gold) })),
    confusions: [...confusions.entries()]
      .map(([k, count]) => ({ gold: k.split(' ')[0]!, chosen: k.split(' ')[1]!, count }))
      .sort((a, b) => b.count - a.count || (a.gold + a.chosen < b.gold + b.chosen ? -1 : 1)),
    misses: parts.flatMap((p) => p.misses),
  };
}

const asCase = (x: ReaderCorpusItem): Case => ({
  id: x.id,
  ...(x.text !== undefined ? { text: x.text } : {}),
  ...(x.message !== undefined ? { message: x.message } : {}),
  artifacts: x.artifacts,
  negated: x.negated,
  out_of_scope: x.out_of_scope,
  ask: x.ask,
});

export interface QualityReport {
  registry_version: string;
  model: {
    classes: number;
    features: number;
    json_bytes: number;
    gzip_bytes: number;
    trained_on: { registry_examples: string; corpus: number };
  };
  reading_ms: { p50: number; p99: number; samples: number };
  splits: SplitReport[];
  scenarios: { total: number; exact: number; misses: Array<{ id: string; gold: string[]; chosen: string[]; asked: string[] }> };
  /** How often a second labeller, blind, agrees with the corpus (quality/reader/agreement.yaml): the reference for the exact figures. */
  agreement?: AgreementSummary;
}

/** The registry with every fifth voice of each artifact (those of fold `fold`) taken out, and those voices as cases. */
function voicesFold(reg: Registry, fold: number, folds: number): { registry: Registry; cases: Case[] } {
  const cases: Case[] = [];
  const data = reg.toData();
  const entities = data.entities.map((e) => {
    if (e.kind !== 'artifact' || e.status === 'deprecated') return e;
    const kept: string[] = [];
    (e.voices ?? []).forEach((v, i) => {
      if (i % folds === fold)
        cases.push({ id: `${e.id}-voice-${i}`, text: v, artifacts: [e.id], negated: [], out_of_scope: false, ask: [] });
      else kept.push(v);
    });
    return { ...e, voices: kept };
  });
  return { registry: new Registry({ ...data, entities }), cases };
}

export function measure(options: { test: boolean; cv?: boolean }): QualityReport {
  const reg = loadAtlas(ROOT).registry;
  const dir = join(ROOT, CORPUS_DIR);
  const train = readCorpus(join(dir, TRAIN_FILE));
  const dev = readCorpus(join(dir, 'dev.yaml'));
  const shippedJson = buildReaderModel(reg, train);
  const shipped = useReaderModel(reg, shippedJson);
  const search = AtlasSearch.build(reg);
  const splits: SplitReport[] = [];
  if (dev.length > 0) splits.push(evaluate('dev', reg, shipped, dev.map(asCase), search));
  const held = train.filter((x) => devFold(x.id));
  if (held.length > 0) {
    const foldModel = loadModel(
      buildReaderModel(
        reg,
        train.filter((x) => !devFold(x.id)),
      ),
    );
    splits.push(evaluate('train-dev', reg, foldModel, held.map(asCase), search));
  }
  if (options.cv) {
    const folds = 5;
    const parts = Array.from({ length: folds }, (_, fold) => {
      const { registry, cases } = voicesFold(reg, fold, folds);
      const model = loadModel(buildReaderModel(registry, train));
      return evaluate(`voices-cv ${fold + 1}`, registry, model, cases);
    });
    splits.push(mergeReports('voices-cv', parts));
  }
  if (options.test) {
    for (const name of HELD_OUT) {
      const test = readCorpus(join(dir, `${name}.yaml`));
      if (test.length > 0) splits.push(evaluate(name, reg, shipped, test.map(asCase), search));
    }
  }
  const scenarioMisses: QualityReport['scenarios']['misses'] = [];
  const scenarios = reg.all('scenario').filter((s) => s.status === 'active');
  for (const s of scenarios) {
    const r = readSituation(reg, { text: s.situation }, shipped);
    const chosen = r.observations.map((o) => o.id);
    if (!sameSet(chosen, s.input.artifacts))
      scenarioMisses.push({
        id: s.id,
        gold: s.input.artifacts,
        chosen,
        asked: r.questions.flatMap((q) => q.options.map((o) => o.artifact)),
      });
  }
  // Time per reading, in process, on the accounts at hand (after a warm-up).
  const texts = [...dev, ...train].map((x) => ({ text: x.text, message: x.message })).slice(0, 400);
  const samples = texts.length > 0 ? texts : scenarios.map((s) => ({ text: s.situation, message: undefined }));
  const read = (x: { text?: string | undefined; message?: string | undefined }) => {
    try {
      readSituation(
        reg,
        { ...(x.text !== undefined ? { text: x.text } : {}), ...(x.message !== undefined ? { message: x.message } : {}) },
        shipped,
      );
    } catch {
      // Timed all the same.
    }
  };
  for (const x of samples.slice(0, 50)) read(x);
  const times = samples.map((x) => {
    const start = process.hrtime.bigint();
    read(x);
    return Number(process.hrtime.bigint() - start) / 1e6;
  });
  times.sort((a, b) => a - b);
  const json = JSON.stringify(shippedJson);
  const agreement = developmentAgreement([...train, ...dev]);
  return {
    registry_version: reg.version,
    model: {
      classes: shippedJson.classes.length,
      features: loadModel(shippedJson).names.length,
      json_bytes: Buffer.byteLength(json),
      gzip_bytes: gzipSync(json, { level: 9 }).length,
      trained_on: {
        registry_examples: 'voices, aliases and titles of the active artifacts; voices of the not-covered topics',
        corpus: train.length,
      },
    },
    reading_ms: {
      p50: times[Math.floor(times.length / 2)] ?? NaN,
      p99: times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)] ?? NaN,
      samples: times.length,
    },
    splits,
    scenarios: { total: scenarios.length, exact: scenarios.length - scenarioMisses.length, misses: scenarioMisses },
    ...(agreement ? { agreement: summaryOf(agreement) } : {}),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const mark = (ok: boolean) => (ok ? '✔' : '✖');

export function renderReport(q: QualityReport, details: boolean): string {
  const out: string[] = [];
  out.push(`Situation reader, atlas ${q.registry_version}`);
  out.push(
    `model: ${q.model.classes} classes, ${q.model.features} features, ${(q.model.json_bytes / 1024).toFixed(0)} KB JSON, ${(q.model.gzip_bytes / 1024).toFixed(1)} KB gzipped ${mark(q.model.gzip_bytes / 1024 <= TARGETS.modelGzipKb)} (≤ ${TARGETS.modelGzipKb} KB); trained on the content and ${q.model.trained_on.corpus} corpus accounts`,
  );
  out.push(
    `reading: p50 ${q.reading_ms.p50.toFixed(2)} ms ${mark(q.reading_ms.p50 <= TARGETS.readingP50Ms)} (≤ ${TARGETS.readingP50Ms} ms), p99 ${q.reading_ms.p99.toFixed(2)} ms, ${q.reading_ms.samples} readings in process`,
  );
  if (q.agreement) out.push(agreementLine(q.agreement));
  out.push(scenarioLine(q.scenarios));
  for (const m of q.scenarios.misses)
    out.push(
      `  ${m.id}: expected ${m.gold.join(', ') || 'none'}; read ${m.chosen.join(', ') || 'none'}${m.asked.length > 0 ? `; asked about ${m.asked.join('/')}` : ''}`,
    );
  for (const s of q.splits) {
    out.push('');
    out.push(`${s.split}: ${s.accounts} accounts${HELD_OUT.includes(s.split) ? ' (held out)' : ''}`);
    out.push(
      `  exact set          ${pct(s.exact)} ${mark(s.exact >= TARGETS.exact)} (≥ ${pct(TARGETS.exact)}); with each question answered ${pct(s.exact_answered)}`,
    );
    out.push(`  precision          ${pct(s.precision)} ${mark(s.precision >= TARGETS.precision)} (≥ ${pct(TARGETS.precision)})`);
    out.push(`  recall             ${pct(s.recall)} ${mark(s.recall >= TARGETS.recall)} (≥ ${pct(TARGETS.recall)})`);
    out.push(
      `  out of scope       ${s.out_of_scope.recognised} of ${s.out_of_scope.gold} recognised (${pct(s.out_of_scope.recall)}) ${mark(s.out_of_scope.recall >= TARGETS.outOfScope)} (≥ ${pct(TARGETS.outOfScope)}); ${s.out_of_scope.false_alarms} in-scope accounts called not covered`,
    );
    out.push(
      `  negated            chosen in ${s.negated.chosen} of ${s.negated.accounts} accounts with a denial ${mark(s.negated.chosen === 0)} (never); the denial said back in ${s.negated.denied_said}`,
    );
    out.push(
      `  questions          asked on ${s.questions.asked} accounts; ${s.questions.gold_ask_asked} of ${s.questions.gold_ask} labelled "ask" asked`,
    );
    if (s.messages.accounts > 0) out.push(`  with a message     ${s.messages.exact} of ${s.messages.accounts} exact`);
    if (s.search_top3)
      out.push(
        `  hoba search top 3  ${s.search_top3.found} of ${s.search_top3.accounts} (${pct(s.search_top3.share)}) ${mark(s.search_top3.share >= TARGETS.searchTop3)} (≥ ${pct(TARGETS.searchTop3)})`,
      );
    const weak = s.per_artifact.filter((a) => a.precision < 0.9 || a.recall < 0.9);
    out.push(
      `  per observation    ${s.per_artifact.length} seen; below 90% precision or recall: ${weak.length === 0 ? 'none' : weak.map((a) => `${a.id} P ${pct(a.precision)} R ${pct(a.recall)} (${a.right}/${a.gold})`).join(', ')}`,
    );
    if (s.confusions.length > 0)
      out.push(
        `  confused (expected → read): ${s.confusions
          .slice(0, 12)
          .map((c) => `${c.gold} → ${c.chosen} ×${c.count}`)
          .join(', ')}`,
      );
    if (details)
      for (const m of s.misses)
        out.push(
          `    ${m.id}: expected ${m.gold.join(', ') || 'none'}${m.out_of_scope ? ' (out of scope)' : ''}; read ${m.chosen.join(', ') || 'none'}${m.not_covered ? ' (not covered)' : ''}${m.asked.length > 0 ? `; asked ${m.asked.join('/')}` : ''} | ${m.text.replace(/\s+/g, ' ')}`,
        );
  }
  return out.join('\n') + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      test: { type: 'boolean', default: false },
      cv: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      details: { type: 'boolean', default: false },
    },
  });
  const report = measure({ test: values.test, cv: values.cv });
  process.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : renderReport(report, values.details));
}
