// Training the situation reader's classifier (reader-model.ts) when the atlas is built: from the
// registry (each active artifact's voices, aliases and title; each not-covered topic's voices) and,
// where the checkout has one, the labelled corpus (quality/reader/train.yaml). One-vs-rest logistic
// regression by stochastic gradient descent, in a fixed order (a seeded shuffle per epoch), so the same
// examples always give the same model. Thresholds per class come from cross-validation on the same
// examples: the probability that best separates each class's held-out accounts from the others'. With a
// corpus, the same folds read its accounts (each by the fold model that did not see it) and the set
// decision and "not covered" decision (reader-score.ts) are fitted on those readings (setDecision).
import type { ReaderCorpusItem } from '../model/schemas.ts';
import type { Registry } from '../registry/registry.ts';
import { messageTells } from './reader-message.ts';
import {
  isTopicClass,
  loadModel,
  MODEL_FORMAT,
  modelOfWeights,
  OUT_OF_SCOPE,
  pairKey,
  scoreFeatures,
  serialiseModel,
  topicClass,
  type ReaderModel,
  type SerialisedModel,
  type StackModel,
  type TrainedWeights,
} from './reader-model.ts';
import {
  askFeatures,
  boostedProbability,
  candidates,
  countFeatures,
  firstPass,
  firstProbability,
  fitBoosted,
  fitStack,
  outFeatures,
  pairFeatures,
  score,
  type Candidate,
  type Scored,
} from './reader-score.ts';
import { featuresOf, readText } from './reader-text.ts';

/** One account and the classes it states (artifact IDs, OUT_OF_SCOPE, topic classes). */
export interface LabelledText {
  text: string;
  labels: readonly string[];
  /** How much it counts (default 1): an alias, a few words, counts less than an account. */
  weight?: number;
  /** A corpus account (its text and message apart, and its gold set): the set decision is fitted on these. */
  corpus?: CorpusItem;
  /** Composed from other examples: its words count for no feature's frequency (minCount, idf). */
  composed?: boolean;
}

/** A labelled account of the corpus (quality/reader/*.yaml). */
export type CorpusItem = Pick<ReaderCorpusItem, 'text' | 'message' | 'artifacts' | 'out_of_scope'> & Partial<Pick<ReaderCorpusItem, 'ask'>>;

export interface TrainOptions {
  epochs: number;
  /** Learning rate at the start; it decays as 1 / (1 + epoch / 4). */
  rate: number;
  /** L2 penalty, applied to the weights an example touches. */
  l2: number;
  /** How much more a positive example of a class counts than a negative one. */
  positiveWeight: number;
  /** Features seen in fewer examples are not learned. */
  minCount: number;
  seed: number;
  /** Folds of the cross-validation that sets the thresholds (0: every threshold is `threshold`). */
  folds: number;
  /** The threshold of a class whose held-out accounts are too few to set its own. */
  threshold: number;
  /** Weights smaller than this (in logits) are dropped from the shipped model. */
  prune: number;
  /**
   * The most characters the shipped model's words and weights may take (its JSON; the site sends it
   * gzipped, at about 0.43 of this): while they take more, `prune` rises by a tenth of a logit.
   */
  maxChars: number;
  /** The shipped weights' resolution: steps per logit. */
  steps: number;
  /**
   * Epochs of fitting again, after the prune, only the weights it keeps (with each account's vector scaled
   * over the words the model keeps, as the shipped model scales it); 0: the pruned weights as they were.
   */
  refit: number;
  /** How much a corpus account counts against a voice. */
  corpusWeight: number;
  /** Accounts composed from voices per pair or triple of observations the corpus states together. */
  composites: number;
  /**
   * The set decision's first pass as gradient-boosted trees (reader-score.ts fitBoosted) instead of a
   * logistic model; false: the logistic model.
   */
  trees: false | { rounds: number; depth: number; rate: number; lambda: number };
  /**
   * How many observations an account states, as boosted trees (reader-score.ts countFeatures): when it is
   * fewer than the set decision's threshold took, the set is the likeliest that many; false: the candidates
   * over the threshold, always.
   */
  count: false | { rounds: number; depth: number; rate: number; lambda: number };
  /**
   * Whether to ask a distinction's question, as boosted trees (reader-score.ts askFeatures) fitted on the
   * corpus accounts that leave its fact open; false: the hand rule (reader.ts DECISION).
   */
  ask: false | { rounds: number; depth: number; rate: number; lambda: number };
}

