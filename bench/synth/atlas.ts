// The synthetic atlas: a complete, valid checkout of any size (content/atlas.yaml, one file per entity,
// and a matching bibliography), shaped like the real atlas so that benchmarks at 1k, 10k or 100k
// entities exercise what real content would.
//
// What "shaped like the real atlas" means here, measured on content/ at registry 0.1.0 (185 entities):
// - kind proportions: 32 artifacts, 14 barriers, 32 mechanisms, 7 patterns, 5 loops, 17 interventions,
//   78 sources;
// - a barrier DAG over the 13 stages (about one precedes edge per barrier, to the same or next stage);
// - locality: a mechanism has a home stage and operates at barriers, and emits artifacts, of stages near
//   it; patterns combine artifacts sharing a stage with the mechanisms that emit them;
// - heavy-tailed degrees: out-degrees drawn from k^-s laws with the real means, and targets drawn by
//   Zipf popularity (a random permutation decides who the hubs are) for operates_at, emits, amplifies,
//   masks, targets and cites, so that a few entities are linked from very many;
// - probes (two or three per artifact, two to five outcomes) whose outcomes sometimes exclude
//   mechanisms that emit the artifact; honest baselines; every mechanism family; sources that are
//   current, contested, superseded, withdrawn or repealed, with prose that says so where it must;
// - cycles among mechanisms only inside declared loops: amplifies/masks edges otherwise point at more
//   popular mechanisms only, and a loop's members share one popularity rank, so the strongly connected
//   components are exactly the loops and every edge inside one is declared by its loop;
// - scenarios (about 9%): an observation, sometimes with the outcome of a probe already run, and the
//   expectation explain meets on this atlas (validate runs explain once per scenario).
// Text lengths follow the real means (summaries of about 230 characters, descriptions of about 1,400).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  ACTORS,
  COSTS,
  EFFECT_LEVELS,
  EVIDENCE_LEVELS,
  FIDELITIES,
  INTERVENTION_ACTORS,
  INTERVENTION_SCOPES,
  JURISDICTIONS,
  LIMIT_EVENTS,
  LIMIT_UNITS,
  KIND_INFO,
  KINDS,
  MECHANISM_FAMILIES,
  NATURES,
  PATTERN_SHAPES,
  REMOVABILITIES,
  SOURCE_TYPES,
  SPECIMEN_MEDIA,
  STAGES,
  TOPICS,
  VIEWPOINTS,
  VISIBILITIES,
  type Kind,
  type Stage,
} from '../../src/model/vocab.ts';
import {
  SCHEMAS,
  type Artifact,
  type Barrier,
  type Emission,
  type Entity,
  type Intervention,
  type Loop,
  type Manifest,
  type Mechanism,
  type Pattern,
  type Probe,
  type Scenario,
  type Source,
  type TimeLimit,
} from '../../src/model/schemas.ts';
import { PLACES } from '../../src/model/places.ts';
import { explain } from '../../src/analysis/explain.ts';
import { Registry } from '../../src/registry/registry.ts';
import { MAX_FIRST_TIER } from '../../src/registry/validate.ts';
import { toYaml, toYamlList, type Value } from './emit.ts';
import { Prose, slugOf } from './prose.ts';
import { heavyCount, Random, zipf } from './random.ts';

/** Entity counts of the real atlas, by kind (content/ at registry 0.1.0). */
// Scenarios: the real atlas has about 9% (28 of 300 at registry 0.3.0), so 18 beside the 185 of 0.1.0.
const REAL_COUNTS: Record<Kind, number> = {
  artifact: 32,
  barrier: 14,
  mechanism: 32,
  pattern: 7,
  loop: 5,
  intervention: 17,
  scenario: 18,
  source: 78,
};
/** The least of each kind a valid atlas of this shape needs (a barrier per stage, a mechanism per family…). */
const MIN_COUNTS: Record<Kind, number> = {
  artifact: 8,
  barrier: STAGES.length,
  mechanism: MECHANISM_FAMILIES.length + 5,
  pattern: 1,
  loop: 1,
  intervention: 2,
  scenario: 1,
  source: 4,
};
export const MIN_ENTITIES = 100;

/** The families whose mechanisms are the honest baselines (a skill gap, a stronger competitor). */
const BASELINE_FAMILIES = ['skill-gap', 'stronger-competitor'] as const;

/** Zipf exponent for choosing link targets by popularity: 1 would be classic Zipf; a little less keeps
 * the hubs large but not absurd at 100k. */
const POPULARITY = 0.9;

/** The most active mechanisms that may emit one artifact (rule artifact-emitters). */
const MAX_EMITTERS = MAX_FIRST_TIER;

export interface SynthOptions {
  entities: number;
  seed: number;
}

type EntityRecord = Artifact | Barrier | Mechanism | Pattern | Loop | Intervention | Scenario | Source;

export interface SynthFile {
  /** Path inside the checkout, e.g. content/mechanisms/M-001-late-review-queue.yaml. */
  path: string;
  kind: Kind | 'manifest';
  /** The record the file holds (for sources, as the atlas stores it: the bibliography's kind is type). */
  record: Record<string, Value | undefined>;
}

export interface SynthAtlas {
  seed: number;
  /** The manifest first, then the entity files sorted by path. */
  files: SynthFile[];
  /** The matching bibliography (sources with `kind`), which the source-bibliography rule compares with. */
  bibliography: Array<Record<string, Value | undefined>>;
  counts: Record<Kind, number>;
}

