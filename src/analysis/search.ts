// Full-text search over every kind (MiniSearch: BM25 with prefix and typo tolerance). IDs, titles,
// aliases, summaries and body text (descriptions, non-inferences, probes, notes…) are indexed with
// field boosts; an ID named in the query comes first. The index can be serialised into the snapshot so
// a search does not re-index the atlas. Queries are read as people write them (colloquial.ts: negations
// set aside, everyday phrases given the atlas's words), refused when not in English (language.ts), and
// only relevant matches (RELEVANCE of the best) are counted and returned.
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { KINDS, type Kind } from '../model/vocab.ts';
import type { Entity } from '../model/schemas.ts';
import type { Registry } from '../registry/registry.ts';
import type { IndexBuilders } from '../registry/snapshot.ts';
import { editDistance } from '../registry/suggest.ts';
import { AnalysisError, normaliseId, refOf } from './resolve.ts';
import { rewriteQuery, type Rewrite } from './colloquial.ts';
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

const FIELDS = ['id', 'title', 'aliases', 'summary', 'body'] as const;
type Field = (typeof FIELDS)[number];

const ID_TOKEN = /^[abmplise]-\d{3,}$/i;
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
 * A deliberately small stemmer: enough that "reposted", "reposting" and "reposts" meet "repost", and
 * applied the same way to documents and queries, so consistency matters more than linguistics.
 */
function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  // A doubled final consonant left by a suffix ("stopped" → "stopp") is undoubled, except l, s and z.
  if (s !== w && /([^aeiouylsz])\1$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('e') && s.length > 4) s = s.slice(0, -1);
  return s;
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
    if (field === 'title') return texts(e.cite, e.title);
    if (field === 'aliases') return '';
    if (field === 'summary') return e.finding;
    return texts(e.authors, e.venue, e.design, e.relevant_to, e.year === null ? undefined : String(e.year));
  }
  if (field === 'title') return e.title;
  if (field === 'aliases') return texts(e.aliases);
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

const BOOST: Record<Field, number> = { id: 8, title: 4, aliases: 3, summary: 2, body: 1 };

function indexOptions(reg: Registry): Options<Entity> {
  return {
    fields: [...FIELDS],
    extractField: (doc, field) => fieldText(doc, field as Field),
    tokenize,
    processTerm: normaliseTerm,
    searchOptions: searchOptions(reg),
  };
}

function searchOptions(reg: Registry): SearchOptions {
  return {
    boost: BOOST,
    // IDs match exactly: M-013 is not "close to" M-012.
    // Bounded: a word longer than any real one (a pasted token) is matched exactly, not by prefix or typo.
    // Four letters at least: a three-letter prefix matches too much ("not" → "nothing").
    prefix: (term) => term.length >= 4 && term.length <= MAX_FUZZY_TERM && !ID_TOKEN.test(term),
    fuzzy: (term) => (term.length >= 5 && term.length <= MAX_FUZZY_TERM && !ID_TOKEN.test(term) ? 0.2 : false),
    combineWith: 'OR',
    // A word's beginning ("resch") is a surer sign than a word one edit away ("reach"): MiniSearch's
    // defaults (prefix 0.375, fuzzy 0.45) rank the other way round.
    weights: { prefix: 0.45, fuzzy: 0.375 },
    processTerm: expandQueryTerm,
    // Observations are how people describe what happened to them; deprecated entities sink.
    boostDocument: (id: string) => {
      const e = reg.get(id);
      if (!e) return 0;
      if (e.kind !== 'source' && e.status === 'deprecated') return 0.5;
      // A scenario is told in a person's words too, but it is an example; the observation comes first.
      return e.kind === 'artifact' ? 1.2 : e.kind === 'scenario' ? 0.7 : 1;
    },
  };
}

/**
 * A match is relevant when its score is at least this share of the best match's. BM25 with an OR query
 * scores every entity sharing one word with the query; most of those are noise ("interview" appears in
 * most of the atlas). Measured on the real atlas: see test/search.test.ts for what it keeps.
 */
export const RELEVANCE = 0.3;

/** A relevant match of the index, with what matched (MiniSearch's terms and fields) for explanations. */
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

/** A prefix or fuzzy option (a value or a function of the term) for one term. */
function callOption<T extends boolean | number>(option: T | ((term: string, i: number, terms: string[]) => T) | undefined, term: string, i: number, terms: string[]): T | false {
  if (option === undefined) return false;
  return typeof option === 'function' ? option(term, i, terms) : option;
}

export interface SearchOptionsInput {
  kinds?: readonly string[];
  limit?: number;
}