/** Bump when training changes in a way the options do not say: models trained before are not reused. */
const TRAINER_REVISION = 3;

const DEFAULT_TRAINING: TrainOptions = {
  epochs: 12,
  rate: 2,
  l2: 1e-5,
  positiveWeight: 1,
  minCount: 2,
  seed: 20261127,
  folds: 3,
  threshold: 0.05,
  prune: 0.8,
  maxChars: 275_000,
  steps: 4,
  refit: 4,
  corpusWeight: 3,
  composites: 5,
  trees: { rounds: 60, depth: 3, rate: 0.1, lambda: 10 },
  count: { rounds: 40, depth: 2, rate: 0.2, lambda: 10 },
  ask: { rounds: 40, depth: 2, rate: 0.2, lambda: 10 },
};

/** The features of a whole account: every clause's, questions and hypotheticals left out. */
function accountFeatures(text: string): string[] {
  const read = readText(text);
  const out = new Set<string>();
  for (const c of read.clauses) for (const f of featuresOf(read.tokens, c)) out.add(f);
  return [...out];
}

/**
 * The most observations the reader models. Training costs grow with examples × classes; the atlas has a
 * few dozen observations, and an atlas beyond this (the synthetic ones of the scale benchmark) is read
 * for its first MAX_READER_CLASSES active artifacts by ID only, so that building it stays bounded.
 */
const MAX_READER_CLASSES = 160;

/** The classes of a registry: its active artifacts by ID, then "out of scope", then one per not-covered topic. */
function classesOf(reg: Registry): string[] {
  const artifacts = reg
    .all('artifact')
    .filter((a) => a.status !== 'deprecated')
    .map((a) => a.id)
    .sort()
    .slice(0, MAX_READER_CLASSES);
  return [...artifacts, OUT_OF_SCOPE, ...(reg.manifest.not_covered ?? []).map((t) => topicClass(t.id))];
}

/** "You were asked…" as the person says it: "I was asked…" (an artifact's summary, read as an account). */
const firstPerson = (text: string) =>
  text
    .replace(/\byou are\b/gi, 'I am')
    .replace(/\byou were\b/gi, 'I was')
    .replace(/\byou have\b/gi, 'I have')
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, 'I');

/**
 * What the registry itself teaches: each active artifact's voices, and at half weight its aliases, title,
 * summary and the first paragraph of its description (read in the first person), and the tell-tale lines
 * of its specimens; each not-covered topic's voices and title.
 */
function examplesOfRegistry(reg: Registry, classes: ReadonlySet<string> = new Set(classesOf(reg))): LabelledText[] {
  const out: LabelledText[] = [];
  for (const a of reg.all('artifact')) {
    if (a.status === 'deprecated' || !classes.has(a.id)) continue;
    for (const v of a.voices ?? []) out.push({ text: v, labels: [a.id] });
    for (const alias of a.aliases) out.push({ text: alias, labels: [a.id], weight: 0.5 });
    out.push({ text: a.title, labels: [a.id], weight: 0.5 });
    out.push({ text: firstPerson(a.summary), labels: [a.id], weight: 0.5 });
    if (a.description) out.push({ text: firstPerson(a.description.split(/\n\s*\n/)[0]!), labels: [a.id], weight: 0.5 });
    for (const sp of a.specimens) for (const t of sp.tells) out.push({ text: t.quote, labels: [a.id], weight: 0.5 });
  }
  for (const t of reg.manifest.not_covered ?? []) {
    for (const v of t.voices) out.push({ text: v, labels: [OUT_OF_SCOPE, topicClass(t.id)] });
    out.push({ text: t.title, labels: [OUT_OF_SCOPE, topicClass(t.id)], weight: 0.5 });
  }
  return out;
}

/** Corpus items as training examples: the account (and any message it pasted), with what it states. */
function examplesOfCorpus(items: readonly CorpusItem[], classes: readonly string[]): LabelledText[] {
  const known = new Set(classes);
  return items.flatMap((item) => {
    const text = [item.text ?? '', item.message ?? ''].join('\n').trim();
    if (text === '') return [];
    const labels = [...item.artifacts.filter((a) => known.has(a)), ...(item.out_of_scope ? [OUT_OF_SCOPE] : [])];
    return [{ text, labels, corpus: item }];
  });
}

/** How composed accounts join their parts. */
const CONNECTORS = ['. ', '. Then ', ', and then ', '. Also ', '. On top of that ', '. After that ', ' and ', '. And '];

