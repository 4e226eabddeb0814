// The situation reader (issue 24): a person's own account of what happened, and any message they pasted,
// read into the observations (artifacts) it states. Every surface calls this one function: `hoba explain
// "<text>"`, MCP explain_observation {text, message}, the site's analyze page (in the browser) and the
// Worker. It returns
//   - the observations the account states, each with the person's words that carry it, quoted as typed;
//   - what the account denies ("nobody asked about my age"): never chosen, said back;
//   - "not covered" when the account lies outside the atlas (manifest not_covered), with what it covers;
//   - questions instead of guesses when two observations read alike (manifest distinctions), each with
//     the one fact that tells them apart; an answer (`picks`) settles it;
//   - a pasted message read against the specimens' tell-tale lines (reader-message.ts).
// The classifier is reader-model.ts, trained when the atlas is built (reader-train.ts) and shipped in the
// snapshot and the site; a registry without one (a checkout being edited) trains its own on first use.
import type { Registry } from '../registry/registry.ts';
import { englishOnlyMessage, nonEnglishLanguage } from './language.ts';
import { messageTells, type MessageTells } from './reader-message.ts';
import {
  contributions,
  isTopicClass,
  loadModel,
  OUT_OF_SCOPE,
  pairKey,
  scoreFeatures,
  sigmoid,
  type ReaderModel,
  type SerialisedModel,
} from './reader-model.ts';
import {
  askFeatures,
  boostedProbability,
  candidates,
  countFeatures,
  countOf,
  firstPass,
  outFeatures,
  score,
  stackProbabilities,
  type Scored,
  type Window,
} from './reader-score.ts';
import { featuresOf, isContentWord, markOf, type ReadText, type Span } from './reader-text.ts';
import { trainedReaderModel } from './reader-train.ts';
import { AnalysisError } from './resolve.ts';
import type { AccountReader } from './search.ts';

/** The longest account read, in characters: a few paragraphs. */
export const MAX_ACCOUNT_LENGTH = 2000;
/** The longest message read, in characters: a long email or a portal history. */
export const MAX_MESSAGE_LENGTH = 4000;
/** The name of the reader's model among a snapshot's indexes. */
export const READER_INDEX = 'reader';

export interface ReadingInput {
  /** What happened, in the person's words. */
  text?: string;
  /** A message they received, pasted as it is. */
  message?: string;
  /** Answers to the reader's questions: the observation chosen for each (A-046). */
  picks?: readonly string[];
}

export interface ReadObservation {
  id: string;
  title: string;
  /** The person's words that state it, as typed (or the message's lines, or the answer they picked). */
  quotes: string[];
  /** Where it was read from. */
  from: 'words' | 'message' | 'answer';
  /** Why, in plain words. */
  why: string;
  /**
   * When it is one answer of a distinction and the words left no question open: the question that tells
   * the answers apart and the other answers, so that the choice is said and can be changed (a pick).
   */
  check?: Omit<ReadQuestion, 'quote'>;
}

export interface ReadQuestion {
  /** The distinction's ID (manifest distinctions). */
  id: string;
  ask: string;
  /** The words that raised it. */
  quote?: string;
  options: Array<{ artifact: string; title: string; answer: string }>;
}

export interface NotCovered {
  topics: Array<{ id: string; title: string; summary: string; instead: string }>;
  /** The words that read as outside the atlas. */
  quote?: string;
  /** What the atlas covers (manifest covers). */
  covers: string;
}

export interface Reading {
  text: string;
  message?: string;
  observations: ReadObservation[];
  denied: Array<{ id: string; title: string; quote: string }>;
  questions: ReadQuestion[];
  not_covered?: NotCovered;
  /** The message's lines that match specimens' tell-tale lines, by observation. */
  message_tells: MessageTells[];
  /** The picks given that answered a question. */
  answered: string[];
}

// ── the model of a registry ─────────────────────────────────────────────────────────────────────────

const models = new WeakMap<Registry, ReaderModel>();

/** The reader's model of a registry: the one registered for it, else trained now from its content (once). */
export function readerModelFor(reg: Registry): ReaderModel {
  let m = models.get(reg);
  if (!m) {
    m = trainedReaderModel(reg);
    models.set(reg, m);
  }
  return m;
}

