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

/** The edges of encodeEdges, as the registry derives them (the same keys in the same order), or undefined when malformed. */
export function decodeEdges(numbers: readonly number[], ids: readonly string[]): Edge[] | undefined {
  if (!Array.isArray(numbers) || numbers.length % 3 !== 0) return undefined;
  const edges = new Array<Edge>(numbers.length / 3);
  for (let i = 0, k = 0; i < numbers.length; i += 3, k++) {
    const source = ids[numbers[i]!];
    const target = ids[numbers[i + 1]!];
    const code = numbers[i + 2]!;
    const relation = RELATIONS[code >> 3];
    if (source === undefined || target === undefined || relation === undefined) return undefined;
    const edge: Edge = { source, target, relation };
    if ((code & 7) !== 0) edge.fidelity = FIDELITIES[(code & 7) - 1]!;
    edges[k] = edge;
  }
  return edges;
}