/**
 * Accounts of two or three observations composed from the voices, for the pairs and triples of
 * observations that the corpus states together: one voice of each, in a seeded random order, joined by a
 * connector. They teach the classifier that an observation is stated in a longer story beside another.
 */
function examplesOfComposites(
  reg: Registry,
  corpus: readonly CorpusItem[],
  classes: ReadonlySet<string>,
  perSet: number,
  seed: number,
): LabelledText[] {
  if (perSet <= 0) return [];
  const voices = new Map<string, string[]>();
  for (const a of reg.all('artifact'))
    if (a.status !== 'deprecated' && classes.has(a.id) && (a.voices?.length ?? 0) > 0) voices.set(a.id, a.voices!);
  const sets = new Map<string, string[]>();
  for (const item of corpus) {
    const ids = [...new Set(item.artifacts)].filter((id) => voices.has(id)).sort();
    if (ids.length >= 2 && ids.length <= 3) sets.set(ids.join(' '), ids);
  }
  const rand = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const out: LabelledText[] = [];
  for (const key of [...sets.keys()].sort()) {
    const ids = sets.get(key)!;
    for (let k = 0; k < perSet; k++) {
      const parts = ids.map((id) =>
        pick(voices.get(id)!)
          .trim()
          .replace(/[.!?]*$/, ''),
      );
      for (let i = parts.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [parts[i], parts[j]] = [parts[j]!, parts[i]!];
      }
      let text = parts[0]!;
      for (const p of parts.slice(1)) {
        const c = pick(CONNECTORS);
        text += c + (c.endsWith('. ') ? p[0]!.toUpperCase() + p.slice(1) : p);
      }
      out.push({ text: text + '.', labels: ids, composed: true });
    }
  }
  return out;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Prepared {
  features: string[];
  index: Map<string, number>;
  /** Per feature: ln(examples / examples holding it). */
  idf: Float64Array;
  /** Each example's features and their values (idf, scaled to unit length). */
  rows: Array<{ x: Int32Array; v: Float64Array; labels: Uint8Array; weight: number }>;
}

function prepare(examples: readonly LabelledText[], classes: readonly string[], minCount: number): Prepared {
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const featured = examples.map((e) => ({ f: accountFeatures(e.text), e }));
  const counts = new Map<string, number>();
  let counted = 0;
  for (const { f, e } of featured) {
    if (e.composed) continue;
    counted++;
    for (const x of f) counts.set(x, (counts.get(x) ?? 0) + 1);
  }
  const features = [...counts.entries()]
    .filter(([, n]) => n >= minCount)
    .map(([f]) => f)
    .sort();
  const index = new Map(features.map((f, i) => [f, i]));
  const idf = Float64Array.from(features, (f) => Math.log(counted / counts.get(f)!));
  const rows = featured.map(({ f, e }) => {
    const labels = new Uint8Array(classes.length);
    for (const l of e.labels) {
      const c = classIndex.get(l);
      if (c !== undefined) labels[c] = 1;
    }
    const x = Int32Array.from(f.flatMap((name) => (index.has(name) ? [index.get(name)!] : []))).sort();
    const v = Float64Array.from(x, (i) => idf[i]!);
    const norm = Math.sqrt(v.reduce((s, y) => s + y * y, 0)) || 1;
    for (let k = 0; k < v.length; k++) v[k]! /= norm;
    return { x, v, labels, weight: e.weight ?? 1 };
  });
  return { features, index, idf, rows };
}

function fit(p: Prepared, classes: readonly string[], o: TrainOptions, include: (i: number) => boolean): TrainedWeights {
  const C = classes.length;
  const F = p.features.length;
  const w = new Float64Array(F * C);
  const b = new Float64Array(C);
  const order = p.rows.map((_, i) => i).filter(include);
  const rand = random(o.seed);
  const z = new Float64Array(C);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    // Fisher–Yates with the seeded generator: the same order on every run.
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = o.rate / (1 + epoch / 4);
    for (const r of order) {
      const { x, v, labels, weight } = p.rows[r]!;
      z.set(b);
      for (let k = 0; k < x.length; k++) {
        const base = x[k]! * C;
        const xv = v[k]!;
        for (let c = 0; c < C; c++) z[c]! += w[base + c]! * xv;
      }
      for (let c = 0; c < C; c++) {
        const y = labels[c]!;
        const pr = 1 / (1 + Math.exp(-z[c]!));
        const g = (pr - y) * weight * (y ? o.positiveWeight : 1);
        z[c] = g;
        b[c]! -= rate * g;
      }
      for (let k = 0; k < x.length; k++) {
        const base = x[k]! * C;
        const xv = v[k]!;
        for (let c = 0; c < C; c++) {
          const i = base + c;
          w[i]! -= rate * (z[c]! * xv + o.l2 * w[i]!);
        }
      }
    }
  }
  return {
    classes: [...classes],
    features: p.features,
    bias: b,
    weights: w,
    thresholds: new Float64Array(C).fill(o.threshold),
    idf: p.idf,
  };
}

