// Full-text search over every kind (BM25 with prefix and typo tolerance, over an inverted index of plain
// arrays). IDs, titles, aliases, summaries and body text (descriptions, non-inferences, probes, notes…)
// are indexed with field boosts; an ID named in the query comes first. The index is serialised into the
// snapshot so a search does not re-index the atlas, in a form that loads with one JSON.parse. Queries are
// read as people write them (colloquial.ts: negations set aside, everyday phrases given the atlas's
// words), refused when not in English (language.ts), and only relevant matches (RELEVANCE of the best)
// are counted and returned.
//
// Why not a library: this index replaced MiniSearch 7, whose scoring it reproduces exactly (same ranking
// on every query of the real atlas). Two costs of MiniSearch could not be tuned away (issue 14,
// BENCHMARKS.md): loading a serialised index rebuilds its radix tree (250–280 ms before the first search
// of every CLI run and MCP server start, against 2.5 ms here), and each query visits every posting of
// every expanded term through per-document callbacks (3.5 s p50 at 100,000 entities, against 22 ms here).
import { KINDS, type Kind } from '../model/vocab.ts';
import type { Entity } from '../model/schemas.ts';
import { sourceFinding } from '../model/source.ts';
import type { Registry } from '../registry/registry.ts';
import { editDistance } from '../registry/suggest.ts';
import { AnalysisError, normaliseId, refOf } from './resolve.ts';
import { rewriteQuery, type Rewrite } from './colloquial.ts';
import { stem } from './stem.ts';
import { englishOnlyMessage, nonEnglishLanguage } from './language.ts';
import type { SearchHit, SearchResult } from './schemas.ts';

export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * The longest query searched, in characters (after trimming). Matching a word costs time and memory that
 * grow with the square of its length (typo tolerance compares it with every index term), so an unbounded
 * query can exhaust memory; real questions are a few words. Every door (CLI, MCP) applies this one limit.
 */
export const MAX_QUERY_LENGTH = 300;

/** Words longer than this are matched exactly (typo tolerance costs the square of a word's length). */
const MAX_FUZZY_TERM = 24;

// An artifact's voices (first-person accounts) are a field of their own: people search in those words.
const FIELDS = ['id', 'title', 'aliases', 'summary', 'voices', 'body'] as const;
type Field = (typeof FIELDS)[number];

const ID_TOKEN = /^[abmplise]-\d{3,}$/i;
const HYPHEN = 45; // '-', the second character of every ID (ID_TOKEN)
const TOKEN = /[abmplise]-\d{3,}|[\p{L}\p{N}]+/giu;

// Words too common to help ranking. "no" and "not" stay: "no pay range" means something. The pieces of
// a contraction ("didn't" is split into "didn" and "t") are noise on their own.
const STOP_WORDS = new Set(
  'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its me my of on or our she so than that the their them then there these they this those to up us was we were what when where which while who why will with would you your t s d ll re ve m didn doesn don isn wasn weren aren won wouldn couldn shouldn haven hasn hadn'.split(
    ' ',
  ),
);

/** Lower-case, accents folded (résumé → resume), a light suffix stemmer; IDs kept whole. */
export function normaliseTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (ID_TOKEN.test(t)) return t;
  const w = t.normalize('NFD').replace(/\p{Diacritic}/gu, '');
  if (STOP_WORDS.has(w)) return null;
  return stem(w);
}

/**
 * Words people use for what the atlas names otherwise, expanded at query time only (the index keeps
 * the atlas's own words). Keys and values are normalised terms.
 */
// A Map, not an object literal: query words are looked up in it, and "constructor" must not find
// Object.prototype's.
const SYNONYMS = new Map<string, string[]>([
  ['salary', ['pay', 'compensation']],
  ['pay', ['salary', 'compensation']],
  ['wage', ['pay', 'salary']],
  ['compensation', ['pay', 'salary']],
  ['lower', ['cut', 'reduc', 'below']],
  ['cut', ['lower', 'reduc']],
  ['ghost', ['silenc']],
  ['cv', ['resum']],
  ['job', ['role', 'posting']],
  ['fire', ['rescind']],
  ['withdrawn', ['rescind']],
]);

function expandQueryTerm(term: string): string | string[] | null {
  const t = normaliseTerm(term);
  if (t === null) return null;
  const more = SYNONYMS.get(t);
  return more ? [t, ...more] : t;
}

