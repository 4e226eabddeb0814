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
 * The order of an encoded list's edges by target (edge numbers, by target position, then by number): what
 * EncodedEdges reads one target's edges from. Written beside the list (the list itself is in source order).
 */
export function edgesByTarget(numbers: readonly number[]): number[] {
  return Array.from({ length: numbers.length / 3 }, (_, k) => k).sort((a, b) => numbers[3 * a + 1]! - numbers[3 * b + 1]! || a - b);
}

/**
 * An encoded edge list (encodeEdges, sorted by source as the registry sorts its edges) with its order by
 * target (edgesByTarget), read as asked: the edges of one source or one target are found by binary
 * search and made then, each once, so that a command that shows one entity makes its few edges, not the
 * atlas's thousands, and runs no loop over them all (a loop over thousands costs a fresh process a
 * millisecond on Node 24, which compiles it while it runs).
 */
export class EncodedEdges {
  readonly length: number;
  private readonly made: Array<Edge | undefined>;

  constructor(
    private readonly numbers: readonly number[],
    private readonly byTarget: readonly number[],
    /** The entities' IDs by position (the numbers' positions). */
    private readonly ids: readonly string[],
    /** What went wrong, when an edge does not decode. */
    private readonly damaged: () => Error,
  ) {
    if (!Array.isArray(numbers) || numbers.length % 3 !== 0 || !Array.isArray(byTarget) || byTarget.length !== numbers.length / 3)
      throw damaged();
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
    // By source, the j-th edge searched is edge j; by target, edge byTarget[j]. Written out, not as
    // closures: this runs for every entity a command reads the edges of.
    const bySource = end === 'source';
    const offset = bySource ? 0 : 1;
    const { numbers, byTarget } = this;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (numbers[3 * (bySource ? mid : byTarget[mid]!) + offset]! < position) lo = mid + 1;
      else hi = mid;
    }
    const out: Edge[] = [];
    for (let j = lo; j < this.length; j++) {
      const k = bySource ? j : byTarget[j]!;
      if (numbers[3 * k + offset] !== position) break;
      out.push(this.edge(k));
    }
    return out;
  }
}