/**
 * Trains the classifier. With `folds` > 1, each class's threshold is the probability that maximises its
 * F1 on the held-out folds (shrunk towards `threshold` for classes with few examples).
 */
function trainModel(
  examples: readonly LabelledText[],
  classes: readonly string[],
  options: Partial<TrainOptions> = {},
  reg?: Registry,
): { trained: TrainedWeights; prune: number } {
  const given = { ...DEFAULT_TRAINING, ...options };
  const p = prepare(examples, classes, given.minCount);
  const full = fit(p, classes, given, () => true);
  // The set decision reads with fold models pruned as the shipped one is: the prune is settled first.
  const o = { ...given, prune: pruneToFit(full, given) };
  const trained = refitted(p, full, o, () => true);
  if (o.folds > 1) {
    const cv = crossValidatedThresholds(examples, p, classes, o);
    trained.thresholds = cv.thresholds;
    if (reg && examples.some((e) => e.corpus)) trained.stack = setDecision(reg, examples, cv.folds, cv.thresholds, o);
  }
  return { trained, prune: shippedPrune(o) };
}

/** The prune the shipped weights are written with: after a refit, every weight it kept. */
const shippedPrune = (o: TrainOptions) => (o.refit > 0 ? 0.5 / o.steps : o.prune);

/**
 * The weights the prune keeps (`o.prune`, in logits), fitted again for `o.refit` epochs with the others held
 * at zero: an account's vector is then scaled over the words the shipped model knows, as it is when read,
 * and the kept weights take up what the dropped ones carried. Only the kept words are returned.
 */
function refitted(p: Prepared, t: TrainedWeights, o: TrainOptions, include: (i: number) => boolean): TrainedWeights {
  if (o.refit <= 0) return t;
  const C = t.classes.length;
  const kept: number[] = [];
  const at = new Int32Array(p.features.length).fill(-1);
  const rowClasses: number[][] = [];
  for (let f = 0; f < p.features.length; f++) {
    const cs: number[] = [];
    for (let c = 0; c < C; c++) {
      const x = t.weights[f * C + c]!;
      if (Math.abs(x) >= o.prune && Math.round(x * o.steps) !== 0) cs.push(c);
    }
    if (cs.length === 0) continue;
    at[f] = kept.length;
    kept.push(f);
    rowClasses.push(cs);
  }
  const w = new Float64Array(kept.length * C);
  kept.forEach((f, k) => {
    for (const c of rowClasses[k]!) w[k * C + c] = t.weights[f * C + c]!;
  });
  const b = Float64Array.from(t.bias);
  const idf = Float64Array.from(kept, (f) => p.idf[f]!);
  const rows = p.rows.map((r) => {
    const x = Int32Array.from([...r.x].map((f) => at[f]!).filter((k) => k >= 0));
    const v = Float64Array.from(x, (k) => idf[k]!);
    const norm = Math.sqrt(v.reduce((s, y) => s + y * y, 0)) || 1;
    for (let k = 0; k < v.length; k++) v[k]! /= norm;
    return { ...r, x, v };
  });
  const order = rows.map((_, i) => i).filter(include);
  const rand = random(o.seed + 1);
  const z = new Float64Array(C);
  // On from the rate at which the first fit ended.
  const rate = o.rate / (1 + o.epochs / 4);
  for (let epoch = 0; epoch < o.refit; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const r of order) {
      const { x, v, labels, weight } = rows[r]!;
      z.set(b);
      for (let k = 0; k < x.length; k++) for (const c of rowClasses[x[k]!]!) z[c]! += w[x[k]! * C + c]! * v[k]!;
      for (let c = 0; c < C; c++) {
        const y = labels[c]!;
        const g = (1 / (1 + Math.exp(-z[c]!)) - y) * weight * (y ? o.positiveWeight : 1);
        z[c] = g;
        b[c]! -= rate * g;
      }
      for (let k = 0; k < x.length; k++)
        for (const c of rowClasses[x[k]!]!) {
          const i = x[k]! * C + c;
          w[i]! -= rate * (z[c]! * v[k]! + o.l2 * w[i]!);
        }
    }
  }
  return { ...t, features: kept.map((f) => p.features[f]!), bias: b, weights: w, idf };
}

