// Every reference an entity holds to another, with where it sits (for file:line messages), which kinds
// it may point at, and the graph edge it makes. The validator's reference checks and the graph's edge
// list both come from this one table.
import type { Edge, Entity, Fidelity, Kind, Relation } from '../model/index.ts';

export type PathSegment = string | number;

export interface Reference {
  /** ID of the entity holding the reference. */
  holder: string;
  /** ID referred to. */
  target: string;
  /** Where the reference sits inside the holder, e.g. ['emits', 2, 'artifact']. */
  path: PathSegment[];
  /** Kinds the reference may point at. */
  allowed: readonly Kind[];
  /** The graph edge this reference makes, if any. */
  relation?: Relation;
  /** The edge runs from the target to the holder (e.g. artifact → pattern for `instantiates`). */
  reverse?: boolean;
  fidelity?: Fidelity;
}

type Spec = Omit<Reference, 'holder' | 'target' | 'path'>;

function list(holder: string, field: string, ids: readonly string[] | undefined, spec: Spec): Reference[] {
  return (ids ?? []).map((target, i) => ({ holder, target, path: [field, i], ...spec }));
}

/** Moves a reference's path under a parent field (e.g. ['artifacts', 0] → ['input', 'artifacts', 0]). */
const under =
  (parent: string) =>
  (ref: Reference): Reference => ({ ...ref, path: [parent, ...ref.path] });

export function referencesOf(entity: Entity): Reference[] {
  const id = entity.id;
  const refs: Reference[] = [];
  if (entity.kind !== 'source') {
    refs.push(...list(id, 'sources', entity.sources, { allowed: ['source'], relation: 'cites' }));
  }
  // Sources of nested items (law notes, an intervention's effect, barrier variants): no edge of their own, since
  // the entity's `sources` must list them too (rule nested-source-unlisted), and that makes the one `cites` edge.
  for (const nested of nestedSources(entity)) {
    nested.sources.forEach((target, i) => {
      refs.push({ holder: id, target, path: [...nested.path, 'sources', i], allowed: ['source'] });
    });
  }
  if (entity.superseded_by !== undefined) {
    refs.push({ holder: id, target: entity.superseded_by, path: ['superseded_by'], allowed: [entity.kind] });
  }
  switch (entity.kind) {
    case 'artifact':
      entity.probes.forEach((probe, p) => {
        probe.outcomes.forEach((outcome, o) => {
          outcome.excludes.forEach((target, i) => {
            refs.push({ holder: id, target, path: ['probes', p, 'outcomes', o, 'excludes', i], allowed: ['mechanism'] });
          });
        });
      });
      entity.next_steps.forEach((step, s) => {
        // No edge of its own: the artifact's `sources` must list it too (rule next-step-source-unlisted), and that makes the one `cites` edge.
        step.sources.forEach((target, i) => {
          refs.push({ holder: id, target, path: ['next_steps', s, 'sources', i], allowed: ['source'] });
        });
      });
      entity.rules_out.forEach((r, i) => {
        refs.push({ holder: id, target: r.mechanism, path: ['rules_out', i, 'mechanism'], allowed: ['mechanism'] });
      });
      break;
    case 'barrier':
      refs.push(...list(id, 'precedes', entity.precedes, { allowed: ['barrier'], relation: 'precedes' }));
      break;
    case 'mechanism':
      refs.push(...list(id, 'operates_at', entity.operates_at, { allowed: ['barrier'], relation: 'operates_at' }));
      entity.emits.forEach((e, i) => {
        refs.push({
          holder: id,
          target: e.artifact,
          path: ['emits', i, 'artifact'],
          allowed: ['artifact'],
          relation: 'emits',
          fidelity: e.fidelity,
        });
      });
      refs.push(...list(id, 'amplifies', entity.amplifies, { allowed: ['mechanism'], relation: 'amplifies' }));
      refs.push(...list(id, 'masks', entity.masks, { allowed: ['mechanism'], relation: 'masks' }));
      break;
    case 'pattern':
      refs.push(
        ...list(id, 'required_artifacts', entity.required_artifacts, { allowed: ['artifact'], relation: 'instantiates', reverse: true }),
      );
      refs.push(
        ...list(id, 'compatible_mechanisms', entity.compatible_mechanisms, {
          allowed: ['mechanism'],
          relation: 'instantiates',
          reverse: true,
        }),
      );
      break;
    case 'loop':
      refs.push(...list(id, 'mechanisms', entity.mechanisms, { allowed: ['mechanism'], relation: 'member_of', reverse: true }));
      refs.push(...list(id, 'entry_points', entity.entry_points, { allowed: ['mechanism'] }));
      entity.edges.forEach((e, i) => {
        refs.push({ holder: id, target: e.from, path: ['edges', i, 'from'], allowed: ['mechanism'] });
        refs.push({ holder: id, target: e.to, path: ['edges', i, 'to'], allowed: ['mechanism'] });
      });
      break;
    case 'intervention':
      refs.push(...list(id, 'targets', entity.targets, { allowed: ['mechanism', 'barrier', 'loop'], relation: 'targets' }));
      refs.push(...list(id, 'mitigates', entity.mitigates, { allowed: ['pattern', 'loop'], relation: 'mitigates' }));
      break;
    case 'scenario':
      refs.push(...list(id, 'artifacts', entity.input.artifacts, { allowed: ['artifact'], relation: 'observes' }).map(under('input')));
      refs.push(...list(id, 'first_tier', entity.expect.first_tier, { allowed: ['mechanism'] }).map(under('expect')));
      refs.push(...list(id, 'absent', entity.expect.absent, { allowed: ['mechanism'] }).map(under('expect')));
      break;
    case 'source':
      break;
  }
  return refs;
}

/** Items inside an entity that cite sources of their own (other than next steps), with where they sit. */
export function nestedSources(entity: Entity): Array<{ path: PathSegment[]; sources: readonly string[] }> {
  if (entity.kind === 'source' || entity.kind === 'pattern' || entity.kind === 'loop' || entity.kind === 'scenario') return [];
  const found = entity.law.map((note, i) => ({ path: ['law', i] as PathSegment[], sources: note.sources }));
  if (entity.kind === 'intervention') found.push({ path: ['effect'], sources: entity.effect.sources });
  if (entity.kind === 'barrier')
    entity.variants.forEach((v, i) => {
      found.push({ path: ['variants', i], sources: v.sources });
    });
  return found;
}

/** The graph edge a reference makes, or undefined when it makes none. */
export function edgeOf(ref: Reference): Edge | undefined {
  if (!ref.relation) return undefined;
  const [source, target] = ref.reverse ? [ref.target, ref.holder] : [ref.holder, ref.target];
  const edge: Edge = { source, target, relation: ref.relation };
  if (ref.fidelity) edge.fidelity = ref.fidelity;
  return edge;
}
