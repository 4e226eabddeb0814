// The Registry: the loaded atlas with its indexes and typed edge list. Pure data and lookups, no I/O,
// so the same object serves the CLI, the MCP server, the static build and the browser.
// vocab.ts and type-only schema imports keep zod off the start-up path of commands that read a snapshot.
import type { Edge, Entity, EntityOf, Manifest } from '../model/schemas.ts';
import { KINDS, type Kind, type Relation } from '../model/vocab.ts';
import { edgeOf, referencesOf } from './references.ts';

/** The serialisable form of a registry (what a snapshot stores). */
export interface RegistryData {
  manifest: Manifest;
  entities: Entity[];
  /** The edge list, when precomputed (a snapshot stores it so start-up skips deriving it). */
  edges?: Edge[];
}

export type EntityOfKind<K extends Kind> = EntityOf[K];

/** Orders IDs by kind letter, then numerically (so M-1000 sorts after M-999). */
export function compareIds(a: string, b: string): number {
  if (a[0] !== b[0]) return a < b ? -1 : 1;
  const d = Number(a.slice(2)) - Number(b.slice(2));
  return d !== 0 ? d : a < b ? -1 : a > b ? 1 : 0;
}

const RELATION_ORDER = new Map<Relation, number>(
  (['precedes', 'operates_at', 'emits', 'amplifies', 'masks', 'instantiates', 'member_of', 'targets', 'mitigates', 'observes', 'cites'] as const).map(
    (r, i) => [r, i],
  ),
);

export function compareEdges(a: Edge, b: Edge): number {
  return (
    compareIds(a.source, b.source) ||
    RELATION_ORDER.get(a.relation)! - RELATION_ORDER.get(b.relation)! ||
    compareIds(a.target, b.target)
  );
}

export class Registry {
  readonly manifest: Manifest;
  /** All entities, sorted by ID. */
  readonly entities: readonly Entity[];
  /** Typed edges between existing entities, sorted by source, relation, target. */
  readonly edges: readonly Edge[];
  private readonly byId = new Map<string, Entity>();
  private readonly byKind = new Map<Kind, Entity[]>();
  private readonly outgoingEdges = new Map<string, Edge[]>();
  private readonly incomingEdges = new Map<string, Edge[]>();

  constructor(data: RegistryData) {
    this.manifest = data.manifest;
    this.entities = [...data.entities].sort((a, b) => compareIds(a.id, b.id));
    for (const kind of KINDS) this.byKind.set(kind, []);
    for (const e of this.entities) {
      this.byId.set(e.id, e);
      this.byKind.get(e.kind)!.push(e);
    }
    this.edges = data.edges ?? this.deriveEdges();
    for (const edge of this.edges) {
      push(this.outgoingEdges, edge.source, edge);
      push(this.incomingEdges, edge.target, edge);
    }
  }

  /** Edges between existing entities, from every entity's references, de-duplicated and sorted. */
  private deriveEdges(): Edge[] {
    const seen = new Set<string>();
    const edges: Edge[] = [];
    for (const e of this.entities) {
      for (const ref of referencesOf(e)) {
        const edge = edgeOf(ref);
        if (!edge || !this.byId.has(edge.source) || !this.byId.has(edge.target)) continue;
        const key = `${edge.source} ${edge.relation} ${edge.target}`;
        if (seen.has(key)) continue;
        seen.add(key);
        edges.push(edge);
      }
    }
    return edges.sort(compareEdges);
  }

  get version(): string {
    return this.manifest.registry_version;
  }

  get(id: string): Entity | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  all<K extends Kind>(kind: K): readonly EntityOfKind<K>[] {
    return this.byKind.get(kind) as unknown as EntityOfKind<K>[];
  }

  /** The entity of the given kind with this ID, or undefined. */
  getOf<K extends Kind>(kind: K, id: string): EntityOfKind<K> | undefined {
    const e = this.byId.get(id);
    return e && e.kind === kind ? (e as unknown as EntityOfKind<K>) : undefined;
  }

  outgoing(id: string, relation?: Relation): readonly Edge[] {
    const edges = this.outgoingEdges.get(id) ?? [];
    return relation ? edges.filter((e) => e.relation === relation) : edges;
  }

  incoming(id: string, relation?: Relation): readonly Edge[] {
    const edges = this.incomingEdges.get(id) ?? [];
    return relation ? edges.filter((e) => e.relation === relation) : edges;
  }

  toData(): RegistryData {
    return { manifest: this.manifest, entities: [...this.entities] };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
