// The situation reader's scoring (reader.ts reads with it; reader-train.ts fits the set decision with it):
// a text is read into windows (the whole account, each sentence, each clause of a sentence that holds
// several), each window scored by the classifier (reader-model.ts); then, for each observation in play,
// a few numbers describe how the account states it (its probability in the whole account, its best
// window, whether it leads there, how many sentences it leads, how far ahead of the others it is, whether
// a pasted message states it too or matches one of its tell-tale lines). The set decision (`stack` of the
// model) weighs these numbers into the probability that the account states the observation; it is fitted
// when the model is trained, on how the training corpus's accounts read with models that did not see them.
import { correctWord, isTopicClass, scoreFeatures, sigmoid, type ReaderModel, type StackModel } from './reader-model.ts';
import { featuresOf, readText, type ReadText, type Span } from './reader-text.ts';

export interface Window {
  span: Span;
  features: string[];
  logits: Float64Array;
}

export interface Scored {
  read: ReadText;
  windows: Window[];
  /** Per class, the best logit over the windows, and the window it came from. */
  best: Float64Array;
  from: Int32Array;
}

function unionOf(read: ReadText, spans: readonly Span[], denegate = false): string[] {
  const out = new Set<string>();
  for (const s of spans) for (const f of featuresOf(read.tokens, s, denegate)) out.add(f);
  return [...out];
}

/** Misspelt words the model does not know are read as the known word one edit away. */
function correctTypos(model: ReaderModel, read: ReadText): void {
  for (const t of read.tokens) {
    if (t.stem.length < 5 || model.features.has(t.stem) || model.features.has(`!${t.stem}`) || model.features.has(`?${t.stem}`)) continue;
    const known = correctWord(model, t.stem);
    if (known !== undefined) t.stem = known;
  }
}

/** Scores a text: the whole, each sentence, and each clause of a sentence that holds several. */
export function score(model: ReaderModel, text: string): Scored {
  const read = readText(text);
  correctTypos(model, read);
  const windows: Window[] = [];
  const add = (span: Span, spans: readonly Span[]) => {
    const features = unionOf(read, spans);
    if (features.length > 0) windows.push({ span, features, logits: scoreFeatures(model, features) });
  };
  // The whole account, then each sentence alone: a story of several events states each in its sentence.
  if (read.clauses.length > 0) add({ from: read.clauses[0]!.from, to: read.clauses.at(-1)!.to }, read.clauses);
  if (read.sentences.length > 1) {
    for (const s of read.sentences)
      add(
        s,
        read.clauses.filter((c) => c.from >= s.from && c.to <= s.to),
      );
  }
  // ...and each clause of a sentence that holds several ("they asked about my gap, then said I was overqualified").
  for (const s of read.sentences) {
    const inside = read.clauses.filter((c) => c.from >= s.from && c.to <= s.to);
    if (inside.length > 1) for (const c of inside) add(c, [c]);
  }
  const C = model.classes.length;
  const best = new Float64Array(C).fill(-Infinity);
  const from = new Int32Array(C).fill(-1);
  windows.forEach((w, i) => {
    for (let c = 0; c < C; c++) {
      if (w.logits[c]! > best[c]!) {
        best[c] = w.logits[c]!;
        from[c] = i;
      }
    }
  });
  return { read, windows, best, from };
}

/** The logits of the account's negated clauses read as if stated (what it denies). */
function deniedLogits(model: ReaderModel, s: Scored): Float64Array[] {
  return s.read.negatedClauses.map((span) => scoreFeatures(model, featuresOf(s.read.tokens, span, true)));
}

// ── the set decision ────────────────────────────────────────────────────────────────────────────────

/** The names of the numbers the set decision weighs (in order). */
export const STACK_FEATURES = [
  'text',
  'p whole',
  'whole over threshold',
  'best window over threshold',
  'top in whole',
  'ahead in whole',
  'sentences led',
  'ahead in best window',
  'out of scope',
  'rank in whole',
  'denied',
  'top and over threshold',
  'message',
  'p message',
  'message over threshold',
  'top in message',
  'tell lines',
  'sentences',
] as const;

