// The HOBA protocol (DESIGN.md §4) as a pure function over a Registry.
//
//   H  hard facts   resolve the observed artifacts (a deprecated one is replaced by its successor)
//   O  obstacle     the barriers at the given stage, else at the artifacts' stages
//   B  behind       compatible mechanisms: the UNION of those operating at an identified barrier and those
//                   emitting a given artifact (never dropped only because of the stage), plus the honest
//                   baselines, which always stay on the table; related patterns and loops; what the facts
//                   do not establish
//   A  agency       who can remove each remaining mechanism, the probes that would tell them apart, and
//                   a verdict
//
// Reported probe outcomes narrow the set only through their explicit `excludes`: an outcome that
// excludes a mechanism removes it from the whole case. Nothing here is a probability.
import { REMOVABILITIES, type Removability } from '../model/vocab.ts';
import type { EntityOfKind, Registry } from '../registry/registry.ts';
import { compatibleMechanisms, barrierRef, resolveFacts, type Facts } from './mechanisms.ts';
import { sourceCaveatsOf } from './node.ts';
import { matchPatterns } from './patterns.ts';
import { probeView, rankProbes } from './probes.ts';
import { AnalysisError, quoted, refOf, refById, sortedIds, titled } from './resolve.ts';
import type { CompatibleMechanism, ExplainResult, LoopMatch, ProbeView, Verdict } from './schemas.ts';
import { LOW_SIGNAL_TEXT, UNCALIBRATED_NOTICE } from './terms.ts';

export interface ProbeOutcomeInput {
  probe: string;
  outcome: string;
}

