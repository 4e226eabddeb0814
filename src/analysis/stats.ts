// The atlas in numbers: how much it holds, how far it reaches (topics, jurisdictions, actors), and whether
// it meets the depth targets the project set itself (issue 12, raised by issue 25 for atlas 0.4.0). `hoba stats`
// prints it; the test suite asserts every target on the real content. Counts are over active entities only.
import { EFFECT_LEVELS, EVIDENCE_LEVELS, INTERVENTION_ACTORS, JURISDICTIONS, TOPICS, type Entity, type Kind } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import { RULES } from '../registry/rules.ts';
import { EVIDENCE_LANGUAGE_RULES, evidenceLanguageFindings, MAX_FIRST_TIER as MAX_EMITTERS } from '../registry/validate.ts';

interface Target {
  id: string;
  /** What is measured, in words. */
  what: string;
  actual: number;
  /** `at-least` or `at-most` this bound. */
  bound: 'at-least' | 'at-most';
  target: number;
  met: boolean;
  /** Shares are fractions (0..1); `unit` says so for printing. */
  unit: 'count' | 'share';
  /** Entities that keep an unmet target from being met, when the measure is per entity. */
  failing?: string[];
}

export interface Stats {
  registry_version: string;
  counts: Record<Exclude<Kind, 'source'>, number> & { sources_cited: number };
  topics: Record<string, { mechanisms: string[]; artifacts: string[]; others: string[] }>;
  jurisdictions: Record<string, { notes: number; entities: string[] }>;
  intervention_actors: Record<string, number>;
  effect_levels: Record<string, number>;
  mechanism_evidence: Record<string, number>;
  targets: Target[];
  met: boolean;
}

const active = <T extends Entity>(list: readonly T[]): T[] => list.filter((e) => e.kind === 'source' || e.status === 'active');
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const tally = <T extends string>(keys: readonly T[], values: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, values.filter((v) => v === k).length])) as Record<T, number>;

