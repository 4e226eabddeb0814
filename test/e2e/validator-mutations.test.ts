// Validator mutation tests: random single corruptions, each planted in a fresh copy of the real atlas,
// must each be caught by the expected rule on the expected entity or file; benign edits (CRLF, a BOM,
// reordered keys, comments, Unicode prose, trailing whitespace) must change nothing. The e2e lane runs a
// seeded sample (up to 3 cases of each of the 33 classes and one of each benign edit, about 100); the full
// sweep (every class's count, several hundred, and the long counts of issue 27) is `npm run test:attacks`
// (test/attacks-validator.test.ts), or HOBA_MUTATION_FULL=1 here.
// Seeded: the seed is fixed so that runs are reproducible; set HOBA_SEED=<integer> to replay a reported
// failure or to explore other corruptions (another seed also samples other variants of each class).
// Every failure prints the seed and the planted corruption.
// ci: once (a sample of the long sweep; every rule it plants is also tested in the unit lane, which runs on every runtime).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseDocument, stringify } from 'yaml';
import { z } from 'zod';
import { KINDS, KIND_INFO, SCHEMAS, STAGES, type Entity, type Kind } from '../../src/model/index.ts';
import { writeSite } from '../../src/publish/build.ts';
import { buildAtlasSite, buildInfo } from '../../src/workflows/build.ts';
import { compareMirror } from '../../src/publish/parity.ts';
import { toSourceRecord } from '../../src/registry/bibliography.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { authorSurnames } from '../../src/registry/named-entities.ts';
import { referencesOf, type PathSegment, type Reference } from '../../src/registry/references.ts';
import type { Problem } from '../../src/registry/rules.ts';
import { validateAtlas } from '../../src/registry/validate.ts';
import { AtlasCopy, BIBLIOGRAPHY, ROOT, Rng, seedFromEnv } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

const SEED = seedFromEnv(20_251_010);
/** How many cases of each class, as a multiple of its count: 1 in the default lane. With HOBA_MUTATION_LONG=1
 * (test/attacks-validator.test.ts), a class with a `long` count has that many instead: 75 of each class of
 * issue 27 (525 in all) and 7 of each benign edit (56). */
const SCALE = Number(process.env['HOBA_MUTATION_SCALE'] ?? '1');
const LONG = process.env['HOBA_MUTATION_LONG'] === '1';
/** The full sweep (every class's count × SCALE), or the e2e lane's sample: SAMPLE of each corruption class
 * (all of a class with fewer) and one of each benign edit. The rules themselves are each tested in the unit
 * lane (test/unit/validate.test.ts); the sample keeps every class of corruption in every e2e run. */
const FULL = LONG || process.env['HOBA_MUTATION_FULL'] === '1';
const SAMPLE = { corruption: 3, benign: 1 };
if (!(SCALE > 0)) throw new Error(`HOBA_MUTATION_SCALE must be a positive number, not ${process.env['HOBA_MUTATION_SCALE']}`);

// ---------------------------------------------------------------------------------------------------
// The real atlas, read once: the catalogue targets are picked from (each case still gets a fresh copy)

// Only what the cases need is kept, not the load result: its parsed documents would stay on the heap and
// make every garbage collection of the run slower.
const { REG, BASELINE, FILE } = (() => {
  const real = loadAtlas(ROOT);
  return {
    REG: real.registry,
    BASELINE: validateAtlas(real, { bibliography: BIBLIOGRAPHY }),
    /** Checkout-relative file of every entity. */
    FILE: new Map(real.registry.entities.map((e) => [e.id, real.sourceMap.locate(e.id).file!])),
  };
})();
/** Each entity as written in its file (no schema defaults), so that edits target what is really there. */
const RAW = new Map(REG.entities.map((e) => [e.id, parse(readFileSync(join(ROOT, FILE.get(e.id)!), 'utf8')) as Record<string, unknown>]));
const ENTITIES = REG.entities;
const NON_SOURCES = ENTITIES.filter((e) => e.kind !== 'source');
const LOOPS = REG.all('loop');
const BARRIERS = REG.all('barrier');
const MECHANISMS = REG.all('mechanism');

const fileOf = (id: string) => FILE.get(id)!;
const textOf = (id: string) => readFileSync(join(ROOT, fileOf(id)), 'utf8');
const fileName = (file: string) => file.slice(file.lastIndexOf('/') + 1);
const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/'));
const show = (path: readonly PathSegment[]) =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A new ID of a kind that no entity holds. */
function freshId(r: Rng, kind: Kind): string {
  const prefix = KIND_INFO[kind].prefix;
  return r.next() < 0.8 ? `${prefix}-${900 + r.int(100)}` : `${prefix}-${1000 + r.int(9000)}`;
}

/** Every node of an entity's data with the schema that checks it (found by walking the zod schema). */
interface SchemaNode {
  path: PathSegment[];
  schema: z.ZodType;
  value: unknown;
  /** A key of a mapping whose schema rejects a missing value. */
  required: boolean;
}

/** The schema that checks a value, without its optional, default and nullable wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}

function* schemaNodes(schema: z.ZodType, value: unknown, path: PathSegment[] = [], required = false): Generator<SchemaNode> {
  const s = unwrap(schema);
  yield { path, schema: s, value, required };
  if (s instanceof z.ZodObject && isObject(value)) {
    for (const [key, sub] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      if (key in value) yield* schemaNodes(sub, value[key], [...path, key], !sub.safeParse(undefined).success);
    }
  } else if (s instanceof z.ZodArray && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* schemaNodes(s.element as z.ZodType, value[i], [...path, i]);
  }
}

const nodesOf = (e: Entity) => [...schemaNodes(SCHEMAS[e.kind], RAW.get(e.id))];

/** Prose: string values with a word followed by a space (titles, summaries, notes; not IDs, slugs or enums). */
const proseOf = (e: Entity) =>
  nodesOf(e).filter((n): n is SchemaNode & { value: string } => typeof n.value === 'string' && /\p{L} /u.test(n.value));

