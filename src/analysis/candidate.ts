// The candidate view: the answer a worried person reads first, built from an explain() result. In at most
// about 120 words, what the facts can and cannot mean (never how likely), the one thing worth checking
// and how, and what to do now and by when; then the possible explanations in plain words, grouped the way
// a person grasps them (the employer's process; the role, the pay or the budget; another candidate; you;
// how people judged you; the offer; a third party; a scam; a check; unlawful treatment), one line each,
// with their detail beside. No ID, slug or vocabulary word reaches the text: the items carry their IDs
// for links, and the JSON keeps everything. Every surface renders this one view, so the CLI, the MCP
// server and the site say the same words.
//
// An explanation that concerns a check, a record or a protected trait comes after the others unless an
// observation given is itself about it (the artifact's `concerns`) or nothing else remains, and it always
// carries what would make it relevant. So does one that happens only in some kind of hiring (an academic
// search, the public sector's rules: its family's context) unless an observation given is of that kind
// (the artifact's `topics`).
import {
  FAMILY_PLAIN,
  PLAIN_EVIDENCE,
  PLAIN_FIDELITY,
  PLAIN_GROUP_LABELS,
  PLAIN_NOTICE,
  PLAIN_RELEVANT_IF,
  PLAIN_VERDICT,
  plainWho,
  type PlainGroup,
} from '../model/plain.ts';
import type { Concern, Fidelity, Topic } from '../model/vocab.ts';
import { FIDELITIES, ID_GROUP_SOURCE, ID_SOURCE } from '../model/vocab.ts';
import type { Registry } from '../registry/registry.ts';
import { CHECK_WITH_ADVISER, personDeadlines, type DeadlineView } from './deadlines.ts';
import type { CandidateView, CompatibleMechanism, ExplainResult } from './schemas.ts';

/** The lead's word budget ("about 120 words"). */
export const LEAD_WORDS = 120;

const ID_GROUP = new RegExp(`\\s*${ID_GROUP_SOURCE}`, 'g');
const BARE_ID = new RegExp(`\\b${ID_SOURCE}\\b`, 'g');
const ID_BEFORE_PARENTHESES = new RegExp(`\\b${ID_SOURCE} \\(([^()]*)\\)`, 'g');

/**
 * Prose without its IDs: a parenthesised group of IDs ("(E-070)", "(M-017; E-071)") is dropped, and an ID
 * left in the running text is replaced by the entity's title (lower-cased when it is a common phrase).
 */
