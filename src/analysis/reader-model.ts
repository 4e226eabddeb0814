// The situation reader's classifier: one-vs-rest logistic regression over the features of a person's words
// (reader-text.ts: stems and adjacent pairs, negation-marked), each weighed by how rare it is among the
// training accounts (idf) and the whole scaled to unit length; one class per active observation plus the
// classes of what the atlas does not cover. It is trained when the atlas is built (reader-train.ts, on the
// artifacts' voices and aliases, the not-covered topics' voices and the labelled corpus), shipped in the
// snapshot and the site as a compact string, and scored here: a sparse dot product per class, a few
// hundred microseconds for a paragraph. Deterministic: the same examples give the same bytes.
import { decode, encode } from './number-codec.ts';

/** The name of the class "this lies outside the atlas" (any topic of not_covered). */
export const OUT_OF_SCOPE = '~out';
/** The class of one not-covered topic: `~nc:<topic id>`. */
export const topicClass = (id: string) => `~nc:${id}`;
export const isTopicClass = (c: string) => c.startsWith('~nc:');

export const MODEL_FORMAT = 'hoba-reader/2';

/** A trained model, ready to score. */
export interface ReaderModel {
  classes: string[];
  /** Feature name → index. */
  features: Map<string, number>;
  /** Feature names, by index. */
  names: string[];
  /** Per class: the logit with no feature. */
  bias: Float64Array;
  /**
   * Per feature f: the classes it weighs on (`rowClass`) and the weights (`rowWeight`), at
   * [rowStart[f], rowStart[f + 1]). Three arrays for the whole model rather than two per feature: loading
   * it then allocates three objects, not 30,000.
   */
  rowStart: Int32Array;
  rowClass: Int32Array;
  rowWeight: Float64Array;
  /** Per class: the least probability at which it is chosen. */
  thresholds: Float64Array;
  /** Per feature: its weight in an account's vector before scaling to unit length (ln of accounts / accounts holding it). */
  idf: Float64Array;
  /** The set decision (reader-score.ts), when the model was trained with a corpus. */
  stack?: StackModel;
}

/**
 * The set decision (reader-score.ts): a first pass over STACK_FEATURES (boosted trees, `boosted`, when the
 * model was trained so; else the logistic `weights`); then a second, logistic, over its
 * probability and the observations read more strongly beside it, each weighed by how often the two are
 * stated together in the corpus (`rates`, by `d * classes + c`: of accounts stating d where c was in play,
 * the share that also state c; `prior` for a pair not seen); the candidate is chosen at `threshold`.
 */
export interface StackModel {
  weights: Float64Array;
  bias: number;
  pair?: { weights: Float64Array; bias: number; prior: number; rates: Map<number, number> };
  /** When present, the first pass is these boosted trees (reader-score.ts) instead of `weights`. */
  boosted?: { trees: Array<{ feature: Int32Array; cut: Float64Array; value: Float64Array }>; bias: number };
  threshold: number;
  /** "Not covered": a logistic model over reader-score.ts OUT_FEATURES, and its threshold. */
  out?: { weights: Float64Array; bias: number; threshold: number };
  /**
   * The pairs of a distinction's answers that the corpus does not state together (`exclusivePairs`), each
   * as "A-xxx+A-yyy" in order: an account is read as one of the two, never both.
   */
  exclusive?: string[];
  /**
   * How many observations the account states (reader-score.ts countFeatures, countOf): boosted trees for
   * "at least 1", "at least 2" and "at least 3".
   */
  count?: Array<NonNullable<StackModel['boosted']>>;
  /**
   * Whether to ask a distinction's question (reader-score.ts askFeatures): boosted trees, and the probability
   * at which the question is asked. Without it, questions follow the hand rule (reader.ts DECISION).
   */
  ask?: { trees: NonNullable<StackModel['boosted']>; threshold: number };
}

/** How StackModel.exclusive names a pair of observations: "A-xxx+A-yyy", the IDs in order. */
export const pairKey = (a: string, b: string) => (a < b ? `${a}+${b}` : `${b}+${a}`);

/** Boosted trees as the serialised model carries them: each tree's features, cuts and values. */
type SerialisedBoosted = { bias: number; trees: Array<[number[], number[], number[]]> };

