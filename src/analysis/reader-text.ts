// How the situation reader (reader.ts) splits a person's words: tokens with their place in the text (so a
// quote is what they typed), sentences and clauses, the scope of a negation ("nobody asked about my age":
// "asked about my age" is denied), questions and hypotheticals ("was it my age?": a guess or a request for
// advice, not an observation), and the features a clause gives the classifier (reader-model.ts): stems and
// adjacent pairs, marked "!" inside a negation and "?" inside a question or a hypothetical, so that the
// classifier learns what each means apart. Pure string work, deterministic, linear in the length of the text; no imports beyond the stemmer.
import { stem } from './stem.ts';

export interface Token {
  /** As typed. */
  raw: string;
  /** Offsets of `raw` in the text. */
  start: number;
  end: number;
  /** Lower-cased, accents and apostrophes dropped, slang spelled out, digits as 0 ("70k" → "0k"). */
  word: string;
  /** The stem of `word` (stem.ts). */
  stem: string;
  /**
   * Inside the scope of a negation ("never", "nobody", "wasn't"…) that comes before it in its clause, or
   * anywhere in a clause that says a step went as it should ("it came back clean": ALL_CLEAR).
   */
  negated: boolean;
  /** A negation word itself, or a word that says a step went as it should. */
  cue: boolean;
  /** Index of the clause and the sentence it belongs to. */
  clause: number;
  sentence: number;
  /** In a sentence that asks or wonders rather than reports ("should I follow up?", "if they ask…"). */
  asked: boolean;
}

export interface Span {
  /** Token positions [from, to). */
  from: number;
  to: number;
}

export interface ReadText {
  text: string;
  tokens: Token[];
  /** Sentences, in order (a question's or a hypothetical's words are marked `asked`). */
  sentences: Span[];
  /** Clauses (sentences cut at "but", "then", "after that"…), in order. */
  clauses: Span[];
  /** Clauses that hold a negation. */
  negatedClauses: Span[];
}

const TOKEN = /[\p{L}\p{N}]+(?:['’‘][\p{L}]+)*/gu;

/** Spelled-out forms of the short ways people type (one word each: a feature never holds a space). */
const SLANG = new Map<string, string>(
  Object.entries({
    u: 'you',
    ur: 'your',
    r: 'are',
    n: 'and',
    thru: 'through',
    tho: 'though',
    coz: 'because',
    cuz: 'because',
    bc: 'because',
    bcoz: 'because',
    cos: 'because',
    pls: 'please',
    plz: 'please',
    msg: 'message',
    msgs: 'messages',
    txt: 'text',
    txted: 'texted',
    ppl: 'people',
    wk: 'week',
    wks: 'weeks',
    yr: 'year',
    yrs: 'years',
    hrs: 'hours',
    hr: 'hr',
    mins: 'minutes',
    min: 'minutes',
    mo: 'month',
    mos: 'months',
    mths: 'months',
    info: 'information',
    abt: 'about',
    bout: 'about',
    wanna: 'want',
    gonna: 'going',
    gotta: 'must',
    dunno: 'unsure',
    idk: 'unsure',
    nvr: 'never',
    nt: 'not',
    dint: 'didnt',
    didnt: 'didnt',
    havnt: 'havent',
    cv: 'resume',
    cvs: 'resumes',
    resumé: 'resume',
    résumé: 'resume',
    recs: 'recruiters',
    convo: 'conversation',
    interveiw: 'interview',
    intrview: 'interview',
    appl: 'application',
    ghosted: 'ghosted',
    aint: 'aint',
    wasnt: 'wasnt',
    bcz: 'because',
    w8: 'wait',
    b4: 'before',
    '2day': 'today',
    smth: 'something',
    sth: 'something',
    pic: 'picture',
    mgr: 'manager',
    mngr: 'manager',
    hm: 'manager',
    asap: 'soon',
    sr: 'senior',
    jr: 'junior',
    dept: 'department',
    govt: 'government',
  }),
);

/** Words that negate what follows them in their clause (after apostrophes are dropped). */
const NEGATION_CUES = new Set(
  'not no never nobody none nothing neither nor without cannot cant dont didnt doesnt isnt wasnt werent wont wouldnt havent hasnt hadnt couldnt shouldnt aint arent noone nowhere'.split(
    ' ',
  ),
);

/**
 * Words that say a step went as it should ("it came back clean", "everything on it is accurate", "which
 * is fine"): they deny a problem with what their clause names, before or after them, as a negation does
 * with what follows it. Not "matched": a report "matched on my name" is the problem itself.
 */
const ALL_CLEAR = new Set('fine clean cleared accurate correct smoothly'.split(' '));

/** Words that end a negation's scope: what follows is another statement. */
const SCOPE_ENDS = new Set(
  'but however although though yet except because since and so while whereas then until after before when which instead'.split(' '),
);
/** After a comma, these start a new statement (so the negation ends); anything else continues a list. */
const NEW_STATEMENT = new Set('i they he she we it you someone somebody then and but so'.split(' '));
/** A negation reaches at most this many words. */
const MAX_SCOPE = 12;

/** Connectives that start a new clause inside a sentence. */
const CLAUSE_BREAKS = new Set([
  'but',
  'however',
  'then',
  'afterwards',
  'although',
  'though',
  'meanwhile',
  'eventually',
  'because',
  'since',
  'instead',
]);
/** Words that only join clauses: a clause of these alone joins the next one. */
const JOINERS = new Set(['and', 'so', 'but', 'then', 'or']);

/** Words too common to be a feature alone (they still join their neighbours in pairs). */
export const STOP_WORDS = new Set(
  (
    'a an the and or of to in on at for with by from is am are was were be been being it its this that these those i me my mine myself we us our you your yours he him his she her they them their theirs ' +
    'there here as so if then than just very really also too do does did doing done have has had having will would could should can may might must shall what which who whom whose when where why how ' +
    'all any some about into over up down out off again only own same such both each few more most other im ive id ill youre theyre theyve theyd thats whats its lol like got get gets getting ' +
    'one even still much well okay ok oh yeah yes hi hello hey guys anyone everyone please thanks'
  ).split(' '),
);

/** Month and weekday names: never a quote alone ("may" is also a verb). */
export const CALENDAR_WORDS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun'.split(
    ' ',
  ),
);

