// Tool output schemas sized for an assistant's context (issue 11, item 8: tools/list was 88 KB, 73 KB of it
// output schemas). Each is derived from a zod schema (z.toJSONSchema, never written by hand), once per
// process, and made compact:
//   - it describes the shape of a result: property names, types, enums and constants, and at the root the
//     fields always present (nested presence differs between a summary and detail "full"). Per-field
//     descriptions are dropped (each tool's description says what its result holds), and so are content
//     rules (patterns, lengths, bounds), which the atlas validator and the published JSON Schemas
//     (/schemas/<kind>.schema.json) enforce. A long vocabulary (stages, kinds, relations) is a string:
//     get_methodology lists its values with their meanings;
//   - objects are open (no `additionalProperties: false`), so a tool can advertise the shape of its summary
//     and return the same objects with more fields when asked for detail "full";
//   - every subschema that occurs more than once (an entity reference, a list of IDs, a status…) is
//     written once under `$defs` and referenced with `$ref`.
// Every result a tool returns validates against what it advertises: the SDK checks it with `opened(shape)`,
// the zod form of the same rules, and the tests check it with a JSON Schema validator.
import { z } from 'zod';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keywords dropped below the root: annotations and content rules. */
const DROPPED = new Set([
  'description',
  '$comment',
  'default',
  'examples',
  'title',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
]);

/**
 * A vocabulary longer than this (stages, kinds, relations, mechanism families) is advertised as a plain
 * string: get_methodology lists its values with their meanings, and the input schemas list the stages.
 */
const LONG_ENUM = 6;

function simplify(value: Json, depth: number): Json {
  if (Array.isArray(value)) return value.map((v) => simplify(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (depth > 0 && DROPPED.has(key)) continue;
    if (key === 'additionalProperties' && v === false) continue;
    // Only the root says which fields are always present: nested presence differs between summary and full.
    if (key === 'required' && depth > 0) continue;
    if (key === 'enum' && Array.isArray(v) && v.length > LONG_ENUM) continue;
    // Under properties and $defs the keys are names, not keywords: keep every one.
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(v as JsonObject).map(([name, s]) => [name, simplify(s, depth + 1)]));
    } else {
      out[key] = simplify(v, depth + 1);
    }
  }
  return out;
}

