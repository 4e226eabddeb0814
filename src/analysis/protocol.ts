// The HOBA protocol (DESIGN.md §4) over observed artifact IDs, as a pure function over a Registry. The
// entry point that also takes a scenario or plain words is explain() in explain.ts; this module is kept
// apart so that the CLI's start-up path for IDs does not load the search index.
//
//   H  hard facts   resolve the observed artifacts (a deprecated one is replaced by its successor)
//   O  obstacle     the barriers at the given stage, else at the artifacts' stages
//   B  behind       compatible mechanisms, in two tiers: those that PRODUCE what was observed (emit a given
//                   artifact; ranked by fidelity, then observations accounted for, then evidence), then
//                   those that only act at the SAME STAGE (operate at an identified barrier; by ID, the
//                   first LISTED_MAX of them, like the barriers and loops: see truncated_lists). The
//                   union rule stays: nothing is dropped for being less direct, never only because of the
//                   stage. A given artifact's rules_out removes a mechanism, with its reason. Related
//                   patterns and loops; what the facts do not establish
//   A  agency       who can remove each first-tier mechanism, the probes that would tell them apart, what
//                   the candidate can still do whatever the cause, and a verdict
//
// Reported probe outcomes narrow the set only through their explicit `excludes`: an outcome that
// excludes a mechanism removes it from the whole case. Nothing here is a probability.
import { REMOVABILITIES, type Removability } from '../model/vocab.ts';
import { compareIds, type EntityOfKind, type Registry } from '../registry/registry.ts';
import {
  activeLoops,
  bounded,
  EntitySet,
  joinWords,
  listedBarriers,
  listedMechanisms,
  rankCompatible,
  resolveFacts,
  type Facts,
  type SecondTier,
} from './mechanisms.ts';
import { candidateView } from './candidate.ts';
import { checkedDate, deadlinesOf, placeOfInput, type CaseFacts } from './deadlines.ts';
import { citationsOf, sourceCaveatsOf } from './node.ts';
import { matchPatterns } from './patterns.ts';
import { probeView, rankProbes } from './probes.ts';
import { AnalysisError, quoted, refOf, refById, sortedIds, titled } from './resolve.ts';
import type {
  CompatibleMechanism,
  ExplainResult,
  FromText,
  LawNoteView,
  LoopMatch,
  NextStepView,
  ProbeView,
  Truncation,
  Verdict,
} from './schemas.ts';
import { LEGAL_NOTICE, LISTED_MAX, LOW_SIGNAL_TEXT, LOW_SIGNAL_WITH_STEPS_TEXT, UNCALIBRATED_NOTICE } from './terms.ts';

export interface ProbeOutcomeInput {
  probe: string;
  outcome: string;
}

export interface ArtifactsInput {
  /** Observed artifacts (at least one). */
  artifacts: readonly string[];
  /** Funnel stage where it happened; by default the artifacts' own stages. */
  stage?: string;
  /** Outcomes of probes already run. */
  probes?: readonly ProbeOutcomeInput[];
  /** The date of what happened (YYYY-MM-DD): the law notes' time limits become dates. */
  on?: string;
  /** Where the person is (uk, us-ca, eu-de…): law notes for elsewhere are left out of the deadlines. */
  where?: string;
  /** Dates of other events (a request sent, Acas early conciliation), when known. */
  dates?: CaseFacts['dates'];
}

/** Where the artifacts came from when they were not given as IDs: a scenario preset, or plain words. */
export interface InputOrigin {
  scenario?: { id: string; title: string };
  from_text?: FromText;
}

type Observed = ExplainResult['hard_facts']['observed'][number];

