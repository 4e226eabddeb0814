// Interventions: the changes system actors can make that target or mitigate the given mechanisms,
// barriers, loops or patterns, directly or (for a mechanism) through a loop it belongs to.
import type { Intervention } from '../model/schemas.ts';
import { compareIds, type Registry } from '../registry/registry.ts';
import { AnalysisError, refById, refOf, resolveEntity } from './resolve.ts';
import type { InterventionMatch, Interventions } from './schemas.ts';

type Via = InterventionMatch['via'][number];

/** get_interventions for one or more mechanism, barrier, loop or pattern IDs. */
export function findInterventions(reg: Registry, ids: readonly string[]): Interventions {
  if (ids.length === 0) throw new AnalysisError('invalid-argument', 'Name at least one mechanism, barrier, loop or pattern ID.');
  const targets = ids.map((id) => resolveEntity(reg, id, ['mechanism', 'barrier', 'loop', 'pattern'], 'get_interventions'));
  const found = new Map<string, { intervention: Intervention; via: Via[]; direct: boolean }>();
  const add = (interventionId: string, relation: Via['relation'], node: string, forId: string) => {
    const i = reg.getOf('intervention', interventionId);
    if (!i || i.status !== 'active') return;
    const entry = found.get(i.id) ?? { intervention: i, via: [], direct: false };
    found.set(i.id, entry);
    if (entry.via.some((v) => v.relation === relation && v.node.id === node && v.for === forId)) return;
    entry.via.push({ relation, node: refById(reg, node), for: forId });
    if (node === forId) entry.direct = true;
  };
  for (const t of targets) {
    for (const e of reg.incoming(t.id)) {
      if (e.relation === 'targets' || e.relation === 'mitigates') add(e.source, e.relation, t.id, t.id);
    }
    if (t.kind === 'mechanism') {
      for (const m of reg.outgoing(t.id, 'member_of')) {
        for (const e of reg.incoming(m.target)) {
          if (e.relation === 'targets' || e.relation === 'mitigates') add(e.source, e.relation, m.target, t.id);
        }
      }
    }
  }
  const interventions = [...found.values()]
    .sort((a, b) => Number(b.direct) - Number(a.direct) || compareIds(a.intervention.id, b.intervention.id))
    .map(({ intervention: i, via }) => ({
      id: i.id,
      title: i.title,
      summary: i.summary,
      actor: i.actor,
      scope: i.scope,
      cost: i.cost,
      evidence_level: i.evidence_level,
      via,
      expected_effects: i.expected_effects,
      measurements: i.measurements,
      tradeoffs: i.tradeoffs,
    }));
  return { registry_version: reg.version, targets: targets.map(refOf), interventions };
}
