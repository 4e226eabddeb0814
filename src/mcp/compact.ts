// Keeping tool results compact: capped lists that say they were cut and how to get the rest, and a
// summary form without per-item annotations. Every compacted result still matches its output schema:
// only optional fields are dropped, and `truncated` is part of the schema.
import { z } from 'zod';
import { Truncation } from '../analysis/schemas.ts';

// The shape of a cut list is the analysis layer's (it bounds the lists that grow with the atlas): one shape for both.
export { Truncation };

const TruncatedLists = z.array(Truncation).optional().describe('Present when lists were cut short; each entry says how to get the rest');

/** The output schema of a tool whose lists may be cut: the analysis result plus `truncated_lists`. */
export function withTruncation<Shape extends z.core.$ZodShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
): z.ZodObject<z.util.Extend<Shape, { truncated_lists: typeof TruncatedLists }>, Config> {
  return schema.extend({ truncated_lists: TruncatedLists }) as never;
}

/** The first `max` items of a list, recording the cut in `truncated` when there was one. */
export function capList<T>(list: readonly T[], max: number, path: string, truncated: Truncation[], how: string): T[] {
  if (list.length <= max) return [...list];
  truncated.push({ list: path, shown: max, total: list.length, more: `${list.length - max} more: ${how}.` });
  return list.slice(0, max);
}

/** A deep copy without the given (optional) keys, wherever they occur. */
export function summaryOnly<T>(value: T, keys: readonly string[]): T {
  const drop = new Set(keys);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !drop.has(k))
          .map(([k, x]) => [k, walk(x)]),
      );
    }
    return v;
  };
  return walk(value) as T;
}