/** Canonical text of a JSON value (sorted keys), memoised per object: subschemas are compared by it. */
function canonicalizer() {
  const memo = new WeakMap<object, string>();
  const canonical = (v: Json): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    const known = memo.get(v);
    if (known !== undefined) return known;
    const text = Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
          .join(',')}}`;
    memo.set(v, text);
    return text;
  };
  return canonical;
}

const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not']);

/** Calls `fn` on every subschema below the root, with the path of keys that leads to it. */
function eachSubschema(root: JsonObject, fn: (schema: JsonObject, path: string[]) => void): void {
  const visit = (v: Json, path: string[]): void => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    if (path.length > 0) fn(v, path);
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'properties' || k === '$defs') && x && typeof x === 'object') {
        for (const [name, s] of Object.entries(x)) visit(s as Json, [...path, k, name]);
      } else if (SCHEMA_VALUES.has(k)) visit(x, [...path, k]);
      else if (SCHEMA_LISTS.has(k) && Array.isArray(x))
        x.forEach((s, i) => {
          visit(s, [...path, k, String(i)]);
        });
    }
  };
  visit(root, []);
}

/** A readable name for a hoisted subschema: what it is when that is plain, else the property it was first found under. */
function nameFor(schema: JsonObject, path: string[], taken: Set<string>): string {
  const items = schema['items'] as JsonObject | undefined;
  const props = schema['properties'] as JsonObject | undefined;
  const plain =
    schema['type'] === 'array' && items && Object.keys(items).length === 1 && typeof items['type'] === 'string'
      ? `${items['type']}_list`
      : props && 'id' in props && 'title' in props && Object.keys(props).length <= 4
        ? 'ref'
        : undefined;
  const named = path.filter(
    (p) => !['items', 'properties', '$defs', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].includes(p) && !/^\d+$/.test(p),
  );
  const last = (named.at(-1) ?? 'def').replace(/[^A-Za-z0-9_]/g, '_');
  const base = path.at(-1) === 'items' && /[^s]s$/.test(last) ? last.slice(0, -1) : last;
  let name = plain ?? base;
  for (let i = 2; taken.has(name); i++) name = `${plain ?? base}_${i}`;
  taken.add(name);
  return name;
}

/** Writes every repeated subschema once under $defs: the one saving the most bytes first, while any saves. */
function hoistRepeats(schema: JsonObject): JsonObject {
  // Definitions zod already wrote (recursive or named schemas) are kept under their names.
  const { $defs: existing, ...body } = schema;
  const defs: JsonObject = { ...((existing as JsonObject | undefined) ?? {}) };
  const taken = new Set(Object.keys(defs));
  const canonical = canonicalizer();
  let root: JsonObject = body;
  for (;;) {
    const seen = new Map<string, { count: number; path: string[]; value: JsonObject }>();
    const count = (s: JsonObject, path: string[]) => {
      if ('$ref' in s) return;
      const key = canonical(s);
      const entry = seen.get(key);
      if (entry) entry.count++;
      else seen.set(key, { count: 1, path, value: s });
    };
    eachSubschema(root, count);
    for (const d of Object.values(defs)) eachSubschema({ properties: { d } }, count);
    let best: { key: string; path: string[]; value: JsonObject } | undefined;
    let bestSaving = 0;
    for (const [key, e] of seen) {
      // Each occurrence becomes {"$ref":"#/$defs/<name>"} (about 25 bytes); the definition is written once.
      const saving = (key.length - 25) * e.count - key.length - 10;
      if (e.count > 1 && saving > bestSaving) [best, bestSaving] = [{ key, path: e.path, value: e.value }, saving];
    }
    if (!best) break;
    const name = nameFor(best.value, best.path, taken);
    const ref: JsonObject = { $ref: `#/$defs/${name}` };
    // Unchanged subtrees keep their identity, so their canonical text stays memoised.
    const replace = (v: Json, top: boolean): Json => {
      if (v === null || typeof v !== 'object') return v;
      if (!top && !Array.isArray(v) && canonical(v) === best.key) return ref;
      if (!canonical(v).includes(best.key)) return v;
      if (Array.isArray(v)) return v.map((x) => replace(x, false));
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x, false)]));
    };
    root = replace(root, true) as JsonObject;
    for (const [n, d] of Object.entries(defs)) defs[n] = replace(d, true);
    defs[name] = best.value;
  }
  if (Object.keys(defs).length === 0) return root;
  return { ...root, $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/** The compact JSON Schema of a zod schema, as a tool advertises its output (the dialect is MCP's default, 2020-12). */
function compactJsonSchema(schema: z.ZodType): JsonObject {
  const { $schema: _dialect, ...full } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  }) as JsonObject;
  return hoistRepeats(simplify(full, 0) as JsonObject);
}

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[] };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The same schema with every object open (unknown keys allowed and stripped), as the compact JSON Schema
 * advertises it: a full result validates against the shape of its summary.
 */
