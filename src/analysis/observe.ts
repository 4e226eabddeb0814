// Plain words in: the observations (artifacts) a person's own description names, found with the search
// index (issue 11, item 6). `hoba explain "<what happened>"` and the MCP explain tool call this, then
// explain the artifacts it returns. It chooses conservatively: the best match when the words name it
// (distinctive words of its title or everyday names), plus, for a longer description, the observation a
// statement of it names first, when that also scores close to the best in the whole description; at most
// MAX_MATCHES, each with why. Nothing named clearly enough is a not-found error with the closest ones.
import type { Registry } from '../registry/registry.ts';
import { editDistance } from '../registry/suggest.ts';
import { englishOnlyMessage, nonEnglishLanguage } from './language.ts';
import { AnalysisError, refOf } from './resolve.ts';
import { fieldText, normaliseTerm, searchIndexFor, tokenizeText, type AtlasSearch, type RankedMatch } from './search.ts';

export interface ObservationMatch {
  id: string;
  title: string;
  /** Which of the person's words matched, in plain words. */
  why: string;
}

export interface ObservationMatches {
  /** The description as read (trimmed, spaces collapsed). */
  text: string;
  /** Best first. */
  matched: ObservationMatch[];
}

/** The longest description read, in characters: a few paragraphs. */
export const MAX_DESCRIPTION_LENGTH = 2000;
/** At most this many observations are taken from one description. */
export const MAX_MATCHES = 3;
/**
 * The least naming strength (see strength()) for the best match: about one word found in the names of at
 * most two or three observations ("rescinded", "overqualified"), or two commoner ones. Below it the words
 * do not name an observation ("interview" alone, "the weather was lovely").
 */
const MIN_STRENGTH = 2.5;
/** A clause's own best observation is another match when the clause names it this strongly (one word
 * found in a single observation's names, or two commoner ones)... */
const CLAUSE_STRENGTH = 3.4;
/** ...and it scores at least this share of the best match in the whole description. */
const CLOSE_TO_BEST = 0.3;