/** A sentence that asks or wonders rather than reports. */
const INTERROGATIVE =
  /^(?:was|is|are|were|did|do|does|could|should|would|will|can|am|why|how|what|when|who|whats|hows|any|anyone|has|have|shall|might|may|ok|so)$/;
const HYPOTHETICAL = /^(?:if|what if|in case|wondering|wonder|should i|i wonder|hypothetically|suppose|supposing)$/;
/**
 * A fear or hope about what is still to come ("I'm worried they'll ask about my gap", "scared that if I
 * mention it they'll drop me"): from the word of worry to the end of its clause, when a word of the
 * future or of a condition follows it closely, the words wonder rather than report.
 */
const WORRY =
  /^(?:worried|worry|worrying|worries|scared|afraid|nervous|fear|dread|dreading|terrified|anxious|hoping|hope|hopefully|expecting)$/;
const FUTURE = /^(?:will|wont|theyll|itll|youll|shell|ill|gonna|going|might|may|would|wouldnt|could|if)$/;
const WORRY_REACH = 4;

function normalise(raw: string): string {
  let w = raw.toLowerCase();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matches any non-ASCII character
  if (/[^\x00-\x7f]/.test(w)) w = w.normalize('NFD').replace(/\p{Diacritic}/gu, '');
  w = w.replace(/['’‘]/g, '');
  const s = SLANG.get(w);
  if (s !== undefined) w = s;
  if (/\d/.test(w)) w = w.replace(/\d+/g, '0');
  return w;
}

/** Marks as wondering the words of a sentence (from `from`) that fear or hope for what is to come (WORRY). */
function markWorries(tokens: Token[], from: number): void {
  for (let i = from; i < tokens.length; i++) {
    if (!WORRY.test(tokens[i]!.word)) continue;
    const future = tokens.slice(i + 1, i + 1 + WORRY_REACH).findIndex((t) => FUTURE.test(t.word));
    if (future < 0) continue;
    const clause = tokens[i + 1 + future]!.clause;
    for (let j = i; j < tokens.length && tokens[j]!.clause <= clause; j++) tokens[j]!.asked = true;
  }
}

/** Reads a text into tokens, sentences, clauses and negation scopes. */
export function readText(text: string): ReadText {
  const tokens: Token[] = [];
  // Where sentences and clauses break: after these characters between two tokens.
  let sentence = 0;
  let clause = 0;
  let last = 0;
  let scope = 0;
  let sentenceStart = 0;
  const sentenceSpans: Array<Span & { skip: boolean; n: number }> = [];
  const clauseSpans: Span[] = [];
  let clauseStart = 0;
  let clauseHasCue = false;
  const negatedClauseIds = new Set<number>();
  const closeClause = () => {
    if (tokens.length > clauseStart) clauseSpans.push({ from: clauseStart, to: tokens.length });
    if (clauseHasCue && tokens.length > clauseStart) negatedClauseIds.add(clauseSpans.length - 1);
    clause++;
    clauseStart = tokens.length;
    clauseHasCue = false;
    scope = 0;
  };
  const closeSentence = (endsWithQuestion: boolean) => {
    closeClause();
    if (tokens.length > sentenceStart) {
      const first = tokens[sentenceStart]!.word;
      const firstTwo = tokens.length > sentenceStart + 1 ? `${first} ${tokens[sentenceStart + 1]!.word}` : first;
      const asks = endsWithQuestion && INTERROGATIVE.test(first);
      const wonders = HYPOTHETICAL.test(first) || HYPOTHETICAL.test(firstTwo);
      sentenceSpans.push({ from: sentenceStart, to: tokens.length, skip: asks || wonders, n: sentence });
      if (asks || wonders) for (let i = sentenceStart; i < tokens.length; i++) tokens[i]!.asked = true;
      else markWorries(tokens, sentenceStart);
    }
    sentence++;
    sentenceStart = tokens.length;
  };
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const start = m.index!;
    const between = text.slice(last, start);
    last = start + raw.length;
    if (tokens.length > 0) {
      if (/[.!?;\n]/.test(between) && !/^\.\d/.test(text.slice(start - 1, start + 1))) closeSentence(/\?/.test(between));
      else if (/[:()\u2014]|\s[-\u2013]\s/.test(between)) closeClause();
      else if (/,/.test(between) && scope > 0) {
        // A comma ends a negation when a new statement follows ("they never called, I emailed").
        const next = normalise(raw);
        if (NEW_STATEMENT.has(next)) scope = 0;
      }
    }
    const word = normalise(raw);
    const onlyJoiners = () => tokens.slice(clauseStart).every((t) => JOINERS.has(t.word));
    if (CLAUSE_BREAKS.has(word) && tokens.length > clauseStart && !onlyJoiners()) closeClause();
    else if (word === 'and' && tokens.length > clauseStart) {
      // "and then", "and they…", "and I…" start a new statement.
      const rest = text.slice(last, last + 12).toLowerCase();
      if (/^\s+(?:then|they|he|she|i|we|now|later|after|so)\b/.test(rest)) closeClause();
    }
    if (SCOPE_ENDS.has(word)) scope = 0;
    // Under a negation it says the opposite ("the report isn't accurate"): a problem, not a denial.
    const clear = ALL_CLEAR.has(word) && scope === 0;
    const cue = NEGATION_CUES.has(word) || clear;
    if (clear) for (let i = clauseStart; i < tokens.length; i++) if (!tokens[i]!.cue) tokens[i]!.negated = true;
    const t: Token = {
      raw,
      start,
      end: start + raw.length,
      word,
      stem: /^[a-z0-9]+$/.test(word) ? stem(word) : word,
      negated: scope > 0 && !cue,
      cue,
      clause,
      sentence,
      asked: false,
    };
    tokens.push(t);
    if (cue) {
      scope = MAX_SCOPE;
      clauseHasCue = true;
    } else if (scope > 0) scope--;
  }
  closeSentence(/\?\s*$/.test(text.slice(last)));
  const sentences = sentenceSpans.map(({ from, to }) => ({ from, to }));
  const clauses: Span[] = [];
  const negatedClauses: Span[] = [];
  clauseSpans.forEach((c, i) => {
    clauses.push({ from: c.from, to: c.to });
    if (negatedClauseIds.has(i)) negatedClauses.push({ from: c.from, to: c.to });
  });
  return { text, tokens, sentences, clauses, negatedClauses };
}

/** How a word's features are marked: "?" in a question or hypothetical, "!" inside a negation. */
export const markOf = (t: Token, denegate = false) => (t.asked ? '?' : '') + (t.negated && !denegate ? '!' : '');

/**
 * The features of tokens [from, to): each word's stem (not a stop word), and each adjacent pair within a
 * clause, marked (markOf). `denegate` reads the negated words as if stated (to find what the account
 * denies). Repeats are kept once.
 */
export function featuresOf(tokens: readonly Token[], span: Span, denegate = false): string[] {
  const out = new Set<string>();
  for (let i = span.from; i < span.to; i++) {
    const t = tokens[i]!;
    const neg = markOf(t, denegate);
    if (!STOP_WORDS.has(t.word) && t.word !== '0' && !(denegate && t.cue)) out.add(neg + t.stem);
    if (i > span.from) {
      const p = tokens[i - 1]!;
      if (p.clause === t.clause && !(STOP_WORDS.has(p.word) && STOP_WORDS.has(t.word)) && !(denegate && (p.cue || t.cue)))
        out.add(`${neg}${p.stem}_${t.stem}`);
    }
  }
  return [...out];
}

/**
 * Words of time and linking that say nothing of what happened on their own ("since", "ago", "weeks"): they
 * may feature in the reading, but a quote needs more than them.
 */
const TIME_AND_LINK_WORDS = new Set(
  (
    'since ago before after until till while during because though although yet ever now later soon back once twice again already lately recently ' +
    'today yesterday tomorrow tonight day days week weeks weekend month months year years hour hours minute minutes time times'
  ).split(' '),
);

/** True when a word may stand alone in a quote: not a stop word, a number, a month or weekday, a word of time or linking. */
export function isContentWord(t: Token): boolean {
  return (
    !STOP_WORDS.has(t.word) &&
    !CALENDAR_WORDS.has(t.word) &&
    !TIME_AND_LINK_WORDS.has(t.word) &&
    !/^[0\s]*[a-z]{0,2}$/.test(t.word) &&
    !NEGATION_CUES.has(t.word)
  );
}
