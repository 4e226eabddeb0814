// Facts → obstacle → compatible mechanisms: the H, O and B steps of the HOBA protocol, shared by
// explain and by find_compatible_mechanisms.
import { STAGES, type Stage } from '../model/vocab.ts';
import type { Barrier, Mechanism } from '../model/schemas.ts';
import type { EntityOfKind, Registry } from '../registry/registry.ts';
import { AnalysisError, refById, resolveEntity, sortedIds, successorOf } from './resolve.ts';
import type { BarrierRef, CompatibleMechanism, CompatibleMechanisms, EntityRef } from './schemas.ts';
import { UNCALIBRATED_NOTICE } from './terms.ts';

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

/** A mechanism with why it is compatible with the facts (their artifact and barrier IDs), or undefined when it is not. */
function compatibility(m: Mechanism, given: ReadonlySet<string>, barriers: ReadonlySet<string>): CompatibleMechanism['compatible_because'] | undefined {
  const emits = m.emits
    .filter((e) => given.has(e.artifact))
    .map((e) => ({ artifact: e.artifact, fidelity: e.fidelity, ...(e.note !== undefined ? { note: e.note } : {}) }));
  const operates_at = m.operates_at.filter((b) => barriers.has(b));
  if (emits.length > 0 || operates_at.length > 0) return { emits, operates_at, baseline_only: false };
  if (m.honest_baseline) return { emits, operates_at, baseline_only: true };
  return undefined;
}

export function mechanismView(reg: Registry, m: Mechanism, because: CompatibleMechanism['compatible_because']): CompatibleMechanism {
  return {
    id: m.id,
    title: m.title,
    summary: m.summary,
    family: m.family,
    facets: m.facets,
    evidence_level: m.evidence_level,
    honest_baseline: m.honest_baseline,
    compatible_because: because,
    amplifies: refs(reg, m.amplifies),
    masks: refs(reg, m.masks),
    amplified_by: refs(reg, reg.incoming(m.id, 'amplifies').map((e) => e.source)),
    masked_by: refs(reg, reg.incoming(m.id, 'masks').map((e) => e.source)),
  };
}

/**
 * B: the union of mechanisms that operate at an identified barrier and mechanisms that emit a given
 * artifact. A mechanism is never dropped only because of the stage. Active honest baselines are always
 * included (marked baseline_only when nothing else links them to the facts). Sorted by ID: the order
 * carries no weight.
 */
export function compatibleMechanisms(reg: Registry, facts: Facts): CompatibleMechanism[] {
  const found: CompatibleMechanism[] = [];
  // Built once per call, not once per mechanism: the cost stays linear in the number of mechanisms.
  const given = new Set(facts.used.map((a) => a.id));
  const barriers = new Set(facts.barriers.map((b) => b.id));
  for (const m of reg.all('mechanism')) {
    if (m.status !== 'active') continue;
    const because = compatibility(m, given, barriers);
    if (because) found.push(mechanismView(reg, m, because));
  }
  return found;
}

/** find_compatible_mechanisms: the B step on its own. */
export function findCompatibleMechanisms(reg: Registry, input: FactsInput): CompatibleMechanisms {
  const facts = resolveFacts(reg, input);
  return {
    registry_version: reg.version,
    artifacts: facts.used.map((a) => a.id),
    barriers: facts.barriers.map(barrierRef),
    mechanisms: compatibleMechanisms(reg, facts),
    notice: UNCALIBRATED_NOTICE,
  };
}