function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The words of a text as the index splits them (IDs kept whole). */
export const tokenizeText = tokenize;

function texts(...parts: Array<string | readonly string[] | undefined>): string {
  return parts.flatMap((p) => (p === undefined ? [] : typeof p === 'string' ? [p] : p)).join('\n');
}

/** The text of each indexed field of an entity. */
export function fieldText(e: Entity, field: Field): string {
  if (field === 'id') return e.id;
  if (e.kind === 'source') {
    if (field === 'title') return texts(e.cite, e.title ?? undefined);
    if (field === 'aliases' || field === 'voices') return '';
    if (field === 'summary') return e.finding ?? '';
    return texts(e.authors, e.venue ?? undefined, e.design, e.relevant_to, e.year === null ? undefined : String(e.year));
  }
  if (field === 'title') return e.title;
  if (field === 'aliases') return texts(e.aliases);
  if (field === 'voices') return e.kind === 'artifact' ? texts(e.voices ?? []) : '';
  if (field === 'summary') return e.summary;
  const common = [e.description];
  switch (e.kind) {
    case 'artifact':
      return texts(
        ...common,
        e.stages,
        e.non_inferences,
        e.probes.flatMap((p) => [p.action, p.risk ?? '', ...p.outcomes.flatMap((o) => [o.observation, o.note ?? ''])]),
        // The marked lines of its specimens: the words an employer's message uses, which a person may paste.
        e.specimens.flatMap((sp) => [sp.title, ...sp.tells.map((t) => t.quote)]),
      );
    case 'barrier':
      return texts(...common, e.stage, e.pass_condition);
    case 'mechanism':
      return texts(...common, e.family.replace(/-/g, ' '), e.emits.map((x) => x.note ?? ''));
    case 'pattern':
      return texts(...common, e.shape, e.trigger_rule, e.establishes, e.non_inferences);
    case 'loop':
      return texts(...common);
    case 'intervention':
      return texts(...common, e.expected_effects, e.measurements, e.tradeoffs);
    case 'scenario':
      return texts(...common, e.situation);
  }
}

const BOOST: Record<Field, number> = { id: 8, title: 4, aliases: 3, summary: 2, voices: 1, body: 1 };
const FIELD_BOOST = FIELDS.map((f) => BOOST[f]);
const F = FIELDS.length;

// Scoring is BM25 as MiniSearch (which this index replaced) computes it, so that ranking stayed as
// tuned: k 1.2, b 0.7, and d 0.5 added to every match's term-frequency part.
const K1 = 1.2;
const B = 0.7;
const D = 0.5;
// A word's beginning ("resch") is a surer sign than a word one edit away ("reach"), so prefix matches
// weigh more than typo matches; both less than the word itself (weight 1).
const PREFIX_WEIGHT = 0.45;
const FUZZY_WEIGHT = 0.375;
/** Typos allowed: a fifth of the word's letters, rounded (1 for 5–7 letters, 2 for 8–12…), at most 6. */
const FUZZY_SHARE = 0.2;
const MAX_TYPOS = 6;

/**
 * How far a query term reaches beyond itself. IDs match exactly: M-013 is not "close to" M-012. A word
 * longer than any real one (a pasted token) is matched exactly too. Prefixes need four letters ("not"
 * would find "nothing"), typos five.
 */
function reachOf(term: string): { prefix: boolean; typos: number } {
  if (term.length > MAX_FUZZY_TERM || ID_TOKEN.test(term)) return { prefix: false, typos: 0 };
  return { prefix: term.length >= 4, typos: term.length >= 5 ? typosAllowed(term, FUZZY_SHARE) : 0 };
}

const typosAllowed = (term: string, share: number) => Math.min(MAX_TYPOS, Math.round(term.length * share));

/** Observations are how people describe what happened to them; deprecated entities sink. */
function documentBoost(e: Entity | undefined): number {
  if (!e) return 0;
  if (e.kind !== 'source' && e.status === 'deprecated') return 0.5;
  // A scenario is told in a person's words too, but it is an example; the observation comes first.
  return e.kind === 'artifact' ? 1.2 : e.kind === 'scenario' ? 0.7 : 1;
}

/**
 * The index as the snapshot stores it. Loading it must cost little before the first search (the CLI and
 * the MCP server load it for one query), so the postings stay compact strings, one per term, decoded
 * only for the terms a query reaches; nothing else is rebuilt (no tree, no map of maps).
 */