/** A clause that weighs or wonders rather than reports. */
const DELIBERATION = /^(?:i'?m not sure|i am not sure|i don'?t know|i do not know|i wonder|wondering|should i|i feel|i think|i worry|i'?m worried|i am worried|maybe|perhaps|if i)\b/i;

const EXAMPLES = '"no reply after the final interview", "offer withdrawn after I accepted", "asked about the gap in my CV"';

/**
 * The artifacts a description in plain words names, best first, each with why. `index` is the registry's
 * search index when the caller has one; otherwise the registry's own (searchIndexFor: the snapshot's when
 * searchIndexOf opened it, else built once per registry).
 * Throws AnalysisError: invalid-argument for an empty, too long or non-English text; not-found when no
 * observation matches well enough.
 */
export function matchObservations(reg: Registry, text: string, index?: AtlasSearch): ObservationMatches {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length === 0) throw new AnalysisError('invalid-argument', `Describe what happened in a few words, such as ${EXAMPLES}.`);
  if (t.length > MAX_DESCRIPTION_LENGTH) {
    throw new AnalysisError(
      'invalid-argument',
      `The description is ${t.length} characters long; at most ${MAX_DESCRIPTION_LENGTH} are read. Keep the sentences that say what you saw or were told.`,
    );
  }
  const language = nonEnglishLanguage(t);
  if (language !== undefined) throw new AnalysisError('invalid-argument', englishOnlyMessage(language, 'description'));

  const idx = index ?? searchIndexFor(reg);
  const isObservation = (r: { id: unknown }) => {
    const e = reg.get(String(r.id));
    return e !== undefined && e.kind === 'artifact' && e.status !== 'deprecated';
  };
  const names = namingFrequencies(reg);
  const whole = idx.rank(t, isObservation);
  const best = whole[0];
  if (!best || strength(names, best) < MIN_STRENGTH) {
    // Too general ("I got rejected") or unrelated: say which observations came closest, if any.
    const closest = whole.slice(0, 3).map((r) => refOf(reg.get(r.id)!));
    const near = closest.length > 0 ? ` It is too general to pick one: the closest are ${list(closest.map((c) => `${c.id} (${c.title})`))}.` : '';
    throw new AnalysisError(
      'not-found',
      `No observation in the atlas matches that description clearly enough to explain it.${near} Say what you saw or were told and when, in a few words (e.g. ${EXAMPLES}), find the observation with hoba search, or give artifact IDs such as A-009.`,
      closest,
    );
  }

  const chosen: RankedMatch[] = [best];
  // Each statement of a longer description may name its own observation ("they asked about my gap and
  // then said I was overqualified"). A clause's best match is taken when the clause names it (by
  // distinctive words of its title or everyday names) and it also ranks close to the best in the whole
  // description. Questions and deliberations are the person's guesses and plans ("was it my background
  // check?", "I'm not sure whether to apply again"), not observations.
  const scoreInWhole = new Map(whole.map((r) => [r.id, r.score]));
  const clauses = clausesOf(t).filter((c) => !c.endsWith('?') && !DELIBERATION.test(c));
  if (clauses.length > 1) {
    for (const clause of clauses) {
      const top = safeRank(idx, clause, isObservation)[0];
      if (!top || chosen.length >= MAX_MATCHES || chosen.some((c) => c.id === top.id)) continue;
      if (strength(names, top) >= CLAUSE_STRENGTH && (scoreInWhole.get(top.id) ?? 0) >= best.score * CLOSE_TO_BEST) chosen.push(whole.find((r) => r.id === top.id)!);
    }
  }
  // Best first, as the whole description ranks them.
  chosen.sort((a, b) => (scoreInWhole.get(b.id) ?? 0) - (scoreInWhole.get(a.id) ?? 0));

  return {
    text: t,
    matched: chosen.map((r, i) => {
      const e = reg.get(r.id)!;
      return { id: r.id, title: e.kind === 'source' ? e.cite : e.title, why: whyOf(t, r, i === 0) };
    }),
  };
}

/** A clause read as another language (a quoted foreign phrase) names nothing; the whole text is English. */
function safeRank(idx: AtlasSearch, clause: string, filter: (r: { id: unknown }) => boolean): RankedMatch[] {
  try {
    return idx.rank(clause, filter);
  } catch (err) {
    if (err instanceof AnalysisError) return [];
    throw err;
  }
}

/**
 * The description's clauses: sentences, and parts joined by "and then", "then", "but", "after that",
 * "later", a semicolon, or "and" before a new statement ("… and asked about my gap", "… and they said …").
 * Short fragments are kept with their neighbour.
 */
export function clausesOf(text: string): string[] {
  const parts = text
    .split(
      /(?<=[.!?;])\s+|\s*;\s*|,?\s+(?:and then|then|but|after that|afterwards|later|also|and later|and also)\s+|,?\s+and\s+(?=(?:they|he|she|i|we|it|asked|said|told|gave|sent|offered|withdrew|rejected|cancell?ed|rescheduled|stopped|went|never|wanted|changed|added)\b)/i,
    )
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const out: string[] = [];
  for (const p of parts) {
    if (out.length > 0 && p.split(/\s+/).length < 3) out[out.length - 1] += ` ${p}`;
    else out.push(p);
  }
  return out;
}

/**
 * For each term, the number of active artifacts whose title or everyday names (aliases) hold it; computed
 * once per registry. A term in one or two names is distinctive ("overqualified", "rescinded"); a term in
 * many is not ("asked", "interview").
 */
interface NamingFrequencies {
  artifacts: number;
  df: Map<string, number>;
}

const namingCache = new WeakMap<Registry, NamingFrequencies>();