/** A class is a candidate when its best window, or the message's, reaches this probability, or a tell names it. */
const CANDIDATE_FLOOR = 0.02;

const clip = (x: number, a = 8) => Math.max(-a, Math.min(a, x));
const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));

export interface Candidate {
  c: number;
  x: Float64Array;
}

/**
 * The candidates of an account (its text and/or message, scored), each with the numbers the set
 * decision weighs. `observation` says which classes are observations; `tellLines` how many of the
 * message's lines match a tell of each observation; `out` the out-of-scope class.
 */
export function candidates(
  model: ReaderModel,
  text: Scored | undefined,
  message: Scored | undefined,
  tellLines: ReadonlyMap<string, number>,
  observation: (c: number) => boolean,
  out: number | undefined,
): Candidate[] {
  const C = model.classes.length;
  const obs: number[] = [];
  for (let c = 0; c < C; c++) if (observation(c)) obs.push(c);
  const topOf = (logits: Float64Array) => {
    let top = -1;
    let second = -Infinity;
    for (const c of obs) {
      if (top < 0 || logits[c]! > logits[top]!) {
        if (top >= 0) second = Math.max(second, logits[top]!);
        top = c;
      } else second = Math.max(second, logits[c]!);
    }
    return { top, second };
  };
  const textWhole = text?.windows[0];
  const msgWhole = message?.windows[0];
  const textTop = textWhole ? topOf(textWhole.logits) : undefined;
  const msgTop = msgWhole ? topOf(msgWhole.logits) : undefined;
  const windowTops = text ? text.windows.slice(1).map((w) => ({ w, ...topOf(w.logits) })) : [];
  const denied = text ? deniedLogits(model, text) : [];
  const sentences = text ? text.read.sentences.length : 0;
  const out_ = out !== undefined && textWhole ? sigmoid(textWhole.logits[out]!) : 0;
  const ranked = textWhole ? [...obs].sort((a, b) => textWhole.logits[b]! - textWhole.logits[a]!) : [];
  const rank = new Map(ranked.map((c, i) => [c, i + 1]));
  const result: Candidate[] = [];
  for (const c of obs) {
    const id = model.classes[c]!;
    const lines = tellLines.get(id) ?? 0;
    const textBest = text ? sigmoid(text.best[c]!) : 0;
    const msgBest = message ? sigmoid(message.best[c]!) : 0;
    if (textBest < CANDIDATE_FLOOR && msgBest < CANDIDATE_FLOOR && lines === 0) continue;
    const thr = logit(model.thresholds[c]!);
    const x = new Float64Array(STACK_FEATURES.length);
    if (text && textWhole && textTop) {
      const w = textWhole.logits[c]!;
      const others = c === textTop.top ? textTop.second : textWhole.logits[textTop.top]!;
      x[0] = 1;
      x[1] = sigmoid(w);
      x[2] = clip(w - thr) / 4;
      x[3] = clip(text.best[c]! - thr) / 4;
      x[4] = c === textTop.top ? 1 : 0;
      x[5] = clip(w - others) / 4;
      let led = 0;
      let bestGap = -8;
      for (const t of windowTops) {
        if (t.top === c && sigmoid(t.w.logits[c]!) >= 0.3) led++;
        const other = t.top === c ? t.second : t.w.logits[t.top]!;
        bestGap = Math.max(bestGap, clip(t.w.logits[c]! - other));
      }
      if (windowTops.length === 0) bestGap = clip(w - others);
      x[6] = Math.min(3, led) / 3;
      x[7] = bestGap / 4;
      x[8] = out_;
      x[9] = 1 / (rank.get(c) ?? obs.length);
      let den = 0;
      for (const d of denied) den = Math.max(den, sigmoid(d[c]!));
      x[10] = den;
      x[11] = x[4]! * (w >= thr ? 1 : 0);
      x[17] = Math.log(1 + sentences) / 2;
    }
    if (message && msgWhole && msgTop) {
      x[12] = 1;
      x[13] = sigmoid(msgWhole.logits[c]!);
      x[14] = clip(message.best[c]! - thr) / 4;
      x[15] = c === msgTop.top ? 1 : 0;
    }
    x[16] = Math.min(2, lines) / 2;
    result.push({ c, x });
  }
  return result;
}