/** A search index over one registry. */
export class AtlasSearch {
  private readonly options: SearchOptions;

  private constructor(
    readonly registry: Registry,
    private readonly index: MiniSearch<Entity>,
  ) {
    this.options = searchOptions(registry);
  }

  static build(reg: Registry): AtlasSearch {
    const index = new MiniSearch<Entity>(indexOptions(reg));
    index.addAll(reg.entities as Entity[]);
    return new AtlasSearch(reg, index);
  }

  /** Restores an index serialised by toJSON() for the same registry content. */
  static load(reg: Registry, json: string): AtlasSearch {
    return new AtlasSearch(reg, MiniSearch.loadJSON<Entity>(json, indexOptions(reg)));
  }

  toJSON(): string {
    return JSON.stringify(this.index);
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
    const ranked = this.rank(q, filter, seen);
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
   * query names by ID) are left out before the best is taken.
   */
  rank(query: string, filter?: (r: { id: unknown }) => boolean, exclude?: ReadonlySet<string>): RankedMatch[] {
    const language = nonEnglishLanguage(query);
    if (language !== undefined) throw new AnalysisError('invalid-argument', englishOnlyMessage(language, 'query'));
    const rewrite = rewriteQuery(query);
    // Each word once (a repeated word would count twice), and the atlas words a phrase stands for are
    // matched as written: typo tolerance is for what people type, and costs time per word.
    const exact = new Set<string>();
    for (const p of rewrite.phrases) for (const w of tokenize(p.means)) for (const t of [expandQueryTerm(w) ?? []].flat()) exact.add(t);
    const seen = new Set<string>();
    const words = tokenize(rewrite.text).filter((w) => {
      const t = normaliseTerm(w) ?? '';
      if (t === '' || seen.has(t)) return false;
      seen.add(t);
      return true;
    });
    const defaults = this.options;
    const keep = exclude && exclude.size > 0 ? (r: { id: unknown }) => !exclude.has(String(r.id)) && (!filter || filter(r)) : filter;
    const raw = this.index.search(words.join(' '), {
      ...(keep ? { filter: keep } : {}),
      ...(exact.size > 0
        ? {
            prefix: (t: string, i: number, ts: string[]) => !exact.has(t) && callOption(defaults.prefix, t, i, ts),
            fuzzy: (t: string, i: number, ts: string[]) => (exact.has(t) ? false : callOption(defaults.fuzzy, t, i, ts)),
          }
        : {}),
    });
    const best = raw[0]?.score ?? 0;
    return raw
      .filter((r) => r.score >= best * RELEVANCE)
      .map((r) => ({ id: String(r.id), score: r.score, terms: r.terms, queryTerms: r.queryTerms, match: r.match, rewrite }));
  }

  /** Index terms close to the query's words, found with a wider typo tolerance than the search's. */
  private suggest(query: string): string[] {
    const out: string[] = [];
    for (const word of tokenize(query)) {
      const term = normaliseTerm(word);
      if (!term || term.length < 3) continue;
      const counts = new Map<string, number>();
      for (const r of this.index.search(term, { fuzzy: 0.45, prefix: false, processTerm: (t) => t })) {
        for (const t of r.terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      // Closest spelling first, then the term found in most entities.
      const best = [...counts]
        .map(([t, n]) => ({ t, n, d: editDistance(term, t) }))
        .sort((a, b) => a.d - b.d || b.n - a.n || (a.t < b.t ? -1 : 1))
        .slice(0, 2);
      for (const { t } of best) {
        const word = this.surfaceOf(t);
        if (!out.includes(word)) out.push(word);
      }
    }
    return out.slice(0, 5);
  }

  /** A word of the atlas that an index term (a stem such as "receiv") came from, to show people. */
  private surfaceOf(term: string): string {
    for (const field of ['title', 'aliases', 'summary', 'body'] as const) {
      for (const e of this.registry.entities) {
        for (const word of tokenize(fieldText(e, field))) if (normaliseTerm(word) === term) return word.toLowerCase();
      }
    }
    return term;
  }
}

function hitBase(e: Entity) {
  const ref = refOf(e);
  return { id: e.id, kind: e.kind, title: ref.title, summary: e.kind === 'source' ? e.finding : e.summary, status: ref.status };
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
export const SNAPSHOT_INDEXES: IndexBuilders = { search: (registry) => AtlasSearch.build(registry).toJSON() };

// One index per registry, built (or loaded from the snapshot) on first use and reused by every later
// call: search, and matchObservations (observe.ts).
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