/** The model of an opened atlas: the snapshot's when it carries one, else readerModelFor. */
export function readerModelOf(atlas: { registry: Registry; index(name: string): string | undefined }): ReaderModel {
  const known = models.get(atlas.registry);
  if (known) return known;
  const json = atlas.index(READER_INDEX);
  if (json === undefined) return readerModelFor(atlas.registry);
  const m = loadModel(JSON.parse(json) as SerialisedModel);
  models.set(atlas.registry, m);
  return m;
}

/** Registers a model (serialised) as the registry's, e.g. the site's shipped one. */
export function useReaderModel(reg: Registry, model: SerialisedModel | string): ReaderModel {
  const m = loadModel(typeof model === 'string' ? (JSON.parse(model) as SerialisedModel) : model);
  models.set(reg, m);
  return m;
}

// ── scoring: reader-score.ts ────────────────────────────────────────────────────────────────────────

/**
 * How the observations are chosen from the scores when the model carries no learned set decision (a model
 * trained without a corpus; with one, reader-score.ts decides the set and "not covered", and only the
 * question values ASK_MARGIN, ASK_FLOOR and APART below are in play). The values are measured, not set by eye: bench/reader-tune.ts
 * searches them by cross-validation on the training corpus (QUALITY.md). An account states one observation
 * or a few, each in its own words:
 *   - the whole account's best observation, when its probability reaches its threshold (cross-validated
 *     per class when the model was trained) times PRIMARY;
 *   - each sentence's or clause's best observation, when it reaches SENTENCE there and SUPPORT in the whole
 *     account (a story of several events tells each in its sentence);
 *   - any other observation whose probability in the whole account reaches SECOND.
 * It is "not covered" when the out-of-scope class reaches OUT and outweighs the best observation
 * (OUT_VERSUS "topic": through its best topic; "class": itself). Two observations of a distinction are asked
 * about when their logits in the whole account are within ASK_MARGIN and the second reaches ASK_FLOOR. A
 * pasted message names an observation from the classifier alone (no tell matched) at MESSAGE.
 */
export interface Decision {
  PRIMARY: number;
  SENTENCE: number;
  SUPPORT: number;
  SECOND: number;
  OUT: number;
  OUT_VERSUS: 'topic' | 'class';
  ASK_MARGIN: number;
  ASK_FLOOR: number;
  /** Both of a pair are taken, without a question, when each reaches this in the whole account. */
  APART: number;
  MESSAGE: number;
}

export const DECISION: Readonly<Decision> = Object.freeze({
  PRIMARY: 0.5,
  SENTENCE: 0.4,
  SUPPORT: 0.1,
  SECOND: 0.3,
  OUT: 0.1,
  OUT_VERSUS: 'class',
  ASK_MARGIN: 0.5,
  ASK_FLOOR: 0.1,
  APART: 0.6,
  MESSAGE: 0.7,
});

function choose(model: ReaderModel, s: Scored, observation: (c: number) => boolean, d: Decision): Set<number> {
  const chosen = new Set<number>();
  const whole = s.windows[0];
  if (!whole) return chosen;
  const C = model.classes.length;
  const best = (logits: Float64Array) => {
    let top = -1;
    for (let c = 0; c < C; c++) if (observation(c) && (top < 0 || logits[c]! > logits[top]!)) top = c;
    return top;
  };
  const top = best(whole.logits);
  if (top >= 0 && sigmoid(whole.logits[top]!) >= model.thresholds[top]! * d.PRIMARY) chosen.add(top);
  for (const w of s.windows.slice(1)) {
    const t = best(w.logits);
    if (t >= 0 && sigmoid(w.logits[t]!) >= Math.max(d.SENTENCE, model.thresholds[t]!) && sigmoid(whole.logits[t]!) >= d.SUPPORT)
      chosen.add(t);
  }
  for (let c = 0; c < C; c++) if (observation(c) && sigmoid(whole.logits[c]!) >= Math.max(d.SECOND, model.thresholds[c]!)) chosen.add(c);
  return chosen;
}

// ── quoting the person's words ──────────────────────────────────────────────────────────────────────

/** The most words a quote holds. */
const QUOTE_WORDS = 14;
/** A quote shorter than this takes its neighbours (a word alone says little). */
const MIN_QUOTE_WORDS = 3;

/**
 * The person's words that carry a class in a window, as typed: the shortest run of words holding the
 * features that weigh most for it, grown to whole words (a negation with what it negates), never a stop
 * word, a number or a month alone. Undefined when nothing in the window weighs for it.
 */