/** The first pass of the set decision: a candidate's probability from its own numbers alone. */
export function firstPass(weights: Float64Array, bias: number, x: Float64Array): number {
  let z = bias;
  for (let i = 0; i < x.length; i++) z += weights[i]! * x[i]!;
  return sigmoid(z);
}

/** The first pass as the model has it: boosted trees when trained so, else the logistic model. */
export function firstProbability(stack: Pick<StackModel, 'weights' | 'bias' | 'boosted'>, x: Float64Array): number {
  return stack.boosted ? boostedProbability(stack.boosted, x) : firstPass(stack.weights, stack.bias, x);
}

/** The probability boosted trees (fitBoosted) give a row. */
export function boostedProbability(b: NonNullable<StackModel['boosted']>, x: Float64Array): number {
  let z = b.bias;
  for (const t of b.trees) z += treeValue(t, x);
  return sigmoid(z);
}

/** The numbers of the second pass: the first pass's logit, the strongest observation read beside it, and how rarely the two go together. */
export function pairFeatures(first: Float64Array, cands: readonly Candidate[], rate: (d: number, c: number) => number): Float64Array[] {
  return cands.map((k, i) => {
    let stronger = 0;
    let apart = 0;
    cands.forEach((o, j) => {
      if (j === i || first[j]! <= first[i]!) return;
      stronger = Math.max(stronger, first[j]!);
      apart = Math.max(apart, first[j]! * (1 - rate(o.c, k.c)));
    });
    const p = first[i]!;
    return Float64Array.from([clip(logit(p)) / 4, stronger, apart]);
  });
}

/** The probability that the account states each candidate (the set decision's two passes). */
export function stackProbabilities(stack: StackModel, cands: readonly Candidate[], C: number): Float64Array {
  const first = Float64Array.from(cands, (k) => firstProbability(stack, k.x));
  const pair = stack.pair;
  if (!pair) return first;
  const rate = (d: number, c: number) => pair.rates.get(d * C + c) ?? pair.prior;
  return Float64Array.from(pairFeatures(first, cands, rate), (x) => firstPass(pair.weights, pair.bias, x));
}

/**
 * Fits the set decision on candidate rows (labelled: is the observation in the account's set): logistic
 * regression by Newton's method on the L2-penalised log loss. Deterministic, a few milliseconds.
 */
export function fitStack(
  rows: ReadonlyArray<{ x: Float64Array; y: number; weight?: number }>,
  l2 = 1e-2,
  iterations = 25,
): { weights: Float64Array; bias: number } {
  const F = (rows[0]?.x.length ?? STACK_FEATURES.length) + 1; // the bias last
  const beta = new Float64Array(F);
  const xOf = (r: { x: Float64Array }, i: number) => (i < F - 1 ? r.x[i]! : 1);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(F);
    const H = Array.from({ length: F }, () => new Float64Array(F));
    for (const r of rows) {
      let z = 0;
      for (let i = 0; i < F; i++) z += beta[i]! * xOf(r, i);
      const p = sigmoid(z);
      const wt = r.weight ?? 1;
      const e = (p - r.y) * wt;
      const h = Math.max(1e-6, p * (1 - p)) * wt;
      for (let i = 0; i < F; i++) {
        const xi = xOf(r, i);
        if (xi === 0) continue;
        g[i]! += e * xi;
        for (let j = 0; j <= i; j++) H[i]![j]! += h * xi * xOf(r, j);
      }
    }
    for (let i = 0; i < F; i++) {
      for (let j = 0; j < i; j++) H[j]![i] = H[i]![j]!;
      if (i < F - 1) {
        g[i]! += l2 * rows.length * beta[i]!;
        H[i]![i]! += l2 * rows.length;
      }
      H[i]![i]! += 1e-9;
    }
    const step = solve(H, g);
    let moved = 0;
    for (let i = 0; i < F; i++) {
      beta[i]! -= step[i]!;
      moved = Math.max(moved, Math.abs(step[i]!));
    }
    if (moved < 1e-7) break;
  }
  return { weights: beta.slice(0, F - 1), bias: beta[F - 1]! };
}