/** Where the generator writes the bibliography, inside the checkout (point HOBA_BIBLIOGRAPHY at it). */
export const BIBLIOGRAPHY_FILE = 'bibliography.yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function kindCounts(entities: number): Record<Kind, number> {
  if (!Number.isInteger(entities) || entities < MIN_ENTITIES) {
    throw new Error(
      `an atlas of this shape needs at least ${MIN_ENTITIES} entities (one barrier per stage, one mechanism per family…); ${entities} is too few.`,
    );
  }
  const total = Object.values(REAL_COUNTS).reduce((a, b) => a + b, 0);
  const counts = {} as Record<Kind, number>;
  for (const k of KINDS) counts[k] = Math.max(MIN_COUNTS[k], Math.round((entities * REAL_COUNTS[k]) / total));
  // Sources take up the rounding, so the total is exact.
  counts.source = entities - KINDS.filter((k) => k !== 'source').reduce((n, k) => n + counts[k], 0);
  if (counts.source < MIN_COUNTS.source) throw new Error(`${entities} entities leave too few sources; ask for more entities.`);
  return counts;
}

const pad = (n: number) => String(n).padStart(3, '0');
const idOf = (kind: Kind, n: number) => `${KIND_INFO[kind].prefix}-${pad(n)}`;
const stageIndex = (s: Stage) => STAGES.indexOf(s);

/** Draws up to `k` distinct items from `draw` (which may repeat itself), giving up after a few misses. */
function distinct<T>(k: number, draw: () => T | undefined): T[] {
  const out = new Set<T>();
  for (let misses = 0; out.size < k && misses < 4 * k + 8; ) {
    const x = draw();
    if (x === undefined || out.has(x)) misses++;
    else out.add(x);
  }
  return [...out];
}

/** A list drawn from by Zipf popularity: the list is shuffled once, so who becomes a hub is random. */
class Popular<T> {
  readonly items: T[];
  constructor(
    private readonly random: Random,
    items: readonly T[],
  ) {
    this.items = random.shuffle(items);
  }
  draw(): T | undefined {
    return this.items.length === 0 ? undefined : this.items[zipf(this.items.length, POPULARITY).draw(this.random)];
  }
  /** Next free position at or after each rank (union-find with path halving), for drawFree. */
  private skip?: Int32Array;
  /**
   * A draw among the items for which `free` holds, where an item, once not free, stays so (a capped
   * in-degree): a full item passes its draw to the next free one in popularity order, so the hubs fill
   * up to the cap and the law's tail takes the rest, in near-constant time per draw.
   */
  drawFree(free: (item: T) => boolean): T | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    this.skip ??= Int32Array.from({ length: n + 1 }, (_, i) => i);
    const skip = this.skip;
    const find = (i: number) => {
      while (skip[i] !== i) i = skip[i] = skip[skip[i]!]!;
      return i;
    };
    for (let r = find(zipf(n, POPULARITY).draw(this.random)); r < n; r = find(r)) {
      if (free(this.items[r]!)) return this.items[r];
      skip[r] = r + 1;
    }
    return undefined;
  }
}

interface MechanismDraft {
  id: string;
  family: (typeof MECHANISM_FAMILIES)[number];
  baseline: boolean;
  deprecated: boolean;
  home: number;
  operatesAt: string[];
  emits: Array<{ artifact: string; fidelity: (typeof FIDELITIES)[number] }>;
  amplifies: string[];
  masks: string[];
}

interface SourceDraft {
  id: string;
  status: Source['status'];
  type: Source['type'];
}