interface SerialisedIndex {
  format: typeof INDEX_FORMAT;
  /** Entity IDs; a document is its position here. */
  ids: string[];
  /** Distinct words of each document's fields (document × field), the length BM25 normalises by (encoded). */
  fieldLength: string;
  averageFieldLength: number[];
  /** Index terms, sorted by code unit (so that the terms with a prefix are one run). */
  terms: string[];
  /**
   * Each term's postings (encoded): for each field, the number of documents holding the term there, then
   * for each such document the gap from the previous one and the term's occurrences in the field.
   */
  postings: string[];
  /**
   * For each term, a word of the atlas it came from, to show people (a stem such as "receiv" shows as
   * "received"): the first in title, aliases, summary, voices then body, in ID order; "" when that is the
   * term itself (an ID, or a word the stemmer left alone).
   */
  surfaces: string[];
}
const INDEX_FORMAT = 'hoba-search/4';

// Numbers are written as base-64url digits of 5 bits, most significant first, all but the last digit
// marked by adding 32: small numbers (most gaps and counts) take one character, and the text is JSON-safe
// ASCII (no quote or backslash to escape in the snapshot).
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i;

// Joined, not appended to one string: a string grown by += is a chain of one small piece per append
// (a "rope" in V8) until something flattens it, and the index keeps its postings for good. Appended, the
// index of a 10,000-entity atlas took 77 MB of heap for 3.1 MB of text; joined, 4 MB (BENCHMARKS.md).
function encode(numbers: readonly number[]): string {
  const out: string[] = [];
  for (let n of numbers) {
    let digits = DIGITS[n & 31]!;
    for (n >>>= 5; n > 0; n >>>= 5) digits = DIGITS[32 + (n & 31)]! + digits;
    out.push(digits);
  }
  return out.join('');
}

function decode(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let count = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = DIGIT_VALUE[text.charCodeAt(i)]!;
    if (v < 32) {
      out[count++] = n * 32 + v;
      n = 0;
    } else n = n * 32 + (v - 32);
  }
  return out.subarray(0, count);
}

/** The postings codec, for its property test (test/unit/search-index.test.ts): numbers 0 … 2^31 − 1. */
export const numberCodec = { encode, decode } as const;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The index of a registry's entities. */
function buildIndex(entities: readonly Entity[]): SerialisedIndex {
  const ids = entities.map((e) => e.id);
  const fieldLength: number[] = [];
  const total = new Array<number>(F).fill(0);
  // term → per field, [document, occurrences, document, occurrences…]
  const byTerm = new Map<string, number[][]>();
  // Each distinct word is normalised once (an atlas repeats its words; normalising one is a Unicode
  // decomposition and two patterns): 15% of indexing 100,000 entities before.
  const normalised = new Map<string, string | null>();
  // term → the word it was first seen as, and in which field (suggestions show words, not stems).
  const surface = new Map<string, { word: string; field: number }>();
  const normal = (w: string) => {
    let t = normalised.get(w);
    if (t === undefined) {
      t = normaliseTerm(w);
      normalised.set(w, t);
    }
    return t;
  };
  entities.forEach((e, doc) => {
    FIELDS.forEach((field, f) => {
      const words = tokenize(fieldText(e, field));
      // As MiniSearch (this index's predecessor) measured it: distinct words as written, before normalising.
      const length = new Set(words).size;
      fieldLength.push(length);
      total[f]! += length;
      const counts = new Map<string, number>();
      for (const w of words) {
        const t = normal(w);
        if (t === null) continue;
        counts.set(t, (counts.get(t) ?? 0) + 1);
        // Fields before documents: a word seen in an earlier field wins over one in an earlier document.
        if (field !== 'id' && (surface.get(t)?.field ?? F) > f) surface.set(t, { word: w.toLowerCase(), field: f });
      }
      for (const [t, n] of counts) {
        let fields = byTerm.get(t);
        if (!fields) {
          fields = FIELDS.map(() => []);
          byTerm.set(t, fields);
        }
        fields[f]!.push(doc, n);
      }
    });
  });
  const terms = [...byTerm.keys()].sort(byCodeUnit);
  const postings = terms.map((t) => {
    const numbers: number[] = [];
    for (const list of byTerm.get(t)!) {
      numbers.push(list.length / 2);
      for (let i = 0, previous = 0; i < list.length; i += 2) {
        numbers.push(list[i]! - previous, list[i + 1]!);
        previous = list[i]!;
      }
    }
    return encode(numbers);
  });
  const averageFieldLength = total.map((n) => (ids.length === 0 ? 0 : n / ids.length));
  const surfaces = terms.map((t) => {
    const word = surface.get(t)?.word ?? t;
    return word === t ? '' : word;
  });
  return { format: INDEX_FORMAT, ids, fieldLength: encode(fieldLength), averageFieldLength, terms, postings, surfaces };
}