/** Reachability in a directed graph given as adjacency lists. */
function reaches(adj: (id: string) => readonly string[], from: string, to: string): boolean {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const next of adj(id)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** Members of the strongly connected component of `id` (itself included). */
function componentOf(ids: readonly string[], adj: (id: string) => readonly string[], id: string): string[] {
  return ids.filter((n) => n === id || (reaches(adj, id, n) && reaches(adj, n, id)));
}

const MECHANISM_IDS = MECHANISMS.map((m) => m.id);
const mechanismAdj = (extra?: [string, string]) => (id: string) => {
  const m = REG.get(id);
  const next = m?.kind === 'mechanism' ? [...m.amplifies, ...m.masks] : [];
  return extra && extra[0] === id ? [...next, extra[1]] : next;
};
const loopsOf = (m: string) => LOOPS.filter((l) => l.mechanisms.includes(m)).map((l) => l.id);

// ---------------------------------------------------------------------------------------------------
// Planted corruptions

interface Planted {
  /** The class it belongs to. */
  cls: string;
  /** What was planted, in words (printed on failure). */
  what: string;
  /** The rule that must report it. */
  rule: string;
  /** The problem must name one of these entities and point at that entity's file in the copy. */
  entities?: string[];
  /** The problem must point at this file (checkout-relative). */
  file?: string;
  /** The problem must carry this line, when the plant knows it. */
  line?: number;
  /** An atlas-wide problem: no entity, no file. */
  atlasWide?: true;
  /** Mirror drift: the check also compares the published site, as `hoba validate` does. */
  mirror?: true;
  plant(copy: AtlasCopy): void;
}

type Plan = Omit<Planted, 'cls'>;

interface MutationClass {
  cls: string;
  count: number;
  /** How many in the long run (HOBA_MUTATION_LONG=1, test/attacks-validator.test.ts), when not count × scale. */
  long?: number;
  /** Draws the i-th case of the class. */
  make(r: Rng, i: number): Plan;
}

/** Every reference field of the atlas (computed from references.ts), as "kind field[]" → its references.
 * superseded_by is a reference field of every kind though no entity uses it yet: it is included by
 * asking references.ts about each entity with a successor set. */
const REFERENCE_FIELDS = (() => {
  const fields = new Map<string, Reference[]>();
  for (const e of NON_SOURCES) {
    for (const ref of referencesOf({ ...e, superseded_by: e.id } as Entity)) {
      const key = `${e.kind} ${ref.path
        .map((p) => (typeof p === 'number' ? '[]' : `.${p}`))
        .join('')
        .slice(1)}`;
      fields.set(key, [...(fields.get(key) ?? []), ref]);
    }
  }
  return fields;
})();
const REFERENCE_FIELD_NAMES = [...REFERENCE_FIELDS.keys()].sort();

/** Sets a reference; a successor also needs the entity deprecated, or it would be a different problem. */
function setReference(copy: AtlasCopy, ref: Reference, target: string): void {
  if (ref.path[0] === 'superseded_by') copy.set(ref.holder, ['status'], 'deprecated');
  copy.set(ref.holder, ref.path, target);
}

/** A reference of the i-th field: each class covers every field once. */
function pickReference(r: Rng, i: number): Reference {
  return r.pick(REFERENCE_FIELDS.get(REFERENCE_FIELD_NAMES[i]!)!);
}

const danglingReference: MutationClass = {
  cls: 'dangling-reference',
  count: REFERENCE_FIELD_NAMES.length,
  make(r, i) {
    const ref = pickReference(r, i);
    const missing = freshId(r, r.pick(ref.allowed));
    return {
      what: `${ref.holder} ${show(ref.path)}: ${ref.target} → ${missing}, which does not exist`,
      rule: 'dangling-reference',
      entities: [ref.holder],
      plant: (c) => setReference(c, ref, missing),
    };
  },
};

const wrongKindReference: MutationClass = {
  cls: 'wrong-kind-reference',
  count: REFERENCE_FIELD_NAMES.length,
  make(r, i) {
    const ref = pickReference(r, i);
    const kind = r.pick(KINDS.filter((k) => !ref.allowed.includes(k)));
    const target = r.pick(REG.all(kind)).id;
    return {
      what: `${ref.holder} ${show(ref.path)}: ${ref.target} → ${target}, a ${kind} (allowed: ${ref.allowed.join(', ')})`,
      rule: 'wrong-kind-reference',
      entities: [ref.holder],
      plant: (c) => setReference(c, ref, target),
    };
  },
};

const barrierAdj = (extra?: [string, string]) => (id: string) => {
  const b = REG.get(id);
  const next = b?.kind === 'barrier' ? b.precedes : [];
  return extra && extra[0] === id ? [...next, extra[1]] : next;
};
const BARRIER_IDS = BARRIERS.map((b) => b.id);

const barrierCycle: MutationClass = {
  cls: 'barrier-cycle',
  count: 9,
  make(r) {
    // y precedes x although x already leads to y: the funnel gets a cycle through every barrier between.
    const pairs = BARRIER_IDS.flatMap((x) => BARRIER_IDS.filter((y) => y !== x && reaches(barrierAdj(), x, y)).map((y) => [x, y] as const));
    const [x, y] = r.pick(pairs);
    const precedes = [...((RAW.get(y)!['precedes'] as string[] | undefined) ?? [])];
    precedes.splice(r.int(precedes.length + 1), 0, x);
    return {
      what: `${y} precedes ${x} (${x} already leads to ${y})`,
      rule: 'barrier-cycle',
      entities: componentOf(BARRIER_IDS, barrierAdj([y, x]), x),
      plant: (c) => c.set(y, ['precedes'], precedes),
    };
  },
};

const barrierOrder: MutationClass = {
  cls: 'barrier-order',
  count: 9,
  make(r) {
    const b = r.pick(BARRIERS.filter((x) => x.precedes.length > 0));
    const t = REG.get(r.pick(b.precedes))!;
    if (t.kind !== 'barrier') throw new Error(`${t.id} is not a barrier`);
    const later = STAGES.slice(STAGES.indexOf(t.stage) + 1);
    const earlier = STAGES.slice(0, STAGES.indexOf(b.stage));
    const variants: Array<() => Plan> = [
      () => {
        const order = t.order + r.int(3);
        return {
          what: `${b.id}.order ${b.order} → ${order}, not below ${t.id}'s ${t.order}`,
          rule: 'barrier-order',
          entities: [b.id],
          plant: (c) => c.set(b.id, ['order'], order),
        };
      },
      () => {
        const order = Math.max(1, b.order - r.int(2));
        return {
          what: `${t.id}.order ${t.order} → ${order}, not above ${b.id}'s ${b.order}`,
          rule: 'barrier-order',
          entities: [b.id],
          plant: (c) => c.set(t.id, ['order'], order),
        };
      },
    ];
    if (later.length > 0) {
      variants.push(() => {
        const stage = r.pick(later);
        return {
          what: `${b.id}.stage ${b.stage} → ${stage}, after ${t.id}'s ${t.stage}`,
          rule: 'barrier-order',
          entities: [b.id],
          plant: (c) => c.set(b.id, ['stage'], stage),
        };
      });
    }
    if (earlier.length > 0) {
      variants.push(() => {
        const stage = r.pick(earlier);
        return {
          what: `${t.id}.stage ${t.stage} → ${stage}, before ${b.id}'s ${b.stage}`,
          rule: 'barrier-order',
          entities: [b.id],
          plant: (c) => c.set(t.id, ['stage'], stage),
        };
      });
    }
    return r.pick(variants)();
  },
};

/** Mechanism edges u → v that would close a new cycle (v already reaches u), with the cycle's component.
 * Pairs sharing a loop are left out: whether a new edge inside one declared loop is accounted for by it
 * is a question of that loop's edges, not of an undeclared cycle. */
const NEW_CYCLES = MECHANISM_IDS.flatMap((u) =>
  MECHANISM_IDS.filter((v) => v !== u && !mechanismAdj()(u).includes(v) && reaches(mechanismAdj(), v, u))
    .filter((v) => !loopsOf(u).some((l) => loopsOf(v).includes(l)))
    .map((v) => ({ u, v, component: componentOf(MECHANISM_IDS, mechanismAdj([u, v]), u) })),
);

function newCycle(r: Rng, cycles: typeof NEW_CYCLES, how: string): Plan {
  const { u, v, component } = r.pick(cycles);
  const relation = r.pick(['amplifies', 'masks'] as const);
  const list = [...((RAW.get(u)![relation] as string[] | undefined) ?? [])];
  list.splice(r.int(list.length + 1), 0, v);
  return {
    what: `${u} ${relation} ${v} (${v} already reaches ${u}; the cycle's component {${component.join(', ')}} ${how})`,
    rule: 'loop-undeclared-cycle',
    entities: component,
    plant: (c) => c.set(u, [relation], list),
  };
}

const undeclaredCycle: MutationClass = {
  cls: 'loop-undeclared-cycle',
  count: 9,
  make: (r) =>
    newCycle(
      r,
      NEW_CYCLES.filter((k) => k.component.some((m) => loopsOf(m).length === 0)),
      'holds a mechanism no loop holds',
    ),
};

const cycleThroughTwoLoops: MutationClass = {
  cls: 'loop-undeclared-cycle through two loops',
  count: 9,
  make: (r) =>
    newCycle(
      r,
      NEW_CYCLES.filter((k) => k.component.every((m) => loopsOf(m).length > 0)),
      'lies within several loops, none of which declares the cycle',
    ),
};

/** Whether a loop's declared edges connect all of its members both ways. */
function edgesClose(mechanisms: readonly string[], edges: ReadonlyArray<{ from: string; to: string }>): boolean {
  const adj = (id: string) => edges.filter((e) => e.from === id).map((e) => e.to);
  return mechanisms.every((m) => m === mechanisms[0] || (reaches(adj, mechanisms[0]!, m) && reaches(adj, m, mechanisms[0]!)));
}

const loopEdgeRepeated: MutationClass = {
  cls: 'loop-declaration repeated edge',
  count: 9,
  make(r) {
    const loop = r.pick(LOOPS);
    const edges = RAW.get(loop.id)!['edges'] as Array<Record<string, string>>;
    const i = r.int(edges.length);
    const edge = edges[i]!;
    const shown = `${edge['from']} ${edge['relation']} ${edge['to']}`;
    if (r.next() < 0.5) {
      const at = r.int(edges.length + 1);
      const next = [...edges];
      next.splice(at, 0, { ...edge });
      return {
        what: `${loop.id} lists the edge ${shown} twice`,
        rule: 'loop-declaration',
        entities: [loop.id],
        plant: (c) => c.set(loop.id, ['edges'], next),
      };
    }
    const j = (i + 1 + r.int(edges.length - 1)) % edges.length;
    const next = edges.map((e, k) => (k === j ? { ...edge } : e));
    return {
      what: `${loop.id} edges[${j}] replaced by a repeat of ${shown}`,
      rule: 'loop-declaration',
      entities: [loop.id],
      plant: (c) => c.set(loop.id, ['edges'], next),
    };
  },
};

const loopEdgesOpen: MutationClass = {
  cls: 'loop-declaration edges do not close',
  count: 9,
  make(r) {
    const candidates = LOOPS.flatMap((l) =>
      l.edges.length > 2
        ? l.edges
            .map((_, i) => ({ l, i }))
            .filter(
              ({ i }) =>
                !edgesClose(
                  l.mechanisms,
                  l.edges.filter((_, k) => k !== i),
                ),
            )
        : [],
    );
    const { l, i } = r.pick(candidates);
    const e = l.edges[i]!;
    return {
      what: `${l.id} loses edges[${i}] (${e.from} ${e.relation} ${e.to}); the rest do not close the cycle`,
      rule: 'loop-declaration',
      entities: [l.id],
      plant: (c) => c.remove(l.id, ['edges', i]),
    };
  },
};

const duplicateId: MutationClass = {
  cls: 'duplicate-id',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const file = fileOf(e.id);
    const copyName = `${e.id}-${r.pick(['copy', 'zz-duplicate', 'again', '0-first', 'a'])}.yaml`;
    const copyFile = `${dirOf(file)}/${copyName}`;
    // The loader reads a directory in sorted order: the file read second is the duplicate.
    const second = [fileName(file), copyName].sort()[1] === copyName ? copyFile : file;
    return {
      what: `${fileName(file)} copied to ${copyName}`,
      rule: 'duplicate-id',
      entities: [e.id],
      file: second,
      plant: (c) => c.write(copyFile, textOf(e.id)),
    };
  },
};