/** Checks reported probe outcomes against the given artifacts' probes. */
function observedOutcomes(reg: Registry, facts: Facts, reported: readonly ProbeOutcomeInput[]): Observed[] {
  const probes = new Map(facts.used.flatMap((a) => a.probes.map((p) => [p.id, { artifact: a, probe: p }] as const)));
  const seen = new Map<string, string>();
  const observed: Observed[] = [];
  for (const { probe: probeId, outcome: outcomeId } of reported) {
    const found = probes.get(probeId);
    if (!found) throw unknownProbe(reg, facts, probeId, [...probes.keys()]);
    const outcome = found.probe.outcomes.find((o) => o.id === outcomeId);
    const outcomeIds = found.probe.outcomes.map((o) => o.id);
    if (!outcome) {
      throw new AnalysisError(
        'invalid-argument',
        `Probe ${probeId} has no outcome ${quoted(outcomeId)}. Its outcomes are: ${outcomeIds.join(', ')}.`,
        [],
        outcomeIds,
      );
    }
    const earlier = seen.get(probeId);
    if (earlier !== undefined && earlier !== outcomeId) {
      throw new AnalysisError(
        'invalid-argument',
        `Probe ${probeId} is reported twice, with outcomes ${earlier} and ${outcomeId}; give the one you observed.`,
      );
    }
    if (earlier !== undefined) continue;
    seen.set(probeId, outcomeId);
    observed.push({
      artifact: found.artifact.id,
      probe: probeId,
      outcome: outcomeId,
      observation: outcome.observation,
      ...(outcome.note !== undefined ? { note: outcome.note } : {}),
      excludes: sortedIds(outcome.excludes),
    });
  }
  return observed;
}

function unknownProbe(reg: Registry, facts: Facts, probeId: string, valid: string[]): AnalysisError {
  const owner = reg.all('artifact').find((a) => a.probes.some((p) => p.id === probeId));
  if (owner) {
    return new AnalysisError(
      'invalid-argument',
      `Probe ${probeId} belongs to ${titled(owner)}, which is not among the artifacts given (${facts.used.map((a) => a.id).join(', ')}). Add ${owner.id} if you observed it.`,
      [refOf(owner)],
      valid,
    );
  }
  return new AnalysisError(
    'invalid-argument',
    `There is no probe ${quoted(probeId)} for ${facts.used.map((a) => a.id).join(', ')}. Its probes are: ${valid.join(', ')}.`,
    [],
    valid,
  );
}

/**
 * A stage given that none of an artifact's recorded stages matches moves the obstacle away from where
 * that observation arises: said in the result, never done silently.
 */
function stageNote(facts: Facts): string | undefined {
  if (facts.stagesFrom !== 'option' || facts.stages.length !== 1) return undefined;
  const stage = facts.stages[0]!;
  const elsewhere = facts.used.filter((a) => !a.stages.includes(stage));
  if (elsewhere.length === 0) return undefined;
  const where = elsewhere.map((a) => `${titled(a)} is recorded at ${a.stages.join(', ')}`).join('; ');
  return `${where}, not at ${stage}. The barriers are those at ${stage}, as given, so they may not be where ${elsewhere.length === 1 ? 'this observation comes' : 'these observations come'} from: check the stage, or leave it out to use the observations' own stages.`;
}

function loopsOf(reg: Registry, remaining: EntitySet): LoopMatch[] {
  const loops = activeLoops(reg);
  return remaining
    .loopsToCheck()
    .map((k) => loops[k]!)
    .filter(({ members }) => members.some((i) => remaining.hasAt(i)))
    .map(({ loop: l, members }) => ({
      id: l.id,
      title: l.title,
      summary: l.summary,
      mechanisms: l.mechanisms,
      compatible_members: sortedIds(l.mechanisms.filter((_, k) => remaining.hasAt(members[k]!))),
      entry_points: l.entry_points,
      evidence_level: l.evidence_level,
    }));
}

/** What the verdict and the probes' words need of a mechanism: the whole second tier is known this way, not only the listed part. */
type MechanismName = Pick<CompatibleMechanism, 'id' | 'title' | 'tier'>;
type MechanismFacts = MechanismName & { mechanism: Pick<CompatibleMechanism, 'facets' | 'honest_baseline'> };

