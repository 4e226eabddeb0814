// Facts → obstacle → compatible mechanisms: the H, O and B steps of the HOBA protocol, shared by
// explain and by find_compatible_mechanisms.
import { EVIDENCE_LEVELS, FIDELITIES, STAGES, type Fidelity, type Stage } from '../model/vocab.ts';
import type { Barrier, Mechanism } from '../model/schemas.ts';
import { compareIds, type EntityOfKind, type Registry } from '../registry/registry.ts';
import { AnalysisError, perRegistry, pushTo, refById, resolveEntity, sortedIds, successorOf } from './resolve.ts';
import type { BarrierRef, CompatibleMechanism, CompatibleMechanisms, EntityRef, RuledOutMechanism, Truncation } from './schemas.ts';
import { LISTED_MAX, TIERS, UNCALIBRATED_NOTICE, type Tier } from './terms.ts';

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
  const barriers = atPositions(reg, [
    named.map((b) => reg.positionOf(b.id)!),
    ...stages.map((s) => activeBarriersAt(reg).get(s) ?? []),
  ]).map((i) => reg.entityAt(i) as EntityOfKind<'barrier'>);
  return { artifacts, used, stages, stagesFrom: fromOption ? 'option' : 'artifacts', barriers };
}

/** The active barriers of each stage, as positions in the registry (see positions): the obstacle is read from here. */
const activeBarriersAt = perRegistry((reg) => {
  const byStage = new Map<Stage, number[]>();
  for (const i of reg.positionsOf('barrier')) {
    const b = reg.entityAt(i) as Barrier;
    if (b.status === 'active') pushTo(byStage, b.stage, i);
  }
  return byStage;
});

/**
 * Positions of entities in the registry, in ID order and without duplicates: the positions are
 * marked, then read in order, so that thousands of them (a stage's barriers and mechanisms at 100k
 * entities) are ordered without comparing a string.
 */
function atPositions(reg: Registry, lists: Iterable<readonly number[]>): number[] {
  const marked = new Uint8Array(reg.size);
  let lo = marked.length;
  let hi = -1;
  for (const list of lists) {
    for (const i of list) {
      marked[i] = 1;
      if (i < lo) lo = i;
      if (i > hi) hi = i;
    }
  }
  const out: number[] = [];
  for (let i = lo; i <= hi; i++) if (marked[i] === 1) out.push(i);
  return out;
}

/**
 * The mechanisms still on the table, as a set: the first tier's few and the second tier (see SecondTier),
 * tested by position, so that thousands of same-stage mechanisms cost no hashing of IDs.
 */
export class EntitySet {
  private readonly first: Set<number>;
  readonly size: number;
  constructor(
    private readonly reg: Registry,
    first: readonly { position: number }[],
    private readonly second?: SecondTier,
  ) {
    this.first = new Set(first.map((m) => m.position));
    this.size = this.first.size + (second?.size ?? 0);
  }
  has(id: string): boolean {
    const i = this.reg.positionOf(id);
    return i !== undefined && this.hasAt(i);
  }
  hasAt(position: number): boolean {
    return this.first.has(position) || this.second?.hasAt(position) === true;
  }
  /** The active loops (indexes into activeLoops, in order) that may hold a member: a loop holds one only if it is among these. */
  loopsToCheck(): readonly number[] {
    const byMechanism = loopsByMechanism(this.reg);
    const base = this.second?.loops ?? [];
    const extra = [...this.first].flatMap((i) => byMechanism.get(i) ?? []);
    return extra.length === 0 ? base : [...new Set([...base, ...extra])].sort((a, b) => a - b);
  }
}

/** The active loops with their members' positions, for EntitySet.hasAt. */
export const activeLoops = perRegistry((reg) =>
  reg
    .all('loop')
    .filter((l) => l.status === 'active')
    .map((loop) => ({ loop, members: loop.mechanisms.map((m) => reg.positionOf(m) ?? -1) })),
);

/** The active loops each mechanism belongs to, by position: indexes into activeLoops. */
const loopsByMechanism = perRegistry((reg) => {
  const by = new Map<number, number[]>();
  activeLoops(reg).forEach(({ members }, k) => {
    for (const i of new Set(members)) pushTo(by, i, k);
  });
  return by;
});

/**
 * The active mechanisms operating at a barrier, as positions in the registry, in ID order: read from the
 * barrier's incoming operates_at edges and the registry's statuses, so that no other mechanism is read
 * (a snapshot's registry reads an entity when first asked for). Kept per barrier.
 */