/** The prune, from `o.prune` up by tenths of a logit, at which the model's words and weights fit `o.maxChars`. */
function pruneToFit(t: TrainedWeights, o: TrainOptions): number {
  let prune = o.prune;
  while (prune < 8 && JSON.stringify(serialiseModel(t, prune, o.steps)).length > o.maxChars) prune = Math.round(prune * 10 + 1) / 10;
  return prune;
}

/**
 * The fewest accounts on each side of every count ("at least 1, 2, 3 observations") for the count to be
 * learned: with fewer (a small corpus), the set is read by the set decision's threshold alone.
 */
const MIN_COUNT_ACCOUNTS = 30;

/**
 * The fewest accounts that leave a distinction's fact open (corpus items with `ask`) for the question to be
 * learned: with fewer, questions follow the hand rule.
 */
const MIN_ASK_ACCOUNTS = 20;

/** Below this share of the accounts stating the rarer of two answers, a distinction's pair is exclusive. */
export const TOGETHER_SHARE = 0.1;

/**
 * The pairs of a distinction's answers that the corpus does not state together: in fewer than
 * TOGETHER_SHARE of the accounts that state the rarer of the two (a pair neither side of which the corpus
 * states is left alone). Such a pair is two readings of one fact ("had you already sent your details?"),
 * so an account is read as one of them, never both; a pair the corpus states together (a final-round
 * silence and a recruiter's broken promise) can be both. Each as "A-xxx+A-yyy", the IDs in order.
 */
export function exclusivePairs(
  distinctions: ReadonlyArray<{ answers: ReadonlyArray<{ artifact: string }> }>,
  sets: ReadonlyArray<readonly string[]>,
): string[] {
  const out = new Set<string>();
  for (const d of distinctions) {
    const ids = [...new Set(d.answers.map((a) => a.artifact))].sort();
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const a = ids[i]!;
        const b = ids[j]!;
        const na = sets.filter((s) => s.includes(a)).length;
        const nb = sets.filter((s) => s.includes(b)).length;
        if (na === 0 || nb === 0) continue;
        const both = sets.filter((s) => s.includes(a) && s.includes(b)).length;
        if (both < TOGETHER_SHARE * Math.min(na, nb)) out.add(pairKey(a, b));
      }
  }
  return [...out].sort();
}

/**
 * The set decision, fitted on the corpus accounts as read by the fold models that did not see them (pruned
 * and rounded as the shipped model is): which candidates each account states. Its threshold is the one
 * that reads the most accounts' sets exactly.
 */