/**
 * A term's postings, decoded: field f's documents from start[f] to start[f + 1], each with what the term
 * adds to its score there before the query's weights (BM25 × the field's boost × the document's boost).
 * That share depends on the index alone, so it is worked out once per term, not per query.
 */
interface Postings {
  docs: Int32Array;
  share: Float64Array;
  start: number[];
}

/** The serialised index with what searching needs, worked out on first use. */
class TermIndex {
  readonly fieldLength: Int32Array;
  private readonly decoded = new Map<number, Postings>();
  /** Terms by length, with a mask of the letters in each and whether it is an ID (near()). */
  private byLength?: Map<number, { terms: number[]; letters: Int32Array; id: Uint8Array }>;

  constructor(
    readonly data: SerialisedIndex,
    /** Each document's boost (documentBoost), by position; 0 leaves it out. */
    private readonly boost: Float64Array,
  ) {
    this.fieldLength = decode(data.fieldLength);
  }

  /** The first term not before `text` in code-unit order. */
  private lowerBound(text: string): number {
    const terms = this.data.terms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The number of an index term, or undefined when no document holds it. */
  find(term: string): number | undefined {
    const i = this.lowerBound(term);
    return this.data.terms[i] === term ? i : undefined;
  }

  /** Terms that begin with `prefix` and are longer than it. */
  longerWithPrefix(prefix: string): number[] {
    const terms = this.data.terms;
    const out: number[] = [];
    for (let i = this.lowerBound(prefix); i < terms.length && terms[i]!.startsWith(prefix); i++) if (terms[i]!.length > prefix.length) out.push(i);
    return out;
  }

  /**
   * Terms of the index within `max` edits of `term` (itself included when indexed), with the distance.
   * IDs only when asked (suggestions for a mistyped ID): a word a person types is not a typo of an ID.
   */
  near(term: string, max: number, ids = false): Array<[term: number, distance: number]> {
    // Only terms within `max` letters of the term's length can be that close, and only terms whose set of
    // letters differs from the term's by at most `max` each way (an edit adds or removes one letter): a
    // cheap test that leaves the edit distance to few terms.
    if (!this.byLength) {
      this.byLength = new Map();
      const groups = new Map<number, number[]>();
      this.data.terms.forEach((t, i) => {
        let list = groups.get(t.length);
        if (!list) {
          list = [];
          groups.set(t.length, list);
        }
        list.push(i);
      });
      // Plain loops, not TypedArray.from with a function, and the regular expression only for terms with
      // a hyphen where an ID has one: this runs over every term before the first search of a process (the
      // CLI's), where the slower forms cost 10 ms of a 4,800-term index.
      for (const [length, terms] of groups) {
        const letters = new Int32Array(terms.length);
        const id = new Uint8Array(terms.length);
        for (let k = 0; k < terms.length; k++) {
          const t = this.data.terms[terms[k]!]!;
          letters[k] = lettersOf(t);
          id[k] = t.charCodeAt(1) === HYPHEN && ID_TOKEN.test(t) ? 1 : 0;
        }
        this.byLength.set(length, { terms, letters, id });
      }
    }
    const letters = lettersOf(term);
    const out: Array<[number, number]> = [];
    for (let length = Math.max(1, term.length - max); length <= term.length + max; length++) {
      const group = this.byLength.get(length);
      if (!group) continue;
      for (let k = 0; k < group.terms.length; k++) {
        const other = group.letters[k]!;
        if ((!ids && group.id[k] === 1) || bitCount(letters & ~other) > max || bitCount(other & ~letters) > max) continue;
        const d = editDistance(term, this.data.terms[group.terms[k]!]!, max);
        if (d <= max) out.push([group.terms[k]!, d]);
      }
    }
    return out;
  }

  postings(t: number): Postings {
    let p = this.decoded.get(t);
    if (!p) {
      const numbers = decode(this.data.postings[t]!);
      const total = (numbers.length - F) / 2;
      const documents = this.data.ids.length;
      p = { docs: new Int32Array(total), share: new Float64Array(total), start: [0] };
      let at = 0;
      let n = 0;
      for (let f = 0; f < F; f++) {
        const inField = numbers[at++]!;
        const idf = Math.log(1 + (documents - inField + 0.5) / (inField + 0.5));
        const average = this.data.averageFieldLength[f]!;
        for (let i = 0, doc = 0; i < inField; i++, n++) {
          doc += numbers[at++]!;
          const tf = numbers[at++]!;
          const bm25 = idf * (D + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.fieldLength[doc * F + f]!) / average)));
          p.docs[n] = doc;
          p.share[n] = FIELD_BOOST[f]! * this.boost[doc]! * bm25;
        }
        p.start.push(n);
      }
      this.decoded.set(t, p);
    }
    return p;
  }

  /** Whether document `doc` holds term t in field f (postings are sorted by document). */
  holds(t: number, f: number, doc: number): boolean {
    const { docs, start } = this.postings(t);
    let lo = start[f]!;
    let hi = start[f + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] === doc) return true;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }

  /** How many documents hold term t in any field. */
  documentsWith(t: number): number {
    return new Set(this.postings(t).docs).size;
  }
}

