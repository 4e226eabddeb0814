// Graph algorithms over plain adjacency maps: strongly connected components and cycle paths.

export type Adjacency = ReadonlyMap<string, readonly string[]>;

/**
 * Tarjan's strongly connected components, iterative (content graphs may be deep). Components and their
 * members come out sorted, so results are deterministic.
 */
export function stronglyConnectedComponents(nodes: readonly string[], adj: Adjacency): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];

  for (const root of [...nodes].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = adj.get(frame.node) ?? [];
      if (frame.next < succ.length) {
        const w = succ[frame.next++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** Non-trivial components: two or more members, or one member with an edge to itself. */
export function cyclicComponents(nodes: readonly string[], adj: Adjacency): string[][] {
  return stronglyConnectedComponents(nodes, adj).filter((c) => c.length > 1 || (adj.get(c[0]!) ?? []).includes(c[0]!));
}

/**
 * A shortest cycle through `start` using only nodes in `within`, as a path that begins and ends with
 * `start` (e.g. [B-003, B-005, B-003]); undefined when there is none.
 */
export function cycleThrough(start: string, adj: Adjacency, within?: ReadonlySet<string>): string[] | undefined {
  const previous = new Map<string, string>();
  const queue: string[] = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of adj.get(node) ?? []) {
      if (within && !within.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) path.push(at);
        path.push(start);
        return [path[0]!, ...path.slice(1, -1).reverse(), start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/**
 * A shortest path from `from` to `to` using only nodes in `within` (both ends included, e.g. [M-004,
 * M-006]); undefined when `to` cannot be reached.
 */
export function shortestPath(from: string, to: string, adj: Adjacency, within?: ReadonlySet<string>): string[] | undefined {
  if (from === to) return [from];
  const previous = new Map<string, string>([[from, from]]);
  const queue: string[] = [from];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of adj.get(node) ?? []) {
      if ((within && !within.has(next)) || previous.has(next)) continue;
      previous.set(next, node);
      if (next === to) {
        const path = [to];
        for (let at = node; at !== from; at = previous.get(at)!) path.push(at);
        path.push(from);
        return path.reverse();
      }
      queue.push(next);
    }
  }
  return undefined;
}