const mechanismsAtBarriers = perRegistry(() => new Map<string, readonly number[]>());
function mechanismsAt(reg: Registry, barrier: string): readonly number[] {
  const known = mechanismsAtBarriers(reg);
  let at = known.get(barrier);
  if (at === undefined) {
    at = reg
      .incoming(barrier, 'operates_at')
      .filter((e) => reg.kindOf(e.source) === 'mechanism' && reg.statusOf(e.source) === 'active')
      .map((e) => reg.positionOf(e.source)!);
    known.set(barrier, at);
  }
  return at;
}

/** The active mechanisms operating at a set of barriers: positions in ID order, marks, and how many the candidate can remove. */
interface AtBarriers {
  positions: Int32Array;
  marked: Uint8Array;
  removable: number;
  /** The active loops holding one of them (indexes into activeLoops). */
  loops: number[];
}

// An explain at 100k entities meets thousands of mechanisms at its stage. Their union is taken once per
// stage (and per barrier named alone), and a set of several is merged from those with typed arrays; the
// sets met are kept, bounded, since find_compatible_mechanisms takes any barriers.
const AT_BARRIERS_KEPT = 256;
const atBarrierSets = perRegistry(() => new Map<string, AtBarriers>());

/** 1 when the entity at a position is an active mechanism the candidate can remove or work around, else 0. */
function removableAt(reg: Registry, position: number): number {
  const m = reg.entityAt(position);
  return m.kind === 'mechanism' && m.status === 'active' && m.facets.removability === 'candidate' ? 1 : 0;
}

/** AtBarriers of marked positions (`lo`..`hi` bound the marks), with `loops` already gathered. */
function atMarked(reg: Registry, marked: Uint8Array, lo: number, hi: number, loops: readonly number[]): AtBarriers {
  const found: number[] = [];
  let removable = 0;
  for (let i = lo; i <= hi; i++) {
    if (marked[i] !== 1) continue;
    found.push(i);
    removable += removableAt(reg, i);
  }
  return { positions: Int32Array.from(found), marked, removable, loops: [...new Set(loops)].sort((a, b) => a - b) };
}

/** The mechanisms at some barriers, from the registry's index (one stage's, or one barrier named alone). */
function atSome(reg: Registry, barriers: readonly Barrier[]): AtBarriers {
  const byMechanism = loopsByMechanism(reg);
  const marked = new Uint8Array(reg.size);
  let lo = marked.length;
  let hi = -1;
  const loops: number[] = [];
  for (const b of barriers) {
    for (const i of mechanismsAt(reg, b.id)) {
      if (marked[i] === 1) continue;
      marked[i] = 1;
      if (i < lo) lo = i;
      if (i > hi) hi = i;
      for (const k of byMechanism.get(i) ?? []) loops.push(k);
    }
  }
  return atMarked(reg, marked, lo, hi, loops);
}

function kept(reg: Registry, key: string, derive: () => AtBarriers): AtBarriers {
  const sets = atBarrierSets(reg);
  let at = sets.get(key);
  if (at === undefined) {
    at = derive();
    if (sets.size >= AT_BARRIERS_KEPT) sets.clear();
    sets.set(key, at);
  }
  return at;
}

/** The mechanisms at the identified barriers: those of each stage of the facts, and of each barrier named outside them. */
function atBarriers(reg: Registry, facts: Facts): AtBarriers {
  const stages = new Set(facts.stages);
  const byStage = activeBarriersAt(reg);
  const alone = facts.barriers.filter((b) => !(b.status === 'active' && stages.has(b.stage)));
  const parts = [
    ...facts.stages.map((s) =>
      kept(reg, `stage ${s}`, () =>
        atSome(
          reg,
          (byStage.get(s) ?? []).map((i) => reg.entityAt(i) as Barrier),
        ),
      ),
    ),
    ...alone.map((b) => kept(reg, b.id, () => atSome(reg, [b]))),
  ];
  if (parts.length === 1) return parts[0]!;
  const key = [...facts.stages.map((s) => `stage ${s}`), ...alone.map((b) => b.id)].join(' ');
  return kept(reg, key, () => {
    const marked = new Uint8Array(reg.size);
    let lo = marked.length;
    let hi = -1;
    for (const part of parts) {
      for (const i of part.positions) marked[i] = 1;
      if (part.positions.length > 0) {
        lo = Math.min(lo, part.positions[0]!);
        hi = Math.max(hi, part.positions.at(-1)!);
      }
    }
    return atMarked(
      reg,
      marked,
      lo,
      hi,
      parts.flatMap((p) => p.loops),
    );
  });
}

