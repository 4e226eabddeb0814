// The Registry: the loaded atlas with its indexes and typed edge list. Pure data and lookups, no I/O,
// so the same object serves the CLI, the MCP server, the static build and the browser.
// vocab.ts and type-only schema imports keep zod off the start-up path of commands that read a snapshot.
import type { Edge, Entity, EntityOf, Manifest } from '../model/schemas.ts';
import { KINDS, type Kind, RELATIONS, type Relation } from '../model/vocab.ts';
import type { EncodedEdges } from './edge-codec.ts';
import { edgeOf, referencesOf } from './references.ts';

/** The serialisable form of a registry (what a snapshot stores). */
export interface RegistryData {
  manifest: Manifest;
  entities: Entity[];
  /** The edge list, when precomputed (a snapshot stores it so start-up skips deriving it). */
  edges?: Edge[];
}

/**
 * A registry whose entities are read one at a time, when first asked for (a snapshot's per-entity parts:
 * src/registry/snapshot.ts): their IDs (sorted by compareIds) and kinds are known up front, the edges too.
 * A command that shows one entity reads that entity and its neighbours, not the atlas.
 */
export interface LazyRegistryData {
  manifest: Manifest;
  ids: readonly string[];
  /** The kind of each ID, in the same order. */
  kinds: readonly Kind[];
  /** The status of each ID, in the same order (see Registry.statusOf). */
  statuses: ReadonlyArray<Entity['status']>;
  /** What a reference to each ID shows (see Registry.titleOf), in the same order. */
  titles: readonly string[];
  /** The entity at a position of `ids`. */
  load(index: number): Entity;
  /** The edges, encoded (edge-codec.ts): made as they are asked for (a search uses none, `show` a few). */
  edges: EncodedEdges;
  /** holders(id) of every ID that has any, precomputed (see Registry.holders). */
  holders: Record<string, string[]>;
}

export type EntityOfKind<K extends Kind> = EntityOf[K];

/** Orders IDs by kind letter, then numerically (so M-1000 sorts after M-999). */
export function compareIds(a: string, b: string): number {
  if (a[0] !== b[0]) return a < b ? -1 : 1;
  const d = Number(a.slice(2)) - Number(b.slice(2));
  return d !== 0 ? d : a < b ? -1 : a > b ? 1 : 0;
}

// Edges sort by relation in the vocabulary's order (RELATIONS), then by their ends.
const RELATION_ORDER = new Map<Relation, number>(RELATIONS.map((r, i) => [r, i]));

export function compareEdges(a: Edge, b: Edge): number {
  return (
    compareIds(a.source, b.source) || RELATION_ORDER.get(a.relation)! - RELATION_ORDER.get(b.relation)! || compareIds(a.target, b.target)
  );
}

export class Registry {
  readonly manifest: Manifest;
  /** The edges, made on first use (see `edges`), or encoded (a snapshot's) and made as asked for. */
  private edgeList: readonly Edge[] | undefined;
  private readonly makeEdges: () => Edge[];
  private readonly encoded: EncodedEdges | undefined;
  private readonly encodedBy = { source: new Map<string, readonly Edge[]>(), target: new Map<string, readonly Edge[]>() };
  /** Position of each ID in `ids` (sorted by ID). */
  private readonly positions = new Map<string, number>();
  private readonly ids: readonly string[];
  /** The entities read so far, by position. */
  private readonly slots: Array<Entity | undefined>;
  private readonly load: ((index: number) => Entity) | undefined;
  private readonly kindPositions = new Map<Kind, number[]>();
  /** The kind and the status of each entity, by position (read from the snapshot's index, or from the entities). */
  private readonly kinds: readonly Kind[];
  private readonly statuses: ReadonlyArray<Entity['status']>;
  private readonly titles: readonly string[];
  private readonly byKind = new Map<Kind, Entity[]>();
  private every: readonly Entity[] | undefined;
  private outgoingEdges: Map<string, Edge[]> | undefined;
  private incomingEdges: Map<string, Edge[]> | undefined;
  private holdersById: Record<string, string[]> | undefined;

  constructor(data: RegistryData | LazyRegistryData) {
    this.manifest = data.manifest;
    for (const kind of KINDS) this.kindPositions.set(kind, []);
    if ('load' in data) {
      this.ids = data.ids;
      this.slots = new Array<Entity | undefined>(data.ids.length);
      this.load = data.load;
      this.holdersById = data.holders;
      const encoded = data.edges;
      this.encoded = encoded;
      this.makeEdges = () => encoded.all();
      this.kinds = data.kinds;
      this.statuses = data.statuses;
      this.titles = data.titles;
      data.ids.forEach((id, i) => {
        this.positions.set(id, i);
        this.kindPositions.get(data.kinds[i]!)!.push(i);
      });
    } else {
      const sorted = [...data.entities].sort((a, b) => compareIds(a.id, b.id));
      this.ids = sorted.map((e) => e.id);
      this.slots = sorted;
      this.every = sorted;
      this.encoded = undefined;
      this.makeEdges = () => data.edges ?? this.deriveEdges();
      this.kinds = sorted.map((e) => e.kind);
      this.statuses = sorted.map((e) => e.status);
      this.titles = sorted.map(titleOf);
      sorted.forEach((e, i) => {
        this.positions.set(e.id, i);
        this.kindPositions.get(e.kind)!.push(i);
      });
    }
  }

  /** Typed edges between existing entities, sorted by source, relation, target (made on first use). */
  get edges(): readonly Edge[] {
    this.edgeList ??= this.makeEdges();
    return this.edgeList;
  }