// A mechanism past the listed part of the second tier has no title in the result: its ID names it.
const nameOf = (m: { id: string; title: string }) => (m.title === '' ? m.id : titled(m));
const list = (ms: readonly { id: string; title: string }[]) => joinWords(ms.map(nameOf));
/** The first `max` named and the rest counted; all named when at most one would be counted. */
const someNamed = (ms: readonly { id: string; title: string }[], max: number, total = ms.length) =>
  total <= max + 1 ? list(ms) : `${ms.slice(0, max).map(nameOf).join(', ')} and ${total - max} more`;

/** How many same-stage mechanisms the verdict names before it counts the rest. */
const VERDICT_NAMED = 10;

/**
 * What a probe outcome can rule out (`narrows`, which is complete), in words that keep the tiers apart:
 * the first-tier mechanisms (out of `firstCount`), named up to `max` and the rest counted (only counted
 * when `max` is 0, except a lone one), then how many of the same-stage ones. `known` gives titles and
 * tiers: the first tier is complete in any result, so an ID it does not hold is a same-stage mechanism
 * past the listed part.
 */
export function ruleOutWords(narrows: readonly string[], known: readonly MechanismName[], firstCount: number, max = 2): string {
  const byId = new Map(known.map((m) => [m.id, m]));
  const narrowed = narrows.map((id): MechanismName => byId.get(id) ?? { id, title: '', tier: 'same-stage' });
  const first = narrowed.filter((m) => m.tier === 'produces');
  const second = narrowed.filter((m) => m.tier === 'same-stage');
  const acts = (n: number) => (n === 1 ? 'acts' : 'act');
  if (first.length === 0) {
    if (max > 0 || second.length === 1) return `${someNamed(second, max)}, which only ${acts(second.length)} at the same stage`;
    return `${second.length} mechanisms that only act at the same stage`;
  }
  const share =
    first.length < firstCount
      ? `${first.length === 1 ? 'one' : first.length} of the ${firstCount} mechanisms`
      : firstCount === 1
        ? 'the one mechanism'
        : firstCount === 2
          ? 'both mechanisms'
          : `all ${firstCount} mechanisms`;
  const head =
    first.length === 1
      ? `${titled(first[0]!)}, ${share} that could have produced what you saw`
      : max === 0
        ? `${share} that could have produced what you saw`
        : `${someNamed(first, max)}: ${share} that could have produced what you saw`;
  return second.length > 0 ? `${head}, and ${second.length} that only ${acts(second.length)} at the same stage` : head;
}

/** The whole length of a list that a result may cut (see its truncated_lists), `listed` being how many it lists. */
export function listTotal(result: { truncated_lists?: readonly Truncation[] | undefined }, path: string, listed: number): number {
  return result.truncated_lists?.find((t) => t.list === path)?.total ?? listed;
}

/** The given artifacts' next steps: what the candidate can do whatever the cause. */
function nextStepsOf(reg: Registry, facts: Facts): NextStepView[] {
  return facts.used.flatMap((a) =>
    a.next_steps.map((step) => ({
      artifact: refOf(a),
      id: step.id,
      action: step.action,
      why: step.why,
      ...(step.by_when !== undefined ? { by_when: step.by_when } : {}),
      // The artifact's own citation builder, over the step's sources: withdrawn or repealed ones keep their caveat.
      citations: citationsOf(reg, { ...a, sources: step.sources }),
    })),
  );
}

interface VerdictFacts {
  /** The remaining first tier. */
  first: MechanismFacts[];
  /** The remaining second tier, listed or not. */
  second: SecondTier;
  probes: ProbeView[];
  otherCandidateProbes: string[];
  steps: NextStepView[];
}