export function atlasStats(reg: Registry): Stats {
  const artifacts = active(reg.all('artifact'));
  const barriers = active(reg.all('barrier'));
  const mechanisms = active(reg.all('mechanism'));
  const patterns = active(reg.all('pattern'));
  const loops = active(reg.all('loop'));
  const interventions = active(reg.all('intervention'));
  const scenarios = active(reg.all('scenario'));
  const content = [...artifacts, ...barriers, ...mechanisms, ...patterns, ...loops, ...interventions, ...scenarios];
  const activeIds = new Set(content.map((e) => e.id));
  const cited = new Set(content.flatMap((e) => e.sources));

  const counts = {
    artifact: artifacts.length,
    barrier: barriers.length,
    mechanism: mechanisms.length,
    pattern: patterns.length,
    loop: loops.length,
    intervention: interventions.length,
    scenario: scenarios.length,
    sources_cited: cited.size,
  };

  const topics = Object.fromEntries(
    TOPICS.map((t) => {
      const tagged = content.filter((e) => e.topics.includes(t));
      return [
        t,
        {
          mechanisms: tagged.filter((e) => e.kind === 'mechanism').map((e) => e.id),
          artifacts: tagged.filter((e) => e.kind === 'artifact').map((e) => e.id),
          others: tagged.filter((e) => e.kind !== 'mechanism' && e.kind !== 'artifact').map((e) => e.id),
        },
      ];
    }),
  );
  const withLaw = [...artifacts, ...barriers, ...mechanisms, ...interventions];
  const jurisdictions = Object.fromEntries(
    JURISDICTIONS.map((j) => {
      const holders = withLaw.filter((e) => e.law.some((n) => n.jurisdiction === j));
      return [
        j,
        {
          notes: withLaw.reduce((n, e) => n + e.law.filter((note) => note.jurisdiction === j).length, 0),
          entities: holders.map((e) => e.id),
        },
      ];
    }),
  );
  const intervention_actors = tally(
    INTERVENTION_ACTORS,
    interventions.map((i) => i.actor),
  );
  const effect_levels = tally(
    EFFECT_LEVELS,
    interventions.map((i) => i.effect.level),
  );
  const mechanism_evidence = tally(
    EVIDENCE_LEVELS,
    mechanisms.map((m) => m.evidence_level),
  );

  const emitters = (a: string) =>
    new Set(
      reg
        .incoming(a, 'emits')
        .map((e) => e.source)
        .filter((id) => activeIds.has(id)),
    ).size;
  const operating = (b: string) =>
    new Set(
      reg
        .incoming(b, 'operates_at')
        .map((e) => e.source)
        .filter((id) => activeIds.has(id)),
    ).size;
  const inMotif = new Set([...patterns.flatMap((p) => p.compatible_mechanisms), ...loops.flatMap((l) => l.mechanisms)]);
  const narrows = (a: (typeof artifacts)[number]) =>
    a.probes.some((p) => p.agency === 'candidate' && p.outcomes.some((o) => o.excludes.length > 0));
  const perspectivesComplete = (m: (typeof mechanisms)[number]) => {
    const views = new Set(m.perspectives.map((p) => p.viewpoint));
    return views.has('candidate') && views.size >= 3;
  };
  const largestActor = Math.max(0, ...Object.values(intervention_actors));
  const topicsCovered = TOPICS.filter((t) => topics[t]!.mechanisms.length + topics[t]!.artifacts.length > 0);

  const targets: Target[] = [];
  const MIN_VOICES = 25;
  const add = (
    id: string,
    what: string,
    actual: number,
    bound: Target['bound'],
    target: number,
    unit: Target['unit'] = 'count',
    failing: string[] = [],
  ) => {
    const met = bound === 'at-least' ? actual >= target - 1e-9 : actual <= target + 1e-9;
    targets.push({ id, what, actual, bound, target, met, unit, ...(met || failing.length === 0 ? {} : { failing }) });
  };
  add('artifacts', 'active artifacts (observations)', counts.artifact, 'at-least', 64);
  add('barriers', 'active barriers', counts.barrier, 'at-least', 16);
  add('mechanisms', 'active mechanisms', counts.mechanism, 'at-least', 70);
  add('patterns', 'active patterns', counts.pattern, 'at-least', 12);
  add('loops', 'active loops', counts.loop, 'at-least', 8);
  add('interventions', 'active interventions', counts.intervention, 'at-least', 40);
  add('scenarios', 'worked scenarios', counts.scenario, 'at-least', 36);
  add('sources', 'distinct sources cited (all from the shared bibliography)', counts.sources_cited, 'at-least', 185);
  const unsourced = mechanisms.filter((m) => m.sources.length === 0);
  add(
    'mechanisms-unsourced',
    'share of mechanisms citing no source',
    share(unsourced.length, mechanisms.length),
    'at-most',
    0.25,
    'share',
    unsourced.map((m) => m.id),
  );
  add(
    'topics',
    `coverage topics with at least one mechanism or artifact (of ${TOPICS.length})`,
    topicsCovered.length,
    'at-least',
    TOPICS.length,
    'count',
    TOPICS.filter((t) => !topicsCovered.includes(t)),
  );
  for (const j of JURISDICTIONS) add(`law-${j}`, `law notes for ${j}`, jurisdictions[j]!.notes, 'at-least', 3);
  add(
    'intervention-actors',
    `intervention actor classes used (of ${INTERVENTION_ACTORS.length})`,
    Object.values(intervention_actors).filter((n) => n > 0).length,
    'at-least',
    7,
  );
  add(
    'intervention-actor-share',
    'largest share of interventions held by one actor class',
    share(largestActor, interventions.length),
    'at-most',
    0.35,
    'share',
  );
  const noSpecimen = artifacts.filter((a) => a.specimens.length === 0);
  add(
    'specimens',
    'share of artifacts with a specimen',
    share(artifacts.length - noSpecimen.length, artifacts.length),
    'at-least',
    2 / 3,
    'share',
    noSpecimen.map((a) => a.id),
  );
  const noPerspectives = mechanisms.filter((m) => !perspectivesComplete(m));
  add(
    'perspectives',
    'share of mechanisms with perspectives (the candidate’s and two others)',
    share(mechanisms.length - noPerspectives.length, mechanisms.length),
    'at-least',
    1,
    'share',
    noPerspectives.map((m) => m.id),
  );
  const fewEmitters = artifacts.filter((a) => emitters(a.id) < 2);
  add(
    'artifact-emitters-min',
    'share of artifacts emitted by at least two mechanisms',
    share(artifacts.length - fewEmitters.length, artifacts.length),
    'at-least',
    1,
    'share',
    fewEmitters.map((a) => a.id),
  );
  const manyEmitters = artifacts.filter((a) => emitters(a.id) > MAX_EMITTERS);
  add(
    'artifact-first-tier',
    `share of artifacts whose first tier (emitters) stays at most ${MAX_EMITTERS}`,
    share(artifacts.length - manyEmitters.length, artifacts.length),
    'at-least',
    1,
    'share',
    manyEmitters.map((a) => a.id),
  );
  const thinBarriers = barriers.filter((b) => operating(b.id) < 2);
  add(
    'barrier-mechanisms',
    'share of barriers with at least two mechanisms operating at them',
    share(barriers.length - thinBarriers.length, barriers.length),
    'at-least',
    1,
    'share',
    thinBarriers.map((b) => b.id),
  );
  add(
    'mechanisms-in-motifs',
    'share of mechanisms in a pattern or a loop',
    share(mechanisms.filter((m) => inMotif.has(m.id)).length, mechanisms.length),
    'at-least',
    0.5,
    'share',
    mechanisms.filter((m) => !inMotif.has(m.id)).map((m) => m.id),
  );
  // The situation reader learns each observation from the words people use for it (issue 24).
  const fewVoices = artifacts.filter((a) => (a.voices ?? []).length < MIN_VOICES);
  add(
    'voices',
    `share of artifacts with at least ${MIN_VOICES} voices (first-person accounts the situation reader learns from)`,
    share(artifacts.length - fewVoices.length, artifacts.length),
    'at-least',
    1,
    'share',
    fewVoices.map((a) => a.id),
  );
  const notNarrowing = artifacts.filter((a) => !narrows(a));
  add(
    'candidate-narrowing',
    'share of artifacts with a probe the candidate can run that excludes a mechanism',
    share(artifacts.length - notNarrowing.length, artifacts.length),
    'at-least',
    1,
    'share',
    notNarrowing.map((a) => a.id),
  );
  // "Not cited, and why": every bibliography entry of the revision the manifest names is cited or listed with a reason.
  const revision = reg.manifest.uncited;
  if (revision) {
    const first = Number(revision.from.slice(2));
    const last = Number(revision.to.slice(2));
    const ids = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => `E-${String(first + i).padStart(3, '0')}`);
    const listed = new Set(revision.sources.map((s) => s.id));
    const unexplained = ids.filter((id) => !cited.has(id) && !listed.has(id));
    add(
      'bibliography-revision',
      `bibliography entries ${revision.from}..${revision.to} cited, or listed as not cited with the reason`,
      ids.length - unexplained.length,
      'at-least',
      ids.length,
      'count',
      unexplained,
    );
  }
  // The rules of evidence on the atlas's own words: no finding at all, whatever their severity.
  const findings = evidenceLanguageFindings(reg);
  for (const rule of EVIDENCE_LANGUAGE_RULES) {
    const found = findings.filter((p) => p.rule === rule);
    add(`rule-${rule}`, `findings of the rule ${rule} (${RULES[rule].severity})`, found.length, 'at-most', 0, 'count', [
      ...new Set(found.map((p) => p.entity ?? '')),
    ]);
  }
  const remediedWithoutLimit = withLaw.filter((e) => e.law.some((n) => n.remedy !== undefined && n.time_limit === undefined));
  add(
    'law-time-limits',
    'law notes that give a remedy but no time limit',
    withLaw.reduce((n, e) => n + e.law.filter((note) => note.remedy !== undefined && note.time_limit === undefined).length, 0),
    'at-most',
    0,
    'count',
    remediedWithoutLimit.map((e) => e.id),
  );

  return {
    registry_version: reg.version,
    counts,
    topics,
    jurisdictions,
    intervention_actors,
    effect_levels,
    mechanism_evidence,
    targets,
    met: targets.every((t) => t.met),
  };
}