function quoteOf(model: ReaderModel, s: Scored, window: Window, cls: number): string | undefined {
  const { tokens } = s.read;
  const weight = contributions(model, window.features, cls);
  const per = new Float64Array(window.span.to - window.span.from);
  for (let i = window.span.from; i < window.span.to; i++) {
    const t = tokens[i]!;
    const neg = markOf(t);
    per[i - window.span.from]! += Math.max(0, weight.get(neg + t.stem) ?? 0);
    if (i > window.span.from) {
      const p = tokens[i - 1]!;
      const pair = Math.max(0, weight.get(`${neg}${p.stem}_${t.stem}`) ?? 0) / 2;
      per[i - window.span.from]! += pair;
      per[i - 1 - window.span.from]! += pair;
    }
  }
  const max = Math.max(...per);
  if (!(max > 0)) return undefined;
  const strong = [...per.keys()].filter((k) => per[k]! >= max * 0.3);
  let from = strong[0]!;
  let to = strong.at(-1)! + 1;
  if (to - from > QUOTE_WORDS) {
    // The run of QUOTE_WORDS words that holds the most weight.
    let bestFrom = from;
    let bestSum = -1;
    for (let a = from; a + QUOTE_WORDS <= to; a++) {
      let sum = 0;
      for (let k = a; k < a + QUOTE_WORDS; k++) sum += per[k]!;
      if (sum > bestSum) {
        bestSum = sum;
        bestFrom = a;
      }
    }
    from = bestFrom;
    to = bestFrom + QUOTE_WORDS;
    while (to > from + 1 && per[to - 1]! < max * 0.3) to--;
    while (from < to - 1 && per[from]! < max * 0.3) from++;
  }
  // Grown over neighbours that weigh for it too, and to a few words at least, within the window.
  const n = per.length;
  while (to - from < QUOTE_WORDS) {
    const left = from > 0 ? per[from - 1]! : -1;
    const right = to < n ? per[to]! : -1;
    const short = to - from < MIN_QUOTE_WORDS;
    if (left >= max * 0.1 && left >= right) from--;
    else if (right >= max * 0.1) to++;
    else if (short && (left >= 0 || right >= 0)) {
      if (right >= left) to++;
      else from--;
    } else break;
  }
  const base = window.span.from;
  // A negated word comes with its negation ("never heard back", not "heard back").
  while (from > 0 && tokens[base + from]!.negated && base + from - 1 >= window.span.from && !tokens[base + from - 1]!.cue) from--;
  if (from > 0 && tokens[base + from]!.negated && tokens[base + from - 1]?.cue) from--;
  // A quote of one word that cannot stand alone takes its strongest neighbour.
  const has = (a: number, b: number) => tokens.slice(base + a, base + b).some(isContentWord);
  while (!has(from, to) && (from > 0 || base + to < window.span.to)) {
    if (from > 0) from--;
    if (base + to < window.span.to) to++;
  }
  if (!has(from, to)) return undefined;
  return s.read.text.slice(tokens[base + from]!.start, tokens[base + to - 1]!.end);
}

/** The text of a span, as typed. */
const spanText = (read: ReadText, span: Span) => read.text.slice(read.tokens[span.from]!.start, read.tokens[span.to - 1]!.end);

// ── reading ─────────────────────────────────────────────────────────────────────────────────────────

const EXAMPLES = '"no reply after the final interview", "offer withdrawn after I accepted", "asked about the gap in my CV"';

function checkText(what: 'description' | 'message', text: string, max: number): void {
  if (text.length > max) {
    throw new AnalysisError(
      'invalid-argument',
      what === 'description'
        ? `The description is ${text.length} characters long; at most ${max} are read. Keep the sentences that say what you saw or were told.`
        : `The message is ${text.length} characters long; at most ${max} are read. Paste the part that says what they decided or asked.`,
    );
  }
  const language = nonEnglishLanguage(text);
  if (language !== undefined)
    throw new AnalysisError('invalid-argument', englishOnlyMessage(language, what === 'description' ? 'description' : 'description'));
}

/**
 * Reads an account (and a pasted message) into what it states. Throws AnalysisError invalid-argument for
 * an empty, too long or non-English input; an account that states nothing the atlas knows gives a
 * reading with no observation, no question and nothing "not covered" (the caller decides what to say).
 */
