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
//
// This module is the search itself (AtlasSearch: the query, ranking, hits, suggestions) and the index of
// a registry or snapshot; its parts are in search/: tokenise.ts (words and their normal form), synonyms.ts,
// fields.ts (what is indexed, boosts), policy.ts (reach of a query term, BM25 weights, relevance),
// codec.ts (the serialised format), build.ts (building it) and term-index.ts (decoding and scoring).
import { KINDS, type Kind } from '../model/vocab.ts';
import type { Entity } from '../model/schemas.ts';
import { sourceFinding } from '../model/source.ts';
import type { Registry } from '../registry/registry.ts';
import { AnalysisError, normaliseId, refOf } from './resolve.ts';
import { rewriteQuery, type Rewrite } from './colloquial.ts';
import { englishOnlyMessage, nonEnglishLanguage } from './language.ts';
import type { SearchHit, SearchResult } from './schemas.ts';
import { FIELDS, documentBoost } from './search/fields.ts';
import { normaliseTerm, tokenizeText } from './search/tokenise.ts';
import { expandQueryTerm } from './search/synonyms.ts';
import { PREFIX_WEIGHT, FUZZY_WEIGHT, reachOf, readsAsAccount, typosAllowed, RELEVANCE } from './search/policy.ts';
import { type SerialisedIndex, INDEX_FORMAT } from './search/codec.ts';
import { buildIndex } from './search/build.ts';
import { TermIndex, bestFirst, bitCount } from './search/term-index.ts';

export { ACCOUNT_WORDS, readsAsAccount } from './search/policy.ts';

export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * The longest query searched, in characters (after trimming). Matching a word costs time and memory that
 * grow with the square of its length (typo tolerance compares it with every index term), so an unbounded
 * query can exhaust memory; real questions are a few words. Every door (CLI, MCP) applies this one limit.
 */
export const MAX_QUERY_LENGTH = 300;

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

/** An observation the situation reader reads a query as stating (reader.ts `accountReader`). */
export interface ReadAs {
  id: string;
  /** The query's words that state it, as typed ('' when none stand out). */
  quote: string;
  /** One of two readings the words leave open. */
  open: boolean;
}

/** Reads a query as an account of what happened: the observations it states, in the reader's order. */
export type AccountReader = (text: string) => ReadAs[];

export interface SearchOptionsInput {
  kinds?: readonly string[];
  limit?: number;
  /**
   * The situation reader, for a query that reads as an account (readsAsAccount): the observations it
   * states come right after exact IDs. A door passes it only for such a query, since loading the
   * reader's model costs more than a keyword search.
   */
  read?: AccountReader;
  /**
   * Whether to work out the index terms each hit matched (`matched`; true by default). A door that shows
   * no terms (the CLI's text) leaves it out, and the hits' `matched` is then empty: finding them reads
   * every reached term's fields for each hit, a millisecond of a CLI run.
   */
  matched?: boolean;
}

/** A search index over one registry. */
export class AtlasSearch {
  private readonly index: TermIndex;
  private docNo?: Map<string, number>;

  private constructor(
    readonly registry: Registry,
    data: SerialisedIndex,
  ) {
    this.index = new TermIndex(
      data,
      // Kind and status only: loading an index reads no entity (a search reads the ones it shows).
      Float64Array.from(data.ids, (id) => {
        const kind = registry.kindOf(id);
        return documentBoost(kind && ({ kind, status: registry.statusOf(id)! } as Pick<Entity, 'kind' | 'status'>));
      }),
    );
  }

  static build(reg: Registry): AtlasSearch {
    return new AtlasSearch(reg, buildIndex(reg.entities as Entity[]));
  }

  /** Restores an index serialised by toJSON() for the same registry content. */
  static load(reg: Registry, json: string): AtlasSearch {
    const data = JSON.parse(json) as SerialisedIndex;
    if (data.format !== INDEX_FORMAT) {
      throw new Error(
        `The search index is of format ${JSON.stringify(data.format ?? 'unknown')}, written by another version of hoba; this one reads ${INDEX_FORMAT}. Rebuild it: npm run build.`,
      );
    }
    return new AtlasSearch(reg, data);
  }

  toJSON(): string {
    return JSON.stringify(this.index.data);
  }