/** The model as the snapshot and the site carry it: one JSON object of strings and small numbers. */
export interface SerialisedModel {
  format: typeof MODEL_FORMAT;
  classes: string[];
  /**
   * Feature names, front-coded and separated by spaces (a feature never holds one): each is one character
   * saying how many leading characters it shares with the one before (frontCode), then the rest. Small to
   * download: the site's model.
   */
  features?: string;
  /**
   * The same names written out whole, separated by spaces, in place of `features` (plainNames): quick to
   * load, for a process that loads the model at start (the snapshot's).
   */
  plain_features?: string;
  /** Weights are integers times `scale`. */
  scale: number;
  bias: number[];
  /** Per feature, in order: how many classes it weighs on, then each class index and its weight (encoded). */
  weights: string;
  /** Per class, in thousandths. */
  thresholds: number[];
  /** Per feature, in order: its idf in sixteenths (encoded). */
  idf: string;
  /** The set decision (StackModel), numbers in ten-thousandths; `rates` as triples d, c, rate. */
  stack?: {
    weights: number[];
    bias: number;
    threshold: number;
    boosted?: SerialisedBoosted;
    pair?: { weights: number[]; bias: number; prior: number; rates: number[] };
    out?: { weights: number[]; bias: number; threshold: number };
    exclusive?: string[];
    count?: SerialisedBoosted[];
    ask?: { trees: SerialisedBoosted; threshold: number };
  };
  /** A fingerprint of what it was trained from (examples, classes, options, trainer): the same inputs, the same model. */
  trained_from?: string;
}

/** Shared leading characters are written as one character, from '0' (none) up to this many. */
const MAX_SHARED = 40;

/** Names, each as how many leading characters it shares with the one before ('0' + n) and the rest. */
export function frontCode(names: readonly string[]): string {
  let prev = '';
  return names
    .map((name) => {
      let n = 0;
      while (n < MAX_SHARED && n < prev.length && n < name.length && prev[n] === name[n]) n++;
      prev = name;
      return String.fromCharCode(48 + n) + name.slice(n);
    })
    .join(' ');
}

/**
 * The model with its feature names written out whole (`plain_features`), or front-coded again (`features`):
 * the same model, and the same bytes back. Decoding front-coded names costs a fresh process about 4 ms more
 * than splitting plain ones (and the strings it builds make the name map slower), which every command that
 * reads an account would pay; the site's download is the one that must be small.
 */
export function plainNames(s: SerialisedModel): SerialisedModel {
  if (s.features === undefined) return s;
  const { features, ...rest } = s;
  return withNames(rest, { plain_features: frontDecode(features).join(' ') });
}
export function frontCodedNames(s: SerialisedModel): SerialisedModel {
  if (s.plain_features === undefined) return s;
  const { plain_features, ...rest } = s;
  return withNames(rest, { features: frontCode(plain_features === '' ? [] : plain_features.split(' ')) });
}
/** The names in the place `features` has in the serialised model (JSON keeps key order). */
function withNames(rest: Omit<SerialisedModel, 'features' | 'plain_features'>, names: Partial<SerialisedModel>): SerialisedModel {
  const { format, classes, ...after } = rest;
  return { format, classes, ...names, ...after };
}