const candidateAt = (reg: Registry, i: number): Candidate => {
  const m = reg.entityAt(i) as Mechanism;
  return { id: m.id, position: i, title: m.title, mechanism: m, tier: 'same-stage' };
};

/**
 * The second tier: the mechanisms operating at the identified barriers, less the first tier's, those ruled
 * out and those excluded by reported outcomes. At 100k entities it holds thousands, so it is kept as the
 * barriers' mechanisms (taken once per set of barriers) and the few positions taken out of them: what a
 * result asks of it (its size, a membership, its first items by ID, who is named) costs what is asked,
 * not what the stage holds.
 */
export class SecondTier {
  readonly size: number;
  /** How many of them the candidate can remove or work around. */
  readonly removable: number;
  constructor(
    private readonly reg: Registry,
    private readonly at: AtBarriers,
    /** Positions taken out; each of them is a position of `at`. */
    private readonly out: ReadonlySet<number>,
  ) {
    this.size = at.positions.length - out.size;
    let removable = at.removable;
    for (const i of out) removable -= removableAt(reg, i);
    this.removable = removable;
  }
  hasAt(position: number): boolean {
    return this.at.marked[position] === 1 && !this.out.has(position);
  }
  /** The active loops that hold one of the barriers' mechanisms, taken out or not (see EntitySet.loopsToCheck). */
  get loops(): readonly number[] {
    return this.at.loops;
  }
  /** The same tier less the given mechanisms (those not in it are ignored). */
  without(ids: Iterable<string>): SecondTier {
    const out = new Set(this.out);
    for (const id of ids) {
      const i = this.reg.positionOf(id);
      if (i !== undefined && this.hasAt(i)) out.add(i);
    }
    return out.size === this.out.size ? this : new SecondTier(this.reg, this.at, out);
  }
  /** The given mechanisms that are in this tier, by ID. */
  members(ids: Iterable<string>): Candidate[] {
    const found: number[] = [];
    for (const id of new Set(ids)) {
      const i = this.reg.positionOf(id);
      if (i !== undefined && this.hasAt(i)) found.push(i);
    }
    return found.sort((a, b) => a - b).map((i) => candidateAt(this.reg, i));
  }
  /** The first `max` by ID, of those `keep` accepts (all by default). */
  first(max: number, keep: (m: Mechanism) => boolean = () => true): Candidate[] {
    const shown: Candidate[] = [];
    for (const i of this.at.positions) {
      if (shown.length >= max) break;
      if (!this.out.has(i) && keep(this.reg.entityAt(i) as Mechanism)) shown.push(candidateAt(this.reg, i));
    }
    return shown;
  }
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
function compatibility(
  m: Mechanism,
  given: ReadonlySet<string>,
  barriers: ReadonlySet<string>,
): CompatibleMechanism['compatible_because'] | undefined {
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
    const emits = [...because.emits].sort(
      (a, b) => FIDELITIES.indexOf(a.fidelity) - FIDELITIES.indexOf(b.fidelity) || compareIds(a.artifact, b.artifact),
    );
    const parts = emits.map((e) => `${quotedTitle(reg.get(e.artifact) as { id: string; title: string })} ${FIDELITY_WORDS[e.fidelity]}`);
    return `Produces ${joinWords(parts)}.`;
  }
  const at = joinWords(because.operates_at.map((id) => plainTitle(reg.get(id) as { id: string; title: string })));
  const plural = because.operates_at.length > 1;
  return observed
    ? `Acts at ${at}, ${plural ? 'stages' : 'the stage'} where this happened; the atlas does not record it as producing what you saw.`
    : `Acts at ${at}, ${plural ? 'barriers' : 'a barrier'} identified from the stage or barriers given.`;
}

const tierOf = (because: CompatibleMechanism['compatible_because']): Tier => (because.emits.length > 0 ? 'produces' : 'same-stage');

export function mechanismView(
  reg: Registry,
  m: Mechanism,
  because: CompatibleMechanism['compatible_because'],
  observed = true,
): CompatibleMechanism {
  return {
    id: m.id,
    title: m.title,
    summary: m.summary,
    family: m.family,
    facets: m.facets,
    evidence_level: m.evidence_level,
    honest_baseline: m.honest_baseline,
    tier: tierOf(because),
    why: whyListed(reg, because, observed),
    compatible_because: because,
    amplifies: refs(reg, m.amplifies),
    masks: refs(reg, m.masks),
    amplified_by: refs(
      reg,
      reg.incoming(m.id, 'amplifies').map((e) => e.source),
    ),
    masked_by: refs(
      reg,
      reg.incoming(m.id, 'masks').map((e) => e.source),
    ),
  };
}