/** The letters of a word as a set of bits (digits and other characters share bits: a coarser set is still a bound). */
function lettersOf(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    mask |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return mask;
}

/**
 * A match is relevant when its score is at least this share of the best match's. BM25 with an OR query
 * scores every entity sharing one word with the query; most of those are noise ("interview" appears in
 * most of the atlas). Measured on the real atlas: see test/unit/search.test.ts for what it keeps.
 */
export const RELEVANCE = 0.3;

/** An index term a query term reached (itself, by prefix or by a typo), with the weight of that reach. */
interface Reached {
  term: number;
  /** The query term it stands for, by number (distinct query terms each count once towards quality). */
  source: number;
  weight: number;
}

/**
 * A relevant match of the index, with what matched (terms and fields) for explanations. What matched is
 * worked out only when asked: a broad query at scale has thousands of relevant matches, of which only
 * the ones shown are explained.
 */
export interface RankedMatch {
  id: string;
  score: number;
  /** Index terms matched. */
  terms: string[];
  /** Query terms (after normalising and expansion) that matched. */
  queryTerms: string[];
  /** Index term → fields it matched in. */
  match: Record<string, string[]>;
  rewrite: Rewrite;
}

type WhatMatched = { terms: string[]; queryTerms: string[]; match: Record<string, string[]> };

class Match implements RankedMatch {
  private what?: WhatMatched;

  constructor(
    readonly id: string,
    readonly score: number,
    readonly rewrite: Rewrite,
    /** Document number in the index, for `explain`. */
    private readonly doc: number,
    /** What a document matched; one function shared by every match of a query (thousands at scale). */
    private readonly explainDoc: (doc: number) => WhatMatched,
  ) {}

  private explain(): WhatMatched {
    return this.explainDoc(this.doc);
  }

  get terms() {
    this.what ??= this.explain();
    return this.what.terms;
  }
  get queryTerms() {
    this.what ??= this.explain();
    return this.what.queryTerms;
  }
  get match() {
    this.what ??= this.explain();
    return this.what.match;
  }
}

export interface SearchOptionsInput {
  kinds?: readonly string[];
  limit?: number;
}

/** A search index over one registry. */
export class AtlasSearch {
  private readonly index: TermIndex;
  private docNo?: Map<string, number>;

  private constructor(
    readonly registry: Registry,
    data: SerialisedIndex,
  ) {
    this.index = new TermIndex(data, Float64Array.from(data.ids, (id) => documentBoost(registry.get(id))));
  }

  static build(reg: Registry): AtlasSearch {
    return new AtlasSearch(reg, buildIndex(reg.entities as Entity[]));
  }