/** The names frontCode wrote. */
export function frontDecode(coded: string): string[] {
  if (coded === '') return [];
  let prev = '';
  return coded.split(' ').map((part) => {
    prev = prev.slice(0, part.charCodeAt(0) - 48) + part.slice(1);
    return prev;
  });
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Weights as trained: dense, feature-major (feature f, class c at f * classes + c). */
export interface TrainedWeights {
  classes: string[];
  features: string[];
  bias: Float64Array;
  weights: Float64Array;
  thresholds: Float64Array;
  idf: Float64Array;
  stack?: StackModel;
}

const STACK_STEPS = 10000;

const q = (x: number) => Math.round(x * STACK_STEPS);
const unq = (x: number) => x / STACK_STEPS;

/** Boosted trees (the set decision's first pass, the count) as the serialised model carries them, and back. */
const serialiseBoosted = (b: NonNullable<StackModel['boosted']>): SerialisedBoosted => ({
  bias: q(b.bias),
  trees: b.trees.map((t) => [[...t.feature], [...t.cut].map(q), [...t.value].map(q)] as [number[], number[], number[]]),
});
const loadBoosted = (b: SerialisedBoosted): NonNullable<StackModel['boosted']> => ({
  bias: unq(b.bias),
  trees: b.trees.map(([f, c, v]) => ({ feature: Int32Array.from(f), cut: Float64Array.from(c, unq), value: Float64Array.from(v, unq) })),
});

function serialiseStack(st: StackModel, C: number): NonNullable<SerialisedModel['stack']> {
  return {
    weights: [...st.weights].map(q),
    bias: q(st.bias),
    threshold: q(st.threshold),
    ...(st.boosted ? { boosted: serialiseBoosted(st.boosted) } : {}),
    ...(st.pair
      ? {
          pair: {
            weights: [...st.pair.weights].map(q),
            bias: q(st.pair.bias),
            prior: q(st.pair.prior),
            rates: [...st.pair.rates.entries()].sort((a, b) => a[0] - b[0]).flatMap(([k, r]) => [Math.floor(k / C), k % C, q(r)]),
          },
        }
      : {}),
    ...(st.out ? { out: { weights: [...st.out.weights].map(q), bias: q(st.out.bias), threshold: q(st.out.threshold) } } : {}),
    ...(st.exclusive ? { exclusive: st.exclusive } : {}),
    ...(st.count ? { count: st.count.map(serialiseBoosted) } : {}),
    ...(st.ask ? { ask: { trees: serialiseBoosted(st.ask.trees), threshold: q(st.ask.threshold) } } : {}),
  };
}

function loadStack(s: NonNullable<SerialisedModel['stack']>, C: number): StackModel {
  const rates = new Map<number, number>();
  if (s.pair)
    for (let i = 0; i + 2 < s.pair.rates.length; i += 3) rates.set(s.pair.rates[i]! * C + s.pair.rates[i + 1]!, unq(s.pair.rates[i + 2]!));
  return {
    weights: Float64Array.from(s.weights, unq),
    bias: unq(s.bias),
    threshold: unq(s.threshold),
    ...(s.boosted ? { boosted: loadBoosted(s.boosted) } : {}),
    ...(s.pair
      ? { pair: { weights: Float64Array.from(s.pair.weights, unq), bias: unq(s.pair.bias), prior: unq(s.pair.prior), rates } }
      : {}),
    ...(s.out ? { out: { weights: Float64Array.from(s.out.weights, unq), bias: unq(s.out.bias), threshold: unq(s.out.threshold) } } : {}),
    ...(s.exclusive ? { exclusive: s.exclusive } : {}),
    ...(s.count ? { count: s.count.map(loadBoosted) } : {}),
    ...(s.ask ? { ask: { trees: loadBoosted(s.ask.trees), threshold: unq(s.ask.threshold) } } : {}),
  };
}

/** Steps of a weight, by default: 1/STEPS of a logit. Weights below half a step are dropped. */
const STEPS = 16;
/** Steps of an idf: sixteenths. */
const IDF_STEPS = 16;

export function serialiseModel(t: TrainedWeights, prune = 0.5 / STEPS, steps = STEPS): SerialisedModel {
  const C = t.classes.length;
  const spaced = t.features.find((f) => /\s/.test(f));
  if (spaced !== undefined) throw new Error(`the reader's feature "${spaced}" holds a space: features are joined by spaces in the model`);
  const keep: number[] = [];
  const numbers: number[] = [];
  for (let f = 0; f < t.features.length; f++) {
    const pairs: number[] = [];
    for (let c = 0; c < C; c++) {
      const w = t.weights[f * C + c]!;
      const q = Math.round(w * steps);
      if (Math.abs(w) >= prune && q !== 0) pairs.push(c, zigzag(q));
    }
    if (pairs.length === 0) continue;
    keep.push(f);
    numbers.push(pairs.length / 2);
    // Class indices as gaps from the previous one.
    let prev = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      numbers.push(pairs[i]! - prev, pairs[i + 1]!);
      prev = pairs[i]!;
    }
  }
  return {
    format: MODEL_FORMAT,
    classes: t.classes,
    features: frontCode(keep.map((f) => t.features[f]!)),
    scale: 1 / steps,
    bias: [...t.bias].map((b) => Math.round(b * steps)),
    weights: encode(numbers),
    thresholds: [...t.thresholds].map((x) => Math.round(x * 1000)),
    idf: encode(keep.map((f) => Math.max(1, Math.round(t.idf[f]! * IDF_STEPS)))),
    ...(t.stack ? { stack: serialiseStack(t.stack, C) } : {}),
  };
}

export function loadModel(s: SerialisedModel): ReaderModel {
  if (s.format !== MODEL_FORMAT)
    throw new Error(`the reader model is of format ${String(s.format)}, not ${MODEL_FORMAT}: rebuild with npm run build`);
  const names =
    s.plain_features !== undefined ? (s.plain_features === '' ? [] : s.plain_features.split(' ')) : frontDecode(s.features ?? '');
  const numbers = decode(s.weights);
  // Each feature is its count of weights, then (class step, weight) pairs: fewer than numbers / 2 in all.
  const rowStart = new Int32Array(names.length + 1);
  const rowClass = new Int32Array(numbers.length >> 1);
  const rowWeight = new Float64Array(numbers.length >> 1);
  let i = 0;
  let at = 0;
  for (let f = 0; f < names.length; f++) {
    const n = numbers[i++]!;
    let prev = 0;
    for (let k = 0; k < n; k++, at++) {
      prev += numbers[i++]!;
      rowClass[at] = prev;
      rowWeight[at] = unzigzag(numbers[i++]!) * s.scale;
    }
    rowStart[f + 1] = at;
  }
  return {
    classes: s.classes,
    features: new Map(names.map((n, f) => [n, f])),
    names,
    bias: Float64Array.from(s.bias, (b) => b * s.scale),
    rowStart,
    rowClass: rowClass.subarray(0, at),
    rowWeight: rowWeight.subarray(0, at),
    thresholds: Float64Array.from(s.thresholds, (x) => x / 1000),
    idf: Float64Array.from(decode(s.idf), (x) => x / IDF_STEPS),
    ...(s.stack ? { stack: loadStack(s.stack, s.classes.length) } : {}),
  };
}