export function opened<S extends z.ZodType>(schema: S, options: { enumsAsStrings?: boolean } = {}): S {
  const def = defOf(schema);
  const open = (s: z.ZodType): z.ZodType => {
    const d = defOf(s);
    switch (d.type) {
      case 'enum':
        return options.enumsAsStrings ? z.string() : s;
      case 'object':
        return z.object(Object.fromEntries(Object.entries(d.shape!).map(([k, v]) => [k, open(v)])));
      case 'array':
        return z.array(open(d.element!));
      case 'optional':
        return open(d.innerType!).optional();
      case 'nullable':
        return open(d.innerType!).nullable();
      case 'default':
        return open(d.innerType!);
      case 'union':
        return z.union(d.options!.map(open) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
      default:
        return s;
    }
  };
  const result = open(schema);
  return (schema.description !== undefined && def.type === 'object' ? result.describe(schema.description) : result) as S;
}

/**
 * A value reduced to the keys a schema declares, at every depth (a summary projection): what a summary
 * returns is exactly what its advertised shape names.
 */
export function projectTo<T>(schema: z.ZodType, value: unknown): T {
  return projector(schema)(value) as T;
}

type Projector = (value: unknown) => unknown;
const projectors = new WeakMap<z.ZodType, Projector>();
const same: Projector = (v) => v;

/** A schema's projection, compiled once: walking zod's definitions on every call costs more than the copy. */
function projector(schema: z.ZodType): Projector {
  const known = projectors.get(schema);
  if (known) return known;
  const d = defOf(schema);
  let project: Projector;
  // Set before compiling the parts, so that a recursive schema finds it.
  projectors.set(schema, (v) => project(v));
  switch (d.type) {
    case 'object': {
      const fields = Object.entries(d.shape!).map(([k, s]) => [k, projector(s)] as const);
      project = (v) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
        const out: Record<string, unknown> = {};
        for (const [k, p] of fields) if (Object.hasOwn(v, k)) out[k] = p((v as Record<string, unknown>)[k]);
        return out;
      };
      break;
    }
    case 'array': {
      const item = projector(d.element!);
      project = item === same ? same : (v) => (Array.isArray(v) ? v.map(item) : v);
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default': {
      const inner = projector(d.innerType!);
      project = inner === same ? same : (v) => (v === undefined || v === null ? v : inner(v));
      break;
    }
    default:
      project = same;
  }
  projectors.set(schema, project);
  return project;
}

/**
 * A value built on first use and kept: zod schemas cost time to construct (each extend, pick and object
 * merges definitions), and a server answers its first call sooner when it builds only the tool asked for.
 */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * Which arguments a tool needs, beyond the zod object's own rules: `exactlyOne` of some (a JSON Schema
 * `oneOf`), or `atLeastOne` (`anyOf`). The tool checks it itself and says what is missing in words; the
 * JSON Schema states it for a client that reads the schema.
 */
export interface ArgumentRule {
  /** An entry that is a list is one way in through any of its arguments (advertised as their anyOf). */
  exactlyOne?: ReadonlyArray<string | readonly string[]>;
  atLeastOne?: readonly string[];
}

/**
 * A tool input schema for the SDK: the zod schema (built on first use) validates and parses, defaults
 * included, and its JSON Schema, with every description and bound (and `rule` as oneOf or anyOf), is
 * computed once instead of on every tools/list.
 */
export function inputSchemaOf<S extends z.ZodObject>(
  schema: () => S,
  rule: ArgumentRule = {},
): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const advertised = once(() => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema(), { target: 'draft-2020-12', io: 'input' }) as JsonObject;
    if (rule.exactlyOne)
      rest['oneOf'] = rule.exactlyOne.map(
        (name): JsonObject => (typeof name === 'string' ? { required: [name] } : { anyOf: name.map((n) => ({ required: [n] })) }),
      );
    if (rule.atLeastOne) rest['anyOf'] = rule.atLeastOne.map((name) => ({ required: [name] }));
    return rest;
  });
  return {
    '~standard': {
      version: 1,
      vendor: 'hoba',
      validate: (value: unknown) => schema()['~standard'].validate(value),
      jsonSchema: { input: advertised, output: advertised },
    },
  } as unknown as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
}

/**
 * A tool output schema for the SDK: it validates with `opened(shape)` and advertises the compact JSON
 * Schema of `shape`; the shape is built on first use, and each of the two once (the SDK would otherwise
 * convert the zod schema on every tools/list).
 */
export function compactOutput<S extends z.ZodType>(shape: () => S): StandardSchemaWithJSON<z.output<S>, z.output<S>> {
  const advertised = once(() => compactJsonSchema(shape()));
  const validator = once(() => opened(shape()));
  return {
    '~standard': {
      version: 1,
      vendor: 'hoba',
      validate: (value: unknown) => validator()['~standard'].validate(value),
      jsonSchema: { input: advertised, output: advertised },
    },
  } as unknown as StandardSchemaWithJSON<z.output<S>, z.output<S>>;
}
