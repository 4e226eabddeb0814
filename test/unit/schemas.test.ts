// The content model, kind by kind (src/model/schemas.ts): a minimal valid record of each kind parses;
// then every field of it, at every depth, is taken away and made the wrong type in turn, and an unknown
// field is added to every object, and each of these is refused at that field's path. The minimal records
// hold the required fields and nothing else, so they are also the list of what each kind requires: a
// field made optional, or a new required one, fails here until the record below is changed to match.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { z } from 'zod';
import { KINDS, SCHEMAS, type Kind } from '../../src/model/index.ts';

const text = 'Some words.';
const probe = (id: string) => ({
  id,
  action: 'Ask.',
  agency: 'candidate',
  cost: 'low',
  outcomes: [
    { id: 'yes', observation: 'Yes.' },
    { id: 'no', observation: 'No.' },
  ],
});

/** The smallest valid record of each kind: its required fields only (nested objects too). */
const MINIMAL: Record<Kind, Record<string, unknown>> = {
  artifact: { id: 'A-001', title: text, summary: text, stages: ['screening'], non_inferences: [text], probes: [probe('ask')] },
  barrier: { id: 'B-001', title: text, summary: text, stage: 'screening', order: 1, pass_condition: text },
  mechanism: {
    id: 'M-001',
    title: text,
    summary: text,
    family: 'skill-gap',
    facets: { actor: 'recruiter', nature: 'rule', visibility: 'opaque', removability: 'none' },
    operates_at: ['B-001'],
    emits: [{ artifact: 'A-001', fidelity: 'direct' }],
    evidence_level: 'hypothesis',
  },
  pattern: {
    id: 'P-001',
    title: text,
    summary: text,
    shape: 'silence',
    required_artifacts: ['A-001'],
    compatible_mechanisms: ['M-001'],
    trigger_rule: text,
    establishes: [text],
    non_inferences: [text],
    evidence_level: 'hypothesis',
  },
  loop: {
    id: 'L-001',
    title: text,
    summary: text,
    mechanisms: ['M-001', 'M-002'],
    edges: [
      { from: 'M-001', to: 'M-002', relation: 'amplifies' },
      { from: 'M-002', to: 'M-001', relation: 'masks' },
    ],
    entry_points: ['M-001'],
    evidence_level: 'hypothesis',
  },
  intervention: {
    id: 'I-001',
    title: text,
    summary: text,
    actor: 'employer',
    scope: 'process',
    cost: 'low',
    targets: ['M-001'],
    expected_effects: [text],
    measurements: [text],
    evidence_level: 'hypothesis',
    effect: { level: 'unmeasured', summary: text },
  },
  scenario: {
    id: 'S-001',
    title: text,
    summary: text,
    situation: text,
    input: { artifacts: ['A-001'] },
    expect: { verdict: 'low-signal' },
  },
  source: {
    id: 'E-001',
    cite: text,
    authors: [text],
    year: 2020,
    title: null,
    venue: null,
    doi: null,
    url: 'https://example.org/study',
    type: 'research',
    design: text,
    peer_reviewed: true,
    status: 'current',
    n: null,
    finding: null,
    relevant_to: [text],
    verified: 'yes',
    verified_how: null,
  },
};

type Path = Array<string | number>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every object in a record with its path (the record itself first), array items included. */
function objectsIn(value: unknown, path: Path = []): Array<[Path, Record<string, unknown>]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectsIn(v, [...path, i]));
  if (!isObject(value)) return [];
  return [[path, value], ...Object.entries(value).flatMap(([k, v]) => objectsIn(v, [...path, k]))];
}

/** A deep copy of `record` with `change` applied to the object at `path`. */
function changed(record: Record<string, unknown>, path: Path, change: (o: Record<string, unknown>) => void): Record<string, unknown> {
  const copy = structuredClone(record);
  let o: unknown = copy;
  for (const p of path) o = (o as Record<string | number, unknown>)[p];
  change(o as Record<string, unknown>);
  return copy;
}

/** A value of another type than `v`: a string for numbers and booleans, a number for anything else. */
const wrongFor = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? 'not a number or a boolean' : 42);

/** Parses and expects a refusal with an issue at `path` (or below it). */
function refusedAt(schema: z.ZodType, record: unknown, path: Path, what: string): void {
  const r = schema.safeParse(record);
  assert.equal(r.success, false, `${what}: accepted`);
  const at = r.error!.issues.map((i) => i.path.map(String).join('.'));
  const want = path.map(String).join('.');
  assert.ok(
    at.some((p) => p === want || p.startsWith(`${want}.`)),
    `${what}: the issues are at ${JSON.stringify(at)}, not at ${want}`,
  );
}

describe('the content model, kind by kind', () => {
  test('the minimal records cover every kind', () => {
    assert.deepEqual(Object.keys(MINIMAL).sort(), [...KINDS].sort());
  });

  for (const kind of KINDS) {
    const schema = SCHEMAS[kind];
    const minimal = MINIMAL[kind];

    describe(kind, () => {
      test('the minimal record is valid, and the defaults fill what it leaves out', () => {
        const r = schema.safeParse(minimal);
        assert.ok(r.success, JSON.stringify(r.error?.issues));
        // Everything given comes back as given; defaults only add.
        for (const [path, object] of objectsIn(minimal)) {
          let parsed: unknown = r.data;
          for (const p of path) parsed = (parsed as Record<string | number, unknown>)[p];
          for (const [k, v] of Object.entries(object))
            if (!isObject(v) && !(Array.isArray(v) && v.some(isObject)))
              assert.deepEqual((parsed as Record<string, unknown>)[k], v, [...path, k].join('.'));
        }
      });

      test('each field, at every depth, missing: refused at its path', () => {
        for (const [path, object] of objectsIn(minimal)) {
          for (const key of Object.keys(object)) {
            refusedAt(
              schema,
              changed(minimal, path, (o) => delete o[key]),
              [...path, key],
              `${kind} without ${[...path, key].join('.')}`,
            );
          }
        }
      });

      test('each field, at every depth, of the wrong type: refused at its path', () => {
        for (const [path, object] of objectsIn(minimal)) {
          for (const [key, value] of Object.entries(object)) {
            refusedAt(
              schema,
              changed(minimal, path, (o) => (o[key] = wrongFor(value))),
              [...path, key],
              `${kind} with ${[...path, key].join('.')} = ${JSON.stringify(wrongFor(value))}`,
            );
          }
        }
      });

      test('each optional field of the wrong type: refused at its name', () => {
        const shape = (schema as unknown as { shape: Record<string, unknown> }).shape;
        const optional = Object.keys(shape).filter((k) => !(k in minimal));
        for (const key of optional) refusedAt(schema, { ...minimal, [key]: 42 }, [key], `${kind} with ${key} = 42`);
      });

      test('an unknown field on any object: refused, naming it', () => {
        for (const [path] of objectsIn(minimal)) {
          const r = schema.safeParse(changed(minimal, path, (o) => (o['colour'] = 'red')));
          assert.equal(r.success, false, `${kind}: colour accepted at ${path.join('.') || 'the top'}`);
          const issue = r.error!.issues.find((i) => i.code === 'unrecognized_keys');
          assert.ok(
            issue && 'keys' in issue && (issue.keys as string[]).includes('colour'),
            `${kind} at ${path.join('.')}: ${JSON.stringify(r.error!.issues)}`,
          );
          assert.deepEqual(issue.path, path, `${kind}: reported where the unknown field is`);
        }
      });
    });
  }
});