/** A model straight from training (no rounding): what cross-validation scores with. */
export function modelOfWeights(t: TrainedWeights): ReaderModel {
  const C = t.classes.length;
  const rowStart = new Int32Array(t.features.length + 1);
  const cs: number[] = [];
  const ws: number[] = [];
  for (let f = 0; f < t.features.length; f++) {
    for (let c = 0; c < C; c++) {
      const w = t.weights[f * C + c]!;
      if (w !== 0) {
        cs.push(c);
        ws.push(w);
      }
    }
    rowStart[f + 1] = cs.length;
  }
  return {
    classes: t.classes,
    features: new Map(t.features.map((n, f) => [n, f])),
    names: t.features,
    bias: t.bias,
    rowStart,
    rowClass: Int32Array.from(cs),
    rowWeight: Float64Array.from(ws),
    thresholds: t.thresholds,
    idf: t.idf,
    ...(t.stack ? { stack: t.stack } : {}),
  };
}

/** The known features of a set, with each one's value: its idf, the whole scaled to unit length. */
function vectorOf(model: ReaderModel, features: readonly string[]): Array<[index: number, value: number]> {
  const known: Array<[number, number]> = [];
  let sum = 0;
  for (const f of features) {
    const i = model.features.get(f);
    if (i === undefined) continue;
    const v = model.idf[i]!;
    known.push([i, v]);
    sum += v * v;
  }
  const norm = sum > 0 ? 1 / Math.sqrt(sum) : 1;
  for (const k of known) k[1] *= norm;
  return known;
}

/** Logits of every class for a set of features (unknown features weigh nothing). */
export function scoreFeatures(model: ReaderModel, features: readonly string[]): Float64Array {
  const scores = Float64Array.from(model.bias);
  const { rowStart, rowClass, rowWeight } = model;
  for (const [i, x] of vectorOf(model, features)) {
    for (let k = rowStart[i]!, end = rowStart[i + 1]!; k < end; k++) scores[rowClass[k]!]! += rowWeight[k]! * x;
  }
  return scores;
}

/** The contribution of each feature to one class's logit (for quoting the words that carry it). */
export function contributions(model: ReaderModel, features: readonly string[], cls: number): Map<string, number> {
  const out = new Map<string, number>();
  const { rowStart, rowClass, rowWeight } = model;
  for (const [i, x] of vectorOf(model, features)) {
    for (let k = rowStart[i]!, end = rowStart[i + 1]!; k < end; k++) if (rowClass[k] === cls) out.set(model.names[i]!, rowWeight[k]! * x);
  }
  return out;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * The known word a misspelt one stands for: one edit away (a letter added, dropped, changed or two
 * swapped), same first letter, words of five letters or more. Undefined when none or several tie. The
 * words one edit away are written out and looked up (a few hundred for a word), so that loading a model
 * builds no list of its words.
 */
export function correctWord(model: ReaderModel, word: string): string | undefined {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
  // undefined: none found yet; null: two found, so none.
  let found: string | null | undefined;
  const consider = (candidate: string) => {
    if (candidate === word || found === null || !model.features.has(candidate)) return;
    if (found !== undefined && found !== candidate) found = null;
    else found = candidate;
  };
  const n = word.length;
  // Edits after the first letter keep it; a swap of the first two letters changes it unless they are the same.
  for (let i = 1; i <= n; i++) {
    const before = word.slice(0, i);
    const after = word.slice(i);
    if (i < n) consider(before + after.slice(1)); // dropped
    if (i < n - 1) consider(before + after[1]! + after[0]! + after.slice(2)); // swapped
    for (let l = 0; l < 26; l++) {
      const letter = LETTERS[l]!;
      if (i < n && letter !== after[0]) consider(before + letter + after.slice(1)); // changed
      consider(before + letter + after); // added
    }
  }
  return found ?? undefined;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