const fileNameMismatch: MutationClass = {
  cls: 'file-name',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const file = fileOf(e.id);
    const slug = fileName(file).slice(e.id.length + 1, -'.yaml'.length);
    const variant = r.int(3);
    if (variant === 0) {
      const renamed = r.pick([`${slug}.yaml`, `${e.id.toLowerCase()}-${slug}.yaml`, `${e.id}_${slug}.yaml`, `${e.id}0-${slug}.yaml`]);
      const to = `${dirOf(file)}/${renamed}`;
      return {
        what: `${fileName(file)} renamed ${renamed}`,
        rule: 'file-name',
        entities: [e.id],
        file: to,
        plant: (c) => renameSync(join(c.dir, file), join(c.dir, to)),
      };
    }
    if (variant === 1) {
      const id = freshId(r, e.kind);
      return {
        what: `id ${e.id} → ${id} inside ${fileName(file)}`,
        rule: 'file-name',
        entities: [id],
        file,
        plant: (c) => c.set(e.id, ['id'], id),
      };
    }
    const to = file.replace(/\.yaml$/, '.yml');
    return {
      what: `${fileName(file)} renamed .yml`,
      rule: 'file-name',
      file: to,
      plant: (c) => renameSync(join(c.dir, file), join(c.dir, to)),
    };
  },
};

const badEnum: MutationClass = {
  cls: 'schema bad enum value',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const node = r.pick(nodesOf(e).filter((n) => n.schema instanceof z.ZodEnum));
    const allowed = (node.schema as z.ZodEnum).options as string[];
    const v = String(node.value);
    const bad = r.pick(
      [v.toUpperCase(), `${v}s`, v.replace(/-/g, '_'), `${v[0]!.toUpperCase()}${v.slice(1)}`, 'unknown', '', 'n/a'].filter(
        (x) => !allowed.includes(x),
      ),
    );
    return {
      what: `${e.id} ${show(node.path)}: ${JSON.stringify(v)} → ${JSON.stringify(bad)}`,
      rule: 'schema',
      entities: [e.id],
      plant: (c) => c.set(e.id, node.path, bad),
    };
  },
};

const unknownKey: MutationClass = {
  cls: 'schema unknown key',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const node = r.pick(nodesOf(e).filter((n) => n.schema instanceof z.ZodObject && isObject(n.value)));
    const shape = (node.schema as z.ZodObject).shape as Record<string, unknown>;
    const key = r.pick(
      ['colour', 'summery', 'Title', 'notes', 'x-extra', 'evidence', 'weight', 'links', 'ID', 'source'].filter((k) => !(k in shape)),
    );
    const value = r.pick<unknown>(['blue', 3, ['x'], { a: 1 }, true]);
    return {
      what: `${e.id} ${show([...node.path, key])}: ${JSON.stringify(value)} added`,
      rule: 'schema',
      entities: [e.id],
      plant: (c) => c.set(e.id, [...node.path, key], value),
    };
  },
};

/** Top-level fields whose absence is reported under a rule of their own (the loader's FIELD_RULES). */
const OWN_RULE: Record<string, string> = {
  'artifact non_inferences': 'artifact-non-inferences',
  'artifact probes': 'artifact-probes',
  'pattern non_inferences': 'pattern-non-inferences',
  'pattern establishes': 'pattern-non-inferences',
  'mechanism operates_at': 'mechanism-relations',
  'mechanism emits': 'mechanism-relations',
  'intervention targets': 'intervention-targets',
  'intervention measurements': 'intervention-measurements',
  'intervention expected_effects': 'intervention-measurements',
};

const requiredRemoved: MutationClass = {
  cls: 'required field removed',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const node = r.pick(nodesOf(e).filter((n) => n.required));
    const what = `${e.id} ${show(node.path)} removed`;
    const plant = (c: AtlasCopy) => c.remove(e.id, node.path);
    // Without an ID the file declares no entity, so only the file can be named.
    if (node.path.length === 1 && node.path[0] === 'id') return { what, rule: 'schema', file: fileOf(e.id), plant };
    const rule = (node.path.length === 1 && OWN_RULE[`${e.kind} ${String(node.path[0])}`]) || 'schema';
    return { what, rule, entities: [e.id], plant };
  },
};