type Because = CompatibleMechanism['compatible_because'];

/**
 * Where a mechanism ranks, as numbers compared in turn (smaller first): its tier; then, in tier produces,
 * the best fidelity of its emissions, how many given artifacts it accounts for (more first), its evidence
 * level. Ties are broken by ID (compareRanked).
 */
function rankOf(because: Because, evidence: CompatibleMechanism['evidence_level']): number[] {
  if (because.emits.length === 0) return [TIERS.indexOf('same-stage')];
  return [
    TIERS.indexOf('produces'),
    Math.min(...because.emits.map((e) => FIDELITIES.indexOf(e.fidelity))),
    -new Set(because.emits.map((e) => e.artifact)).size,
    EVIDENCE_LEVELS.indexOf(evidence),
  ];
}

function compareRanked(a: { id: string; rank: readonly number[] }, b: { id: string; rank: readonly number[] }): number {
  for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i++) {
    const d = a.rank[i]! - b.rank[i]!;
    if (d !== 0) return d;
  }
  return compareIds(a.id, b.id);
}

/**
 * The order of the list: tier produces first, ranked by directness (best fidelity of an emission, then
 * how many given artifacts it accounts for), then evidence level, then ID; tier same-stage after, by ID.
 * It ranks how directly a mechanism accounts for the facts, never how likely it is.
 */
export function compareCompatible(a: CompatibleMechanism, b: CompatibleMechanism): number {
  return compareRanked(
    { id: a.id, rank: rankOf(a.compatible_because, a.evidence_level) },
    { id: b.id, rank: rankOf(b.compatible_because, b.evidence_level) },
  );
}

/** A compatible mechanism before its view is built: what the ranking and the tiers need. */
export interface Candidate {
  id: string;
  /** Its position in the registry (see EntitySet). */
  position: number;
  title: string;
  mechanism: Mechanism;
  tier: Tier;
}

export interface RankedCompatible {
  /** The first tier, ranked as compareCompatible orders it. */
  first: Candidate[];
  /** The second tier, by ID. */
  second: SecondTier;
  ruledOut: RuledOutMechanism[];
}

/**
 * B without the views: the compatible mechanisms, the first tier ranked, and those a given artifact rules
 * out. Only a mechanism that emits a given artifact or operates at an identified barrier can be
 * compatible, so they are read from indexes of those entities: the cost follows the facts, not the size
 * of the atlas. Only the first tier is ranked; the second (thousands at 100k entities) is a SecondTier, in
 * ID order, so it costs no ranking and is never copied.
 */
export function rankCompatible(reg: Registry, facts: Facts): RankedCompatible {
  const given = new Set(facts.used.map((a) => a.id));
  const barriers = new Set(facts.barriers.map((b) => b.id));
  const rules = new Map<string, { by: string; reason: string }>();
  for (const a of facts.used)
    for (const r of a.rules_out) if (!rules.has(r.mechanism)) rules.set(r.mechanism, { by: a.id, reason: r.reason });
  const ruledOut: RuledOutMechanism[] = [];
  const ruleOut = (m: Mechanism, rule: { by: string; reason: string }) =>
    ruledOut.push({ id: m.id, title: m.title, by: rule.by, reason: rule.reason });

  // Tier produces: the mechanisms emitting a given artifact, ranked.
  const first: Array<Candidate & { rank: number[] }> = [];
  const taken = new Set<number>();
  for (const id of given) {
    for (const e of reg.incoming(id, 'emits')) {
      const m = reg.getOf('mechanism', e.source);
      const position = reg.positionOf(e.source)!;
      if (!m || m.status !== 'active' || taken.has(position)) continue;
      taken.add(position);
      const rule = rules.get(m.id);
      if (rule) ruleOut(m, rule);
      else
        first.push({
          id: m.id,
          position,
          title: m.title,
          mechanism: m,
          tier: 'produces',
          rank: rankOf(compatibility(m, given, barriers)!, m.evidence_level),
        });
    }
  }
  // Tier same-stage: the others operating at an identified barrier, less those ruled out.
  const at = atBarriers(reg, facts);
  const out = new Set<number>();
  for (const i of taken) if (at.marked[i] === 1) out.add(i);
  for (const [id, rule] of rules) {
    const i = reg.positionOf(id);
    if (i === undefined || at.marked[i] !== 1 || taken.has(i)) continue;
    out.add(i);
    ruleOut(reg.entityAt(i) as Mechanism, rule);
  }
  return {
    first: first.sort(compareRanked).map(({ rank: _, ...c }) => c),
    second: new SecondTier(reg, at, out),
    ruledOut: ruledOut.sort((a, b) => compareIds(a.id, b.id)),
  };
}

