// The edge list as a snapshot stores it (src/registry/snapshot.ts, and the worker's bundled copy of it,
// scripts/build-worker.mjs): numbers instead of objects, a third of the text, parsed faster at start-up.
import type { Edge } from '../model/schemas.ts';
import { FIDELITIES, RELATIONS } from '../model/vocab.ts';

/**
 * The edges as numbers, three an edge: the source's and the target's positions in `ids`, then the
 * relation's index in RELATIONS times 8 plus 1 + the fidelity's index in FIDELITIES (0 for none).
 */
export function encodeEdges(edges: readonly Edge[], ids: readonly string[]): number[] {
  const position = new Map(ids.map((id, i) => [id, i]));
  return edges.flatMap((e) => [
    position.get(e.source)!,
    position.get(e.target)!,
    RELATIONS.indexOf(e.relation) * 8 + (e.fidelity === undefined ? 0 : FIDELITIES.indexOf(e.fidelity) + 1),
  ]);
}

/** Edge `k` of an encoded list (encodeEdges), as the registry derives it (the same keys in the same order), or undefined when malformed. */
function decodeEdge(numbers: readonly number[], ids: readonly string[], k: number): Edge | undefined {
  const source = ids[numbers[3 * k]!];
  const target = ids[numbers[3 * k + 1]!];
  const code = numbers[3 * k + 2]!;
  const relation = RELATIONS[code >> 3];
  if (source === undefined || target === undefined || relation === undefined) return undefined;
  const edge: Edge = { source, target, relation };
  if ((code & 7) !== 0) edge.fidelity = FIDELITIES[(code & 7) - 1]!;
  return edge;
}

/** The edges of encodeEdges, or undefined when malformed. */
export function decodeEdges(numbers: readonly number[], ids: readonly string[]): Edge[] | undefined {
  if (!Array.isArray(numbers) || numbers.length % 3 !== 0) return undefined;
  const edges = new Array<Edge>(numbers.length / 3);
  for (let k = 0; k < edges.length; k++) {
    const edge = decodeEdge(numbers, ids, k);
    if (edge === undefined) return undefined;
    edges[k] = edge;
  }
  return edges;
}

/**
 * An encoded edge list (encodeEdges) read as asked: the edges of one source or one target are found
 * through indexes of plain numbers and made then, each once, so that a command that shows one entity
 * makes its few edges, not the atlas's thousands.
 */
export class EncodedEdges {
  readonly length: number;
  private readonly made: Array<Edge | undefined>;
  private readonly ends: Record<'source' | 'target', { start: Int32Array; order: Int32Array } | undefined> = {
    source: undefined,
    target: undefined,
  };

  constructor(
    private readonly numbers: readonly number[],
    /** The entities' IDs by position (the numbers' positions). */
    private readonly ids: readonly string[],
    /** What went wrong, when an edge does not decode. */
    private readonly damaged: () => Error,
  ) {
    if (!Array.isArray(numbers) || numbers.length % 3 !== 0) throw damaged();
    this.length = numbers.length / 3;
    this.made = new Array<Edge | undefined>(this.length);
  }

  /** Edge k of the list. */
  edge(k: number): Edge {
    let edge = this.made[k];
    if (edge === undefined) {
      edge = decodeEdge(this.numbers, this.ids, k);
      if (edge === undefined) throw this.damaged();
      this.made[k] = edge;
    }
    return edge;
  }

  /** Every edge, in the list's order. */
  all(): Edge[] {
    return Array.from({ length: this.length }, (_, k) => this.edge(k));
  }

  /** The edges whose source (or target) is the entity at `position`, in the list's order. */
  at(end: 'source' | 'target', position: number): Edge[] {
    const { start, order } = this.index(end);
    if (position < 0 || position + 1 >= start.length) return [];
    const out: Edge[] = [];
    for (let i = start[position]!; i < start[position + 1]!; i++) out.push(this.edge(order[i]!));
    return out;
  }

  /** The edges grouped by one end's position (a counting sort, which keeps the list's order in each group). */
  private index(end: 'source' | 'target'): { start: Int32Array; order: Int32Array } {
    let index = this.ends[end];
    if (index === undefined) {
      const offset = end === 'source' ? 0 : 1;
      const start = new Int32Array(this.ids.length + 1);
      for (let k = 0; k < this.length; k++) {
        const p = this.numbers[3 * k + offset]!;
        if (!(p >= 0 && p < this.ids.length)) throw this.damaged();
        start[p + 1]!++;
      }
      for (let p = 0; p < this.ids.length; p++) start[p + 1]! += start[p]!;
      const next = start.slice(0, this.ids.length);
      const order = new Int32Array(this.length);
      for (let k = 0; k < this.length; k++) order[next[this.numbers[3 * k + offset]!]!++] = k;
      index = { start, order };
      this.ends[end] = index;
    }
    return index;
  }
}