/** Solves H s = g by Gaussian elimination with partial pivoting (H small and symmetric positive definite). */
function solve(H: Float64Array[], g: Float64Array): Float64Array {
  const n = g.length;
  const a = H.map((row, i) => [...row, g[i]!]);
  for (let k = 0; k < n; k++) {
    let piv = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(a[i]![k]!) > Math.abs(a[piv]![k]!)) piv = i;
    [a[k], a[piv]] = [a[piv]!, a[k]!];
    const d = a[k]![k]! || 1e-12;
    for (let i = k + 1; i < n; i++) {
      const f = a[i]![k]! / d;
      if (f === 0) continue;
      for (let j = k; j <= n; j++) a[i]![j]! -= f * a[k]![j]!;
    }
  }
  const s = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let v = a[i]![n]!;
    for (let j = i + 1; j < n; j++) v -= a[i]![j]! * s[j]!;
    s[i] = v / (a[i]![i]! || 1e-12);
  }
  return s;
}

// ── "not covered" ───────────────────────────────────────────────────────────────────────────────────

/** The names of the numbers the "not covered" decision weighs (in order). */
const OUT_FEATURES = [
  'p out',
  'best topic',
  'out over best observation',
  'best window out',
  'best chosen',
  'chosen',
  'asked share',
  'message',
  'denies',
] as const;

/** The names of the numbers the count of observations is decided on (in order). */
export const COUNT_FEATURES = [
  'p 1st',
  'p 2nd',
  'p 3rd',
  'p 4th',
  'logit 1st',
  'logit 2nd',
  'logit 3rd',
  'sum of p',
  'over threshold',
  'sentences',
  'clauses',
  'words',
  'message',
  'asked share',
  'p out',
  'negated clauses',
  'windows led',
] as const;

/**
 * The numbers the count of observations an account states is decided on: the set decision's probabilities
 * of its candidates, best first, and the shape of the account (sentences, clauses, words, a message, what
 * it asks, denies, and how many different observations lead its sentences and clauses).
 */
export function countFeatures(
  p: ArrayLike<number>,
  threshold: number,
  text: Scored | undefined,
  hasMessage: boolean,
  out: number | undefined,
  observation: (c: number) => boolean,
): Float64Array {
  const x = new Float64Array(COUNT_FEATURES.length);
  const sorted = Array.from(p).sort((a, b) => b - a);
  for (let i = 0; i < 4; i++) x[i] = sorted[i] ?? 0;
  for (let i = 0; i < 3; i++) x[4 + i] = clip(logit(sorted[i] ?? 0)) / 8;
  const sum = sorted.reduce((a, b) => a + b, 0);
  x[7] = Math.min(4, sum) / 4;
  x[8] = Math.min(4, sorted.filter((v) => v >= threshold).length) / 4;
  if (text) {
    const tokens = text.read.tokens;
    x[9] = Math.log(1 + text.read.sentences.length) / 2;
    x[10] = Math.log(1 + text.read.clauses.length) / 2;
    x[11] = Math.log(1 + tokens.length) / 5;
    x[13] = tokens.filter((t) => t.asked).length / Math.max(1, tokens.length);
    const whole = text.windows[0];
    x[14] = out !== undefined && whole ? sigmoid(whole.logits[out]!) : 0;
    x[15] = Math.min(3, text.read.negatedClauses.length) / 3;
    const leaders = new Set<number>();
    for (const w of text.windows.slice(1)) {
      let top = -1;
      for (let c = 0; c < w.logits.length; c++) if (observation(c) && (top < 0 || w.logits[c]! > w.logits[top]!)) top = c;
      if (top >= 0 && sigmoid(w.logits[top]!) >= 0.3) leaders.add(top);
    }
    x[16] = Math.min(4, leaders.size) / 4;
  }
  x[12] = hasMessage ? 1 : 0;
  return x;
}

/** How many observations the count models (StackModel.count) read the account as stating: 0 to 3. */
export function countOf(count: NonNullable<StackModel['count']>, x: Float64Array): number {
  let k = 0;
  for (const m of count) {
    if (boostedProbability(m, x) < 0.5) break;
    k++;
  }
  return k;
}