export function generateAtlas(options: SynthOptions): SynthAtlas {
  const counts = kindCounts(options.entities);
  const random = new Random(options.seed);
  const prose = new Prose(random);
  // Voices draw from a stream of their own, so that adding them left every other draw (and so the atlas
  // a seed gives) as it was.
  const voiceRandom = new Random(options.seed + 0x5f3759df);
  const voiceProse = new Prose(voiceRandom);
  const ids = (kind: Kind) => Array.from({ length: counts[kind] }, (_, i) => idOf(kind, i + 1));
  // A few entities of the larger kinds are deprecated, with an active successor, and nothing points at them.
  const deprecatedCount = (kind: Kind) => Math.floor(counts[kind] / 100);

  // Sources: status first, since what cites a withdrawn or repealed source must say so.
  const sources: SourceDraft[] = ids('source').map((id) => {
    const type = random.weighted({ research: 61, survey: 6, reporting: 3, primary: 1, legal: 7 } satisfies Record<
      (typeof SOURCE_TYPES)[number],
      number
    >);
    const status = random.weighted({ current: 93, contested: 4, superseded: 1.5, gone: 1.5 });
    return { id, type, status: status === 'gone' ? (type === 'legal' ? 'repealed' : 'withdrawn') : status };
  });
  const sourceStatus = new Map(sources.map((s) => [s.id, s.status]));
  const noLongerApplies = new Set(sources.filter((s) => s.status === 'withdrawn' || s.status === 'repealed').map((s) => s.id));
  const popularSources = new Popular(
    random,
    sources.map((s) => s.id),
  );

  // Barriers: one per stage, the rest spread over the stages; ordered by stage, numbered in that order.
  const barrierStages = random.shuffle([
    ...STAGES.map((_, i) => i),
    ...Array.from({ length: counts.barrier - STAGES.length }, () => random.int(STAGES.length)),
  ]);
  barrierStages.sort((a, b) => a - b);
  const barrierIds = ids('barrier');
  const barriersAt: string[][] = STAGES.map(() => []);
  barrierIds.forEach((id, i) => {
    barriersAt[barrierStages[i]!]!.push(id);
  });
  const stageEnd = STAGES.map((_, stage) => barrierStages.lastIndexOf(stage));
  const precedes = barrierIds.map((_, i) => {
    // Later barriers of the same stage or of the next one: nearest first (Zipf over distance). Barriers
    // are numbered in stage order, so those are the ones numbered after this one, up to the end of the
    // next stage.
    const next = Math.min(barrierStages[i]! + 1, STAGES.length - 1);
    const window = barrierIds.slice(i + 1, stageEnd[next]! + 1);
    if (window.length === 0) return [];
    const k = random.chance(0.15) ? 2 : 1;
    return distinct(Math.min(k, window.length), () => window[zipf(window.length, 1.2).draw(random)]);
  });
  // Barriers a mechanism with a home stage may operate at: its stage and the neighbouring ones.
  const barrierWindow = STAGES.map(
    (_, h) =>
      new Popular(
        random,
        [h - 1, h, h + 1].flatMap((s) => barriersAt[s] ?? []),
      ),
  );
  const popularBarriers = new Popular(random, barrierIds);

  // Artifacts: a home stage and a run of one to five stages around it.
  const artifactIds = ids('artifact');
  const deprecatedArtifacts = new Set(random.shuffle(artifactIds).slice(0, deprecatedCount('artifact')));
  const activeArtifacts = artifactIds.filter((a) => !deprecatedArtifacts.has(a));
  const artifactStages = new Map(
    artifactIds.map((id) => {
      const length = heavyCount(random, 1, 5, 0.6);
      const start = Math.max(0, Math.min(STAGES.length - length, random.int(STAGES.length) - random.int(length)));
      return [id, STAGES.slice(start, start + length)];
    }),
  );
  const artifactsNear = STAGES.map(
    (_, h) =>
      new Popular(
        random,
        activeArtifacts.filter((a) => artifactStages.get(a)!.some((s) => Math.abs(stageIndex(s) - h) <= 1)),
      ),
  );
  const popularArtifacts = new Popular(random, activeArtifacts);

  // Mechanisms: the honest baselines (they stay few as the atlas grows: they are the ordinary
  // explanations, not a kind of content that multiplies), one per remaining family, then the rest.
  const mechanismIds = ids('mechanism');
  const baselines = Math.max(BASELINE_FAMILIES.length, Math.round(3 * Math.sqrt(options.entities / 185)));
  const otherFamilies = MECHANISM_FAMILIES.filter((f) => !(BASELINE_FAMILIES as readonly string[]).includes(f));
  const familyLaw = new Popular(random, otherFamilies);
  const mechanisms: MechanismDraft[] = mechanismIds.map((id, i) => {
    const baseline = i < baselines;
    const family = baseline
      ? BASELINE_FAMILIES[i % BASELINE_FAMILIES.length]!
      : i < baselines + otherFamilies.length
        ? otherFamilies[i - baselines]!
        : familyLaw.draw()!;
    return {
      id,
      family,
      baseline,
      deprecated: false,
      home: random.int(STAGES.length),
      operatesAt: [],
      emits: [],
      amplifies: [],
      masks: [],
    };
  });
  // Deprecated mechanisms come from beyond the family coverage, so every family keeps an active one.
  for (const m of random.shuffle(mechanisms.slice(baselines + otherFamilies.length)).slice(0, deprecatedCount('mechanism')))
    m.deprecated = true;
  const active = mechanisms.filter((m) => !m.deprecated);
  const byId = new Map(mechanisms.map((m) => [m.id, m]));
  const activeNear = STAGES.map((_, h) => active.filter((m) => Math.abs(m.home - h) <= 1));

  // Every active artifact is emitted by 2..MAX_EMITTERS active mechanisms (rule artifact-emitters): the
  // popular artifacts fill up to the cap, the rest of the draws fall to the next popular ones.
  const emitterCount = new Map<string, number>();
  const fidelity = () => random.weighted({ direct: 43, void: 28, euphemism: 20, noise: 13, distortion: 12 });
  // Every mechanism must emit at least one artifact (schema), and the cap can fill the popular artifacts
  // before the last mechanisms draw: each active mechanism's first emission is therefore reserved in a
  // pass of its own, taken from the artifacts with the fewest emitters.
  const reserved = new Map<string, string>();
  for (const m of mechanisms) {
    if (m.deprecated) continue;
    const fewest = Math.min(...activeArtifacts.map((a) => emitterCount.get(a) ?? 0));
    const a = random.pick(activeArtifacts.filter((x) => (emitterCount.get(x) ?? 0) === fewest));
    reserved.set(m.id, a);
    emitterCount.set(a, fewest + 1);
  }
  for (const m of mechanisms) {
    m.operatesAt = distinct(heavyCount(random, 1, 8, 1.3), () => barrierWindow[m.home]!.draw());
    if (m.operatesAt.length === 0) m.operatesAt = [popularBarriers.draw()!];
    const first = reserved.get(m.id);
    const taken = new Set<string>(first === undefined ? [] : [first]);
    const free = (a: string) => !taken.has(a) && (m.deprecated || (emitterCount.get(a) ?? 0) < MAX_EMITTERS);
    const more = distinct(heavyCount(random, 2, 9, 1.3) - taken.size, () => {
      const a = artifactsNear[m.home]!.drawFree(free) ?? popularArtifacts.drawFree(free);
      if (a !== undefined) taken.add(a);
      return a;
    });
    if (!m.deprecated) for (const a of more) emitterCount.set(a, (emitterCount.get(a) ?? 0) + 1);
    const artifacts = first === undefined ? more : [first, ...more];
    if (artifacts.length === 0) artifacts.push(popularArtifacts.draw()!); // deprecated: the cap does not apply
    m.emits = artifacts.map((artifact) => ({ artifact, fidelity: fidelity() }));
  }
  // No active artifact with fewer than two active mechanisms that emit it: nearby ones first.
  for (const a of activeArtifacts) {
    const near = activeNear[stageIndex(random.pick(artifactStages.get(a)!))]!;
    for (let tries = 0; (emitterCount.get(a) ?? 0) < 2; tries++) {
      const m = random.pick(near.length > 0 && tries < 32 ? near : active);
      if (m.emits.some((e) => e.artifact === a)) continue;
      m.emits.push({ artifact: a, fidelity: random.pick(FIDELITIES) });
      emitterCount.set(a, (emitterCount.get(a) ?? 0) + 1);
    }
  }

  // Loops: disjoint groups of two to four non-baseline active mechanisms, each a declared cycle.
  const loopIds = ids('loop');
  const loopCandidates = random.shuffle(active.filter((m) => !m.baseline));
  const loops = loopIds.map((id) => {
    const size = Math.min(heavyCount(random, 2, 4, 1.5), loopCandidates.length);
    if (size < 2) throw new Error('not enough mechanisms for the loops; ask for more entities.');
    const members = loopCandidates.splice(0, size);
    const edges: Loop['edges'] = members.map((m, i) => ({
      from: m.id,
      to: members[(i + 1) % size]!.id,
      relation: random.chance(0.8) ? 'amplifies' : 'masks',
    }));
    // Some longer loops also have an edge back along the cycle (the real loops have more edges than members).
    if (size >= 3 && random.chance(0.5)) {
      const j = random.int(size);
      edges.push({ from: members[(j + 1) % size]!.id, to: members[j]!.id, relation: random.chance(0.5) ? 'amplifies' : 'masks' });
    }
    for (const e of edges) byId.get(e.from)![e.relation].push(e.to);
    return { id, members: members.map((m) => m.id), edges };
  });
  // Popularity order of the active mechanisms, a loop's members side by side. An amplifies/masks edge
  // outside a loop points at a mechanism placed before the start of its own group, so those edges form a
  // DAG between groups and the only cycles are the loops.
  const inLoops = new Set(loops.flatMap((l) => l.members));
  const groups = random.shuffle([...loops.map((l) => l.members), ...active.filter((m) => !inLoops.has(m.id)).map((m) => [m.id])]);
  const popularityOrder = groups.flat();
  const groupStart = new Map<string, number>();
  let position = 0;
  for (const g of groups) {
    for (const id of g) groupStart.set(id, position);
    position += g.length;
  }
  const mechanismLaw = zipf(popularityOrder.length, POPULARITY);
  for (const m of active) {
    const before = groupStart.get(m.id)!;
    if (before === 0) continue;
    const more = (relation: 'amplifies' | 'masks', k: number) => {
      const taken = new Set(m[relation]);
      for (const t of distinct(k, () => popularityOrder[mechanismLaw.draw(random, before)])) if (!taken.has(t)) m[relation].push(t);
    };
    if (random.chance(0.55)) more('amplifies', heavyCount(random, 1, 5, 1.5));
    if (random.chance(0.3)) more('masks', heavyCount(random, 1, 9, 1.3));
  }
  const popularMechanisms = { draw: () => popularityOrder[mechanismLaw.draw(random)] };

  // Which active mechanisms emit each artifact (for probe exclusions and patterns).
  const emitters = new Map<string, string[]>();
  for (const m of active)
    for (const e of m.emits) {
      const list = emitters.get(e.artifact);
      if (list) list.push(m.id);
      else emitters.set(e.artifact, [m.id]);
    }

  // Patterns: two or three artifacts sharing a stage, with mechanisms that emit them.
  const patternIds = ids('pattern');
  const patterns = patternIds.map((id) => {
    const first = popularArtifacts.draw()!;
    const stage = stageIndex(random.pick(artifactStages.get(first)!));
    const partners = artifactsNear[stage]!;
    const required = [first, ...distinct(random.chance(0.8) ? 1 : 2, () => partners.draw())].filter((a, i, all) => all.indexOf(a) === i);
    while (required.length < 2) {
      const a = popularArtifacts.draw()!;
      if (!required.includes(a)) required.push(a);
    }
    const pool = [...new Set(required.flatMap((a) => emitters.get(a) ?? []))];
    const compatible = distinct(random.between(4, 8), () =>
      pool.length > 0 && random.chance(0.8) ? random.pick(pool) : popularMechanisms.draw(),
    );
    return { id, required, compatible };
  });

  // Interventions: targets by popularity, then every active mechanism targeted at least once.
  const interventionIds = ids('intervention');
  const interventions = interventionIds.map((id) => {
    const targets = distinct(heavyCount(random, 2, 8, 1.2), () => {
      const what = random.weighted({ mechanism: 75, barrier: 15, loop: 10 });
      return what === 'mechanism' ? popularMechanisms.draw() : what === 'barrier' ? popularBarriers.draw() : random.pick(loopIds);
    });
    const mitigates = random.chance(0.6)
      ? distinct(random.between(1, 2), () => (random.chance(0.6) ? random.pick(patternIds) : random.pick(loopIds)))
      : [];
    return { id, targets, mitigates };
  });
  const targeted = new Set(interventions.flatMap((i) => i.targets));
  for (const m of active) if (!targeted.has(m.id)) random.pick(interventions).targets.push(m.id);

  // Citations by popularity; every source cited at least once by an active entity.
  const cites = new Map<string, string[]>();
  const cite = (holder: string, k: number) =>
    cites.set(
      holder,
      distinct(k, () => popularSources.draw()),
    );
  for (const a of artifactIds) cite(a, heavyCount(random, 0, 7, 1.1));
  for (const b of barrierIds) cite(b, heavyCount(random, 0, 5, 1.1));
  for (const m of mechanisms) cite(m.id, heavyCount(random, 0, 12, 0.9));
  for (const p of patternIds) cite(p, heavyCount(random, 1, 6, 1.1));
  for (const l of loopIds) cite(l, heavyCount(random, 1, 8, 0.9));
  for (const i of interventionIds) cite(i, heavyCount(random, 1, 10, 0.9));
  const citers = [...cites.keys()].filter((id) => !deprecatedArtifacts.has(id) && !byId.get(id)?.deprecated);
  const cited = new Set(citers.flatMap((id) => cites.get(id)!));
  for (const s of sources) if (!cited.has(s.id)) cites.get(random.pick(citers))!.push(s.id);
  /** Evidence level and sources: supported and established need a source, so those without any are hypotheses. */
  const evidence = (id: string, weights: Record<(typeof EVIDENCE_LEVELS)[number], number>) => {
    const sourcesOf = cites.get(id) ?? [];
    return { evidence_level: sourcesOf.length === 0 ? ('hypothesis' as const) : random.weighted(weights), sources: sourcesOf };
  };

  // Prose, now that every link is known: descriptions cite the entity's sources beside sentences, except
  // sources that no longer apply, which get a paragraph of their own saying so.
  const describe = (id: string, paragraphs: number, extra: readonly string[] = []) => {
    const sourcesOf = cites.get(id) ?? [];
    const gone = sourcesOf.filter((s) => noLongerApplies.has(s));
    const body = prose.paragraphs(paragraphs, 450, [...sourcesOf.filter((s) => !gone.includes(s)), ...extra]);
    const caveats = gone.map(
      (s) =>
        `${s} has been ${sourceStatus.get(s)} and is no longer in force; it is cited for the record, not as current. ${prose.sentence()}`,
    );
    return [body, ...caveats].join('\n\n');
  };
  const common = (id: string, paragraphs: number, extra: readonly string[] = []) => ({
    id,
    title: prose.title(),
    summary: prose.text(200),
    description: describe(id, paragraphs, extra),
    aliases: Array.from({ length: random.between(2, 6) }, () => prose.phrase()).filter((a, i, all) => all.indexOf(a) === i),
    topics: random.chance(0.3) ? [random.pick(TOPICS)] : [],
  });
  // The layers of schema 1.3.0, in the proportions the real atlas has them.
  const lawOf = (id: string) => {
    const current = (cites.get(id) ?? []).filter((s) => !noLongerApplies.has(s));
    if (current.length === 0 || !random.chance(0.3)) return [];
    return Array.from({ length: random.between(1, 2) }, () => {
      const jurisdiction = random.pick(JURISDICTIONS);
      const remedy = random.chance(0.5);
      // A US state's note names a state the law layer knows (src/model/places.ts); a remedy's limit is data.
      const limit: TimeLimit = random.chance(0.8)
        ? {
            stated: true,
            action: prose.text(60),
            who: 'you',
            from: random.pick(LIMIT_EVENTS),
            length: random.between(1, 12),
            unit: random.pick(LIMIT_UNITS),
            days: 'calendar',
            less_one_day: false,
            extensions: [],
          }
        : { stated: false, action: prose.text(60) };
      return {
        jurisdiction,
        ...(jurisdiction === 'us-state' ? { where: random.pick(PLACES.filter((p) => p.country === 'us' && p.code !== 'us')).name } : {}),
        instrument: prose.title(),
        says: prose.text(200),
        ...(remedy ? { remedy: prose.text(120), time_limit: prose.text(80), limit } : {}),
        sources: [random.pick(current)],
      };
    });
  };
  const specimen = (n: number) => {
    const text = Array.from({ length: random.between(4, 9) }, () => prose.text(70)).join('\n');
    const lines = text.split('\n');
    return {
      id: `specimen-${n + 1}`,
      medium: random.pick(SPECIMEN_MEDIA),
      title: prose.text(70),
      text,
      tells: distinct(random.between(1, 3), () => random.pick(lines)).map((quote) => ({ quote, reading: prose.text(180) })),
    };
  };
  const perspectives = () =>
    distinct(random.between(3, 4), () => random.pick(VIEWPOINTS.slice(1)))
      .concat(['candidate'])
      .map((viewpoint) => ({
        viewpoint,
        sees: prose.text(140),
        reads: prose.text(140),
        does: prose.text(140),
      }));
  const status = (deprecated: boolean, successors: readonly string[]) =>
    deprecated ? { status: 'deprecated' as const, superseded_by: random.pick(successors) } : { status: 'active' as const };

  const records: Array<{ kind: Kind; record: EntityRecord }> = [];
  for (const id of artifactIds) {
    const excludable = emitters.get(id) ?? [];
    const probes: Probe[] = Array.from({ length: random.between(2, 3) }, (_, p) => {
      // Unique across the atlas: the artifact's number and the probe's place are in the ID.
      const probeId = `${prose.slugWords()}-${id.slice(2)}-${p + 1}`;
      const outcomes = Array.from({ length: heavyCount(random, 2, 5, 1.2) }, (_, o) => {
        // Most outcomes rule nothing out; a few exclude some of the mechanisms that emit the artifact
        // (always one in the first probe, so explain has something to narrow).
        const excluding = excludable.length >= 2 && ((p === 0 && o === 0) || random.chance(0.12));
        const excludes = excluding
          ? distinct(Math.min(heavyCount(random, 1, 12, 1.2), excludable.length - 1), () => random.pick(excludable))
          : [];
        return {
          id: `${prose.noun()}-${o + 1}`,
          observation: prose.text(90),
          excludes,
          ...(random.chance(0.8) ? { note: prose.text(180) } : {}),
        };
      });
      return {
        id: probeId,
        action: prose.text(220),
        // The first probe is the candidate's own, so every artifact can be narrowed without an insider.
        agency: p === 0 || random.chance(0.8) ? ('candidate' as const) : ('intermediary' as const),
        cost: random.weighted({ low: 6, medium: 3, high: 1 }),
        ...(random.chance(0.5) ? { risk: prose.text(120) } : {}),
        outcomes,
      };
    });
    records.push({
      kind: 'artifact',
      record: {
        ...common(id, 3),
        sources: cites.get(id)!,
        ...status(deprecatedArtifacts.has(id), activeArtifacts),
        stages: artifactStages.get(id)!,
        concerns: [],
        non_inferences: Array.from({ length: random.between(4, 6) }, () => prose.nonInference()),
        probes,
        next_steps: [{ id: 'keep-going', action: prose.text(160), why: prose.text(160), sources: [] }],
        rules_out: [],
        specimens: random.chance(0.67) ? Array.from({ length: random.between(1, 2) }, (_, n) => specimen(n)) : [],
        // A few first-person accounts (the real atlas has 25 or more per artifact; a few keep the reader's
        // training and the voice rules exercised without multiplying the atlas's size). Numbered, so that
        // no two artifacts share one (rule voice-shared).
        voices: Array.from({ length: voiceRandom.between(2, 4) }, (_, k) => voiceProse.voice(Number(id.slice(2)) * 10 + k)),
        law: lawOf(id),
      },
    });
  }
  barrierIds.forEach((id, i) => {
    records.push({
      kind: 'barrier',
      record: {
        ...common(id, 2, precedes[i]),
        sources: cites.get(id)!,
        status: 'active',
        stage: STAGES[barrierStages[i]!]!,
        order: i + 1,
        precedes: precedes[i]!,
        pass_condition: prose.text(220),
        variants: [],
        law: lawOf(id),
      },
    });
  });
  const activeMechanismIds = active.map((m) => m.id);
  for (const m of mechanisms) {
    const emits: Emission[] = m.emits.map((e) => ({ ...e, ...(random.chance(0.8) ? { note: prose.text(220) } : {}) }));
    records.push({
      kind: 'mechanism',
      record: {
        ...common(
          m.id,
          3,
          m.emits.slice(0, 3).map((e) => e.artifact),
        ),
        ...status(m.deprecated, activeMechanismIds),
        family: m.family,
        facets: m.baseline
          ? { actor: 'candidate', nature: 'rule', visibility: 'inferable', removability: 'candidate' }
          : {
              actor: random.pick(ACTORS),
              nature: random.pick(NATURES),
              visibility: random.pick(VISIBILITIES),
              removability: random.pick(REMOVABILITIES),
            },
        operates_at: m.operatesAt,
        emits,
        amplifies: m.amplifies,
        masks: m.masks,
        honest_baseline: m.baseline,
        ...evidence(m.id, { established: 6, supported: 15, hypothesis: 11, illustrative: 0 }),
        perspectives: perspectives(),
        law: lawOf(m.id),
      },
    });
  }
  for (const p of patterns) {
    records.push({
      kind: 'pattern',
      record: {
        ...common(p.id, 2, p.required),
        status: 'active',
        shape: random.pick(PATTERN_SHAPES),
        required_artifacts: p.required,
        compatible_mechanisms: p.compatible,
        trigger_rule: prose.text(380),
        establishes: Array.from({ length: 3 }, () => prose.text(180)),
        non_inferences: Array.from({ length: random.between(4, 6) }, () => prose.nonInference()),
        ...evidence(p.id, { established: 0, supported: 3, hypothesis: 4, illustrative: 0 }),
      },
    });
  }
  for (const l of loops) {
    records.push({
      kind: 'loop',
      record: {
        ...common(l.id, 2, l.members),
        status: 'active',
        mechanisms: l.members,
        edges: l.edges,
        entry_points: distinct(random.between(1, 2), () => random.pick(l.members)),
        ...evidence(l.id, { established: 0, supported: 1, hypothesis: 4, illustrative: 0 }),
      },
    });
  }
  for (const i of interventions) {
    records.push({
      kind: 'intervention',
      record: {
        ...common(i.id, 2, i.targets.slice(0, 3)),
        status: 'active',
        actor: random.pick(INTERVENTION_ACTORS),
        scope: random.pick(INTERVENTION_SCOPES),
        cost: random.pick(COSTS),
        targets: i.targets,
        mitigates: i.mitigates,
        expected_effects: Array.from({ length: heavyCount(random, 3, 5, 1.5) }, () => prose.text(130)),
        measurements: Array.from({ length: random.between(3, 6) }, () => prose.text(110)),
        tradeoffs: Array.from({ length: random.between(0, 5) }, () => prose.text(160)),
        ...evidence(i.id, { established: 1, supported: 5, hypothesis: 11, illustrative: 0 }),
        effect:
          (cites.get(i.id) ?? []).length === 0
            ? { level: 'unmeasured' as const, summary: prose.text(200), sources: [] }
            : { level: random.pick(EFFECT_LEVELS), summary: prose.text(200), sources: [random.pick(cites.get(i.id)!)] },
        law: lawOf(i.id),
      },
    });
  }

  const authors = new Authors(random);
  const bibliography = sources.map((s, n) => {
    const names = Array.from({ length: heavyCount(random, 1, 8, 1.6) }, () => authors.next());
    const surnames = names.map((a) => a.split(' ').at(-1));
    const year = random.between(1975, 2026);
    // A superseded source points at a later current one (when the one drawn is not, it stays contested).
    const successor = s.status === 'superseded' && n + 1 < sources.length ? sources[random.between(n + 1, sources.length - 1)]! : undefined;
    const supersededBy = successor?.status === 'current' ? successor.id : undefined;
    const peerReviewed = s.type === 'research' ? random.chance(0.85) : false;
    return {
      id: s.id,
      cite: `${surnames.length === 1 ? surnames[0] : surnames.length === 2 ? surnames.join(' & ') : `${surnames[0]} et al.`} (${year})`,
      authors: names,
      year,
      title: `${prose.title()}: ${prose.text(60).replace(/\.$/, '')}`,
      venue: `${s.type === 'legal' ? 'Register of' : 'Journal of'} ${prose.title()} ${random.between(1, 80)}(${random.between(1, 6)}): ${random.between(1, 400)}-${random.between(401, 900)}`,
      doi: random.chance(0.6) ? `10.5555/synthetic.${s.id.toLowerCase()}` : null,
      url: `https://example.org/synthetic/${s.id}`,
      kind: s.type,
      design:
        s.type === 'legal'
          ? 'statute'
          : random.pick([
              'field-experiment',
              'observational',
              'review',
              'meta-analysis',
              'lab-experiment',
              'survey',
              'industry-data',
              'theory',
            ]),
      peer_reviewed: peerReviewed,
      status: s.status === 'superseded' && supersededBy === undefined ? 'contested' : s.status,
      ...(supersededBy !== undefined ? { superseded_by: supersededBy } : {}),
      n: random.chance(0.7) ? `about ${random.between(2, 900)} ${prose.noun()} records` : null,
      finding: prose.text(300),
      relevant_to: distinct(random.between(1, 5), () => (random.chance(0.5) ? random.pick(STAGES) : random.pick(MECHANISM_FAMILIES))),
      verified: random.chance(0.7) ? 'yes' : 'partial',
      verified_how: `synthetic entry generated with seed ${options.seed}; not a real source.`,
    } satisfies Record<string, Value>;
  });
  // The atlas form of an entry: the same fields in the same order, with `kind` stored as `type`.
  for (const entry of bibliography) {
    records.push({
      kind: 'source',
      record: Object.fromEntries(Object.entries(entry).map(([k, v]) => [k === 'kind' ? 'type' : k, v])) as Source,
    });
  }

  // Scenarios last: their expectations are what explain answers on everything above, so they hold as
  // written (a scenario is a regression test; here it only has to cost what a real one costs).
  const reg = new Registry({
    manifest: realManifest(),
    entities: records.map(({ kind, record }) => ({ ...SCHEMAS[kind].parse(record), kind }) as Entity),
  });
  for (const id of ids('scenario')) {
    const artifact = reg.getOf('artifact', popularArtifacts.draw()!)!;
    // Half the candidates have already run the artifact's first probe (its own: agency candidate).
    const first = artifact.probes[0]!;
    const probes = random.chance(0.5) ? [{ probe: first.id, outcome: random.pick(first.outcomes).id }] : [];
    // Unbounded, as validate checks a scenario: an absent mechanism must be absent from the whole second tier.
    const result = explain(reg, { artifacts: [artifact.id], probes }, Infinity);
    const listed = new Set(result.behind.mechanisms.map((m) => m.id));
    records.push({
      kind: 'scenario',
      record: {
        id,
        title: prose.title(),
        summary: prose.text(200),
        situation: prose.paragraphs(1, 450),
        aliases: Array.from({ length: random.between(1, 3) }, () => prose.phrase()).filter((a, i, all) => all.indexOf(a) === i),
        sources: [],
        status: 'active',
        topics: [],
        input: { artifacts: [artifact.id], probes },
        expect: {
          first_tier: result.behind.mechanisms
            .filter((m) => m.tier === 'produces')
            .slice(0, 2)
            .map((m) => m.id),
          absent: distinct(random.between(1, 3), () => {
            const m = popularMechanisms.draw();
            return m !== undefined && !listed.has(m) ? m : undefined;
          }),
          probes: result.agency.probes.slice(0, 1).map((p) => p.id),
          verdict: result.agency.verdict.code,
        },
      } as Scenario,
    });
  }

  const files: SynthFile[] = records.map(({ kind, record }) => ({
    path: `content/${KIND_INFO[kind].dir}/${record.id}-${slugOf(kind === 'source' ? (record as Source).cite : (record.title as string))
      .split('-')
      .slice(0, 6)
      .join('-')}.yaml`,
    kind,
    record: record as Record<string, Value | undefined>,
  }));
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  // The real manifest's distinctions and "not cited" list name real artifacts and sources, which a
  // synthetic atlas does not have; its reader still learns the real "not covered" topics.
  const { distinctions: _d, uncited: _u, ...real } = realManifest();
  const manifest: Manifest = {
    ...real,
    distinctions: [],
    description: `A synthetic atlas of ${options.entities} entities generated by bench/synth with seed ${options.seed}, shaped like the real atlas for benchmarks. Its content is meaningless text: never publish it.`,
  };
  files.unshift({ path: 'content/atlas.yaml', kind: 'manifest', record: manifest as Record<string, Value | undefined> });
  return { seed: options.seed, files, bibliography, counts };
}