export function readSituation(
  reg: Registry,
  input: ReadingInput,
  model: ReaderModel = readerModelFor(reg),
  d: Decision = DECISION,
): Reading {
  const text = (input.text ?? '').replace(/[ \t]+/g, ' ').trim();
  const message = input.message?.replace(/\r\n?/g, '\n').trim();
  if (text === '' && (message === undefined || message === '')) {
    throw new AnalysisError(
      'invalid-argument',
      `Describe what happened in a few words, such as ${EXAMPLES}, or paste the message you received.`,
    );
  }
  if (text !== '') checkText('description', text, MAX_ACCOUNT_LENGTH);
  if (message !== undefined && message !== '') checkText('message', message, MAX_MESSAGE_LENGTH);

  const classIndex = new Map(model.classes.map((c, i) => [c, i]));
  const active = (id: string) => {
    const e = reg.get(id);
    return e !== undefined && e.kind === 'artifact' && e.status !== 'deprecated' ? e : undefined;
  };
  const titleOf = (id: string) => active(id)?.title ?? id;
  const observations = new Map<string, ReadObservation>();
  const questions: ReadQuestion[] = [];
  const denied: Reading['denied'] = [];
  let notCovered: NotCovered | undefined;

  // The account.
  const scored = text !== '' ? score(model, text) : undefined;
  const probability = (c: number) => (scored ? sigmoid(scored.best[c]!) : 0);
  const hasMessage = message !== undefined && message !== '';
  let chosen: Set<number>;
  let messageRead: { observations: Array<{ id: string; lines: string[] }>; tells: MessageTells[] } | undefined;
  /** The set decision's probabilities of the observations chosen. */
  let chosenProbabilities: number[] = [];
  /** The set decision's probability of each candidate, by class. */
  let setProbability: Map<number, number> | undefined;
  if (model.stack) {
    // The set decision (reader-score.ts) over the account's words and the message together.
    const stack = model.stack;
    const scoredMessage = hasMessage ? score(model, message) : undefined;
    const tells = hasMessage ? messageTells(reg, message).filter((t) => active(t.artifact.id)) : [];
    const tellLines = new Map(tells.map((t) => [t.artifact.id, t.tells.length]));
    const out = classIndex.get(OUT_OF_SCOPE);
    const isObservation = (c: number) => active(model.classes[c]!) !== undefined;
    const cands = candidates(model, scored, scoredMessage, tellLines, isObservation, out);
    const p = stackProbabilities(stack, cands, model.classes.length);
    setProbability = new Map(cands.map((k, i) => [k.c, p[i]!]));
    let picked = cands.filter((_, i) => p[i]! >= stack.threshold).map((k) => k.c);
    // How many observations the account states: when fewer than the set decision's threshold took, the
    // likeliest that many. The count only takes away: a candidate under the threshold is never added.
    if (stack.count) {
      const k = countOf(stack.count, countFeatures(p, stack.threshold, scored, hasMessage, out, isObservation));
      if (k < picked.length)
        picked = cands
          .map((x, i) => ({ c: x.c, p: p[i]! }))
          .sort((a, b) => b.p - a.p)
          .slice(0, k)
          .map((x) => x.c);
    }
    // "Not covered" weighs what the threshold took, as it was fitted (reader-train.ts), whatever the count took away.
    chosenProbabilities = [...p].filter((x) => x >= stack.threshold);
    chosen = new Set(picked);
    if (scoredMessage) {
      const found = new Map<string, string[]>();
      for (const c of picked) {
        const id = model.classes[c]!;
        const tell = tells.find((t) => t.artifact.id === id);
        if (tell)
          found.set(
            id,
            tell.tells.map((x) => x.line),
          );
        else {
          const w = scoredMessage.windows[scoredMessage.from[c]!];
          const q = w ? quoteOf(model, scoredMessage, w, c) : undefined;
          if (q !== undefined) found.set(id, [q]);
        }
      }
      messageRead = {
        observations: [...found.entries()].map(([id, lines]) => ({ id, lines })),
        tells: tells.filter((t) => found.has(t.artifact.id)),
      };
    }
  } else {
    chosen = scored ? choose(model, scored, (c) => active(model.classes[c]!) !== undefined, d) : new Set<number>();
    // The message: its own observations, and its lines that match specimens' tells.
    messageRead = hasMessage ? readMessage(reg, model, message, (id) => active(id) !== undefined, d) : undefined;
  }

  // Outside the atlas: "not covered" wins over observations it outweighs.
  const out = classIndex.get(OUT_OF_SCOPE);
  if (scored && out !== undefined) {
    // "Out of scope" is one class for every topic, so it is weighed against the observations through its
    // topics (each a class the size of an observation's): the best topic must outweigh the best observation.
    const pOut = probability(out);
    const bestArtifact = Math.max(0, ...[...chosen].map(probability));
    const bestTopic = Math.max(0, ...model.classes.map((c, i) => (isTopicClass(c) ? probability(i) : 0)));
    const outweighs = d.OUT_VERSUS === 'topic' ? bestTopic > bestArtifact : pOut > bestArtifact;
    // Words that deny an observation of the atlas ("nobody asked about my age") speak of hiring: such an
    // account is not called "not covered" unless the out-of-scope class is more probable than not.
    const deniesObservation = () =>
      scored.read.negatedClauses.some((span) => {
        const logits = scoreFeatures(model, featuresOf(scored.read.tokens, span, true));
        return model.classes.some(
          (cls, c) => isObservationClass(cls) && sigmoid(logits[c]!) >= model.thresholds[c]! && sigmoid(logits[c]!) > sigmoid(logits[out]!),
        );
      });
    const learned = model.stack?.out;
    const isOut = learned
      ? firstPass(
          learned.weights,
          learned.bias,
          outFeatures(model, scored, out, chosenProbabilities, hasMessage, (c) => active(model.classes[c]!) !== undefined),
        ) >= learned.threshold
      : pOut >= Math.max(model.thresholds[out]!, d.OUT, deniesObservation() ? 0.5 : 0) &&
        outweighs &&
        (messageRead?.observations.length ?? 0) === 0;
    if (isOut) {
      const topics = reg.manifest.not_covered ?? [];
      let top: (typeof topics)[number] | undefined;
      let topP = -1;
      for (const t of topics) {
        const i = classIndex.get(`~nc:${t.id}`);
        if (i !== undefined && probability(i) > topP) {
          topP = probability(i);
          top = t;
        }
      }
      const window = scored.windows[scored.from[out]!];
      notCovered = {
        topics: top ? [{ id: top.id, title: top.title, summary: top.summary, instead: top.instead }] : [],
        ...(window ? { quote: quoteOf(model, scored, window, out) ?? spanText(scored.read, window.span) } : {}),
        covers: reg.manifest.covers ?? 'The atlas covers what you see while being hired, from a job posting to your first day at work.',
      };
      chosen.clear();
    }
  }

  // Questions: two observations that read alike, neither clearly ahead. An answer settles one.
  const picks = new Set((input.picks ?? []).map((p) => p.trim().toUpperCase()));
  const answered: string[] = [];
  if (scored && !notCovered) {
    // Two answers the corpus does not state together (StackModel.exclusive): two readings of one fact.
    const isExclusive = (a: number, b: number) => model.stack?.exclusive?.includes(pairKey(model.classes[a]!, model.classes[b]!)) ?? false;
    const stack = model.stack;
    for (const dist of reg.manifest.distinctions ?? []) {
      const members = dist.answers
        .map((a) => ({ id: a.artifact, c: classIndex.get(a.artifact) }))
        .filter((m) => m.c !== undefined && active(m.id)) as Array<{ id: string; c: number }>;
      if (members.length < 2) continue;
      const pick = members.find((m) => picks.has(m.id));
      if (pick) {
        // Answered: the pick is the observation when any member was in play; the others are not.
        const inPlay = members.some((m) => chosen.has(m.c) || probability(m.c) >= d.ASK_FLOOR);
        for (const m of members) chosen.delete(m.c);
        if (inPlay) {
          chosen.add(pick.c);
          answered.push(pick.id);
        }
        continue;
      }
      const ask = (first: number) => {
        for (const m of members) chosen.delete(m.c);
        const window = scored.windows[scored.from[first]!];
        const quote = window ? quoteOf(model, scored, window, first) : undefined;
        questions.push({
          id: dist.id,
          ask: dist.ask,
          ...(quote !== undefined ? { quote } : {}),
          options: dist.answers
            .filter((a) => active(a.artifact))
            .map((a) => ({ artifact: a.artifact, title: titleOf(a.artifact), answer: a.answer })),
        });
      };
      // Learned (reader-train.ts askDecision): asked when the account reads as leaving the fact open.
      const learned = stack?.ask;
      if (stack && learned && setProbability) {
        const q = askFeatures(
          members.map((m) => m.c),
          setProbability,
          scored,
          stack.threshold,
          isExclusive,
        );
        if (!q) continue;
        const { ranked, x } = q;
        const [first, second] = ranked as [number, number];
        if (boostedProbability(learned.trees, x) >= learned.threshold) ask(first);
        // Two readings of one fact are never both chosen: the weaker goes.
        else if (isExclusive(first, second) && chosen.has(first) && chosen.has(second)) chosen.delete(second);
        continue;
      }
      const ranked = [...members].sort((a, b) => scored.best[b.c]! - scored.best[a.c]!);
      const [first, second] = ranked as [(typeof ranked)[number], (typeof ranked)[number]];
      // Close in the account as a whole, and the second in play too.
      const whole = scored.windows[0];
      if (!whole) continue;
      const close = Math.abs(whole.logits[first.c]! - whole.logits[second.c]!) <= d.ASK_MARGIN;
      const either = chosen.has(first.c) || chosen.has(second.c);
      const inPlay = probability(second.c) >= Math.max(model.thresholds[second.c]!, d.ASK_FLOOR);
      // Two readings of one fact (a pair the corpus does not state together) are never both chosen: when
      // the two are not close, the weaker goes; when they are, the question below asks.
      const exclusive = isExclusive(first.c, second.c);
      if (exclusive && chosen.has(first.c) && chosen.has(second.c) && !(close && inPlay)) {
        chosen.delete(second.c);
        continue;
      }
      // Both stated strongly, each in the account as a whole (a pair that can be seen together): no question.
      const apart = [first.c, second.c].every((c) => chosen.has(c) && sigmoid(whole.logits[c]!) >= d.APART);
      if (either && close && inPlay && (exclusive || !apart)) ask(first.c);
    }
  }

  // The observations read from the words, with the words.
  if (scored) {
    for (const c of [...chosen].sort((a, b) => scored.best[b]! - scored.best[a]!)) {
      const id = model.classes[c]!;
      const windowsByStrength = scored.windows.map((w, i) => ({ w, i })).sort((a, b) => b.w.logits[c]! - a.w.logits[c]! || a.i - b.i);
      const quotes: string[] = [];
      for (const { w } of windowsByStrength) {
        if (quotes.length >= 2 || (quotes.length > 0 && sigmoid(w.logits[c]!) < model.thresholds[c]!)) break;
        const q = quoteOf(model, scored, w, c);
        if (q !== undefined && !quotes.some((x) => x.includes(q) || q.includes(x))) quotes.push(q);
      }
      const answer = answered.includes(id);
      // Chosen only when some of the person's words weigh for it: a score made of what the words are not
      // (the class's bias, words that weigh against the others) states nothing.
      if (quotes.length === 0 && !answer) continue;
      observations.set(id, {
        id,
        title: titleOf(id),
        quotes,
        from: answer ? 'answer' : 'words',
        why: answer
          ? `You answered that it was this${quotes.length > 0 ? `; your words: ${quotes.map((q) => `"${q}"`).join(', ')}` : ''}.`
          : quotes.length > 0
            ? `Your words ${quotes.map((q) => `"${q}"`).join(' and ')} state it.`
            : 'Your description as a whole states it.',
      });
    }
  }
  // A pick that answers no question the words raised is taken as said.
  for (const p of picks) {
    if (observations.has(p) || answered.includes(p) || !active(p)) continue;
    if (
      (reg.manifest.distinctions ?? []).some(
        (d) => d.answers.some((a) => a.artifact === p) && d.answers.some((a) => observations.has(a.artifact)),
      )
    )
      continue;
    answered.push(p);
    observations.set(p, { id: p, title: titleOf(p), quotes: [], from: 'answer', why: 'You said it was this.' });
  }

  // The message's observations, after the words'.
  if (messageRead) {
    for (const m of messageRead.observations) {
      if (observations.has(m.id) || notCovered) continue;
      // A question already asked about it is answered by the message only when the message names one member.
      const q = questions.findIndex((x) => x.options.some((o) => o.artifact === m.id));
      if (q >= 0) questions.splice(q, 1);
      observations.set(m.id, {
        id: m.id,
        title: titleOf(m.id),
        quotes: m.lines,
        from: 'message',
        why: `The message you pasted states it: ${m.lines.map((l) => `"${l}"`).join(', ')}.`,
      });
    }
  }

  // What the account denies: a negated clause that, read as stated, would name an observation not chosen.
  if (scored) {
    for (const span of scored.read.negatedClauses) {
      const features = featuresOf(scored.read.tokens, span, true);
      const logits = scoreFeatures(model, features);
      model.classes.forEach((cls, c) => {
        if (cls.startsWith('~') || !active(cls) || observations.has(cls) || denied.some((d) => d.id === cls)) return;
        if (sigmoid(logits[c]!) >= model.thresholds[c]! && sigmoid(scored.best[c]!) < model.thresholds[c]!) {
          denied.push({ id: cls, title: titleOf(cls), quote: spanText(scored.read, span) });
        }
      });
    }
  }

  // An observation that is one answer of a distinction, chosen without a question: the question that tells
  // the answers apart goes with it, with the other answers, so the reader never chooses one silently.
  for (const o of observations.values()) {
    if (o.from === 'answer') continue;
    for (const dist of reg.manifest.distinctions ?? []) {
      const members = dist.answers.map((a) => a.artifact);
      if (!members.includes(o.id) || questions.some((q) => q.id === dist.id) || members.some((m) => answered.includes(m))) continue;
      const others = dist.answers.filter(
        (a) => a.artifact !== o.id && active(a.artifact) && !observations.has(a.artifact) && !denied.some((x) => x.id === a.artifact),
      );
      if (others.length === 0 || o.check) continue;
      o.check = {
        id: dist.id,
        ask: dist.ask,
        options: others.map((a) => ({ artifact: a.artifact, title: titleOf(a.artifact), answer: a.answer })),
      };
    }
  }

  return {
    text,
    ...(message !== undefined && message !== '' ? { message } : {}),
    observations: [...observations.values()],
    denied,
    questions,
    ...(notCovered ? { not_covered: notCovered } : {}),
    message_tells: messageRead?.tells ?? [],
    answered,
  };
}

