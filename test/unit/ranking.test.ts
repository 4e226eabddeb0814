// The first tier's order on constructed registries, one rule at a time (analysis/mechanisms.ts rankOf):
// among the mechanisms that produce what was observed, the best fidelity of an emission first, then the
// one that accounts for more of the observations, then the stronger evidence, then the ID. Each case
// is built so that the rule under test is the only one that separates the two mechanisms and, where it
// can be, so that the order it gives is the reverse of the ID order: leaving a rule out, or turning it
// round, fails a case (issue 28: turning the count round reordered 304 of 1,225 real explains unseen).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { explain, findCompatibleMechanisms } from '../../src/analysis/index.ts';
import { RECORDS, type Entity, type EvidenceLevel, type Fidelity } from '../../src/model/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry } from '../../src/registry/registry.ts';
import { ROOT } from '../helpers.ts';

const manifest = loadAtlas(ROOT).registry.manifest;

const barrier = RECORDS.barrier.parse({
  kind: 'barrier',
  id: 'B-001',
  title: 'Screen',
  summary: 'A screen.',
  stage: 'screening',
  order: 1,
  pass_condition: 'Pass the screen.',
});

function artifact(id: string): Entity {
  return RECORDS.artifact.parse({
    kind: 'artifact',
    id,
    title: `Observation ${id}`,
    summary: `What the candidate sees (${id}).`,
    stages: ['screening'],
    non_inferences: ['It does not establish a cause.'],
    probes: [
      {
        id: `ask-${id.toLowerCase()}`,
        action: 'Ask.',
        agency: 'candidate',
        cost: 'low',
        outcomes: [
          { id: 'yes', observation: 'Yes.' },
          { id: 'no', observation: 'No.' },
        ],
      },
    ],
  });
}

function mechanism(id: string, emits: Array<[artifact: string, fidelity: Fidelity]>, evidence: EvidenceLevel = 'hypothesis'): Entity {
  return RECORDS.mechanism.parse({
    kind: 'mechanism',
    id,
    title: `Mechanism ${id}`,
    summary: `A process (${id}).`,
    family: 'skill-gap',
    facets: { actor: 'recruiter', nature: 'rule', visibility: 'opaque', removability: 'none' },
    operates_at: ['B-001'],
    emits: emits.map(([artifact, fidelity]) => ({ artifact, fidelity })),
    evidence_level: evidence,
  });
}

const registry = (...mechanisms: Entity[]) =>
  new Registry({ manifest, entities: [barrier, artifact('A-001'), artifact('A-002'), ...mechanisms] });

/** The first tier for the observations, as find_compatible_mechanisms and explain list it (they must agree). */
function firstTier(reg: Registry, artifacts: string[]): string[] {
  const listed = findCompatibleMechanisms(reg, { artifacts })
    .mechanisms.filter((m) => m.tier === 'produces')
    .map((m) => m.id);
  const explained = explain(reg, { artifacts })
    .behind.mechanisms.filter((m) => m.tier === 'produces')
    .map((m) => m.id);
  assert.deepEqual(explained, listed, 'explain ranks as find_compatible_mechanisms does');
  return listed;
}

describe('the first tier is ranked by directness, never by likelihood', () => {
  test('the mechanism that accounts for more of the observations comes first (the ID order would say otherwise)', () => {
    const reg = registry(
      mechanism('M-001', [['A-001', 'direct']]),
      mechanism('M-002', [
        ['A-001', 'direct'],
        ['A-002', 'direct'],
      ]),
    );
    assert.deepEqual(firstTier(reg, ['A-001', 'A-002']), ['M-002', 'M-001']);
  });

  test('observations are counted once each: two emissions of one observation count as one', () => {
    // Counting emissions instead would put M-002 first.
    const reg = registry(
      mechanism('M-001', [['A-001', 'direct']]),
      mechanism('M-002', [
        ['A-001', 'direct'],
        ['A-001', 'direct'],
      ]),
    );
    assert.deepEqual(firstTier(reg, ['A-001']), ['M-001', 'M-002']);
  });

  test('only the observations given count: what else a mechanism emits does not move it up', () => {
    const reg = registry(
      mechanism('M-001', [['A-001', 'direct']]),
      mechanism('M-002', [
        ['A-001', 'direct'],
        ['A-002', 'direct'],
      ]),
    );
    assert.deepEqual(firstTier(reg, ['A-001']), ['M-001', 'M-002']);
  });

  test('fidelity comes before the count: a direct emission of one observation ranks above euphemisms of two', () => {
    const reg = registry(
      mechanism('M-001', [
        ['A-001', 'euphemism'],
        ['A-002', 'euphemism'],
      ]),
      mechanism('M-002', [['A-001', 'direct']]),
    );
    assert.deepEqual(firstTier(reg, ['A-001', 'A-002']), ['M-002', 'M-001']);
  });

  test('the count comes before the evidence level', () => {
    const reg = registry(
      mechanism('M-001', [['A-001', 'direct']], 'established'),
      mechanism(
        'M-002',
        [
          ['A-001', 'direct'],
          ['A-002', 'direct'],
        ],
        'hypothesis',
      ),
    );
    assert.deepEqual(firstTier(reg, ['A-001', 'A-002']), ['M-002', 'M-001']);
  });

  test('at equal fidelity and count, the stronger evidence comes first; at equal everything, the ID', () => {
    const stronger = registry(
      mechanism('M-001', [['A-001', 'direct']], 'hypothesis'),
      mechanism('M-002', [['A-001', 'direct']], 'supported'),
    );
    assert.deepEqual(firstTier(stronger, ['A-001']), ['M-002', 'M-001']);
    const equal = registry(mechanism('M-002', [['A-001', 'direct']]), mechanism('M-001', [['A-001', 'direct']]));
    assert.deepEqual(firstTier(equal, ['A-001']), ['M-001', 'M-002']);
  });
});
