// explain_observation: the HOBA protocol (protocol.ts) for what a person observed, given in one of three
// ways: artifact IDs, a worked scenario (a preset of artifacts, stage and probe outcomes), or a
// description in plain words, matched to artifacts with the search index. The result always says which
// artifacts were analysed, and for a scenario or words, where they came from and why.
//
// The CLI imports protocol.ts directly for IDs, and this module only for a scenario or words, so that
// `hoba explain A-009` does not load the search index at start-up.
import type { Registry } from '../registry/registry.ts';
import { matchObservations } from './observe.ts';
import { explainArtifacts, type ArtifactsInput, type InputOrigin, type ProbeOutcomeInput } from './protocol.ts';
import { AnalysisError, resolveEntity } from './resolve.ts';
import { scenarioInput } from './scenarios.ts';
import type { ExplainResult } from './schemas.ts';
import { LISTED_MAX } from './terms.ts';

export { explainArtifacts, type ArtifactsInput, type InputOrigin, type ProbeOutcomeInput } from './protocol.ts';

export interface ExplainInput {
  /** Observed artifacts, as IDs. Give exactly one of artifacts, scenario and text. */
  artifacts?: readonly string[];
  /** A worked scenario's ID (S-…): its artifacts, stage and probe outcomes. */
  scenario?: string;
  /** What happened, in the person's own words (English): matched to artifacts. */
  text?: string;
  /** Funnel stage where it happened; by default the scenario's, else the artifacts' own stages. */
  stage?: string;
  /** Outcomes of probes already run (added to a scenario's own). */
  probes?: readonly ProbeOutcomeInput[];
  /** The date of what happened (YYYY-MM-DD) and where the person is (uk, us-ca, eu-de…): deadlines become dates. */
  on?: string;
  where?: string;
  /** Dates of other events (a request sent, Acas early conciliation), when known. */
  dates?: ArtifactsInput['dates'];
}

/**
 * explain_observation: the HOBA protocol for observed artifacts, a scenario, or a description in words.
 * `max` bounds the second tier, as explainArtifacts says.
 */
export function explain(reg: Registry, input: ExplainInput, max = LISTED_MAX): ExplainResult {
  const ways = [input.artifacts !== undefined && input.artifacts.length > 0, input.scenario !== undefined, input.text !== undefined];
  if (ways.filter(Boolean).length > 1) {
    throw new AnalysisError(
      'invalid-argument',
      'Give what you observed in one way only: artifact IDs (such as A-009), a scenario (such as S-001), or your own words.',
    );
  }
  const extra = input.probes ?? [];
  const when = { ...(input.on !== undefined ? { on: input.on } : {}), ...(input.where !== undefined ? { where: input.where } : {}), ...(input.dates ? { dates: input.dates } : {}) };
  if (input.scenario !== undefined) {
    const scenario = resolveEntity(reg, input.scenario, ['scenario'], 'a scenario preset');
    const preset = scenarioInput(reg, scenario.id);
    const stage = input.stage ?? preset.stage;
    const origin: InputOrigin = { scenario: { id: scenario.id, title: scenario.kind === 'source' ? scenario.cite : scenario.title } };
    return explainArtifacts(reg, { artifacts: preset.artifacts, ...(stage !== undefined ? { stage } : {}), probes: [...preset.probes, ...extra], ...when }, origin, max);
  }
  if (input.text !== undefined) {
    const found = matchObservations(reg, input.text);
    const from_text = { text: found.text, matched: found.matched.map((m) => ({ id: m.id, title: m.title, why: m.why })) };
    return explainArtifacts(reg, { artifacts: from_text.matched.map((m) => m.id), ...(input.stage !== undefined ? { stage: input.stage } : {}), probes: extra, ...when }, { from_text }, max);
  }
  return explainArtifacts(reg, { artifacts: input.artifacts ?? [], ...(input.stage !== undefined ? { stage: input.stage } : {}), probes: extra, ...when }, {}, max);
}