  /** Restores an index serialised by toJSON() for the same registry content. */
  static load(reg: Registry, json: string): AtlasSearch {
    const data = JSON.parse(json) as SerialisedIndex;
    if (data.format !== INDEX_FORMAT) {
      throw new Error(`The search index is of format ${JSON.stringify(data.format ?? 'unknown')}, written by another version of hoba; this one reads ${INDEX_FORMAT}. Rebuild it: npm run build.`);
    }
    return new AtlasSearch(reg, data);
  }

  toJSON(): string {
    return JSON.stringify(this.index.data);
  }

  search(query: string, options: SearchOptionsInput = {}): SearchResult {
    const reg = this.registry;
    const q = query.trim();
    if (q.length === 0) throw new AnalysisError('invalid-argument', 'Give some text to search for, such as "reposted" or an ID such as A-004.');
    if (q.length > MAX_QUERY_LENGTH) {
      // The query is not echoed back: it is what was too long.
      throw new AnalysisError(
        'invalid-argument',
        `The query is ${q.length} characters long; searches take at most ${MAX_QUERY_LENGTH}. Shorten it to the few words that describe what happened (e.g. "ghosted after final interview"), or search for an ID.`,
      );
    }
    const kinds = checkKinds(options.kinds);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new AnalysisError('invalid-argument', `limit must be a positive whole number, not ${limit}.`);
    const wanted = new Set<Kind>(kinds);

    // IDs named in the query (leniently: "m-1" is M-001) come first, in the order named.
    const exactIds = [...new Set(q.split(/[\s,;]+/).map(normaliseId).filter((id): id is string => id !== undefined && reg.has(id)))];
    const hits: SearchHit[] = exactIds
      .map((id) => reg.get(id)!)
      .filter((e) => wanted.has(e.kind))
      .map((e) => ({ ...hitBase(e), exact: true, score: 0, matched: [e.id.toLowerCase()] }));
    const seen = new Set(hits.map((h) => h.id));
    const filter = wanted.size === KINDS.length ? undefined : (r: { id: unknown }) => wanted.has(reg.get(String(r.id))?.kind as Kind);
    const ranked = this.rank(q, filter, seen, Math.max(0, limit - hits.length));
    // Every relevant match counts towards the total, but only the ones shown become hits: a broad query
    // can match much of a large atlas, and building a hit for each would make every search linear in it.
    const total = hits.length + ranked.length;
    for (const r of ranked.slice(0, Math.max(0, limit - hits.length))) {
      const e = reg.get(r.id);
      if (e) hits.push({ ...hitBase(e), exact: false, score: round(r.score), matched: [...new Set(r.terms)].sort() });
    }
    return {
      registry_version: reg.version,
      query: q,
      kinds,
      total,
      results: hits.slice(0, limit),
      // Close terms only when nothing matches in any kind (a --kind filter alone needs none).
      suggestions: total === 0 && (filter === undefined || this.rank(q).length === 0) ? this.suggest(q) : [],
    };
  }

