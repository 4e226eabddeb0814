// One entity with everything around it: its record, its relations read in both directions, the probe
// outcomes that rule it out (mechanisms), its citations, and its successor when deprecated.
import type { Kind, Relation } from '../model/vocab.ts';
import type { Edge, Entity, Source } from '../model/schemas.ts';
import { sourceTitle, sourceVenue } from '../model/source.ts';
import { compareIds, type Registry } from '../registry/registry.ts';
import { refById, refOf, resolveEntity, sortedIds, successorOf } from './resolve.ts';
import { LEGAL_NOTICE } from './terms.ts';
import type { Citation, EntityRecord, NodeView, ProbeExclusion, RelationLink, SourceCaveat } from './schemas.ts';

/**
 * How a relation reads from one of its ends (`self`). The kinds matter for `instantiates`, whose sources
 * are artifacts (required by a pattern) or mechanisms (compatible with it).
 */
export function relationLabel(relation: Relation, direction: 'out' | 'in', self: Kind, other: Kind): string {
  const labels: Record<Relation, [out: string, incoming: string]> = {
    precedes: ['precedes', 'preceded by'],
    operates_at: ['operates at', 'mechanisms operating here'],
    emits: ['emits', 'emitted by'],
    amplifies: ['amplifies', 'amplified by'],
    masks: ['masks', 'masked by'],
    instantiates: [
      self === 'artifact' ? 'required by pattern' : 'compatible with pattern',
      other === 'artifact' ? 'requires (artifacts)' : 'compatible mechanisms',
    ],
    member_of: ['member of loop', 'members'],
    targets: ['targets', 'targeted by'],
    mitigates: ['mitigates', 'mitigated by'],
    observes: ['observes', 'observed in scenarios'],
    cites: ['cites', 'cited by'],
  };
  return labels[relation][direction === 'out' ? 0 : 1];
}

function link(reg: Registry, edge: Edge, direction: 'out' | 'in'): RelationLink {
  // Kinds and titles only: a view reads no neighbour.
  const self = reg.kindOf(direction === 'out' ? edge.source : edge.target)!;
  const other = refById(reg, direction === 'out' ? edge.target : edge.source);
  const l: RelationLink = {
    relation: edge.relation,
    direction,
    label: relationLabel(edge.relation, direction, self, other.kind),
    node: other,
  };
  if (edge.fidelity) l.fidelity = edge.fidelity;
  return l;
}

/** Relations of an entity: outgoing first, each group in relation order, as the registry sorts edges. */
export function relationsOf(reg: Registry, id: string): RelationLink[] {
  return [...reg.outgoing(id).map((e) => link(reg, e, 'out')), ...reg.incoming(id).map((e) => link(reg, e, 'in'))];
}

/**
 * How to read a source that is not current, in words a reader cannot miss; undefined for a current one.
 * Every surface shows this text wherever the source is cited, so that withdrawn guidance or repealed law
 * is never presented as if it still applied.
 */
export function sourceCaveat(source: Pick<Source, 'status' | 'superseded_by'>): string | undefined {
  switch (source.status) {
    case 'current':
      return undefined;
    case 'withdrawn':
      return 'Withdrawn: the issuer has taken this guidance down. Do not read it as current guidance; it shows only what was advised while it stood.';
    case 'repealed':
      return 'Repealed: this law is no longer in force. Do not read it as current law; it shows only what applied while it stood.';
    case 'contested':
      return 'Contested: this finding is disputed. Read it as one side of an open question, not as settled.';
    case 'superseded':
      return `Superseded${source.superseded_by ? ` by ${source.superseded_by}` : ''}: a later source replaces this one. Rely on the later source.`;
  }
}

function citationOf(s: Source): Citation {
  const caveat = sourceCaveat(s);
  return {
    id: s.id,
    cite: s.cite,
    title: sourceTitle(s),
    year: s.year,
    venue: sourceVenue(s),
    url: s.url,
    doi: s.doi,
    peer_reviewed: s.peer_reviewed,
    status: s.status,
    ...(caveat ? { caveat } : {}),
  };
}

export function citationsOf(reg: Registry, entity: Entity): Citation[] {
  if (entity.kind === 'source') return [];
  return entity.sources.flatMap((id) => {
    const s = reg.getOf('source', id);
    return s ? [citationOf(s)] : [];
  });
}