  /** The edges from (source) or to (target) an entity. */
  private edgesAt(end: 'source' | 'target', id: string): readonly Edge[] {
    const encoded = this.encoded;
    if (encoded === undefined) return this.edgesBy(end).get(id) ?? [];
    const known = this.encodedBy[end].get(id);
    if (known !== undefined) return known;
    const i = this.positions.get(id);
    const edges = i === undefined ? [] : encoded.at(end, i);
    this.encodedBy[end].set(id, edges);
    return edges;
  }

  /** The edges by source and by target, indexed on first use. */
  private edgesBy(end: 'source' | 'target'): Map<string, Edge[]> {
    if (this.outgoingEdges === undefined || this.incomingEdges === undefined) {
      this.outgoingEdges = new Map();
      this.incomingEdges = new Map();
      for (const edge of this.edges) {
        push(this.outgoingEdges, edge.source, edge);
        push(this.incomingEdges, edge.target, edge);
      }
    }
    return end === 'source' ? this.outgoingEdges : this.incomingEdges;
  }

  /** The entity at a position, read on first use. */
  private at(index: number): Entity {
    let entity = this.slots[index];
    if (entity === undefined) {
      entity = this.load!(index);
      this.slots[index] = entity;
    }
    return entity;
  }

  /**
   * Positions: every entity has one, its place in ID order (0 … size − 1). Indexes keyed by position
   * (typed arrays, marks) are cheaper than by ID; these read no entity that was not asked for.
   */
  get size(): number {
    return this.ids.length;
  }

  /** The position of an ID, or undefined when there is no such entity. */
  positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** The entity at a position (see size). */
  entityAt(position: number): Entity {
    return this.at(position);
  }

  /**
   * An entity's status (active or deprecated; a source's current, withdrawn, …) without reading the
   * entity: what a scan for the few that are not current needs. Undefined when there is no such entity.
   */
  statusOf(id: string): Entity['status'] | undefined {
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.statuses[i];
  }

  /** An entity's kind without reading the entity; undefined when there is no such entity. */
  kindOf(id: string): Kind | undefined {
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.kinds[i];
  }

  /**
   * What a reference to an entity shows (its title; a source's citation, "Author (year)") without reading
   * the entity: a view lists its neighbours by title, and reads only the entity it shows.
   */
  titleOf(id: string): string | undefined {
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.titles[i];
  }

  /** The positions of the entities of a kind, in ID order. */
  positionsOf(kind: Kind): readonly number[] {
    return this.kindPositions.get(kind)!;
  }

  /** All entities, sorted by ID (each read, if not yet). */
  get entities(): readonly Entity[] {
    this.every ??= this.ids.map((_, i) => this.at(i));
    return this.every;
  }

  /** Edges between existing entities, from every entity's references, de-duplicated and sorted. */
  private deriveEdges(): Edge[] {
    const seen = new Set<string>();
    const edges: Edge[] = [];
    for (const e of this.entities) {
      for (const ref of referencesOf(e)) {
        const edge = edgeOf(ref);
        if (!edge || !this.positions.has(edge.source) || !this.positions.has(edge.target)) continue;
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
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.at(i);
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  all<K extends Kind>(kind: K): readonly EntityOfKind<K>[] {
    let list = this.byKind.get(kind);
    if (!list) {
      list = this.kindPositions.get(kind)!.map((i) => this.at(i));
      this.byKind.set(kind, list);
    }
    return list as unknown as EntityOfKind<K>[];
  }

  /** The entity of the given kind with this ID, or undefined. */
  getOf<K extends Kind>(kind: K, id: string): EntityOfKind<K> | undefined {
    // The kind is known without reading: an entity of another kind is not read.
    const i = this.positions.get(id);
    return i !== undefined && this.kinds[i] === kind ? (this.at(i) as unknown as EntityOfKind<K>) : undefined;
  }

  outgoing(id: string, relation?: Relation): readonly Edge[] {
    const edges = this.edgesAt('source', id);
    return relation ? edges.filter((e) => e.relation === relation) : edges;
  }

  incoming(id: string, relation?: Relation): readonly Edge[] {
    const edges = this.edgesAt('target', id);
    return relation ? edges.filter((e) => e.relation === relation) : edges;
  }

  /**
   * The IDs of the entities that refer to `id` other than through a graph edge (a successor's
   * superseded_by, a probe outcome's excludes, an artifact's rules_out), sorted: what a view of one
   * entity needs to find without reading every entity.
   */
  holders(id: string): readonly string[] {
    return this.allHolders()[id] ?? [];
  }

  /** holders() of every ID, for a snapshot to store. */
  allHolders(): Record<string, string[]> {
    this.holdersById ??= holdersOf(this.entities);
    return this.holdersById;
  }

  toData(): RegistryData {
    return { manifest: this.manifest, entities: [...this.entities] };
  }
}

/** What a reference to an entity shows: its title, or a source's citation. */
export function titleOf(entity: Entity): string {
  return entity.kind === 'source' ? entity.cite : entity.title;
}

/** For every ID, the sorted IDs of the entities holding a reference to it that is not an edge. */
function holdersOf(entities: readonly Entity[]): Record<string, string[]> {
  const byTarget = new Map<string, Set<string>>();
  for (const e of entities) {
    for (const ref of referencesOf(e)) {
      if (ref.relation !== undefined) continue;
      let set = byTarget.get(ref.target);
      if (!set) {
        set = new Set();
        byTarget.set(ref.target, set);
      }
      set.add(e.id);
    }
  }
  const out: Record<string, string[]> = {};
  for (const id of [...byTarget.keys()].sort(compareIds)) out[id] = [...byTarget.get(id)!].sort(compareIds);
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