/** A: the verdict, with a stable code. It speaks about the first tier, as the agency split does. */
function verdictOf({ first, second, probes, otherCandidateProbes, steps }: VerdictFacts): Verdict {
  const remaining = first.length + second.size;
  const stepsNote = steps.length > 0 ? [`What you can still do, whatever the cause: ${steps.map((s) => s.action.trim()).join(' ')}`] : [];
  if (remaining === 0) {
    return {
      code: 'nothing-left',
      text: 'The reported outcomes exclude every mechanism the atlas links to these facts, so it holds no explanation for this combination.',
      details: [
        'Check the probe outcomes you reported. If they are right, the atlas may be missing a mechanism: please report the case.',
        ...stepsNote,
      ],
    };
  }
  const baselines = first.filter((m) => m.mechanism.honest_baseline);
  const baselineNote =
    baselines.length > 0
      ? [
          `Ordinary causes stay on the table: ${list(baselines)} ${baselines.length === 1 ? 'is' : 'are'} among those that could have produced this.`,
        ]
      : [];
  const candidateProbes = probes.filter((p) => p.agency === 'candidate');
  const intermediaryProbes = probes.filter((p) => p.agency === 'intermediary');
  // Only a mechanism that can produce what was observed (the first tier) makes acting on this observation
  // worthwhile; one that merely acts at the same stage does not by itself.
  const reachable = first.filter((m) => m.mechanism.facets.removability === 'candidate');
  // Named up to VERDICT_NAMED, the rest counted: one more is read, since a lone rest is named.
  const elsewhere = second.removable;
  const reachableElsewhere = second.first(Math.min(VERDICT_NAMED + 1, elsewhere), (m) => m.facets.removability === 'candidate');
  const reachNote =
    reachable.length > 0 ? [`Within your reach, if other evidence points there: ${list(reachable)}. Compatible is not proven.`] : [];
  const elsewhereNote =
    elsewhere > 0
      ? [
          `${someNamed(reachableElsewhere, VERDICT_NAMED, elsewhere)} ${elsewhere === 1 ? 'is' : 'are'} within your reach but only ${elsewhere === 1 ? 'acts' : 'act'} at the same stage: ${elsewhere === 1 ? 'it produces' : 'they produce'} none of what you saw, so this observation alone does not point there.`,
        ]
      : [];
  if (candidateProbes.length > 0) {
    const top = candidateProbes[0]!;
    const narrows = new Set(top.outcomes.flatMap((o) => o.narrows));
    const narrowed = [...first.filter((m) => narrows.has(m.id)), ...second.members(narrows)];
    return {
      code: 'run-probe',
      text: `Run a probe before drawing conclusions: ${top.id} (${top.artifact.id}, ${top.cost} cost). Depending on its outcome it can rule out ${ruleOutWords(
        narrowed.map((m) => m.id),
        narrowed,
        first.length,
        0,
      )}.`,
      details: [
        // Every name, when the text above counted some of them.
        ...(narrowed.length > 1 ? [`${top.id} can rule out ${list(narrowed)}.`] : []),
        ...stepsNote,
        ...(candidateProbes.length > 1
          ? [
              `Other probes you can run that narrow the set: ${candidateProbes
                .slice(1)
                .map((p) => p.id)
                .join(', ')}.`,
            ]
          : []),
        ...reachNote,
        ...baselineNote,
      ],
    };
  }
  const intermediaryNote =
    intermediaryProbes.length > 0
      ? [
          `Someone inside the process (a referrer, a contact or the recruiter) could still narrow the set: ${intermediaryProbes.map((p) => p.id).join(', ')}.`,
        ]
      : [];
  if (reachable.length > 0) {
    return {
      code: 'act-on-candidate-removable',
      text: `No probe you can run tells the remaining explanations apart. Of those that can produce what you observed, ${list(reachable)} ${reachable.length === 1 ? 'is' : 'are'} within your reach; act on ${reachable.length === 1 ? 'it' : 'them'} only where other evidence points there.`,
      details: [...stepsNote, ...intermediaryNote, ...baselineNote],
    };
  }
  const firstWords =
    first.length === 0
      ? 'and none of them produces what you observed'
      : first.length === 1
        ? `and the one that can produce what you observed, ${titled(first[0]!)}, is not removable by you`
        : `and none of the ${first.length} that can produce what you observed is removable by you`;
  return {
    code: 'low-signal',
    text: steps.length > 0 ? LOW_SIGNAL_WITH_STEPS_TEXT : LOW_SIGNAL_TEXT,
    details: [
      ...stepsNote,
      `No probe you can run tells the ${remaining} remaining mechanisms apart, ${firstWords}.`,
      ...elsewhereNote,
      ...intermediaryNote,
      ...(otherCandidateProbes.length > 0
        ? [`These probes cannot rule anything out, but each outcome's note says what it tells: ${otherCandidateProbes.join(', ')}.`]
        : []),
      ...baselineNote,
    ],
  };
}