export function withoutIds(text: string, titleOf: (id: string) => string | undefined): string {
  return text
    .replace(ID_BEFORE_PARENTHESES, '“$1”')
    .replace(ID_GROUP, '')
    .replace(BARE_ID, (id) => {
      const t = titleOf(id);
      return t === undefined ? 'another entry of the atlas' : `“${plainTitle(t)}”`;
    })
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** A title without the atlas's own labels ("(honest baseline)"). */
function plainTitle(title: string): string {
  return title.replace(/\s*\(honest baseline\)\s*$/i, '').trim();
}

/** The first sentence of a text (a sentence ends at . ! or ? before a capital letter or a quote). */
export function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = /^(.+?[.!?])\s+(?=[A-Z“"(])/.exec(t);
  return (m ? m[1]! : t).trim();
}

/**
 * Long authored sentences cut where they already pause: at a semicolon, and at a colon that joins two
 * clauses of four words or more (never inside parentheses). The words are the authors'; only the stops change.
 */
export function shortSentences(text: string): string {
  let depth = 0;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ';' || ch === ':') && depth === 0 && text[i + 1] === ' ') {
      const before = out.slice(out.search(/[^.!?]*$/));
      const after = text.slice(i + 2).split(/[.!?;:]/)[0] ?? '';
      if (ch === ';' || (words(before) >= 4 && words(after) >= 4)) {
        out += '.';
        i += 1;
        const rest = text.slice(i + 1);
        out += ' ' + (/^[a-z]/.test(rest) ? rest[0]!.toUpperCase() : (rest[0] ?? ''));
        i += 1;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** A sentence without its asides in parentheses (examples, glosses): the lead keeps to the point; the details keep them. */
const withoutAsides = (text: string) => text.replace(/\s*\([^()]*\)/g, '').replace(/\s+([,.;:])/g, '$1');

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);
const period = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
const noPeriod = (s: string) => s.replace(/[.]+$/, '');

/** "a, b or c"; andList: "a, b and c". */
function orList(items: readonly string[], word = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}
const andList = (items: readonly string[]) => orList(items, 'and');

function bestFidelity(m: CompatibleMechanism): Fidelity {
  return (
    [...m.compatible_because.emits].sort((a, b) => FIDELITIES.indexOf(a.fidelity) - FIDELITIES.indexOf(b.fidelity))[0]?.fidelity ?? 'void'
  );
}

type Item = CandidateView['groups'][number]['items'][number];

/**
 * The candidate view of a result. `deadlines` are the result's own (agency.deadlines); `reg` gives the
 * given artifacts' concerns and the titles of IDs met in prose.
 */
export function candidateView(reg: Registry, r: Omit<ExplainResult, 'candidate'>, deadlines: readonly DeadlineView[]): CandidateView {
  const titleOf = (id: string) => {
    const e = reg.get(id);
    return e === undefined ? undefined : e.kind === 'source' ? undefined : e.title;
  };
  const clean = (text: string) => withoutIds(text, titleOf);
  // Nothing analysed (the situation reader asks a question first, or the words lie outside the atlas): the
  // reading says what to do, in the person's terms.
  const t = r.input.from_text;
  if (r.hard_facts.artifacts.length === 0 && t) {
    const lead = t.not_covered
      ? [
          ...t.not_covered.topics.flatMap((x) => [x.summary, `Where to turn: ${x.instead}`]),
          `What the atlas covers: ${t.not_covered.covers}`,
        ]
      : t.questions.map((q) => `${q.ask} ${q.options.map((o) => `“${o.answer}”`).join(' or ')}: your answer decides what is looked at.`);
    return { heading: PLAIN_VERDICT[r.agency.verdict.code], lead: lead.map(clean), groups: [], notice: PLAIN_NOTICE };
  }
  const first = r.behind.mechanisms.filter((m) => m.tier === 'produces');
  // At scale the second tier is listed in part: its whole length is counted.
  const secondCount = (r.truncated_lists?.find((t) => t.list === 'behind.mechanisms')?.total ?? r.behind.mechanisms.length) - first.length;

  // What the account brings in: the concerns and the kinds of hiring (topics) of the observations given
  // (their successors' when deprecated).
  const given = r.hard_facts.artifacts.flatMap((a) => reg.getOf('artifact', a.successor?.id ?? a.id) ?? []);
  const brought = new Set<Concern>(given.flatMap((a) => a.concerns));
  const broughtTopics = new Set<Topic>(given.flatMap((a) => a.topics));
  /** What would make an explanation relevant, when it is sensitive or happens only in some kind of hiring. */
  const relevantIf = (m: CompatibleMechanism) => {
    const { concern, context } = FAMILY_PLAIN[m.family];
    return concern !== undefined ? PLAIN_RELEVANT_IF[concern] : context?.relevant_if;
  };
  const broughtIn = (m: CompatibleMechanism) => {
    const { concern, context } = FAMILY_PLAIN[m.family];
    if (concern !== undefined) return brought.has(concern);
    return context === undefined || context.topics.some((t) => broughtTopics.has(t));
  };
  const everyConditional = first.length > 0 && first.every((m) => relevantIf(m) !== undefined);
  const later = (m: CompatibleMechanism) => !broughtIn(m) && !everyConditional;

  // The first tier in its order (directness), the conditional ones not brought in after the rest.
  const ordered = [...first.filter((m) => !later(m)), ...first.filter(later)];
  const groups = new Map<PlainGroup, Item[]>();
  for (const m of ordered) {
    const fidelity = bestFidelity(m);
    const relevant = relevantIf(m);
    const notes = m.compatible_because.emits.flatMap((e) => (e.note !== undefined ? [clean(e.note)] : []));
    const item: Item = {
      id: m.id,
      title: plainTitle(m.title),
      who: plainWho(m),
      how: PLAIN_FIDELITY[fidelity],
      evidence: PLAIN_EVIDENCE[m.evidence_level],
      summary: clean(m.summary),
      ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
      ...(m.honest_baseline ? { ordinary: true } : {}),
      ...(relevant !== undefined ? { relevant_if: relevant, brought_in: !later(m) } : {}),
    };
    const group = FAMILY_PLAIN[m.family].group;
    groups.set(group, [...(groups.get(group) ?? []), item]);
  }
  const groupList = [...groups.entries()].map(([id, items]) => {
    // What would make the group's sensitive explanations relevant, said once for the group.
    const ifs = [...new Set(items.flatMap((i) => (i.brought_in === false && i.relevant_if ? [i.relevant_if] : [])))];
    return { id, label: PLAIN_GROUP_LABELS[id].label, ...(ifs.length > 0 ? { relevant_if: ifs } : {}), items };
  });

  // ── the lead ────────────────────────────────────────────────────────────────────────────────────
  const v = r.agency.verdict;
  const labels = groupList.filter((g) => g.items.some((i) => i.brought_in !== false)).map((g) => PLAIN_GROUP_LABELS[g.id].short);
  const laterLabels = groupList.filter((g) => g.items.every((i) => i.brought_in === false)).map((g) => PLAIN_GROUP_LABELS[g.id].short);
  const cannot = r.behind.non_inferences[0]
    ? shortSentences(period(withoutAsides(clean(firstSentence(r.behind.non_inferences[0].text)))))
    : undefined;
  /** The first sentence, naming the groups that fit only some cases (`later`) and saying the atlas cannot rank them (`likely`) when asked. */
  const meaningOf = (o: { later: boolean; likely: boolean }) =>
    v.code === 'nothing-left'
      ? 'The answers you gave rule out every explanation the atlas has for this. Check them; the atlas may be missing something.'
      : first.length === 0
        ? 'The atlas has nothing that would cause exactly this. Some things happen at the same step, listed below.'
        : `This can come from ${labels.length === 1 ? '' : 'several things: '}${orList(labels)}${o.later && laterLabels.length > 0 ? `, and only if it fits your case, ${orList(laterLabels)}` : ''}. None is proven${o.likely ? ', and the atlas cannot say which is more likely' : ''}.`;

  const topProbe = v.code === 'run-probe' ? r.agency.probes.find((p) => p.agency === 'candidate') : undefined;
  let check: CandidateView['check'];
  if (topProbe) {
    const firstIds = new Set(first.map((m) => m.id));
    const outcome = [...topProbe.outcomes].sort(
      (a, b) => b.narrows.filter((id) => firstIds.has(id)).length - a.narrows.filter((id) => firstIds.has(id)).length,
    )[0];
    const ruled = outcome ? first.filter((m) => outcome.narrows.includes(m.id)).map((m) => lowerFirst(plainTitle(m.title))) : [];
    check = {
      probe: topProbe.id,
      artifact: topProbe.artifact.id,
      action: shortSentences(period(withoutAsides(clean(firstSentence(topProbe.action))))),
      ...(outcome && ruled.length > 0
        ? {
            outcome: outcome.id,
            tells: `If ${lowerFirst(noPeriod(withoutAsides(clean(firstSentence(outcome.observation)))))}, that rules out ${andList(ruled)}.`,
          }
        : {}),
    };
  }
  const reachable = first.filter((m) => m.facets.removability === 'candidate' && !later(m));
  /** Without a check to run: what the person can know instead. */
  const noCheckText =
    v.code === 'act-on-candidate-removable' && reachable.length > 0
      ? `Nothing you can check tells these apart. Part of it may be in your hands (${orList(reachable.map((m) => lowerFirst(plainTitle(m.title))))}), but only act on it if other signs point there.`
      : first.length > 0
        ? 'Nothing you can check tells these apart.'
        : undefined;

  const step = r.agency.next_steps[0];
  const now: CandidateView['now'] = step
    ? {
        step: step.id,
        artifact: step.artifact.id,
        action: shortSentences(period(withoutAsides(clean(firstSentence(step.action))))),
        ...(step.by_when !== undefined ? { by_when: period(withoutAsides(clean(firstSentence(step.by_when)))) } : {}),
      }
    : undefined;
  const mine = personDeadlines(deadlines)
    .map(({ deadline }) => deadline)
    .filter((d) => d.who === 'you' && d.stated);
  const dated = mine.filter((d) => d.dates.length > 0).sort((a, b) => a.dates[0]!.date.localeCompare(b.dates[0]!.date));
  const shortest = shortestWords(mine);
  const lawText =
    dated.length > 0
      ? `If you want to use the law: ${lowerFirst(noPeriod(dated[0]!.action))} by ${dated[0]!.dates[0]!.long}${dated.length > 1 ? ' (more dates below)' : ''}.`
      : shortest !== undefined
        ? `The law may give you a route, with short time limits (the shortest here: ${shortest}).`
        : undefined;

  // Within the budget: the lead starts short and gets back, in this order, what fits: what the facts
  // cannot mean; "the atlas cannot say which is more likely"; "by when"; the check's "if"; the
  // explanations that fit only some cases (each says so itself below).
  const keep = { cannot: false, likely: false, byWhen: false, tells: false, later: false };
  const parts = () =>
    [
      meaningOf(keep),
      keep.cannot ? cannot : undefined,
      check ? `One thing worth checking: ${lowerFirst(check.action)}${keep.tells && check.tells ? ` ${check.tells}` : ''}` : noCheckText,
      now
        ? `What to do now: ${lowerFirst(now.action)}${keep.byWhen && now.by_when ? ` By when: ${lowerFirst(now.by_when)}` : ''}`
        : undefined,
      lawText,
    ].filter((p): p is string => p !== undefined);
  for (const part of ['cannot', 'likely', 'byWhen', 'tells', 'later'] as const) {
    keep[part] = true;
    if (words(parts().join(' ')) > LEAD_WORDS) keep[part] = false;
  }

  const law = deadlines.length > 0;
  return {
    heading: PLAIN_VERDICT[v.code],
    lead: parts(),
    ...(check ? { check } : {}),
    ...(now ? { now } : {}),
    groups: groupList,
    ...(secondCount > 0
      ? {
          also: `The atlas also lists ${secondCount === 1 ? 'one other thing that happens' : `${secondCount} other things that happen`} at this step but would not cause this by ${secondCount === 1 ? 'itself' : 'themselves'}.`,
        }
      : {}),
    ...(r.obstacle.stage_note ? { note: stageNote(r) } : {}),
    notice: PLAIN_NOTICE,
    ...(law ? { legal: CHECK_WITH_ADVISER } : {}),
  };
}

/** The shortest stated limit among deadlines, in words ("three months less one day"), compared by its length in days, roughly. */
function shortestWords(ds: readonly DeadlineView[]): string | undefined {
  const DAYS = { days: 1, weeks: 7, months: 30, years: 365 } as const;
  let best: { n: number; words: string } | undefined;
  for (const d of ds) {
    if (!d.period) continue;
    const n = d.period.length * DAYS[d.period.unit] * (d.period.days === 'business' ? 1.4 : 1);
    if (best === undefined || n < best.n) best = { n, words: d.period.words };
  }
  return best?.words;
}

/** The stage note in plain words: the stage given, and the observations not recorded there. */
function stageNote(r: Omit<ExplainResult, 'candidate'>): string {
  const stage = r.obstacle.stages[0] ?? '';
  const away = r.hard_facts.artifacts.filter((a) => !a.stages.includes(stage as never)).map((a) => `“${a.title}”`);
  return `You said this happened at the ${stage.replace(/-/g, ' ')} stage, but the atlas does not record ${andList(away)} there. The answer looks at that stage, as you asked: check it, or leave it out.`;
}