/** A distinction's question is weighed when the set decision gives its likeliest answer at least this. */
const ASK_IN_PLAY = 0.05;

/** The names of the numbers a distinction's question is decided on (in order). */
export const ASK_FEATURES = [
  'p 1st',
  'p 2nd',
  '1st over threshold',
  'whole 1st',
  'whole 2nd',
  'whole gap',
  'best window gap',
  'answers',
  'others stated',
  'words',
  'asked share',
  'exclusive',
] as const;

/**
 * The numbers a distinction's question is decided on (ASK_FEATURES), or undefined when its likeliest answer
 * is not in play: how its answers (`members`, classes) read in the account (the set decision's
 * probabilities `setP` by class, best first; the first pass in the whole account and in its best windows),
 * how many other observations the set decision states, the account's length, how much of it asks or
 * wonders, and whether the corpus never states the two likeliest together (`exclusive`). The members come
 * back best first. Training (reader-train.ts askDecision) and reading (reader.ts) both call it.
 */
export function askFeatures(
  members: readonly number[],
  setP: ReadonlyMap<number, number>,
  text: Scored,
  threshold: number,
  exclusive: (first: number, second: number) => boolean,
): { ranked: number[]; x: Float64Array } | undefined {
  const p = (c: number) => setP.get(c) ?? 0;
  if (Math.max(...members.map(p)) < ASK_IN_PLAY) return undefined;
  let others = 0;
  for (const [c, v] of setP) if (v >= threshold && !members.includes(c)) others++;
  const whole = text.windows[0];
  const w = (c: number) => (whole ? whole.logits[c]! : -8);
  const ranked = [...members].sort((a, b) => p(b) - p(a) || w(b) - w(a));
  const [a, b] = ranked as [number, number];
  const x = new Float64Array(ASK_FEATURES.length);
  const tokens = text.read.tokens;
  x[0] = p(a);
  x[1] = p(b);
  x[2] = clip(logit(p(a)) - logit(threshold)) / 4;
  x[3] = sigmoid(w(a));
  x[4] = sigmoid(w(b));
  x[5] = clip(w(a) - w(b)) / 4;
  x[6] = clip(text.best[a]! - text.best[b]!) / 4;
  x[7] = members.length / 3;
  x[8] = Math.min(3, others) / 3;
  x[9] = Math.log(1 + tokens.length) / 5;
  x[10] = tokens.filter((t) => t.asked).length / Math.max(1, tokens.length);
  x[11] = exclusive(a, b) ? 1 : 0;
  return { ranked, x };
}

/**
 * The numbers "not covered" is decided on: how the out-of-scope class and its topics read in the account,
 * against the observations chosen (their set-decision probabilities), how much of the account asks or
 * wonders, whether a message was pasted and whether the account denies an observation.
 */
export function outFeatures(
  model: ReaderModel,
  text: Scored,
  out: number,
  chosenProbabilities: readonly number[],
  hasMessage: boolean,
  observation: (c: number) => boolean,
): Float64Array {
  const whole = text.windows[0];
  const x = new Float64Array(OUT_FEATURES.length);
  if (!whole) return x;
  let bestTopic = 0;
  let bestObs = -Infinity;
  model.classes.forEach((cls, c) => {
    if (isTopicClass(cls)) bestTopic = Math.max(bestTopic, sigmoid(whole.logits[c]!));
    else if (observation(c)) bestObs = Math.max(bestObs, whole.logits[c]!);
  });
  const asked = text.read.tokens.filter((t) => t.asked).length / Math.max(1, text.read.tokens.length);
  let denies = 0;
  for (const d of deniedLogits(model, text))
    model.classes.forEach((_, c) => {
      if (observation(c) && sigmoid(d[c]!) >= model.thresholds[c]!) denies = 1;
    });
  x[0] = sigmoid(whole.logits[out]!);
  x[1] = bestTopic;
  x[2] = clip(whole.logits[out]! - bestObs) / 4;
  x[3] = sigmoid(text.best[out]!);
  x[4] = chosenProbabilities.length > 0 ? Math.max(...chosenProbabilities) : 0;
  x[5] = Math.min(3, chosenProbabilities.length) / 3;
  x[6] = asked;
  x[7] = hasMessage ? 1 : 0;
  x[8] = denies;
  return x;
}