  /**
   * The relevant matches of a query (already trimmed and length-checked), best first: the query checked
   * for English, negated words set aside and everyday phrases given the atlas's words (colloquial.ts),
   * then every match whose score clears RELEVANCE of the best one. Entities in `exclude` (those the
   * query names by ID) are left out before the best is taken. Only the `top` best are put in order (the
   * rest follow in no particular order): a broad query at scale has thousands of relevant matches, which
   * are counted, but only a page of them is shown.
   */
  rank(query: string, filter?: (r: { id: unknown }) => boolean, exclude?: ReadonlySet<string>, top = Infinity): RankedMatch[] {
    const language = nonEnglishLanguage(query);
    if (language !== undefined) throw new AnalysisError('invalid-argument', englishOnlyMessage(language, 'query'));
    const rewrite = rewriteQuery(query);
    // Each word once (a repeated word would count twice), and the atlas words a phrase stands for are
    // matched as written: typo tolerance is for what people type, and costs time per word.
    const exact = new Set<string>();
    for (const p of rewrite.phrases) for (const w of tokenize(p.means)) for (const t of [expandQueryTerm(w) ?? []].flat()) exact.add(t);
    const seen = new Set<string>();
    const queryTerms = tokenize(rewrite.text).flatMap((w) => {
      const t = normaliseTerm(w) ?? '';
      if (t === '' || seen.has(t)) return [];
      seen.add(t);
      // A synonym may repeat a word of the query ("salary pay"): it then counts twice, as the words do.
      return [expandQueryTerm(w) ?? []].flat();
    });
    const reached = this.reach(queryTerms, exact);
    const sources = [...new Set(queryTerms)];

    // Every document holding a reached term is scored (BM25 per field, weighted by the field's boost, the
    // reach and the document's boost), then multiplied by how many distinct query terms it matched.
    const ids = this.index.data.ids;
    const n = ids.length;
    const score = new Float64Array(n);
    const words = Math.ceil(sources.length / 32) || 1;
    const matched = new Uint32Array(n * words);
    // Documents in the order first met: a tie keeps that order.
    const touched = new Int32Array(n);
    let met = 0;
    for (const r of reached) {
      const { docs, share } = this.index.postings(r.term);
      const bit = 1 << (r.source & 31);
      const word = r.source >>> 5;
      for (let p = 0; p < docs.length; p++) {
        if (share[p] === 0) continue;
        const doc = docs[p]!;
        // Every share is positive, so a zero score means a document not met yet.
        if (score[doc] === 0) touched[met++] = doc;
        score[doc] = score[doc]! + r.weight * share[p]!;
        matched[doc * words + word] = matched[doc * words + word]! | bit;
      }
    }

    // A broad query at scale meets most of the atlas (100,000 documents), so the passes below are plain
    // loops over typed arrays: no array of kept documents, no callback per document.
    // A document left out (named by ID, or of another kind) gets a negative score: below any threshold.
    const skip = exclude && exclude.size > 0 ? new Set([...exclude].map((id) => this.docNumber(id))) : undefined;
    let best = 0;
    for (let i = 0; i < met; i++) {
      const doc = touched[i]!;
      if (skip?.has(doc) || (filter && !filter({ id: ids[doc] }))) {
        score[doc] = -1;
        continue;
      }
      let quality = 0;
      for (let w = 0; w < words; w++) quality += bitCount(matched[doc * words + w]!);
      const s = score[doc]! * quality;
      score[doc] = s;
      if (s > best) best = s;
    }
    const threshold = best * RELEVANCE;
    const relevant: number[] = [];
    for (let i = 0; i < met; i++) if (score[touched[i]!]! >= threshold) relevant.push(touched[i]!);
    const explain = (doc: number) => this.whatMatched(doc, reached, sources);
    return bestFirst(relevant, score, top).map((doc) => new Match(ids[doc]!, score[doc]!, rewrite, doc, explain));
  }

  /** The index terms each query term reaches: itself, longer words it begins, words a typo away. */
  private reach(queryTerms: readonly string[], exact: ReadonlySet<string>): Reached[] {
    const sourceNo = new Map<string, number>();
    const out: Reached[] = [];
    for (const q of queryTerms) {
      if (!sourceNo.has(q)) sourceNo.set(q, sourceNo.size);
      const source = sourceNo.get(q)!;
      const self = this.index.find(q);
      if (self !== undefined) out.push({ term: self, source, weight: 1 });
      const { prefix, typos } = exact.has(q) ? { prefix: false, typos: 0 } : reachOf(q);
      const byPrefix = new Set<number>();
      if (prefix) {
        for (const t of this.index.longerWithPrefix(q)) {
          byPrefix.add(t);
          // The weight falls slowly with the letters added ("interview" → "interviewer" stays close).
          const length = this.index.data.terms[t]!.length;
          out.push({ term: t, source, weight: (PREFIX_WEIGHT * length) / (length + 0.3 * (length - q.length)) });
        }
      }
      if (typos > 0) {
        for (const [t, distance] of this.index.near(q, typos)) {
          if (distance === 0 || byPrefix.has(t)) continue;
          const length = this.index.data.terms[t]!.length;
          out.push({ term: t, source, weight: (FUZZY_WEIGHT * length) / (length + distance) });
        }
      }
    }
    return out;
  }

  /** Which index terms a document matched, in which fields, and for which query terms. */
  private whatMatched(doc: number, reached: readonly Reached[], sources: readonly string[]) {
    const match: Record<string, string[]> = {};
    const queryTerms: string[] = [];
    for (const r of reached) {
      const term = this.index.data.terms[r.term]!;
      if (Object.hasOwn(match, term)) {
        if (!queryTerms.includes(sources[r.source]!)) queryTerms.push(sources[r.source]!);
        continue;
      }
      const fields = FIELDS.filter((_, f) => this.index.holds(r.term, f, doc));
      if (fields.length === 0) continue;
      match[term] = fields;
      if (!queryTerms.includes(sources[r.source]!)) queryTerms.push(sources[r.source]!);
    }
    return { terms: Object.keys(match), queryTerms, match };
  }