function namingFrequencies(reg: Registry): NamingFrequencies {
  let f = namingCache.get(reg);
  if (f) return f;
  const df = new Map<string, number>();
  let artifacts = 0;
  for (const a of reg.all('artifact')) {
    if (a.kind !== 'artifact' || a.status === 'deprecated') continue;
    artifacts++;
    const terms = new Set<string>();
    for (const field of ['title', 'aliases'] as const) {
      for (const word of tokenizeText(fieldText(a, field))) {
        const t = normaliseTerm(word);
        if (t !== null) terms.add(t);
      }
    }
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  f = { artifacts, df };
  namingCache.set(reg, f);
  return f;
}

/**
 * How strongly the words name an observation: the sum, over the distinct terms that matched its title or
 * everyday names, of how distinctive each term is (ln(artifacts / artifacts naming it)).
 */
function strength(names: NamingFrequencies, r: RankedMatch): number {
  const idf = (term: string) => Math.log(names.artifacts / Math.min(names.artifacts, Math.max(1, names.df.get(term) ?? names.artifacts)));
  // One word matched by prefix too ("interview" and "interviewer") counts once, at its most distinctive.
  const groups: Array<{ stem: string; idf: number }> = [];
  const terms = Object.entries(r.match)
    .filter(([, fields]) => fields.includes('title') || fields.includes('aliases'))
    .map(([term]) => term)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  for (const term of terms) {
    const group = groups.find((g) => term.startsWith(g.stem));
    if (group) group.idf = Math.max(group.idf, idf(term));
    else groups.push({ stem: term, idf: idf(term) });
  }
  return groups.reduce((sum, g) => sum + g.idf, 0);
}

/** The index terms a word of the person's (normalised) stands for: itself, by prefix, or by a typo. */
function standsFor(word: string, indexTerm: string): boolean {
  if (indexTerm === word || (word.length >= 3 && indexTerm.startsWith(word))) return true;
  return word.length >= 5 && editDistance(word, indexTerm, 1) <= 1;
}

/**
 * Why an observation was chosen, in plain words: which of the person's words (or everyday phrases, with
 * the atlas words they were read as) matched its title or everyday names, and which only its description.
 */
function whyOf(text: string, r: RankedMatch, first: boolean): string {
  const naming = Object.entries(r.match).filter(([, f]) => f.includes('title') || f.includes('aliases')).map(([t]) => t);
  const described = Object.keys(r.match).filter((t) => !naming.includes(t));
  const named: string[] = [];
  const inDescription: string[] = [];
  // Words the person negated ("not withdrawn by me") are not reasons, even when they appear elsewhere.
  const said = new Set<string>(r.rewrite.negated);
  // Everyday phrases first: "went dark" (read as "silence").
  for (const p of r.rewrite.phrases) {
    const meant = p.means.split(' ').filter((m) => {
      const t = normaliseTerm(m);
      return t !== null && naming.some((n) => standsFor(t, n));
    });
    if (meant.length === 0) continue;
    const read = meant.join(' ');
    named.push(read === p.said ? `"${p.said}"` : `"${p.said}" (read as "${read}")`);
    for (const w of p.said.split(/\s+/)) said.add(w);
  }
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    if (said.has(w)) continue;
    const t = normaliseTerm(w.replace(/'/g, ''));
    if (t === null) continue;
    if (naming.some((n) => standsFor(t, n))) named.push(`"${w}"`);
    else if (described.some((n) => standsFor(t, n))) inDescription.push(`"${w}"`);
    else continue;
    said.add(w);
  }
  const parts: string[] = [];
  if (named.length > 0) parts.push(`${list(named.slice(0, 6))} match its title or everyday names`);
  if (inDescription.length > 0) parts.push(`${list(inDescription.slice(0, 4))} ${parts.length > 0 ? 'its description' : 'match its description'}`);
  let why = parts.length > 0 ? `Your words ${parts.join('; ')}.` : 'Your description matches its description.';
  if (first && r.rewrite.negated.length > 0) why += ` Set aside, because you said it was not that: "${r.rewrite.negated.join(' ')}".`;
  return why;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