// ── boosted trees (the set decision's first pass, when trained so) ──────────────────────────────────

/** A tree as flat arrays: node k splits on feature[k] at cut[k] (x < cut: left = 2k+1, else 2k+2); a leaf has feature -1 and value[k]. */
export interface Tree {
  feature: Int32Array;
  cut: Float64Array;
  value: Float64Array;
}

function treeValue(t: Tree, x: Float64Array): number {
  let k = 0;
  while (t.feature[k]! >= 0) k = x[t.feature[k]!]! < t.cut[k]! ? 2 * k + 1 : 2 * k + 2;
  return t.value[k]!;
}

/**
 * Gradient-boosted trees on the log loss (Newton leaf values, L2 `lambda`), depth `depth`, cuts among each
 * feature's quantiles: deterministic.
 */
export function fitBoosted(
  rows: ReadonlyArray<{ x: Float64Array; y: number }>,
  rounds = 150,
  depth = 3,
  rate = 0.1,
  lambda = 5,
  minHessian = 3,
): { trees: Tree[]; bias: number } {
  const n = rows.length;
  const F = rows[0]?.x.length ?? 0;
  const mean = rows.reduce((s, r) => s + r.y, 0) / Math.max(1, n);
  const bias = Math.log(Math.max(1e-3, mean) / Math.max(1e-3, 1 - mean));
  const z = new Float64Array(n).fill(bias);
  // Candidate cuts: up to 16 distinct quantiles per feature.
  const cuts: number[][] = [];
  for (let f = 0; f < F; f++) {
    const vals = [...new Set(rows.map((r) => r.x[f]!))].sort((a, b) => a - b);
    const cs: number[] = [];
    const step = Math.max(1, Math.floor(vals.length / 16));
    for (let i = step; i < vals.length; i += step) cs.push((vals[i - 1]! + vals[i]!) / 2);
    cuts.push(cs);
  }
  const trees: Tree[] = [];
  const nodes = 2 ** (depth + 1) - 1;
  for (let round = 0; round < rounds; round++) {
    const g = new Float64Array(n);
    const h = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const p = sigmoid(z[i]!);
      g[i] = p - rows[i]!.y;
      h[i] = Math.max(1e-6, p * (1 - p));
    }
    const tree: Tree = { feature: new Int32Array(nodes).fill(-1), cut: new Float64Array(nodes), value: new Float64Array(nodes) };
    const grow = (k: number, idx: number[], d: number) => {
      let G = 0;
      let H = 0;
      for (const i of idx) {
        G += g[i]!;
        H += h[i]!;
      }
      tree.value[k] = (-G / (H + lambda)) * rate;
      if (d >= depth || H < 2 * minHessian) return;
      let best = 0;
      let bestF = -1;
      let bestCut = 0;
      const parent = (G * G) / (H + lambda);
      for (let f = 0; f < F; f++) {
        for (const c of cuts[f]!) {
          let GL = 0;
          let HL = 0;
          for (const i of idx)
            if (rows[i]!.x[f]! < c) {
              GL += g[i]!;
              HL += h[i]!;
            }
          const GR = G - GL;
          const HR = H - HL;
          if (HL < minHessian || HR < minHessian) continue;
          const gain = (GL * GL) / (HL + lambda) + (GR * GR) / (HR + lambda) - parent;
          if (gain > best + 1e-12) {
            best = gain;
            bestF = f;
            bestCut = c;
          }
        }
      }
      if (bestF < 0) return;
      tree.feature[k] = bestF;
      tree.cut[k] = bestCut;
      grow(
        2 * k + 1,
        idx.filter((i) => rows[i]!.x[bestF]! < bestCut),
        d + 1,
      );
      grow(
        2 * k + 2,
        idx.filter((i) => rows[i]!.x[bestF]! >= bestCut),
        d + 1,
      );
    };
    grow(0, [...Array(n).keys()], 0);
    for (let i = 0; i < n; i++) z[i]! += treeValue(tree, rows[i]!.x);
    trees.push(tree);
  }
  return { trees, bias };
}