/** The real atlas's manifest: the synthetic one keeps its name and versions, so it stays valid when they move. */
function realManifest(): Manifest {
  return parse(readFileSync(join(ROOT, 'content', 'atlas.yaml'), 'utf8')) as Manifest;
}

/**
 * Author names made of syllables that spell no word of the prose vocabulary, so the named-entity rule
 * (which looks for cited authors' surnames in prose) finds nothing; some authors are organisations.
 */
class Authors {
  private static readonly FIRST = [
    'Ar',
    'Be',
    'Cal',
    'Da',
    'El',
    'Fen',
    'Gil',
    'Ha',
    'Iv',
    'Jo',
    'Ka',
    'Lu',
    'Mi',
    'No',
    'Or',
    'Pe',
    'Ra',
    'Si',
    'Ta',
    'Vi',
  ];
  private static readonly MIDDLE = [
    'ban',
    'cor',
    'dri',
    'gal',
    'hev',
    'jor',
    'kel',
    'lom',
    'mar',
    'nev',
    'pol',
    'quin',
    'rus',
    'sor',
    'tav',
    'vel',
    'wen',
    'yor',
    'zan',
    'brek',
  ];
  private static readonly LAST = [
    'ak',
    'berg',
    'dottir',
    'ecki',
    'enko',
    'ez',
    'holm',
    'ian',
    'ic',
    'ido',
    'ina',
    'oni',
    'ov',
    'quist',
    'sen',
    'stad',
    'uk',
    'wick',
    'yev',
    'zek',
  ];
  constructor(private readonly random: Random) {}
  next(): string {
    const r = this.random;
    if (r.chance(0.08)) return `${r.pick(['Labour', 'Hiring', 'Employment', 'Workforce'])} Research Council`;
    const given = `${r.pick(Authors.FIRST)}${r.pick(Authors.MIDDLE)}`;
    // 160,000 possible surnames: a bibliography of tens of thousands of sources has about as many
    // distinct author surnames as authors, and the named-entity rule must look for every one.
    const surname = `${r.pick(Authors.FIRST)}${r.pick(Authors.MIDDLE)}${r.pick(Authors.MIDDLE)}${r.pick(Authors.LAST)}`;
    return `${given} ${surname}`;
  }
}