const figure = (t: Pick<Target, 'unit'>, n: number) => (t.unit === 'share' ? `${Math.round(n * 1000) / 10}%` : String(n));

/** The stats as plain text for people: targets first, then where the atlas reaches. */
export function statsText(s: Stats): string {
  const lines: string[] = [
    `Atlas ${s.registry_version}: ${s.met ? 'every depth target met' : `${s.targets.filter((t) => !t.met).length} depth targets not met`}`,
    '',
  ];
  for (const t of s.targets) {
    const bound = `${t.bound === 'at-least' ? '≥' : '≤'} ${figure(t, t.target)}`;
    lines.push(
      `${t.met ? '✔' : '✖'} ${t.what}: ${figure(t, t.actual)} (target ${bound})${t.failing ? `; short: ${t.failing.slice(0, 12).join(', ')}${t.failing.length > 12 ? ', …' : ''}` : ''}`,
    );
  }
  lines.push('', 'Topics (mechanisms / artifacts):');
  for (const [topic, t] of Object.entries(s.topics)) lines.push(`  ${topic}: ${t.mechanisms.length} / ${t.artifacts.length}`);
  lines.push('', 'Law notes by jurisdiction:');
  for (const [j, v] of Object.entries(s.jurisdictions)) lines.push(`  ${j}: ${v.notes} notes on ${v.entities.length} entities`);
  const listing = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  lines.push('', `Intervention actors: ${listing(s.intervention_actors)}`);
  lines.push(`Intervention effect evidence: ${listing(s.effect_levels)}`);
  lines.push(`Mechanism evidence: ${listing(s.mechanism_evidence)}`);
  return lines.join('\n') + '\n';
}