  search(query: string, options: SearchOptionsInput = {}): SearchResult {
    const reg = this.registry;
    const q = query.trim();
    if (q.length === 0)
      throw new AnalysisError('invalid-argument', 'Give some text to search for, such as "reposted" or an ID such as A-004.');
    if (q.length > MAX_QUERY_LENGTH) {
      // The query is not echoed back: it is what was too long.
      throw new AnalysisError(
        'invalid-argument',
        `The query is ${q.length} characters long; searches take at most ${MAX_QUERY_LENGTH}. Shorten it to the few words that describe what happened (e.g. "ghosted after final interview"), or search for an ID. To have a whole account read, give it to the analysis instead (hoba explain "<what happened>", explain_observation's text, or "What happened to you?" on the site).`,
      );
    }
    const kinds = checkKinds(options.kinds);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new AnalysisError('invalid-argument', `limit must be a positive whole number, not ${limit}.`);
    const wanted = new Set<Kind>(kinds);
    const termsOf = options.matched === false ? () => [] : (r: RankedMatch) => [...new Set(r.terms)].sort();

    // IDs named in the query (leniently: "m-1" is M-001) come first, in the order named.
    const exactIds = [
      ...new Set(
        q
          .split(/[\s,;]+/)
          .map(normaliseId)
          .filter((id): id is string => id !== undefined && reg.has(id)),
      ),
    ];
    const hits: SearchHit[] = exactIds
      .map((id) => reg.get(id)!)
      .filter((e) => wanted.has(e.kind))
      .map((e) => ({ ...hitBase(e), exact: true, score: 0, matched: [e.id.toLowerCase()] }));
    const seen = new Set(hits.map((h) => h.id));
    const filter = wanted.size === KINDS.length ? undefined : (r: { id: unknown }) => wanted.has(reg.get(String(r.id))?.kind as Kind);
    // An account of what happened: the observations the reader reads it as stating come next, each once.
    const read =
      options.read && readsAsAccount(q, kinds)
        ? options
            .read(q)
            .filter((x, i, all) => !seen.has(x.id) && reg.kindOf(x.id) === 'artifact' && all.findIndex((y) => y.id === x.id) === i)
        : [];
    const ranked = this.rank(q, filter, seen, Math.max(0, limit - hits.length) + read.length);
    // A read observation the words also match keeps its score and matched terms.
    const byId = new Map(read.length > 0 ? ranked.map((r) => [r.id, r]) : []);
    for (const x of read) {
      const e = reg.get(x.id)!;
      const r = byId.get(x.id);
      hits.push({
        ...hitBase(e),
        exact: false,
        score: r ? round(r.score) : 0,
        matched: r ? termsOf(r) : [],
        read: { quote: x.quote, open: x.open },
      });
      seen.add(x.id);
    }
    const rest = read.length > 0 ? ranked.filter((r) => !seen.has(r.id)) : ranked;
    // Every relevant match counts towards the total, but only the ones shown become hits: a broad query
    // can match much of a large atlas, and building a hit for each would make every search linear in it.
    const total = hits.length + rest.length;
    for (const r of rest.slice(0, Math.max(0, limit - hits.length))) {
      const e = reg.get(r.id);
      if (e) hits.push({ ...hitBase(e), exact: false, score: round(r.score), matched: termsOf(r) });
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
    for (const p of rewrite.phrases) for (const w of tokenizeText(p.means)) for (const t of [expandQueryTerm(w) ?? []].flat()) exact.add(t);
    const seen = new Set<string>();
    const queryTerms = tokenizeText(rewrite.text).flatMap((w) => {
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
          const length = this.index.lengthOf(t);
          out.push({ term: t, source, weight: (PREFIX_WEIGHT * length) / (length + 0.3 * (length - q.length)) });
        }
      }
      if (typos > 0) {
        // A word the atlas holds has its neighbours stored (the same terms near() finds); any other is compared now.
        const stored = self !== undefined ? this.index.neighbours(self) : undefined;
        for (const [t, distance] of stored ?? this.index.near(q, typos)) {
          if (distance === 0 || byPrefix.has(t)) continue;
          const length = this.index.lengthOf(t);
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
      const term = this.index.term(r.term);
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
    for (const word of tokenizeText(query)) {
      const term = normaliseTerm(word);
      if (!term || term.length < 3) continue;
      // Closest spelling first, then the term found in most entities.
      const best = this.index
        .near(term, typosAllowed(term, 0.45), true)
        .map(([t, d]) => ({ i: t, t: this.index.term(t), n: this.index.documentsWith(t), d }))
        .sort((a, b) => a.d - b.d || b.n - a.n || (a.t < b.t ? -1 : 1))
        .slice(0, 2);
      for (const { i, t } of best) {
        // A word of the atlas the term came from (built with the index), else the term itself.
        const word = this.index.surface(i) || t;
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
