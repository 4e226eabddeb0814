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

export const MODEL_FORMAT = 'hoba-reader/1';

/** A trained model, ready to score. */
export interface ReaderModel {
  classes: string[];
  /** Feature name → index. */
  features: Map<string, number>;
  /** Feature names, by index. */
  names: string[];
  /** Per class: the logit with no feature. */
  bias: Float64Array;
  /** Per feature: the classes it weighs on, and the weights (parallel arrays). */
  rows: Array<{ classes: Int32Array; weights: Float64Array }>;
  /** Per class: the least probability at which it is chosen. */
  thresholds: Float64Array;
  /** The plain words the model knows (unigram features without a mark), by first letter, for typo correction. */
  words: Map<string, string[]>;
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
}

/** The model as the snapshot and the site carry it: one JSON object of strings and small numbers. */
export interface SerialisedModel {
  format: typeof MODEL_FORMAT;
  classes: string[];
  /** Feature names, separated by spaces (a feature never holds one). */
  features: string;
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
    boosted?: { bias: number; trees: Array<[number[], number[], number[]]> };
    pair?: { weights: number[]; bias: number; prior: number; rates: number[] };
    out?: { weights: number[]; bias: number; threshold: number };
    exclusive?: string[];
  };
  /** A fingerprint of what it was trained from (examples, classes, options, trainer): the same inputs, the same model. */
  trained_from?: string;
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

function serialiseStack(st: StackModel, C: number): NonNullable<SerialisedModel['stack']> {
  return {
    weights: [...st.weights].map(q),
    bias: q(st.bias),
    threshold: q(st.threshold),
    ...(st.boosted
      ? {
          boosted: {
            bias: q(st.boosted.bias),
            trees: st.boosted.trees.map((t) => [[...t.feature], [...t.cut].map(q), [...t.value].map(q)] as [number[], number[], number[]]),
          },
        }
      : {}),
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
    ...(s.boosted
      ? {
          boosted: {
            bias: unq(s.boosted.bias),
            trees: s.boosted.trees.map(([f, c, v]) => ({
              feature: Int32Array.from(f),
              cut: Float64Array.from(c, unq),
              value: Float64Array.from(v, unq),
            })),
          },
        }
      : {}),
    ...(s.pair
      ? { pair: { weights: Float64Array.from(s.pair.weights, unq), bias: unq(s.pair.bias), prior: unq(s.pair.prior), rates } }
      : {}),
    ...(s.out ? { out: { weights: Float64Array.from(s.out.weights, unq), bias: unq(s.out.bias), threshold: unq(s.out.threshold) } } : {}),
    ...(s.exclusive ? { exclusive: s.exclusive } : {}),
  };
}

/** Steps of a weight: 1/STEPS of a logit. Weights below half a step are dropped. */
const STEPS = 16;
/** Steps of an idf: sixteenths. */
const IDF_STEPS = 16;