/**
 * The HOBA protocol for observed artifact IDs; `origin` says where they came from, when not given as IDs.
 * Lists that grow with the atlas (second tier, barriers, loops) show their first `max` items.
 */
export function explainArtifacts(reg: Registry, input: ArtifactsInput, origin: InputOrigin = {}, max = LISTED_MAX): ExplainResult {
  if (input.artifacts.length === 0) {
    throw new AnalysisError(
      'invalid-argument',
      'explain needs at least one artifact ID (what you observed, such as A-009), a scenario ID (such as S-001) or your own words.',
    );
  }
  // The person's date and place are checked first: a mistake there is theirs to correct, whatever the rest.
  const on = input.on !== undefined ? checkedDate(input.on, 'The date of what happened') : undefined;
  const where = input.where !== undefined ? placeOfInput(input.where).code : undefined;
  const dates =
    input.dates &&
    Object.fromEntries(Object.entries(input.dates).map(([k, v]) => [k, checkedDate(v!, `The date of ${k.replace(/_/g, ' ')}`)]));
  // H, O
  const facts = resolveFacts(reg, { artifacts: input.artifacts, ...(input.stage !== undefined ? { stage: input.stage } : {}) });
  const observed = observedOutcomes(reg, facts, input.probes ?? []);
  const given = [...new Map(facts.artifacts.map((a) => [a.given.id, a])).values()];
  const note = stageNote(facts);

  // B
  // Views are built for the listed mechanisms only; the verdict, the probes and the loops see them all.
  const { first: firstAll, second: secondAll, ruledOut } = rankCompatible(reg, facts);
  const excludedBy = new Map<string, Array<{ probe: string; outcome: string }>>();
  for (const o of observed) {
    for (const m of o.excludes) excludedBy.set(m, [...(excludedBy.get(m) ?? []), { probe: o.probe, outcome: o.outcome }]);
  }
  // The second tier holds thousands at scale: it is asked what the result needs, never walked whole.
  const first = excludedBy.size === 0 ? firstAll : firstAll.filter((m) => !excludedBy.has(m.id));
  const second = secondAll.without(excludedBy.keys());
  const excluded = [...firstAll.filter((m) => excludedBy.has(m.id)), ...secondAll.members(excludedBy.keys())]
    .map((m) => ({ id: m.id, title: m.title, by: excludedBy.get(m.id)! }))
    .sort((a, b) => compareIds(a.id, b.id));
  const remainingIds = new EntitySet(reg, first, second);
  const firstIds = new Set(first.map((m) => m.id));
  const { mechanisms: listed, cut: mechanismsCut } = listedMechanisms(reg, facts, first, second, 'behind.mechanisms', max);
  const { barriers, cut: barriersCut } = listedBarriers(facts, 'obstacle.barriers', max);
  const usedIds = facts.used.map((a) => a.id);
  const patterns = matchPatterns(reg, usedIds).filter((p) => p.match === 'triggered' || p.match === 'partial');
  const nonInferences = dedupeTexts([
    ...facts.used.flatMap((a) => a.non_inferences.map((text) => ({ from: a.id, text }))),
    ...patterns.filter((p) => p.match === 'triggered').flatMap((p) => p.non_inferences.map((text) => ({ from: p.id, text }))),
  ]);
  const allLoops = loopsOf(reg, remainingIds);
  const { shown: loops, cut: loopsCut } = bounded(
    allLoops,
    max,
    'behind.loops',
    (rest) =>
      `${rest} more loops hold some of these mechanisms (listed by ID; the last shown is ${allLoops[max - 1]!.id}): a mechanism’s loops are in get_node (its member_of relations) and in its page of the REST API (/api/v1/mechanisms/{id})`,
  );
  // Withdrawn guidance, repealed law, contested or superseded findings behind anything listed above.
  const sourceCaveats = sourceCaveatsOf(reg, [...facts.used, ...[...listed, ...patterns, ...loops].map((x) => reg.get(x.id)!)]);

  // A: the split speaks about the first tier, like the verdict; the second tier has its own, over its listed part.
  const splitOf = (ms: readonly CompatibleMechanism[]) => {
    const split = Object.fromEntries(REMOVABILITIES.map((r) => [r, [] as string[]])) as Record<Removability, string[]>;
    for (const m of ms) split[m.facets.removability].push(m.id);
    return split;
  };
  const answered = new Set(observed.map((o) => o.probe));
  const open = facts.used.flatMap((a: EntityOfKind<'artifact'>) =>
    a.probes.filter((p) => !answered.has(p.id)).map((p) => probeView(a, p, remainingIds, firstIds)),
  );
  const probes = rankProbes(open.filter((p) => p.distinguishes));
  const otherProbes = open
    .filter((p) => !p.distinguishes)
    .map((p) => ({ artifact: p.artifact.id, probe: p.id, agency: p.agency, cost: p.cost }));
  const steps = nextStepsOf(reg, facts);
  const cut = [...barriersCut, ...mechanismsCut, ...loopsCut];
  const law: LawNoteView[] = facts.used.flatMap((a) => a.law.map((note) => ({ artifact: refOf(a), ...note })));
  const deadlines = deadlinesOf(law, {
    ...(on !== undefined ? { on } : {}),
    ...(where !== undefined ? { where } : {}),
    ...(dates ? { dates } : {}),
  });
  const verdict = verdictOf({
    second,
    first,
    probes,
    otherCandidateProbes: otherProbes.filter((p) => p.agency === 'candidate').map((p) => p.probe),
    steps,
  });

  const result: Omit<ExplainResult, 'candidate'> = {
    registry_version: reg.version,
    notice: UNCALIBRATED_NOTICE,
    input: {
      artifacts: given.map((a) => a.given.id),
      ...(input.stage !== undefined ? { stage: facts.stages[0]! } : {}),
      probes: observed.map((o) => ({ probe: o.probe, outcome: o.outcome })),
      ...(origin.scenario ? { scenario: origin.scenario } : {}),
      ...(origin.from_text ? { from_text: origin.from_text } : {}),
      ...(on !== undefined ? { on } : {}),
      ...(where !== undefined ? { where } : {}),
    },
    hard_facts: {
      artifacts: given.map(({ given: a, used }) => ({
        id: a.id,
        title: a.title,
        summary: a.summary,
        stages: a.stages,
        status: a.status,
        ...(used.id !== a.id ? { successor: refById(reg, used.id) } : {}),
      })),
      observed,
    },
    obstacle: { stages: facts.stages, from: facts.stagesFrom, barriers, ...(note !== undefined ? { stage_note: note } : {}) },
    behind: {
      mechanisms: listed,
      excluded,
      ruled_out: ruledOut,
      patterns,
      loops,
      non_inferences: nonInferences,
      source_caveats: sourceCaveats,
    },
    agency: {
      ...splitOf(listed.filter((m) => m.tier === 'produces')),
      same_stage: splitOf(listed.filter((m) => m.tier === 'same-stage')),
      probes,
      other_probes: otherProbes,
      next_steps: steps,
      law,
      ...(law.length > 0 ? { legal_notice: LEGAL_NOTICE } : {}),
      deadlines,
      verdict,
    },
    ...(cut.length > 0 ? { truncated_lists: cut } : {}),
  };
  return { ...result, candidate: candidateView(reg, result, deadlines) };
}

function dedupeTexts<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.text) && seen.add(i.text));
}