export interface ExplainInput {
  /** Observed artifacts (at least one). */
  artifacts: readonly string[];
  /** Funnel stage where it happened; by default the artifacts' own stages. */
  stage?: string;
  /** Outcomes of probes already run. */
  probes?: readonly ProbeOutcomeInput[];
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
      throw new AnalysisError('invalid-argument', `Probe ${probeId} has no outcome ${quoted(outcomeId)}. Its outcomes are: ${outcomeIds.join(', ')}.`, [], outcomeIds);
    }
    const earlier = seen.get(probeId);
    if (earlier !== undefined && earlier !== outcomeId) {
      throw new AnalysisError('invalid-argument', `Probe ${probeId} is reported twice, with outcomes ${earlier} and ${outcomeId}; give the one you observed.`);
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
  return new AnalysisError('invalid-argument', `There is no probe ${quoted(probeId)} for ${facts.used.map((a) => a.id).join(', ')}. Its probes are: ${valid.join(', ')}.`, [], valid);
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

function loopsOf(reg: Registry, remaining: ReadonlySet<string>): LoopMatch[] {
  return reg
    .all('loop')
    .filter((l) => l.status === 'active' && l.mechanisms.some((m) => remaining.has(m)))
    .map((l) => ({
      id: l.id,
      title: l.title,
      summary: l.summary,
      mechanisms: l.mechanisms,
      compatible_members: sortedIds(l.mechanisms.filter((m) => remaining.has(m))),
      entry_points: l.entry_points,
      evidence_level: l.evidence_level,
    }));
}

const list = (ms: readonly CompatibleMechanism[]) => ms.map(titled).join(', ');

/** A: the verdict, with a stable code. */
function verdictOf(remaining: CompatibleMechanism[], probes: ProbeView[], otherCandidateProbes: string[]): Verdict {
  const baselines = remaining.filter((m) => m.honest_baseline);
  const baselineNote = baselines.length > 0 ? [`Honest baselines stay on the table: ${list(baselines)}.`] : [];
  if (remaining.length === 0) {
    return {
      code: 'nothing-left',
      text: 'The reported outcomes exclude every mechanism the atlas links to these facts, so it holds no explanation for this combination.',
      details: ['Check the probe outcomes you reported. If they are right, the atlas may be missing a mechanism: please report the case.'],
    };
  }
  const candidateProbes = probes.filter((p) => p.agency === 'candidate');
  const intermediaryProbes = probes.filter((p) => p.agency === 'intermediary');
  // Only a mechanism that can produce what was observed (it emits a given artifact) makes acting on this
  // observation worthwhile; one that merely acts at the same stage, or a baseline listed because baselines
  // always are, does not by itself.
  const reachable = remaining.filter((m) => m.facets.removability === 'candidate' && m.compatible_because.emits.length > 0);
  const reachNote = reachable.length > 0 ? [`Within your reach, if other evidence points there: ${list(reachable)}. Compatible is not proven.`] : [];
  if (candidateProbes.length > 0) {
    const first = candidateProbes[0]!;
    const narrows = sortedIds(first.outcomes.flatMap((o) => o.narrows));
    return {
      code: 'run-probe',
      text: `Run a probe before drawing conclusions: ${first.id} (${first.artifact.id}, ${first.cost} cost). Depending on its outcome it can rule out ${narrows.join(', ')}.`,
      details: [
        ...(candidateProbes.length > 1 ? [`Other probes you can run that narrow the set: ${candidateProbes.slice(1).map((p) => p.id).join(', ')}.`] : []),
        ...reachNote,
        ...baselineNote,
      ],
    };
  }
  const intermediaryNote =
    intermediaryProbes.length > 0
      ? [`Someone inside the process (a referrer, a contact or the recruiter) could still narrow the set: ${intermediaryProbes.map((p) => p.id).join(', ')}.`]
      : [];
  if (reachable.length > 0) {
    return {
      code: 'act-on-candidate-removable',
      text: `No probe you can run tells the remaining mechanisms apart. Of those that can produce what you observed, ${list(reachable)} ${reachable.length === 1 ? 'is' : 'are'} within your reach; act on ${reachable.length === 1 ? 'it' : 'them'} only where other evidence points there.`,
      details: [...intermediaryNote, ...baselineNote],
    };
  }
  return {
    code: 'low-signal',
    text: LOW_SIGNAL_TEXT,
    details: [
      `No probe you can run tells the ${remaining.length} remaining mechanisms apart, and none of those that can produce what you observed is removable by you.`,
      ...intermediaryNote,
      ...(otherCandidateProbes.length > 0
        ? [`These probes cannot rule anything out, but each outcome's note says what it tells: ${otherCandidateProbes.join(', ')}.`]
        : []),
      ...baselineNote,
    ],
  };
}

/** explain_observation: the HOBA protocol for one or more observed artifacts. */
export function explain(reg: Registry, input: ExplainInput): ExplainResult {
  if (input.artifacts.length === 0) throw new AnalysisError('invalid-argument', 'explain needs at least one artifact ID (what you observed), such as A-009.');
  // H, O
  const facts = resolveFacts(reg, { artifacts: input.artifacts, ...(input.stage !== undefined ? { stage: input.stage } : {}) });
  const observed = observedOutcomes(reg, facts, input.probes ?? []);
  const given = [...new Map(facts.artifacts.map((a) => [a.given.id, a])).values()];
  const note = stageNote(facts);

  // B
  const compatible = compatibleMechanisms(reg, facts);
  const excludedBy = new Map<string, Array<{ probe: string; outcome: string }>>();
  for (const o of observed) {
    for (const m of o.excludes) excludedBy.set(m, [...(excludedBy.get(m) ?? []), { probe: o.probe, outcome: o.outcome }]);
  }
  const remaining = compatible.filter((m) => !excludedBy.has(m.id));
  const excluded = compatible
    .filter((m) => excludedBy.has(m.id))
    .map((m) => ({ id: m.id, title: m.title, by: excludedBy.get(m.id)! }));
  const remainingIds = new Set(remaining.map((m) => m.id));
  const usedIds = facts.used.map((a) => a.id);
  const patterns = matchPatterns(reg, usedIds).filter((p) => p.match === 'triggered' || p.match === 'partial');
  const nonInferences = dedupeTexts([
    ...facts.used.flatMap((a) => a.non_inferences.map((text) => ({ from: a.id, text }))),
    ...patterns.filter((p) => p.match === 'triggered').flatMap((p) => p.non_inferences.map((text) => ({ from: p.id, text }))),
  ]);
  const loops = loopsOf(reg, remainingIds);
  // Withdrawn guidance, repealed law, contested or superseded findings behind anything listed above.
  const sourceCaveats = sourceCaveatsOf(reg, [...facts.used, ...[...remaining, ...patterns, ...loops].map((x) => reg.get(x.id)!)]);

  // A
  const split = Object.fromEntries(REMOVABILITIES.map((r) => [r, [] as string[]])) as Record<Removability, string[]>;
  for (const m of remaining) split[m.facets.removability].push(m.id);
  const answered = new Set(observed.map((o) => o.probe));
  const open = facts.used.flatMap((a: EntityOfKind<'artifact'>) => a.probes.filter((p) => !answered.has(p.id)).map((p) => probeView(a, p, remainingIds)));
  const probes = rankProbes(open.filter((p) => p.distinguishes));
  const otherProbes = open.filter((p) => !p.distinguishes).map((p) => ({ artifact: p.artifact.id, probe: p.id, agency: p.agency, cost: p.cost }));

  return {
    registry_version: reg.version,
    notice: UNCALIBRATED_NOTICE,
    input: {
      artifacts: given.map((a) => a.given.id),
      ...(input.stage !== undefined ? { stage: facts.stages[0]! } : {}),
      probes: observed.map((o) => ({ probe: o.probe, outcome: o.outcome })),
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
    obstacle: { stages: facts.stages, from: facts.stagesFrom, barriers: facts.barriers.map(barrierRef), ...(note !== undefined ? { stage_note: note } : {}) },
    behind: { mechanisms: remaining, excluded, patterns, loops, non_inferences: nonInferences, source_caveats: sourceCaveats },
    agency: { ...split, probes, other_probes: otherProbes, verdict: verdictOf(remaining, probes, otherProbes.filter((p) => p.agency === 'candidate').map((p) => p.probe)) },
  };
}

function dedupeTexts<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.text) && seen.add(i.text));
}