function setDecision(
  reg: Registry,
  examples: readonly LabelledText[],
  folds: readonly TrainedWeights[],
  thresholds: Float64Array,
  o: TrainOptions,
): StackModel {
  const models = folds.map((f) => loadModel(serialiseModel({ ...f, thresholds }, shippedPrune(o), o.steps)));
  const C = thresholds.length;
  const observation = (m: ReaderModel) => (c: number) => !m.classes[c]!.startsWith('~') && !isTopicClass(m.classes[c]!);
  interface Account {
    cands: Candidate[];
    y: number[];
    /** Gold observations that are not candidates: the set cannot be read exactly. */
    unreachable: boolean;
    skip: boolean;
    out: boolean;
    text: Scored | undefined;
    message: boolean;
    model: ReaderModel;
    /** How many observations the account states. */
    gold: number;
    /** The answers of a distinction the account leaves open (`ask`). */
    ask: readonly string[];
  }
  const accounts: Account[] = [];
  examples.forEach((e, i) => {
    const item = e.corpus;
    if (!item) return;
    const m = models[i % models.length]!;
    const text = item.text?.trim() ? score(m, item.text) : undefined;
    const message = item.message?.trim() ? score(m, item.message) : undefined;
    const tells = new Map<string, number>();
    if (item.message?.trim()) for (const t of messageTells(reg, item.message)) tells.set(t.artifact.id, t.tells.length);
    const out = m.classes.indexOf(OUT_OF_SCOPE);
    const gold = new Set(item.artifacts);
    const cands = candidates(m, text, message, tells, observation(m), out < 0 ? undefined : out);
    const y = cands.map((k) => (gold.has(m.classes[k.c]!) ? 1 : 0));
    accounts.push({
      cands,
      y,
      unreachable: y.reduce((n: number, v) => n + v, 0) < gold.size,
      skip: item.out_of_scope || (item.ask?.length ?? 0) > 0,
      out: item.out_of_scope,
      text,
      message: message !== undefined,
      model: m,
      // An account that leaves a distinction's fact open states one of its answers.
      gold: (item.ask?.length ?? 0) > 0 ? 1 : gold.size,
      ask: item.ask ?? [],
    });
  });
  // First pass: each candidate on its own numbers.
  const rows = accounts.flatMap((a) => a.cands.map((k, j) => ({ x: k.x, y: a.y[j]! })));
  const first = fitStack(rows);
  const t = o.trees;
  const boosted = t ? fitBoosted(rows, t.rounds, t.depth, t.rate, t.lambda) : undefined;
  const firstModel = { weights: first.weights, bias: first.bias, ...(boosted ? { boosted } : {}) };
  const p1 = accounts.map((a) => Float64Array.from(a.cands, (k) => firstProbability(firstModel, k.x)));
  // How often a candidate in play is stated beside an observation the account states.
  const IN_PLAY = 0.15;
  const n = new Map<number, number>();
  const k = new Map<number, number>();
  const pairsOf = (a: Account, i: number) => {
    const out: Array<[key: number, y: number]> = [];
    a.cands.forEach((d, j) => {
      if (!a.y[j]) return;
      a.cands.forEach((c, l) => {
        if (l !== j && p1[i]![l]! >= IN_PLAY) out.push([d.c * C + c.c, a.y[l]!]);
      });
    });
    return out;
  };
  accounts.forEach((a, i) => {
    for (const [key, y] of pairsOf(a, i)) {
      n.set(key, (n.get(key) ?? 0) + 1);
      k.set(key, (k.get(key) ?? 0) + y);
    }
  });
  const totalN = [...n.values()].reduce((x, v) => x + v, 0);
  const prior = totalN > 0 ? [...k.values()].reduce((x, v) => x + v, 0) / totalN : 0.5;
  const SMOOTH = 2;
  const rateOf = (key: number, dn = 0, dk = 0) => ((k.get(key) ?? 0) - dk + SMOOTH * prior) / ((n.get(key) ?? 0) - dn + SMOOTH);
  // Second pass, on rates that leave each account's own pairs out.
  const rows2: Array<{ x: Float64Array; y: number }> = [];
  const x2 = accounts.map((a, i) => {
    const own = new Map<number, [number, number]>();
    for (const [key, y] of pairsOf(a, i)) {
      const v = own.get(key) ?? [0, 0];
      own.set(key, [v[0] + 1, v[1] + y]);
    }
    const xs = pairFeatures(p1[i]!, a.cands, (d, c) => {
      const key = d * C + c;
      const [dn, dk] = own.get(key) ?? [0, 0];
      return rateOf(key, dn, dk);
    });
    xs.forEach((x, j) => {
      rows2.push({ x, y: a.y[j]! });
    });
    return xs;
  });
  const second = fitStack(rows2);
  const p2 = x2.map((xs) => Float64Array.from(xs, (x) => firstPass(second.weights, second.bias, x)));
  // The threshold that reads the most sets exactly (ties: the higher).
  let threshold = 0.5;
  let bestExact = -1;
  for (const t of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
    let exact = 0;
    accounts.forEach((a, i) => {
      if (a.skip || a.unreachable) return;
      if (a.y.every((y, j) => (p2[i]![j]! >= t ? 1 : 0) === y)) exact++;
    });
    if (exact >= bestExact) {
      bestExact = exact;
      threshold = t;
    }
  }
  // How many observations each account states, over the set decision's reading and the account's shape:
  // boosted trees for "at least 1", "at least 2" and "at least 3" (an ordinal count).
  let count: StackModel['count'];
  const ct = o.count;
  const enough = [1, 2, 3].every((j) => {
    const atLeast = accounts.filter((a) => a.gold >= j).length;
    return atLeast >= MIN_COUNT_ACCOUNTS && accounts.length - atLeast >= MIN_COUNT_ACCOUNTS;
  });
  if (ct && enough) {
    const cx = accounts.map((a, i) =>
      countFeatures(p2[i]!, threshold, a.text, a.message, a.model.classes.indexOf(OUT_OF_SCOPE), observation(a.model)),
    );
    count = [1, 2, 3].map((j) =>
      fitBoosted(
        cx.map((x, i) => ({ x, y: accounts[i]!.gold >= j ? 1 : 0 })),
        ct.rounds,
        ct.depth,
        ct.rate,
        ct.lambda,
      ),
    );
  }
  // "Not covered", on the accounts with words: fitted on the set decision's reading, its threshold the one
  // that reads the most accounts right (not covered when out of scope; else not, and the set exact).
  const outRows: Array<{ x: Float64Array; y: number; exactIfIn: boolean }> = [];
  accounts.forEach((a, i) => {
    if (!a.text) return;
    const out = a.model.classes.indexOf(OUT_OF_SCOPE);
    if (out < 0) return;
    const chosen = [...p2[i]!].filter((p) => p >= threshold);
    const exactIfIn = !a.out && !a.unreachable && a.y.every((y, j) => (p2[i]![j]! >= threshold ? 1 : 0) === y);
    outRows.push({ x: outFeatures(a.model, a.text, out, chosen, a.message, observation(a.model)), y: a.out ? 1 : 0, exactIfIn });
  });
  let outDecision: StackModel['out'];
  if (outRows.some((r) => r.y) && outRows.some((r) => !r.y)) {
    const fitted = fitStack(outRows);
    const po = outRows.map((r) => firstPass(fitted.weights, fitted.bias, r.x));
    let outThreshold = 0.5;
    let bestRight = -1;
    for (const t of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]) {
      let right = 0;
      outRows.forEach((r, i) => {
        if (po[i]! >= t ? r.y === 1 : r.exactIfIn) right++;
      });
      if (right > bestRight) {
        bestRight = right;
        outThreshold = t;
      }
    }
    outDecision = { weights: fitted.weights, bias: fitted.bias, threshold: outThreshold };
  }
  const rates = new Map<number, number>();
  for (const key of n.keys()) {
    const r = rateOf(key);
    if (Math.abs(r - prior) >= 0.05) rates.set(key, r);
  }
  const exclusive = exclusivePairs(
    reg.manifest.distinctions ?? [],
    examples.flatMap((e) => (e.corpus ? [e.corpus.artifacts] : [])),
  );
  const ask = askDecision(reg, accounts, p2, threshold, exclusive, o);
  return {
    weights: first.weights,
    bias: first.bias,
    ...(boosted ? { boosted } : {}),
    pair: { weights: second.weights, bias: second.bias, prior, rates },
    threshold,
    ...(outDecision ? { out: outDecision } : {}),
    ...(exclusive.length > 0 ? { exclusive } : {}),
    ...(count ? { count } : {}),
    ...(ask ? { ask } : {}),
  };
}