/**
 * The first `max` items of a list that grows with the atlas, and the cut when there was one: its path in
 * the result, the whole list's length and `more(rest)`, a sentence saying how to get the rest.
 */
export function bounded<T>(
  list: readonly T[],
  max: number,
  path: string,
  more: (rest: number) => string,
): { shown: T[]; cut: Truncation[] } {
  if (list.length <= max) return { shown: [...list], cut: [] };
  return { shown: list.slice(0, max), cut: [{ list: path, shown: max, total: list.length, more: more(list.length - max) }] };
}

/**
 * The compatible mechanisms a result lists, as views: every first-tier one (what the analysis is about is
 * never cut) and the first `max` of the second tier. The second tier is ordered by ID, so the cut needs no
 * ranking and views are built only for what is shown: at 100k entities a stage holds thousands.
 */
export function listedMechanisms(
  reg: Registry,
  facts: Facts,
  first: readonly Candidate[],
  second: SecondTier,
  path: string,
  max = LISTED_MAX,
): { mechanisms: CompatibleMechanism[]; cut: Truncation[] } {
  const shown = second.first(max);
  const observed = facts.used.length > 0;
  const given = new Set(facts.used.map((a) => a.id));
  const barriers = new Set(facts.barriers.map((b) => b.id));
  const mechanisms = [...first, ...shown].map((c) =>
    mechanismView(reg, c.mechanism, compatibility(c.mechanism, given, barriers)!, observed),
  );
  if (second.size <= max) return { mechanisms, cut: [] };
  // The cut counts the whole list, not only its second tier.
  const more =
    `${second.size - max} more mechanisms only act at the same stage (listed by ID; the last shown is ${shown.at(-1)!.id}). ` +
    'See them a barrier at a time: find_compatible_mechanisms with barriers (one of the barriers identified), or traverse_graph from the barrier (direction in, relations operates_at), or the barrier’s page of the REST API (/api/v1/barriers/{id})';
  return { mechanisms, cut: [{ list: path, shown: mechanisms.length, total: first.length + second.size, more }] };
}

/** The barriers identified, as listed in a result: the first `max` by ID. */
export function listedBarriers(facts: Facts, path: string, max = LISTED_MAX): { barriers: BarrierRef[]; cut: Truncation[] } {
  const stages = facts.stages.length > 0 ? ` at ${joinWords(facts.stages)}` : '';
  const { shown, cut } = bounded(
    facts.barriers,
    max,
    path,
    (rest) =>
      `${rest} more barriers${stages} (listed by ID; the last shown is ${facts.barriers[max - 1]!.id}): every barrier, with its stage, is in the REST API’s barrier collection (/api/v1/barriers)`,
  );
  return { barriers: shown.map(barrierRef), cut };
}

/**
 * find_compatible_mechanisms: the B step on its own. The union of mechanisms that emit a given artifact
 * (tier produces) and mechanisms that operate at an identified barrier (tier same-stage); a mechanism is
 * never dropped only because of the stage or because it is less direct; only a given artifact's
 * rules_out removes one, with its reason. Long lists are cut as listedMechanisms says.
 */
export function findCompatibleMechanisms(reg: Registry, input: FactsInput, max = LISTED_MAX): CompatibleMechanisms {
  const facts = resolveFacts(reg, input);
  const { first, second, ruledOut } = rankCompatible(reg, facts);
  const { mechanisms, cut: mechanismsCut } = listedMechanisms(reg, facts, first, second, 'mechanisms', max);
  const { barriers, cut: barriersCut } = listedBarriers(facts, 'barriers', max);
  const cut = [...barriersCut, ...mechanismsCut];
  return {
    registry_version: reg.version,
    artifacts: facts.used.map((a) => a.id),
    barriers,
    mechanisms,
    ruled_out: ruledOut,
    notice: UNCALIBRATED_NOTICE,
    ...(cut.length > 0 ? { truncated_lists: cut } : {}),
  };
}