  private docNumber(id: string): number | undefined {
    this.docNo ??= new Map(this.index.data.ids.map((x, i) => [x, i]));
    return this.docNo.get(id);
  }

  /** Index terms close to the query's words, found with a wider typo tolerance than the search's. */
  private suggest(query: string): string[] {
    const out: string[] = [];
    for (const word of tokenize(query)) {
      const term = normaliseTerm(word);
      if (!term || term.length < 3) continue;
      // Closest spelling first, then the term found in most entities.
      const best = this.index
        .near(term, typosAllowed(term, 0.45), true)
        .map(([t, d]) => ({ i: t, t: this.index.data.terms[t]!, n: this.index.documentsWith(t), d }))
        .sort((a, b) => a.d - b.d || b.n - a.n || (a.t < b.t ? -1 : 1))
        .slice(0, 2);
      for (const { i, t } of best) {
        // A word of the atlas the term came from (built with the index), else the term itself.
        const word = this.index.data.surfaces[i] || t;
        if (!out.includes(word)) out.push(word);
      }
    }
    return out.slice(0, 5);
  }

}


function hitBase(e: Entity) {
  const ref = refOf(e);
  return { id: e.id, kind: e.kind, title: ref.title, summary: e.kind === 'source' ? sourceFinding(e) : e.summary, status: ref.status };
}

function checkKinds(kinds: readonly string[] | undefined): Kind[] {
  if (!kinds || kinds.length === 0) return [...KINDS];
  for (const k of kinds) {
    if (!(KINDS as readonly string[]).includes(k)) {
      throw new AnalysisError('invalid-argument', `"${k}" is not a kind. Use one of: ${KINDS.join(', ')}.`, [], [...KINDS]);
    }
  }
  return KINDS.filter((k) => kinds.includes(k));
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Documents by descending score, equal scores in the order given. When only the `top` few are wanted,
 * they are picked in one pass (a page of a broad query at scale is 10 of thousands) and the rest follow
 * in the order given.
 */
function bestFirst(docs: number[], score: Float64Array, top: number): number[] {
  if (top <= 0) return docs;
  if (top * 8 >= docs.length) return docs.sort((a, b) => score[b]! - score[a]!);
  const chosen: number[] = [];
  const rest: number[] = [];
  for (const doc of docs) {
    const s = score[doc]!;
    if (chosen.length === top && s <= score[chosen[top - 1]!]!) {
      rest.push(doc);
      continue;
    }
    // After every chosen document scoring at least as much: equal scores keep their order.
    let at = chosen.length;
    while (at > 0 && score[chosen[at - 1]!]! < s) at--;
    chosen.splice(at, 0, doc);
    if (chosen.length > top) rest.push(chosen.pop()!);
  }
  return [...chosen, ...rest];
}

/** Set bits of a 32-bit word. */
function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The indexes an atlas snapshot carries (see src/registry/snapshot.ts), serialised by their owner. */

// One index per registry, built (or loaded from the snapshot) on first use and reused by every later
// call: search, and whatever else searches the registry.
const perRegistry = new WeakMap<Registry, AtlasSearch>();

/** The search index of a registry: the one already opened for it, else built now (once). */
export function searchIndexFor(reg: Registry): AtlasSearch {
  let index = perRegistry.get(reg);
  if (!index) {
    index = AtlasSearch.build(reg);
    perRegistry.set(reg, index);
  }
  return index;
}

/** The search index of an opened atlas: the precomputed one when the snapshot has it, else built now. */
export function searchIndexOf(atlas: { registry: Registry; index(name: string): string | undefined }): AtlasSearch {
  const known = perRegistry.get(atlas.registry);
  if (known) return known;
  const json = atlas.index('search');
  const index = json !== undefined ? AtlasSearch.load(atlas.registry, json) : AtlasSearch.build(atlas.registry);
  perRegistry.set(atlas.registry, index);
  return index;
}

/** search_registry: uses the registry's index (built once on first use) unless one is given. */
export function search(reg: Registry, query: string, options: SearchOptionsInput = {}, index?: AtlasSearch): SearchResult {
  return (index ?? searchIndexFor(reg)).search(query, options);
}
