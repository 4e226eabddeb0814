// Facts → obstacle → compatible mechanisms: the H, O and B steps of the HOBA protocol, shared by
// explain and by find_compatible_mechanisms.
import { EVIDENCE_LEVELS, FIDELITIES, STAGES, type Fidelity, type Stage } from '../model/vocab.ts';
import type { Barrier, Mechanism } from '../model/schemas.ts';
import { compareIds, type EntityOfKind, type Registry } from '../registry/registry.ts';
import { AnalysisError, refById, resolveEntity, sortedIds, successorOf } from './resolve.ts';
import type { BarrierRef, CompatibleMechanism, CompatibleMechanisms, EntityRef, RuledOutMechanism } from './schemas.ts';
import { TIERS, UNCALIBRATED_NOTICE } from './terms.ts';

export interface FactsInput {
  /** Artifact IDs the candidate observed. */
  artifacts?: readonly string[];
  /** The funnel stage where it happened; overrides the artifacts' own stages. */
  stage?: string;
  /** Barriers named directly (find_compatible_mechanisms). */
  barriers?: readonly string[];
}

export interface GivenArtifact {
  /** The artifact as named. */
  given: EntityOfKind<'artifact'>;
  /** What the analysis uses: the artifact itself, or its active successor when it is deprecated. */
  used: EntityOfKind<'artifact'>;
}

export interface Facts {
  artifacts: GivenArtifact[];
  /** The distinct artifacts the analysis uses, in the order given. */
  used: EntityOfKind<'artifact'>[];
  stages: Stage[];
  stagesFrom: 'option' | 'artifacts';
  barriers: EntityOfKind<'barrier'>[];
}

/** Checks a stage name (in any case), listing the allowed ones when it is not one. */
export function parseStage(stage: string): Stage {
  // Read leniently, like IDs: "Technical" is technical.
  const name = stage.trim().toLowerCase();
  if ((STAGES as readonly string[]).includes(name)) return name as Stage;
  throw new AnalysisError('invalid-argument', `"${stage}" is not a funnel stage. Use one of: ${STAGES.join(', ')}.`, [], [...STAGES]);
}

/**
 * H and O: resolve the artifacts (deprecated ones to their successors) and identify the obstacle. The
 * barriers are those named, plus those at `stage`; when neither is given, those at the artifacts' stages.
 */
export function resolveFacts(reg: Registry, input: FactsInput): Facts {
  const artifacts = (input.artifacts ?? []).map((id) => {
    const given = resolveEntity(reg, id, ['artifact'], 'this') as EntityOfKind<'artifact'>;
    const used = (successorOf(reg, given) as EntityOfKind<'artifact'> | undefined) ?? given;
    return { given, used };
  });
  const stage = input.stage !== undefined ? parseStage(input.stage) : undefined;
  const named = (input.barriers ?? []).map((id) => resolveEntity(reg, id, ['barrier'], 'this') as EntityOfKind<'barrier'>);
  if (artifacts.length === 0 && stage === undefined && named.length === 0) {
    throw new AnalysisError('invalid-argument', 'Give at least one artifact ID (what was observed), a stage or a barrier.');
  }
  const used = [...new Map(artifacts.map((a) => [a.used.id, a.used])).values()];
  const fromOption = stage !== undefined || named.length > 0;
  const stageSet = new Set<Stage>(stage !== undefined ? [stage] : fromOption ? [] : used.flatMap((a) => a.stages));
  const stages = STAGES.filter((s) => stageSet.has(s));
  const barrierIds = new Set([...named.map((b) => b.id), ...reg.all('barrier').filter((b) => b.status === 'active' && stageSet.has(b.stage)).map((b) => b.id)]);
  const barriers = reg.all('barrier').filter((b) => barrierIds.has(b.id));
  return { artifacts, used, stages, stagesFrom: fromOption ? 'option' : 'artifacts', barriers };
}

export function barrierRef(b: Barrier): BarrierRef {
  return { id: b.id, title: b.title, stage: b.stage, order: b.order, pass_condition: b.pass_condition };
}

const refs = (reg: Registry, ids: Iterable<string>): EntityRef[] => sortedIds(ids).map((id) => refById(reg, id));

/** How an emission reaches the candidate, in words that finish "Produces "…" …". */
const FIDELITY_WORDS: Record<Fidelity, string> = {
  direct: 'directly',
  euphemism: 'in softened, generic words',
  distortion: 'in a form that points to another cause',
  noise: 'only sometimes (a weak link)',
  void: 'as a silence or an absence',
};

// Double quotes inside a title become single ones, so that quotes never nest ambiguously.
const quotedTitle = (e: { id: string; title: string }) => `"${e.title.replace(/"/g, "'")}" (${e.id})`;
const plainTitle = (e: { id: string; title: string }) => `${e.title} (${e.id})`;

/** "a", "a and b", "a, b and c". */
export function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A mechanism with why it is compatible with the facts (their artifact and barrier IDs), or undefined when it is not. */
function compatibility(m: Mechanism, given: ReadonlySet<string>, barriers: ReadonlySet<string>): CompatibleMechanism['compatible_because'] | undefined {
  const emits = m.emits
    .filter((e) => given.has(e.artifact))
    .map((e) => ({ artifact: e.artifact, fidelity: e.fidelity, ...(e.note !== undefined ? { note: e.note } : {}) }));
  const operates_at = m.operates_at.filter((b) => barriers.has(b));
  // Honest baselines enter like every other mechanism: by emitting a given artifact or acting at an
  // identified barrier. They are not added everywhere.
  if (emits.length > 0 || operates_at.length > 0) return { emits, operates_at };
  return undefined;
}

