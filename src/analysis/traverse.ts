// The neighbourhood of an entity: a breadth-first walk over the typed edges, to a bounded depth.
import { RELATIONS, type Relation } from '../model/vocab.ts';
import { compareIds, type Registry } from '../registry/registry.ts';
import { AnalysisError, refById, refOf, resolveEntity, sortedIds } from './resolve.ts';
import type { Neighbourhood } from './schemas.ts';
import { DIRECTIONS, MAX_DEPTH, type Direction } from './terms.ts';

export interface TraverseOptions {
  /** Steps from the root, 1 to MAX_DEPTH (default 1). */
  depth?: number;
  /** Follow edges out of, into, or both ways from each node (default both). */
  direction?: Direction;
  /** Relations to follow (default every relation but `cites`, which would pull in every source). */
  relations?: readonly string[];
  /** Most nodes to return, root included (default 200). */
  limit?: number;
}

export const DEFAULT_NODE_LIMIT = 200;

export function traverse(reg: Registry, id: string, options: TraverseOptions = {}): Neighbourhood {
  const root = resolveEntity(reg, id);
  const depth = options.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
    throw new AnalysisError('invalid-argument', `depth must be a whole number from 1 to ${MAX_DEPTH}, not ${depth}.`);
  }
  const direction = options.direction ?? 'both';
  if (!DIRECTIONS.includes(direction)) {
    throw new AnalysisError('invalid-argument', `direction must be one of: ${DIRECTIONS.join(', ')}.`, [], [...DIRECTIONS]);
  }
  const limit = options.limit ?? DEFAULT_NODE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new AnalysisError('invalid-argument', `limit must be a positive whole number, not ${limit}.`);
  for (const r of options.relations ?? []) {
    if (!(RELATIONS as readonly string[]).includes(r)) {
      throw new AnalysisError('invalid-argument', `"${r}" is not a relation. Use one of: ${RELATIONS.join(', ')}.`, [], [...RELATIONS]);
    }
  }
  const relations: Relation[] =
    options.relations && options.relations.length > 0
      ? RELATIONS.filter((r) => options.relations!.includes(r))
      : RELATIONS.filter((r) => r !== 'cites' || root.kind === 'source');
  const follow = new Set<Relation>(relations);

  const distance = new Map<string, number>([[root.id, 0]]);
  let frontier = [root.id];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length > 0 && !truncated; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      const neighbours = [
        ...(direction !== 'in'
          ? reg
              .outgoing(id)
              .filter((e) => follow.has(e.relation))
              .map((e) => e.target)
          : []),
        ...(direction !== 'out'
          ? reg
              .incoming(id)
              .filter((e) => follow.has(e.relation))
              .map((e) => e.source)
          : []),
      ].sort(compareIds);
      for (const n of neighbours) {
        if (distance.has(n)) continue;
        if (distance.size >= limit) {
          truncated = true;
          break;
        }
        distance.set(n, d);
        next.push(n);
      }
      if (truncated) break;
    }
    frontier = next;
  }

  const nodes = [...distance]
    .sort((a, b) => a[1] - b[1] || compareIds(a[0], b[0]))
    .map(([n, dist]) => ({ ...refById(reg, n), distance: dist }));
  // The edges among the nodes, read from each node's own edges (not the atlas's whole list): nodes by ID,
  // each node's outgoing edges as the registry orders them, which is the registry's edge order.
  const edges = sortedIds(distance.keys()).flatMap((n) => reg.outgoing(n).filter((e) => follow.has(e.relation) && distance.has(e.target)));
  return { registry_version: reg.version, root: refOf(root), depth, direction, relations, nodes, edges, truncated };
}
