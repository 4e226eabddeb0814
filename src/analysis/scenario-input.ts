// Worked scenarios (S-…) as presets: a scenario's ID gives the explain input it maps to (`hoba explain
// --scenario S-003`, MCP, REST). Pure lookups: explain imports this module, and the checks that run
// explain on every scenario are scenario-checks.ts.
import type { EntityOfKind, Registry } from '../registry/registry.ts';
import { resolveEntity } from './resolve.ts';

export type Scenario = EntityOfKind<'scenario'>;

/** The explain input a scenario presets. */
export interface ScenarioInput {
  artifacts: string[];
  stage?: string;
  probes: Array<{ probe: string; outcome: string }>;
}

/** The scenario an ID names. Throws AnalysisError (unknown-id with close matches, or invalid-argument). */
export function getScenario(reg: Registry, id: string): Scenario {
  return resolveEntity(reg, id, ['scenario'], 'a scenario preset') as Scenario;
}

/** The explain input of scenario `id` (an unknown ID throws AnalysisError unknown-id, with suggestions). */
export function scenarioInput(reg: Registry, id: string): ScenarioInput {
  return inputOf(getScenario(reg, id));
}

export function inputOf(scenario: Scenario): ScenarioInput {
  const { artifacts, stage, probes } = scenario.input;
  return {
    artifacts: [...artifacts],
    ...(stage !== undefined ? { stage } : {}),
    probes: probes.map((p) => ({ probe: p.probe, outcome: p.outcome })),
  };
}