/** One plain sentence saying why a mechanism is listed, naming the observation or barrier by title. */
function whyListed(reg: Registry, because: CompatibleMechanism['compatible_because'], observed: boolean): string {
  if (because.emits.length > 0) {
    const emits = [...because.emits].sort((a, b) => FIDELITIES.indexOf(a.fidelity) - FIDELITIES.indexOf(b.fidelity) || compareIds(a.artifact, b.artifact));
    const parts = emits.map((e) => `${quotedTitle(reg.get(e.artifact) as { id: string; title: string })} ${FIDELITY_WORDS[e.fidelity]}`);
    return `Produces ${joinWords(parts)}.`;
  }
  const at = joinWords(because.operates_at.map((id) => plainTitle(reg.get(id) as { id: string; title: string })));
  const plural = because.operates_at.length > 1;
  return observed
    ? `Acts at ${at}, ${plural ? 'stages' : 'the stage'} where this happened; the atlas does not record it as producing what you saw.`
    : `Acts at ${at}, ${plural ? 'barriers' : 'a barrier'} identified from the stage or barriers given.`;
}

export function mechanismView(reg: Registry, m: Mechanism, because: CompatibleMechanism['compatible_because'], observed = true): CompatibleMechanism {
  return {
    id: m.id,
    title: m.title,
    summary: m.summary,
    family: m.family,
    facets: m.facets,
    evidence_level: m.evidence_level,
    honest_baseline: m.honest_baseline,
    tier: because.emits.length > 0 ? 'produces' : 'same-stage',
    why: whyListed(reg, because, observed),
    compatible_because: because,
    amplifies: refs(reg, m.amplifies),
    masks: refs(reg, m.masks),
    amplified_by: refs(reg, reg.incoming(m.id, 'amplifies').map((e) => e.source)),
    masked_by: refs(reg, reg.incoming(m.id, 'masks').map((e) => e.source)),
  };
}

/**
 * The order of the list: tier produces first, ranked by directness (best fidelity of an emission, then
 * how many given artifacts it accounts for), then evidence level, then ID; tier same-stage after, by ID.
 * It ranks how directly a mechanism accounts for the facts, never how likely it is.
 */
export function compareCompatible(a: CompatibleMechanism, b: CompatibleMechanism): number {
  const tier = TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier);
  if (tier !== 0) return tier;
  if (a.tier === 'same-stage') return compareIds(a.id, b.id);
  const best = (m: CompatibleMechanism) => Math.min(...m.compatible_because.emits.map((e) => FIDELITIES.indexOf(e.fidelity)));
  const accounted = (m: CompatibleMechanism) => new Set(m.compatible_because.emits.map((e) => e.artifact)).size;
  return (
    best(a) - best(b) ||
    accounted(b) - accounted(a) ||
    EVIDENCE_LEVELS.indexOf(a.evidence_level) - EVIDENCE_LEVELS.indexOf(b.evidence_level) ||
    compareIds(a.id, b.id)
  );
}

export interface Compatible {
  /** Ranked: tier produces first (see compareCompatible), then tier same-stage by ID. */
  mechanisms: CompatibleMechanism[];
  /** Mechanisms that would be compatible but that a given artifact rules out (its rules_out). */
  ruledOut: RuledOutMechanism[];
}

/**
 * B: the union of mechanisms that emit a given artifact (tier produces) and mechanisms that operate at
 * an identified barrier (tier same-stage). A mechanism is never dropped only because of the stage or
 * because it is less direct; only a given artifact's rules_out removes one, with its reason.
 */
export function compatibleMechanisms(reg: Registry, facts: Facts): Compatible {
  // Built once per call, not once per mechanism: the cost stays linear in the number of mechanisms.
  const given = new Set(facts.used.map((a) => a.id));
  const barriers = new Set(facts.barriers.map((b) => b.id));
  const rules = new Map<string, { by: string; reason: string }>();
  for (const a of facts.used) for (const r of a.rules_out) if (!rules.has(r.mechanism)) rules.set(r.mechanism, { by: a.id, reason: r.reason });
  const mechanisms: CompatibleMechanism[] = [];
  const ruledOut: RuledOutMechanism[] = [];
  for (const m of reg.all('mechanism')) {
    if (m.status !== 'active') continue;
    const because = compatibility(m, given, barriers);
    if (!because) continue;
    const rule = rules.get(m.id);
    if (rule) ruledOut.push({ id: m.id, title: m.title, by: rule.by, reason: rule.reason });
    else mechanisms.push(mechanismView(reg, m, because, given.size > 0));
  }
  return { mechanisms: mechanisms.sort(compareCompatible), ruledOut };
}

/** find_compatible_mechanisms: the B step on its own. */
export function findCompatibleMechanisms(reg: Registry, input: FactsInput): CompatibleMechanisms {
  const facts = resolveFacts(reg, input);
  const { mechanisms, ruledOut } = compatibleMechanisms(reg, facts);
  return {
    registry_version: reg.version,
    artifacts: facts.used.map((a) => a.id),
    barriers: facts.barriers.map(barrierRef),
    mechanisms,
    ruled_out: ruledOut,
    notice: UNCALIBRATED_NOTICE,
  };
}