/** The sources the given entities cite that are not current, by ID, each with the entities citing it. */
export function sourceCaveatsOf(reg: Registry, entities: readonly Entity[]): SourceCaveat[] {
  // A source that is not current may be cited by many of the entities: their IDs are gathered in a set.
  const found = new Map<string, { source: Source; caveat: string; citedBy: Set<string> }>();
  for (const e of entities) {
    if (e.kind === 'source') continue;
    for (const id of e.sources) {
      // Most sources are current: a citation is built only for one that carries a caveat, and a current
      // one is not even read (the registry knows each entity's status without reading it).
      if (reg.statusOf(id) === 'current') continue;
      const source = reg.getOf('source', id);
      const caveat = source && sourceCaveat(source);
      if (!source || caveat === undefined) continue;
      const entry = found.get(id) ?? { source, caveat, citedBy: new Set<string>() };
      entry.citedBy.add(e.id);
      found.set(id, entry);
    }
  }
  return [...found.values()]
    .sort((a, b) => compareIds(a.source.id, b.source.id))
    .map(({ source, caveat, citedBy }) => ({ ...citationOf(source), caveat, cited_by: sortedIds(citedBy) }));
}

type ArtifactEntity = Extract<Entity, { kind: 'artifact' }>;
type Exclusion = {
  artifact: ArtifactEntity;
  probe: ArtifactEntity['probes'][number];
  outcome: ArtifactEntity['probes'][number]['outcomes'][number];
};

/** The artifacts that refer to a mechanism other than through an edge (probe outcomes, rules_out), by ID. */
function artifactHolders(reg: Registry, mechanismId: string): ArtifactEntity[] {
  return reg.holders(mechanismId).flatMap((id) => {
    const a = reg.getOf('artifact', id);
    return a ? [a] : [];
  });
}

/**
 * The probe outcomes that exclude a mechanism (artifacts by ID, then probes and outcomes as written):
 * exclusions are held by artifacts, with no edge back from the mechanism.
 */
function exclusionsFor(reg: Registry, mechanismId: string): Exclusion[] {
  const out: Exclusion[] = [];
  for (const artifact of artifactHolders(reg, mechanismId)) {
    for (const probe of artifact.probes) {
      for (const outcome of probe.outcomes) if (outcome.excludes.includes(mechanismId)) out.push({ artifact, probe, outcome });
    }
  }
  return out;
}

/** Every probe outcome in the atlas that excludes the given mechanism. */
export function exclusionsOf(reg: Registry, mechanismId: string): ProbeExclusion[] {
  return exclusionsFor(reg, mechanismId).map(({ artifact, probe, outcome }) => ({
    artifact: refOf(artifact),
    probe: probe.id,
    outcome: outcome.id,
    observation: outcome.observation,
  }));
}

/** The artifacts whose observation rules out the given mechanism (their rules_out), with the reason each gives. */
export function rulingOut(reg: Registry, mechanismId: string): ReadonlyArray<{ artifact: ArtifactEntity; reason: string }> {
  return artifactHolders(reg, mechanismId).flatMap((artifact) =>
    artifact.rules_out.filter((r) => r.mechanism === mechanismId).map((r) => ({ artifact, reason: r.reason })),
  );
}

/** The entities that name an ID as their superseded_by, by ID. */
function predecessorsOf(reg: Registry, id: string): Entity[] {
  // Only a deprecated entity has a successor: the others are not read.
  return reg.holders(id).flatMap((h) => {
    const e = reg.statusOf(h) === 'deprecated' ? reg.get(h) : undefined;
    return e && e.kind !== 'source' && e.superseded_by === id ? [e] : [];
  });
}

/** The entity an ID names (any kind), with its neighbourhood of one step. */
export function getNode(reg: Registry, id: string): NodeView {
  const entity = resolveEntity(reg, id);
  const successor = successorOf(reg, entity);
  const caveat = entity.kind === 'source' ? sourceCaveat(entity) : undefined;
  return {
    registry_version: reg.version,
    node: refOf(entity),
    ...(successor ? { successor: refById(reg, successor.id) } : {}),
    entity: entity as EntityRecord,
    predecessors: predecessorsOf(reg, entity.id).map(refOf),
    relations: relationsOf(reg, entity.id),
    ruled_out_by: entity.kind === 'mechanism' ? exclusionsOf(reg, entity.id) : [],
    citations: citationsOf(reg, entity),
    ...(caveat ? { caveat } : {}),
    ...(hasLaw(entity) ? { legal_notice: LEGAL_NOTICE } : {}),
  };
}

/** Whether an entity carries law notes (and so the legal notice). */
export function hasLaw(entity: Entity): boolean {
  return 'law' in entity && entity.law.length > 0;
}
