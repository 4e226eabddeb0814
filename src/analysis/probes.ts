// Diagnostic probes: which of an artifact's probes can tell the mechanisms under consideration apart.
// A probe narrows the set only through its outcomes' explicit `excludes`.
import { COSTS, PROBE_AGENCIES } from '../model/vocab.ts';
import type { Probe } from '../model/schemas.ts';
import type { EntityOfKind, Registry } from '../registry/registry.ts';
import { rankCompatible, resolveFacts, type RankedCompatible } from './mechanisms.ts';
import { refOf, resolveEntity, sortedIds } from './resolve.ts';
import type { DiagnosticProbes, ProbeView } from './schemas.ts';

/**
 * A probe weighed against the mechanisms under consideration (`considered`), of which `firstTier` are
 * those that produce a given observation.
 */
export function probeView(
  artifact: EntityOfKind<'artifact'>,
  probe: Probe,
  considered: { has(id: string): boolean; readonly size: number },
  firstTier: ReadonlySet<string>,
): ProbeView {
  const outcomes = probe.outcomes.map((o) => ({
    id: o.id,
    observation: o.observation,
    ...(o.note !== undefined ? { note: o.note } : {}),
    excludes: sortedIds(o.excludes),
    narrows: sortedIds(o.excludes.filter((m) => considered.has(m))),
  }));
  return {
    artifact: refOf(artifact),
    id: probe.id,
    action: probe.action,
    agency: probe.agency,
    cost: probe.cost,
    ...(probe.risk !== undefined ? { risk: probe.risk } : {}),
    outcomes,
    // Some outcome removes some, but not all, of the mechanisms still on the table.
    distinguishes: outcomes.some((o) => o.narrows.length > 0 && o.narrows.length < considered.size),
    narrows_first_tier: outcomes.some((o) => o.narrows.some((m) => firstTier.has(m))),
  };
}

/**
 * Distinguishing probes first; among them, those that narrow the first tier (the mechanisms producing
 * what was observed) before those that only narrow the second; then those the candidate can run before
 * an intermediary's; then the cheapest; then as given.
 */
export function rankProbes(probes: ProbeView[]): ProbeView[] {
  const rank = (p: ProbeView) => [
    p.distinguishes ? 0 : 1,
    p.narrows_first_tier ? 0 : 1,
    PROBE_AGENCIES.indexOf(p.agency),
    COSTS.indexOf(p.cost),
  ];
  return probes
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => a.r[0]! - b.r[0]! || a.r[1]! - b.r[1]! || a.r[2]! - b.r[2]! || a.r[3]! - b.r[3]! || a.i - b.i)
    .map(({ p }) => p);
}

export interface ProbesInput {
  artifacts: readonly string[];
  /** Mechanisms to weigh the probes against; by default those compatible with the artifacts (and stage). */
  mechanisms?: readonly string[];
  stage?: string;
}

/** Every compatible mechanism's ID: the first tier ranked, then the whole second tier by ID. */
const compatibleIds = ({ first, second }: RankedCompatible) => [...first, ...second.first(Infinity)].map((c) => c.id);

/** get_diagnostic_probes: every probe of the artifacts, weighed against a set of mechanisms. */
export function getDiagnosticProbes(reg: Registry, input: ProbesInput): DiagnosticProbes {
  const facts = resolveFacts(reg, { artifacts: input.artifacts, ...(input.stage !== undefined ? { stage: input.stage } : {}) });
  const considered =
    input.mechanisms && input.mechanisms.length > 0
      ? sortedIds(input.mechanisms.map((id) => resolveEntity(reg, id, ['mechanism'], 'mechanisms').id))
      : compatibleIds(rankCompatible(reg, facts));
  const set = new Set(considered);
  // The first tier: those of the mechanisms considered that emit a given observation.
  const given = new Set(facts.used.map((a) => a.id));
  const firstTier = new Set(considered.filter((id) => reg.getOf('mechanism', id)?.emits.some((e) => given.has(e.artifact))));
  const probes = facts.used.flatMap((a) => a.probes.map((p) => probeView(a, p, set, firstTier)));
  return { registry_version: reg.version, artifacts: facts.used.map((a) => a.id), mechanisms: considered, probes: rankProbes(probes) };
}