/** Indexes of the lines holding a top-level key with its whole value on the same line. */
function singleLineKeys(lines: readonly string[]): number[] {
  return lines.flatMap((l, i) =>
    /^[a-z_]+: (?![>|])\S/.test(l) && (i + 1 === lines.length || /^[a-z_]+:/.test(lines[i + 1]!) || lines[i + 1] === '') ? [i] : [],
  );
}

const undefinedAlias: MutationClass = {
  cls: 'yaml-syntax undefined alias',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const lines = textOf(e.id).split('\n');
    const items = lines.flatMap((l, i) => (/^\s*- [A-Z]-\d+$/.test(l) ? [i] : []));
    const keys = singleLineKeys(lines);
    const i = r.pick(items.length > 0 && r.next() < 0.4 ? items : keys);
    const alias = `*${r.pick(['nowhere', 'missing', 'a1', 'ref'])}`;
    const line = lines[i]!.replace(/^(\s*- |[a-z_]+: ).*$/, `$1${alias}`);
    const text = [...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n');
    return {
      what: `${fileOf(e.id)}:${i + 1} "${lines[i]}" → "${line}"`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      line: i + 1,
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

const aliasBomb: MutationClass = {
  cls: 'yaml-syntax alias bomb',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const depth = 6 + r.int(4);
    const fan = 5 + r.int(6);
    const bomb = [`x_bomb0: &b0 [${Array(fan).fill('lol').join(', ')}]`];
    for (let d = 1; d <= depth; d++)
      bomb.push(
        `x_bomb${d}: &b${d} [${Array(fan)
          .fill(`*b${d - 1}`)
          .join(', ')}]`,
      );
    const text = `${textOf(e.id).replace(/\n*$/, '\n')}${bomb.join('\n')}\n`;
    return {
      what: `${fileOf(e.id)}: an alias bomb of ${fan}^${depth + 1} nodes appended`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

const syntaxError: MutationClass = {
  cls: 'yaml-syntax malformed',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const lines = textOf(e.id).split('\n');
    const at = r.pick(lines.flatMap((l, i) => (/^[a-z_]+:/.test(l) ? [i] : [])));
    const bad = r.pick([
      'x_bad: [unclosed',
      'x_bad: "unterminated',
      "x_bad: 'unterminated",
      'x_bad: {a: 1',
      'x_bad: a: b',
      'x_bad:\n\t- tab indented',
      'x_bad: ]',
    ]);
    const text = [...lines.slice(0, at), bad, ...lines.slice(at)].join('\n');
    return {
      what: `${fileOf(e.id)}:${at + 1} ${JSON.stringify(bad)} inserted`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

/** Where to insert a character into the prose of an entity: right after a word, in its file's text. */
function prosePosition(r: Rng, e: Entity): { offset: number; line: number; path: PathSegment[] } {
  const text = textOf(e.id);
  const node = r.pick(proseOf(e));
  const range = (parseDocument(text).getIn(node.path, true) as { range?: [number, number, number] }).range!;
  const offsets: number[] = [];
  for (let i = range[0] + 1; i < range[1]; i++) if (text[i] === ' ' && /\p{L}/u.test(text[i - 1]!)) offsets.push(i);
  const offset = r.pick(offsets);
  return { offset, line: text.slice(0, offset).split('\n').length, path: node.path };
}

const controlCharacter: MutationClass = {
  cls: 'text-encoding control character',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const { offset, line, path } = prosePosition(r, e);
    const ch = r.pick(['\u0000', '\u0001', '\u0007', '\u0008', '\u000B', '\u000C', '\u001B', '\u007F', '\u009B', '\uFFFE', '\uFFFF']);
    const text = textOf(e.id);
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return {
      what: `${code} inserted in ${e.id} ${show(path)} (${fileOf(e.id)}:${line})`,
      rule: 'text-encoding',
      file: fileOf(e.id),
      line,
      plant: (c) => c.write(fileOf(e.id), text.slice(0, offset) + ch + text.slice(offset)),
    };
  },
};

const invalidUtf8: MutationClass = {
  cls: 'text-encoding invalid UTF-8',
  count: 9,
  make(r) {
    const e = r.pick(ENTITIES);
    const { offset, line, path } = prosePosition(r, e);
    const bad = r.pick([[0xff], [0xfe], [0xc3], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82]]);
    const text = textOf(e.id);
    const bytes = Buffer.concat([Buffer.from(text.slice(0, offset)), Buffer.from(bad), Buffer.from(text.slice(offset))]);
    return {
      what: `bytes ${bad.map((b) => b.toString(16)).join(' ')} inserted in ${e.id} ${show(path)} (${fileOf(e.id)}:${line})`,
      rule: 'text-encoding',
      file: fileOf(e.id),
      line,
      plant: (c) => writeFileSync(join(c.dir, fileOf(e.id)), bytes),
    };
  },
};

const evidenceUnsourced: MutationClass = {
  cls: 'evidence-unsourced',
  count: 9,
  make(r) {
    const withLevel = NON_SOURCES.filter((e) => 'evidence_level' in e);
    const sourced = withLevel.filter(
      (e) => 'evidence_level' in e && ['supported', 'established'].includes(e.evidence_level) && e.sources.length > 0,
    );
    const unsourced = withLevel.filter((e) => e.sources.length === 0);
    const e = r.pick([...sourced, ...unsourced]);
    if (e.sources.length > 0) {
      const remove = r.next() < 0.5;
      return {
        what: `${e.id} (${'evidence_level' in e ? e.evidence_level : ''}) loses its ${e.sources.length} sources (${remove ? 'key removed' : 'emptied'})`,
        rule: 'evidence-unsourced',
        entities: [e.id],
        plant: (c) => (remove ? c.remove(e.id, ['sources']) : c.set(e.id, ['sources'], [])),
      };
    }
    const level = r.pick(['supported', 'established']);
    return {
      what: `${e.id} has no sources and is raised to ${level}`,
      rule: 'evidence-unsourced',
      entities: [e.id],
      plant: (c) => c.set(e.id, ['evidence_level'], level),
    };
  },
};

/** Bibliography entries that the source schema accepts (a few have no year, which it rejects). */
const LOADABLE_ENTRIES = [...BIBLIOGRAPHY!.values()].filter((e) => SCHEMAS.source.safeParse(toSourceRecord(e)).success);

const inventedSource: MutationClass = {
  cls: 'source-bibliography invented',
  count: 9,
  make(r) {
    const entry = r.pick(LOADABLE_ENTRIES);
    const id = freshId(r, 'source');
    const file = `content/sources/${id}-${r.pick(['invented', 'new-study', 'survey'])}.yaml`;
    const text = stringify({ ...toSourceRecord(entry), id });
    return {
      what: `${file}: a copy of ${entry.id} under the unknown ID ${id}`,
      rule: 'source-bibliography',
      entities: [id],
      file,
      plant: (c) => c.write(file, text),
    };
  },
};

const editedSource: MutationClass = {
  cls: 'source-bibliography edited',
  count: 9,
  make(r) {
    const s = r.pick(REG.all('source').filter((x) => x.finding !== null && x.title !== null));
    const sentence = r.pick([' The effect was large.', ' It applies to all employers.', ' Replicated in 2024.']);
    const edits: Array<[string, unknown]> = [
      ['finding', s.finding! + sentence],
      ['finding', s.finding!.replace(/\b(\w+)\b/, '$1 not')],
      ['finding', s.finding!.split('. ')[0]!],
      ['year', (s.year ?? 2000) + 1 + r.int(3)],
      ['title', `${s.title} (revised)`],
      ['status', r.pick(['current', 'superseded', 'contested', 'withdrawn', 'repealed'].filter((x) => x !== s.status))],
    ];
    const [field, value] = r.pick(edits.filter(([f, v]) => !(f === 'finding' && v === s.finding)));
    return {
      what: `${s.id}.${field} → ${JSON.stringify(value).slice(0, 80)}`,
      rule: 'source-bibliography',
      entities: [s.id],
      plant: (c) => c.set(s.id, [field], value),
    };
  },
};

const deprecatedSuccessor: MutationClass = {
  cls: 'deprecated-successor',
  count: 9,
  make(r) {
    const e = r.pick(NON_SOURCES);
    if (r.next() < 0.6)
      return {
        what: `${e.id} deprecated without a successor`,
        rule: 'deprecated-successor',
        entities: [e.id],
        plant: (c) => c.set(e.id, ['status'], 'deprecated'),
      };
    const successor = r.pick(REG.all(e.kind).filter((x) => x.id !== e.id)).id;
    return {
      what: `${e.id} stays active but names the successor ${successor}`,
      rule: 'deprecated-successor',
      entities: [e.id],
      plant: (c) => c.set(e.id, ['superseded_by'], successor),
    };
  },
};

const baselinesRemoved: MutationClass = {
  cls: 'honest-baseline-missing',
  count: 9,
  make(r) {
    const how = MECHANISMS.filter((m) => m.honest_baseline).map((m) => [m.id, r.next() < 0.5 ? 'false' : 'removed'] as const);
    return {
      what: `every honest baseline dropped (${how.map(([id, h]) => `${id} ${h}`).join(', ')})`,
      rule: 'honest-baseline-missing',
      atlasWide: true,
      plant: (c) => {
        for (const [id, h] of how) h === 'false' ? c.set(id, ['honest_baseline'], false) : c.remove(id, ['honest_baseline']);
      },
    };
  },
};

/** Names prose must never hold, in the forms people write them: any case, web addresses, hyphenated, possessive. */
const NAMES = [
  'LinkedIn',
  'linkedin',
  'LINKEDIN',
  'Indeed.com',
  'indeed.com',
  'www.glassdoor.com',
  'Google-style',
  'ex-Google',
  "Google's",
  'Amazon’s',
  'hirevue',
  'ZIPRECRUITER',
  'Workday',
  'Taleo',
];
const SURNAMES = authorSurnames(REG.all('source').flatMap((s) => s.authors));

const namedEntity: MutationClass = {
  cls: 'named-entity',
  count: 9,
  make(r) {
    const e = r.pick(NON_SOURCES);
    const node = r.pick(proseOf(e));
    const name = r.next() < 0.85 ? r.pick(NAMES) : r.pick(SURNAMES);
    const words = node.value.split(' ');
    const at = r.int(words.length + 1);
    const value = [...words.slice(0, at), r.pick([name, `at ${name}`, `(${name})`, `${name},`]), ...words.slice(at)].join(' ');
    return {
      what: `"${name}" inserted in ${e.id} ${show(node.path)}`,
      rule: 'named-entity',
      entities: [e.id],
      plant: (c) => c.set(e.id, node.path, value),
    };
  },
};

/** The files of the checkout's site (the shared built one: the same paths a build of the real atlas writes). */
// The files of a copy's site: a copy has content/ only, so no recorded release and none of its files.
const SITE_PATHS = sharedSite()
  .site.files.map((f) => f.path)
  .filter((p) => !/^(downloads\/\d|api\/v1\/releases\/\d)/.test(p));
const MIRROR_CHANGES = ['one byte changed', 'a line appended', 'truncated', 'emptied', 'removed', 'extra file'] as const;

const mirrorDrift: MutationClass = {
  cls: 'mirror-parity',
  count: MIRROR_CHANGES.length,
  make(r, i) {
    const path = r.pick(SITE_PATHS);
    const change = MIRROR_CHANGES[i]!;
    const target = change === 'extra file' ? `api/v1/${r.pick(['stale', 'mechanisms/M-999', 'old'])}.json` : path;
    // Drawn now, not while planting, so that a case is the same whoever runs before it.
    const [at, cut] = [r.next(), 1 + r.int(40)];
    return {
      what: `_site/${target}: ${change}`,
      rule: 'mirror-parity',
      file: `_site/${target}`,
      mirror: true,
      plant: (c) => {
        const load = loadAtlas(c.dir);
        writeSite(buildAtlasSite(load.registry, buildInfo(c.dir)), join(c.dir, '_site'));
        const abs = join(c.dir, '_site', target);
        if (change === 'removed') return rmSync(abs);
        if (change === 'extra file') return writeFileSync(abs, '{}\n');
        const bytes = readFileSync(abs);
        if (change === 'one byte changed') {
          const i = Math.floor(at * bytes.length);
          bytes[i] = bytes[i] === 0x20 ? 0x21 : 0x20;
          writeFileSync(abs, bytes);
        } else if (change === 'a line appended') writeFileSync(abs, Buffer.concat([bytes, Buffer.from('\n')]));
        else if (change === 'truncated') writeFileSync(abs, bytes.subarray(0, Math.max(0, bytes.length - cut)));
        else writeFileSync(abs, '');
      },
    };
  },
};

const WITHDRAWN = REG.all('source')
  .filter((s) => s.status === 'withdrawn')
  .map((s) => s.id);

const withdrawnUnstated: MutationClass = {
  cls: 'source-status-unstated',
  count: 9,
  make(r) {
    const source = r.pick(WITHDRAWN);
    const e = r.pick(NON_SOURCES.filter((x) => !x.sources.includes(source) && !/withdrawn|repealed/i.test(JSON.stringify(RAW.get(x.id)))));
    const sources = [...((RAW.get(e.id)!['sources'] as string[] | undefined) ?? []), source];
    const summary = `${String(RAW.get(e.id)!['summary']).trimEnd()} US guidance treats such tools as selection procedures (${source}).`;
    return {
      what: `${e.id} cites the withdrawn ${source} in its summary and sources without saying so`,
      rule: 'source-status-unstated',
      entities: [e.id],
      plant: (c) => c.set(e.id, ['sources'], sources).set(e.id, ['summary'], summary),
    };
  },
};

// Issue 27: wording that denies a withdrawal or presents it as current, Unicode spaces the fast reader used
// to take for YAML whitespace, nesting, size and alias bounds, invisible characters and YAML tags.

const GONE = new Set(
  REG.all('source')
    .filter((s) => s.status === 'withdrawn' || s.status === 'repealed')
    .map((s) => s.id),
);
/** Every law note that cites a withdrawn or repealed source: [entity, index]. */
const GONE_LAW_NOTES = NON_SOURCES.flatMap((e) =>
  ((RAW.get(e.id)!['law'] as Array<{ sources?: string[] }> | undefined) ?? []).flatMap((note, i) =>
    note.sources?.some((id) => GONE.has(id)) ? [[e.id, i] as const] : [],
  ),
);
const MISLEADING_NOTES = [
  'Current guidance: it is in force and applies today.',
  'It has not been withdrawn or repealed.',
  'It was never withdrawn or repealed and still applies.',
  'This guidance is still in force.',
  'Still in force; the agency updated its website in 2025.',
  'It hasn’t been withdrawn or repealed, and it remains in force.',
  'Neither withdrawn nor repealed: it is current guidance.',
  'Reports that it was withdrawn or repealed are wrong: it still applies.',
  'Updated in 2025.',
];

const lawNoteCurrent: MutationClass = {
  cls: 'law-note status presented as current',
  count: 3,
  long: 75,
  make(r) {
    const [id, i] = r.pick(GONE_LAW_NOTES);
    const note = r.pick(MISLEADING_NOTES);
    return {
      what: `${id} law[${i}].status_note → ${JSON.stringify(note)}`,
      rule: 'law-note',
      entities: [id],
      plant: (c) => c.set(id, ['law', i, 'status_note'], note),
    };
  },
};

const NEGATED_STATUS = [
  'has not been withdrawn and still applies',
  'was never withdrawn or repealed',
  'hasn’t been rescinded and remains in force',
  'is neither withdrawn nor repealed',
  'has not, despite reports, been withdrawn',
];

const negatedStatus: MutationClass = {
  cls: 'source-status-unstated negated',
  count: 3,
  long: 75,
  make(r) {
    const source = r.pick(WITHDRAWN);
    const e = r.pick(NON_SOURCES.filter((x) => !x.sources.includes(source) && !/withdrawn|repealed/i.test(JSON.stringify(RAW.get(x.id)))));
    const sources = [...((RAW.get(e.id)!['sources'] as string[] | undefined) ?? []), source];
    const denial = r.pick(NEGATED_STATUS);
    const summary = `${String(RAW.get(e.id)!['summary']).trimEnd()} The US guidance on such tools (${source}) ${denial}.`;
    return {
      what: `${e.id} cites ${source}: "${denial}"`,
      rule: 'source-status-unstated',
      entities: [e.id],
      plant: (c) => c.set(e.id, ['sources'], sources).set(e.id, ['summary'], summary),
    };
  },
};

const UNICODE_SPACES = [
  '\u00A0',
  '\u1680',
  '\u2000',
  '\u2003',
  '\u2009',
  '\u200A',
  '\u202F',
  '\u205F',
  '\u3000',
  '\uFEFF',
  '\u2028',
  '\u0085',
];
const code = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const unicodeSpace: MutationClass = {
  cls: 'Unicode space read as YAML whitespace',
  count: 3,
  long: 75,
  make(r) {
    const ch = r.pick(UNICODE_SPACES);
    // After a barrier's order (a number to the fast reader, text to YAML), or as the indentation of a
    // nested key (nested to the fast reader, a key with spaces in it to YAML): a schema problem either way.
    if (r.next() < 0.5) {
      const b = r.pick(BARRIERS);
      const text = textOf(b.id).replace(/^order: (\d+)$/m, `order: $1${ch}`);
      return { what: `${b.id} order followed by ${code(ch)}`, rule: 'schema', entities: [b.id], plant: (c) => c.write(fileOf(b.id), text) };
    }
    const m = r.pick(MECHANISMS);
    const text = textOf(m.id).replace(/^ {2}(actor|nature|visibility|removability): /m, `${ch}${ch}$1: `);
    // The yaml package reads a key with spaces in it (a schema problem), or, where the key's line cannot
    // continue the mapping above it, refuses the file (yaml-syntax): whichever it does is what must be reported.
    const what = `${m.id} facets key indented with ${code(ch)}`;
    if (parseDocument(text).errors.length > 0)
      return { what, rule: 'yaml-syntax', file: fileOf(m.id), plant: (c) => c.write(fileOf(m.id), text) };
    return { what, rule: 'schema', entities: [m.id], plant: (c) => c.write(fileOf(m.id), text) };
  },
};

const deepNesting: MutationClass = {
  cls: 'yaml-syntax nested too deeply',
  count: 3,
  long: 75,
  make(r) {
    const e = r.pick(ENTITIES);
    const depth = 70 + r.int(1100);
    const shape = r.pick(['keys', 'flow sequences', 'flow mappings', 'compact sequences'] as const);
    const deep =
      shape === 'keys'
        ? `x_deep:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} x`
        : shape === 'flow sequences'
          ? `x_deep: ${'['.repeat(depth)}x${']'.repeat(depth)}`
          : shape === 'flow mappings'
            ? `x_deep: ${'{a: '.repeat(depth)}x${'}'.repeat(depth)}`
            : `x_deep:\n  ${'- '.repeat(depth)}x`;
    const text = `${textOf(e.id).replace(/\n*$/, '\n')}${deep}\n`;
    return {
      what: `${fileOf(e.id)}: ${depth} levels of ${shape} appended`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

const sizeAndAliases: MutationClass = {
  cls: 'yaml-syntax size and alias bounds',
  count: 3,
  long: 75,
  make(r) {
    const e = r.pick(ENTITIES);
    const kind = r.pick(['file over 1 MiB', 'anchored text expanded past 1 MiB', 'over 100 aliases', 'alias as a key'] as const);
    const kib = 16 + r.int(48);
    const extra =
      kind === 'file over 1 MiB'
        ? `x_big: >-\n${'  word '
            .repeat(12)
            .concat('\n')
            .repeat(Math.ceil((1100 * 1024) / 86))}`
        : kind === 'anchored text expanded past 1 MiB'
          ? `x_a: &big "${'lorem '.repeat((kib * 1024) / 6)}"\n${Array.from({ length: Math.min(100, Math.ceil(1100 / kib)) }, (_, i) => `x_c${i}: *big`).join('\n')}\n`
          : kind === 'over 100 aliases'
            ? `x_v: &v 1\n${Array.from({ length: 101 + r.int(50) }, (_, i) => `x_${i}: *v`).join('\n')}\n`
            : `x_k: {&k ${r.pick(['a', 'id', 'title'])}: 1, *k : 2}\n`;
    const text = `${textOf(e.id).replace(/\n*$/, '\n')}${extra}`;
    return {
      what: `${fileOf(e.id)}: ${kind}${kind.startsWith('anchored') ? ` (${kib} KiB)` : ''}`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

const INVISIBLE = ['\uFEFF', '\u200B', '\u200E', '\u200F', '\u202A', '\u202E', '\u2060', '\u2066', '\u2069'];

const invisibleCharacter: MutationClass = {
  cls: 'text-encoding invisible character',
  count: 3,
  long: 75,
  make(r) {
    const e = r.pick(ENTITIES);
    if (r.next() < 0.25)
      return {
        what: `${fileOf(e.id)} opens with two byte-order marks`,
        rule: 'text-encoding',
        file: fileOf(e.id),
        line: 1,
        plant: (c) => c.write(fileOf(e.id), `\uFEFF\uFEFF${textOf(e.id)}`),
      };
    const { offset, line, path } = prosePosition(r, e);
    const ch = r.pick(INVISIBLE);
    const text = textOf(e.id);
    return {
      what: `${code(ch)} inserted in ${e.id} ${show(path)} (${fileOf(e.id)}:${line})`,
      rule: 'text-encoding',
      file: fileOf(e.id),
      line,
      plant: (c) => c.write(fileOf(e.id), text.slice(0, offset) + ch + text.slice(offset)),
    };
  },
};

const yamlTag: MutationClass = {
  cls: 'yaml-syntax tag',
  count: 3,
  long: 75,
  make(r) {
    const e = r.pick(ENTITIES);
    const lines = textOf(e.id).split('\n');
    const i = r.pick(singleLineKeys(lines));
    const tag = r.pick(['!!str', '!x', '!!binary', '!secret', '!<tag:example.com,2026:v>']);
    const line = lines[i]!.replace(/^([a-z_]+: )/, `$1${tag} `);
    const text = [...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n');
    return {
      what: `${fileOf(e.id)}:${i + 1} ${JSON.stringify(line.slice(0, 60))}`,
      rule: 'yaml-syntax',
      file: fileOf(e.id),
      line: i + 1,
      plant: (c) => c.write(fileOf(e.id), text),
    };
  },
};

const CLASSES: MutationClass[] = [
  danglingReference,
  wrongKindReference,
  barrierCycle,
  barrierOrder,
  undeclaredCycle,
  cycleThroughTwoLoops,
  loopEdgeRepeated,
  loopEdgesOpen,
  duplicateId,
  fileNameMismatch,
  badEnum,
  unknownKey,
  requiredRemoved,
  undefinedAlias,
  aliasBomb,
  syntaxError,
  controlCharacter,
  invalidUtf8,
  evidenceUnsourced,
  inventedSource,
  editedSource,
  deprecatedSuccessor,
  baselinesRemoved,
  namedEntity,
  mirrorDrift,
  withdrawnUnstated,
  lawNoteCurrent,
  negatedStatus,
  unicodeSpace,
  deepNesting,
  sizeAndAliases,
  invisibleCharacter,
  yamlTag,
];

// ---------------------------------------------------------------------------------------------------
// Benign edits

interface Benign {
  cls: string;
  what: string;
  plant(copy: AtlasCopy): void;
  /** The edited entity must load to exactly the record it was (the edit only changes how it is written). */
  sameRecord?: string;
}

type BenignClass = { cls: string; count: number; long?: number; make(r: Rng): Omit<Benign, 'cls'> };

const UNICODE_PROSE = [
  ' — café, naïve, Ångström, Straße',
  ' 日本語の求人票と履歴書',
  ' 😀 👩‍💻 🇩🇪 ✅',
  ' مرحبا بالعالم',
  ' שלום עולם',
  ' Ελληνικά και русский',
  ' e\u0301 combining, ﬁ ligature',
];

const HONEST_NOTES = [
  'It was withdrawn or repealed in 2025 and is no longer in force; the statute it explained still applies.',
  'No longer in force: repealed or withdrawn in 2025.',
  'Withdrawn (or repealed) in 2025. It is not current law; do not rely on it.',
];

const BENIGN_CLASSES: BenignClass[] = [
  {
    cls: 'Unicode spaces inside prose',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(NON_SOURCES);
      const node = r.pick(proseOf(e).filter((n) => !n.path.includes('sources')));
      const words = node.value.split(' ');
      const at = 1 + r.int(words.length - 1);
      const ch = r.pick(['\u00A0', '\u202F', '\u2009', '\u3000']);
      const value = [...words.slice(0, at - 1), `${words[at - 1]}${ch}${words[at]}`, ...words.slice(at + 1)].join(' ');
      return { what: `${e.id} ${show(node.path)}: ${code(ch)} between two words`, plant: (c) => c.set(e.id, node.path, value) };
    },
  },
  {
    cls: 'honest law status note',
    count: 3,
    long: 7,
    make(r) {
      const [id, i] = r.pick(GONE_LAW_NOTES);
      const note = r.pick(HONEST_NOTES);
      return { what: `${id} law[${i}].status_note → ${JSON.stringify(note)}`, plant: (c) => c.set(id, ['law', i, 'status_note'], note) };
    },
  },
  {
    cls: 'CRLF line ends',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(ENTITIES);
      return {
        what: `${fileOf(e.id)} with CRLF line ends`,
        sameRecord: e.id,
        plant: (c) => c.write(fileOf(e.id), textOf(e.id).replace(/\n/g, '\r\n')),
      };
    },
  },
  {
    cls: 'UTF-8 BOM',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(ENTITIES);
      return {
        what: `${fileOf(e.id)} with a byte-order mark`,
        sameRecord: e.id,
        plant: (c) => c.write(fileOf(e.id), `\uFEFF${textOf(e.id)}`),
      };
    },
  },
  {
    cls: 'reordered keys',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(ENTITIES);
      const doc = parseDocument(textOf(e.id));
      // Shuffle every mapping of the file (until the top level really moves).
      const visitMaps = (node: unknown): void => {
        if (node && typeof node === 'object' && 'items' in node && Array.isArray(node.items)) {
          const items = node.items as unknown[];
          if (items.every((p) => p && typeof p === 'object' && 'key' in p)) {
            const shuffled = r.shuffle(items);
            items.splice(0, items.length, ...shuffled);
            for (const p of items) visitMaps((p as { value: unknown }).value);
          } else for (const item of items) visitMaps(item);
        }
      };
      const top = (doc.contents as unknown as { items: Array<{ key: unknown }> }).items;
      const before = top.map((p) => String(p.key));
      do visitMaps(doc.contents);
      while (top.map((p) => String(p.key)).join() === before.join());
      const text = doc.toString();
      return {
        what: `${fileOf(e.id)} with its keys reordered (${top
          .map((p) => String(p.key))
          .slice(0, 4)
          .join(', ')}, …)`,
        sameRecord: e.id,
        plant: (c) => c.write(fileOf(e.id), text),
      };
    },
  },
  {
    cls: 'comments added',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(ENTITIES);
      const lines = textOf(e.id).split('\n');
      const out = ['# Reviewed by the editors; keep the IDs permanent.', ''];
      lines.forEach((l, i) => {
        if (i > 0 && /^[a-z_]+:/.test(l) && r.next() < 0.5) out.push(r.pick(['# note: see DESIGN.md §3', '#', '# — ünïcödé comment —']));
        out.push(i === 0 ? `${l}  # permanent ID` : l);
      });
      return {
        what: `${fileOf(e.id)} with comments between its keys`,
        sameRecord: e.id,
        plant: (c) => c.write(fileOf(e.id), out.join('\n')),
      };
    },
  },
  {
    cls: 'Unicode prose',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(NON_SOURCES);
      const node = r.pick(proseOf(e));
      const extra = r.pick(UNICODE_PROSE);
      return {
        what: `${e.id} ${show(node.path)} + ${JSON.stringify(extra)}`,
        plant: (c) => c.set(e.id, node.path, node.value.trimEnd() + extra),
      };
    },
  },
  {
    cls: 'trailing whitespace',
    count: 3,
    long: 7,
    make(r) {
      const e = r.pick(ENTITIES);
      const text = textOf(e.id)
        .split('\n')
        .map((l) => (l !== '' && r.next() < 0.4 ? l + r.pick([' ', '  ', '\t', ' \t ']) : l))
        .join('\n');
      return { what: `${fileOf(e.id)} with trailing spaces and tabs on some lines`, plant: (c) => c.write(fileOf(e.id), text) };
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// The cases, drawn once from the seed

const rng = new Rng(SEED);
const howMany = (k: { count: number; long?: number }, sample: number) =>
  LONG && k.long !== undefined ? k.long : Math.round((FULL ? k.count : Math.min(k.count, sample)) * SCALE);
// A class's variants are taken from one the seed picks on, so that a sample of another seed plants others.
const CASES: Planted[] = CLASSES.flatMap((k) =>
  Array.from({ length: howMany(k, SAMPLE.corruption) }, (_, i) => ({ cls: k.cls, ...k.make(rng, (i + SEED) % k.count) })),
);
const BENIGN: Benign[] = BENIGN_CLASSES.flatMap((k) =>
  Array.from({ length: howMany(k, SAMPLE.benign) }, () => ({ cls: k.cls, ...k.make(rng) })),
);

const describeProblem = (p: Problem) => `  ${p.rule} ${p.entity ?? '-'} ${p.file ?? '-'}:${p.line ?? '-'} ${p.message.slice(0, 140)}`;
const listProblems = (problems: Problem[]) =>
  problems.length === 0
    ? '  (none)'
    : [...problems.slice(0, 15).map(describeProblem), problems.length > 15 ? `  …and ${problems.length - 15} more` : ''].join('\n');

/** Validates a copy as `hoba validate` does; mirror cases also compare the copy's _site with a fresh build. */
async function problemsOf(copy: AtlasCopy, mirror: boolean): Promise<Problem[]> {
  const load = loadAtlas(copy.dir);
  const problems = validateAtlas(load, { bibliography: BIBLIOGRAPHY });
  if (!mirror || problems.some((p) => p.severity === 'error')) return problems;
  const parity = await compareMirror(buildAtlasSite(load.registry, buildInfo(copy.dir)), join(copy.dir, '_site'), '_site');
  return [...problems, ...parity.problems];
}

function matches(k: Planted, p: Problem): boolean {
  if (p.rule !== k.rule) return false;
  if (k.atlasWide) return p.entity === undefined && p.file === undefined;
  if (k.entities && !(p.entity !== undefined && k.entities.includes(p.entity))) return false;
  if (k.entities && k.file === undefined && p.file !== FILE.get(p.entity!)) return false;
  if (k.file !== undefined && p.file !== k.file) return false;
  if (k.line !== undefined && p.line !== k.line) return false;
  // A problem on an entity carries a line, so that people can find it.
  return p.entity === undefined || (p.line ?? 0) >= 1;
}

/** Plants a corruption in a fresh copy: undefined when it is caught as expected, else what went wrong. */
async function corruptionVerdict(k: Planted): Promise<string | undefined> {
  const context = `HOBA_SEED=${SEED} ${k.cls}: planted ${k.what}`;
  const copy = new AtlasCopy();
  try {
    k.plant(copy);
    const problems = await problemsOf(copy, k.mirror === true);
    if (problems.some((p) => matches(k, p))) return undefined;
    const where = k.atlasWide
      ? 'atlas-wide (no entity, no file)'
      : [k.entities && `on ${k.entities.join(' or ')}`, k.file && `in ${k.file}`, k.line && `at line ${k.line}`].filter(Boolean).join(' ');
    return `${context}\nexpected ${k.rule} ${where}; got:\n${listProblems(problems)}`;
  } catch (err) {
    return `${context}\nthrew: ${(err as Error).stack ?? String(err)}`;
  } finally {
    copy.dispose();
  }
}

const problemKey = (p: Problem) => `${p.rule} ${p.entity ?? ''} ${p.file ?? ''} ${p.message}`;

/** Applies a benign edit to a fresh copy: undefined when nothing changes, else what did. */
function benignVerdict(k: Benign): string | undefined {
  const context = `HOBA_SEED=${SEED} ${k.cls}: planted ${k.what}`;
  const copy = new AtlasCopy();
  try {
    k.plant(copy);
    const load = loadAtlas(copy.dir);
    const problems = validateAtlas(load, { bibliography: BIBLIOGRAPHY });
    if (!isDeepStrictEqual(problems.map(problemKey), BASELINE.map(problemKey)))
      return `${context}\nexpected the real atlas's ${BASELINE.length} problems; got:\n${listProblems(problems)}`;
    if (k.sameRecord && !isDeepStrictEqual(load.registry.get(k.sameRecord), REG.get(k.sameRecord)))
      return `${context}\n${k.sameRecord} loads differently`;
    return undefined;
  } catch (err) {
    return `${context}\nthrew: ${(err as Error).stack ?? String(err)}`;
  } finally {
    copy.dispose();
  }
}

/** Every case, by index: corruptions, then benign edits. */
const VERDICTS: Array<() => Promise<string | undefined> | string | undefined> = [
  ...CASES.map((k) => () => corruptionVerdict(k)),
  ...BENIGN.map((k) => () => benignVerdict(k)),
];

// ---------------------------------------------------------------------------------------------------
// Running. A case costs a full load and validation of the atlas, so the cases are shared between this
// process (even indexes) and a helper process (odd ones): this file run again with HELPER set, which
// draws the same cases from the same seed and prints one JSON line per verdict. Both cores then work.

const HELPER = 'HOBA_MUTATION_HELPER';
const HELPER_LIMIT_MS = 10 * 60_000;
const helped = (i: number) => i % 2 === 1;

if (process.env[HELPER] === '1') {
  for (let i = 0; i < VERDICTS.length; i++) {
    if (helped(i)) process.stdout.write(`${JSON.stringify({ i, failure: (await VERDICTS[i]!()) ?? null })}\n`);
  }
} else {
  /** The helper's verdicts, by case index (null: caught as expected). */
  const fromHelper = new Map<number, { verdict: Promise<string | null>; settle: (failure: string | null) => void }>();
  for (let i = 1; i < VERDICTS.length; i += 2) {
    let settle!: (failure: string | null) => void;
    fromHelper.set(i, { verdict: new Promise((resolve) => (settle = resolve)), settle });
  }
  let helper: ChildProcess | undefined;
  const verdictOf = async (i: number) => (helped(i) ? ((await fromHelper.get(i)!.verdict) ?? undefined) : VERDICTS[i]!());
  const counts = (items: ReadonlyArray<{ cls: string }>) =>
    [...new Set(items.map((i) => i.cls))].map((c) => `${c} ${items.filter((i) => i.cls === c).length}`).join(', ');

  describe(`validator mutations (HOBA_SEED=${SEED}): ${CASES.length} corruptions, ${BENIGN.length} benign edits`, () => {
    before(() => {
      // NODE_TEST_CONTEXT would make the helper talk to this test runner; it only prints verdicts.
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      helper = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...env, [HELPER]: '1', HOBA_SEED: String(SEED) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // A stuck helper is stopped; its remaining cases then fail (below) instead of hanging the suite.
      setTimeout(() => helper?.kill(), HELPER_LIMIT_MS).unref();
      let stderr = '';
      helper.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      createInterface({ input: helper.stdout! }).on('line', (line) => {
        const { i, failure } = JSON.parse(line) as { i: number; failure: string | null };
        fromHelper.get(i)?.settle(failure);
      });
      // Cases the helper never answered fail with its error output instead of waiting for ever.
      helper.on('close', (code) => {
        for (const { settle } of fromHelper.values())
          settle(`HOBA_SEED=${SEED} the helper process ended (exit ${code ?? 'killed'}) before this case:\n${stderr.slice(-2000)}`);
      });
    });
    after(() => helper?.kill());

    const least = Math.round((FULL ? 250 : 90) * SCALE);
    test(`at least ${least} corruptions over every class${FULL ? '' : ' (a sample)'}`, (t) => {
      t.diagnostic(`HOBA_SEED=${SEED} HOBA_MUTATION_SCALE=${SCALE}${LONG ? ' HOBA_MUTATION_LONG=1' : FULL ? ' HOBA_MUTATION_FULL=1' : ''}`);
      t.diagnostic(`corruptions by class: ${counts(CASES)}`);
      t.diagnostic(`benign edits by class: ${counts(BENIGN)}`);
      assert.ok(CASES.length >= least, `${CASES.length} corruptions`);
      assert.equal(new Set(CASES.map((k) => k.cls)).size, CLASSES.length);
      assert.equal(new Set(BENIGN.map((k) => k.cls)).size, BENIGN_CLASSES.length);
    });

    describe('every corruption is caught with the expected rule on the expected entity or file', () => {
      CASES.forEach((k, i) => {
        test(`${k.cls}: ${k.what}`, async () => {
          const failure = await verdictOf(i);
          if (failure !== undefined) assert.fail(failure);
        });
      });
    });

    describe('benign edits are not flagged', () => {
      BENIGN.forEach((k, j) => {
        test(`${k.cls}: ${k.what}`, async () => {
          const failure = await verdictOf(CASES.length + j);
          if (failure !== undefined) assert.fail(failure);
        });
      });
    });
  });
}