/**
 * Whether to ask a distinction's question, fitted on the corpus accounts with words (not out of scope) as
 * the fold models read them: one row per account and distinction whose likeliest answer the set decision
 * gives at least ASK_IN_PLAY; asked (1) when the account leaves that fact open (its `ask` names the two
 * likeliest answers). The probability at which to ask is the one that gains the most accounts: a question
 * asked where the fact is open gains one, a question asked where it is stated loses one.
 */
function askDecision(
  reg: Registry,
  accounts: ReadonlyArray<{ text: Scored | undefined; out: boolean; model: ReaderModel; cands: Candidate[]; ask: readonly string[] }>,
  p2: readonly Float64Array[],
  threshold: number,
  exclusive: readonly string[],
  o: TrainOptions,
): StackModel['ask'] {
  const at = o.ask;
  if (!at || accounts.filter((a) => a.ask.length > 0).length < MIN_ASK_ACCOUNTS) return undefined;
  const rows: Array<{ x: Float64Array; y: number }> = [];
  accounts.forEach((a, i) => {
    if (!a.text || a.out) return;
    const m = a.model;
    const setP = new Map(a.cands.map((k, j) => [k.c, p2[i]![j]!]));
    const isExclusive = (b: number, c: number) => exclusive.includes(pairKey(m.classes[b]!, m.classes[c]!));
    for (const d of reg.manifest.distinctions ?? []) {
      const members = [...new Set(d.answers.map((x) => m.classes.indexOf(x.artifact)))].filter((c) => c >= 0);
      const q = members.length < 2 ? undefined : askFeatures(members, setP, a.text, threshold, isExclusive);
      if (q) rows.push({ x: q.x, y: q.ranked.slice(0, 2).every((c) => a.ask.includes(m.classes[c]!)) ? 1 : 0 });
    }
  });
  if (!rows.some((r) => r.y) || !rows.some((r) => !r.y)) return undefined;
  const trees = fitBoosted(rows, at.rounds, at.depth, at.rate, at.lambda);
  const pa = rows.map((r) => boostedProbability(trees, r.x));
  let askThreshold = 1;
  let bestGain = 0;
  for (const t of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]) {
    let gain = 0;
    rows.forEach((r, i) => {
      if (pa[i]! >= t) gain += r.y ? 1 : -1;
    });
    if (gain > bestGain) {
      bestGain = gain;
      askThreshold = t;
    }
  }
  return { trees, threshold: askThreshold };
}