/**
 * The observations a pasted message states: those the classifier reads in it, and those with a line that
 * matches one of their specimens' tells. Each with the message's lines that state it.
 */
function readMessage(
  reg: Registry,
  model: ReaderModel,
  message: string,
  active: (id: string) => boolean,
  d: Decision,
): { observations: Array<{ id: string; lines: string[] }>; tells: MessageTells[] } {
  const tells = messageTells(reg, message).filter((t) => active(t.artifact.id));
  const s = score(model, message);
  const found = new Map<string, string[]>();
  model.classes.forEach((cls, c) => {
    // A message is in the employer's words, not the person's: the classifier names an observation from it
    // alone only when it reads it clearly; its tells (below) name the rest.
    if (!isObservationClass(cls) || !active(cls) || sigmoid(s.best[c]!) < Math.max(model.thresholds[c]!, d.MESSAGE)) return;
    const w = s.windows[s.from[c]!];
    const q = w ? quoteOf(model, s, w, c) : undefined;
    found.set(cls, q !== undefined ? [q] : []);
  });
  for (const t of tells)
    found.set(
      t.artifact.id,
      t.tells.map((x) => x.line),
    );
  const observations = [...found.entries()].map(([id, lines]) => ({ id, lines }));
  return { observations, tells: tells.filter((t) => found.has(t.artifact.id)) };
}

/**
 * Search's reading of a query that reads as an account (search.ts `AccountReader`): the observations the
 * reader reads the words as stating, then the two readings of each question it would ask. Words it cannot
 * read (another language) give none; search then says why.
 */
export function accountReader(reg: Registry, model: ReaderModel): AccountReader {
  return (text) => {
    let r: Reading;
    try {
      r = readSituation(reg, { text }, model);
    } catch (err) {
      if (err instanceof AnalysisError) return [];
      throw err;
    }
    return [
      ...r.observations.map((o) => ({ id: o.id, quote: o.quotes[0] ?? '', open: false })),
      ...r.questions.flatMap((q) => q.options.map((o) => ({ id: o.artifact, quote: q.quote ?? '', open: true }))),
    ];
  };
}

/** Whether a class name is an observation (not one of the reader's own classes). */
export const isObservationClass = (c: string) => !c.startsWith('~') && !isTopicClass(c);