/** The text of a file: YAML in the style of the hand-written content. */
export function renderFile(file: SynthFile): string {
  if (file.kind === 'manifest') return toYaml(file.record, 'The manifest of a synthetic atlas (bench/synth): generated, not authored.');
  if (file.kind === 'source')
    return toYaml(file.record, 'Synthetic copy of an entry of the generated bibliography.yaml (its "kind" is stored as "type").');
  // Defaults are left out, as authors leave them out.
  const { status, ...rest } = file.record;
  return toYaml(status === 'active' ? rest : file.record);
}

export function renderBibliography(atlas: SynthAtlas): string {
  return toYamlList(atlas.bibliography, `Synthetic bibliography for a generated atlas (seed ${atlas.seed}): not real sources.`);
}

/**
 * Writes the atlas into `out` (which must not exist or be empty): the checkout's content/ and the
 * bibliography beside it. Returns the number of files and bytes written.
 */
export function writeAtlas(atlas: SynthAtlas, out: string): { files: number; bytes: number } {
  if (existsSync(out) && readdirSync(out).length > 0) {
    throw new Error(`${out} is not empty: the generator writes a whole checkout, so give it a new or empty directory.`);
  }
  let bytes = 0;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), text);
    bytes += Buffer.byteLength(text);
  };
  for (const file of atlas.files) write(file.path, renderFile(file));
  write(BIBLIOGRAPHY_FILE, renderBibliography(atlas));
  return { files: atlas.files.length + 1, bytes };
}