/** The thresholds cross-validation chooses from. */
const THRESHOLD_GRID = [0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6];

function crossValidatedThresholds(
  examples: readonly LabelledText[],
  p: Prepared,
  classes: readonly string[],
  o: TrainOptions,
): { thresholds: Float64Array; folds: TrainedWeights[] } {
  const C = classes.length;
  const held: Array<{ probs: Float64Array; labels: Uint8Array }> = [];
  const folds: TrainedWeights[] = [];
  for (let fold = 0; fold < o.folds; fold++) {
    const include = (i: number) => i % o.folds !== fold;
    const trained = refitted(p, fit(p, classes, o, include), o, include);
    folds.push(trained);
    const model = modelOfWeights(trained);
    p.rows.forEach((r, i) => {
      if (i % o.folds !== fold || (examples[i]!.weight ?? 1) < 1) return;
      const z = scoreFeatures(
        model,
        [...r.x].map((k) => p.features[k]!),
      );
      held.push({ probs: z.map((v) => 1 / (1 + Math.exp(-v))), labels: r.labels });
    });
  }
  const out = new Float64Array(C).fill(o.threshold);
  for (let c = 0; c < C; c++) {
    const positives = held.filter((h) => h.labels[c]).length;
    if (positives < 5) continue;
    let best = o.threshold;
    let bestF1 = -1;
    for (const t of THRESHOLD_GRID) {
      let tp = 0;
      let fp = 0;
      for (const h of held) {
        if (h.probs[c]! >= t) {
          if (h.labels[c]) tp++;
          else fp++;
        }
      }
      const f1 = (2 * tp) / (2 * tp + fp + (positives - tp));
      if (f1 > bestF1 + 1e-9) {
        bestF1 = f1;
        best = t;
      }
    }
    // Shrink towards the default by how few held-out positives there are.
    const k = positives / (positives + 20);
    out[c] = k * best + (1 - k) * o.threshold;
  }
  return { thresholds: out, folds };
}

/** What a model is trained from, and its fingerprint. */
export function trainingInputs(reg: Registry, corpus: readonly CorpusItem[] = [], options: Partial<TrainOptions> = {}) {
  const classes = classesOf(reg);
  const o = { ...DEFAULT_TRAINING, ...options };
  const examples = [
    ...examplesOfRegistry(reg, new Set(classes)),
    ...examplesOfCorpus(corpus, classes).map((e) => (o.corpusWeight !== 1 ? { ...e, weight: o.corpusWeight } : e)),
    ...examplesOfComposites(reg, corpus, new Set(classes), o.composites, o.seed),
  ];
  return {
    classes,
    examples,
    options: o,
    fingerprint: fingerprint(JSON.stringify({ MODEL_FORMAT, TRAINER_REVISION, classes, examples, o })),
  };
}

/** FNV-1a, 64 bits as two 32-bit halves in hex: a fingerprint, not a security hash. */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 7);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The reader's model of a registry (and a corpus, when given), as the snapshot carries it. */
export function buildReaderModel(reg: Registry, corpus: readonly CorpusItem[] = [], options: Partial<TrainOptions> = {}): SerialisedModel {
  const { classes, examples, options: o, fingerprint: trained_from } = trainingInputs(reg, corpus, options);
  const { trained, prune } = trainModel(examples, classes, o, reg);
  return { ...serialiseModel(trained, prune, o.steps), trained_from };
}

/** Trains and loads in one step (for a registry that came without a model). */
export function trainedReaderModel(reg: Registry, corpus: readonly CorpusItem[] = [], options: Partial<TrainOptions> = {}): ReaderModel {
  return loadModel(buildReaderModel(reg, corpus, options));
}