export function serialiseModel(t: TrainedWeights, prune = 0.5 / STEPS): SerialisedModel {
  const C = t.classes.length;
  const spaced = t.features.find((f) => /\s/.test(f));
  if (spaced !== undefined) throw new Error(`the reader's feature "${spaced}" holds a space: features are joined by spaces in the model`);
  const keep: number[] = [];
  const numbers: number[] = [];
  for (let f = 0; f < t.features.length; f++) {
    const pairs: number[] = [];
    for (let c = 0; c < C; c++) {
      const w = t.weights[f * C + c]!;
      const q = Math.round(w * STEPS);
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
    features: keep.map((f) => t.features[f]!).join(' '),
    scale: 1 / STEPS,
    bias: [...t.bias].map((b) => Math.round(b * STEPS)),
    weights: encode(numbers),
    thresholds: [...t.thresholds].map((x) => Math.round(x * 1000)),
    idf: encode(keep.map((f) => Math.max(1, Math.round(t.idf[f]! * IDF_STEPS)))),
    ...(t.stack ? { stack: serialiseStack(t.stack, C) } : {}),
  };
}

export function loadModel(s: SerialisedModel): ReaderModel {
  if (s.format !== MODEL_FORMAT)
    throw new Error(`the reader model is of format ${String(s.format)}, not ${MODEL_FORMAT}: rebuild with npm run build`);
  const names = s.features === '' ? [] : s.features.split(' ');
  const numbers = decode(s.weights);
  const rows: ReaderModel['rows'] = [];
  let i = 0;
  for (let f = 0; f < names.length; f++) {
    const n = numbers[i++]!;
    const classes = new Int32Array(n);
    const weights = new Float64Array(n);
    let prev = 0;
    for (let k = 0; k < n; k++) {
      prev += numbers[i++]!;
      classes[k] = prev;
      weights[k] = unzigzag(numbers[i++]!) * s.scale;
    }
    rows.push({ classes, weights });
  }
  return {
    classes: s.classes,
    features: new Map(names.map((n, f) => [n, f])),
    names,
    bias: Float64Array.from(s.bias, (b) => b * s.scale),
    rows,
    thresholds: Float64Array.from(s.thresholds, (x) => x / 1000),
    words: wordsByInitial(names),
    idf: Float64Array.from(decode(s.idf), (x) => x / IDF_STEPS),
    ...(s.stack ? { stack: loadStack(s.stack, s.classes.length) } : {}),
  };
}

/** A model straight from training (no rounding): what cross-validation scores with. */
export function modelOfWeights(t: TrainedWeights): ReaderModel {
  const C = t.classes.length;
  const rows: ReaderModel['rows'] = t.features.map((_, f) => {
    const cs: number[] = [];
    const ws: number[] = [];
    for (let c = 0; c < C; c++) {
      const w = t.weights[f * C + c]!;
      if (w !== 0) {
        cs.push(c);
        ws.push(w);
      }
    }
    return { classes: Int32Array.from(cs), weights: Float64Array.from(ws) };
  });
  return {
    classes: t.classes,
    features: new Map(t.features.map((n, f) => [n, f])),
    names: t.features,
    bias: t.bias,
    rows,
    thresholds: t.thresholds,
    words: wordsByInitial(t.features),
    idf: t.idf,
    ...(t.stack ? { stack: t.stack } : {}),
  };
}

function wordsByInitial(names: readonly string[]): Map<string, string[]> {
  const words = new Map<string, string[]>();
  for (const n of names) {
    if (n.length < 4 || n.includes('_') || n.startsWith('!') || !/^[a-z]+$/.test(n)) continue;
    const list = words.get(n[0]!) ?? [];
    list.push(n);
    words.set(n[0]!, list);
  }
  return words;
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
  for (const [i, x] of vectorOf(model, features)) {
    const row = model.rows[i]!;
    for (let k = 0; k < row.classes.length; k++) scores[row.classes[k]!]! += row.weights[k]! * x;
  }
  return scores;
}

/** The contribution of each feature to one class's logit (for quoting the words that carry it). */
export function contributions(model: ReaderModel, features: readonly string[], cls: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [i, x] of vectorOf(model, features)) {
    const row = model.rows[i]!;
    for (let k = 0; k < row.classes.length; k++) if (row.classes[k] === cls) out.set(model.names[i]!, row.weights[k]! * x);
  }
  return out;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * The known word a misspelt one stands for: one edit away (a letter added, dropped, changed or two
 * swapped), same first letter, words of five letters or more. Undefined when none or several tie.
 */
export function correctWord(model: ReaderModel, word: string): string | undefined {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
  const candidates = model.words.get(word[0]!);
  if (!candidates) return undefined;
  let found: string | undefined;
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) > 1) continue;
    if (withinOneEdit(word, c)) {
      if (found !== undefined && found !== c) return undefined;
      found = c;
    }
  }
  return found;
}

/** Optimal string alignment distance ≤ 1 (insert, delete, substitute, or swap two adjacent letters). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length === b.length) {
    let i = 0;
    while (a[i] === b[i]) i++;
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  return s.slice(i) === l.slice(i + 1);
}
