// explain_observation: the HOBA protocol (protocol.ts) for what a person observed, given in one of three
// ways: artifact IDs, a worked scenario (a preset of artifacts, stage and probe outcomes), or a
// description in plain words and/or a pasted message, read by the situation reader (reader.ts). The result
// always says which artifacts were analysed, and for a scenario or words, where they came from and why.
// Words that only raise a question, or lie outside the atlas, give a result with nothing analysed and a
// verdict that says so (answer-first, not-covered).
//
// The CLI imports protocol.ts directly for IDs, and this module only for a scenario or words, so that
// `hoba explain A-009` does not load the search index at start-up.
import type { Registry } from '../registry/registry.ts';
import { explainArtifacts, type ArtifactsInput, type InputOrigin, type ProbeOutcomeInput } from './protocol.ts';
import { candidateView } from './candidate.ts';
import { readSituation, type Reading } from './reader.ts';
import { AnalysisError, resolveEntity } from './resolve.ts';
import { scenarioInput } from './scenario-input.ts';
import type { ExplainResult } from './schemas.ts';
import { LISTED_MAX, UNCALIBRATED_NOTICE } from './terms.ts';

export { explainArtifacts, type ArtifactsInput, type InputOrigin, type ProbeOutcomeInput } from './protocol.ts';

export interface ExplainInput {
  /** Observed artifacts, as IDs. Give exactly one of artifacts, scenario and text. */
  artifacts?: readonly string[];
  /** A worked scenario's ID (S-…): its artifacts, stage and probe outcomes. */
  scenario?: string;
  /** What happened, in the person's own words (English): read by the situation reader. */
  text?: string;
  /** A message the person received, pasted as it is: read with the words (or alone). */
  message?: string;
  /** Answers to the reader's questions: the observation chosen for each (e.g. A-046). */
  picks?: readonly string[];
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
  const words = input.text !== undefined || input.message !== undefined;
  const ways = [input.artifacts !== undefined && input.artifacts.length > 0, input.scenario !== undefined, words];
  if (ways.filter(Boolean).length > 1) {
    throw new AnalysisError(
      'invalid-argument',
      'Give what you observed in one way only: artifact IDs (such as A-009), a scenario (such as S-001), or your own words (and any message you received).',
    );
  }
  const extra = input.probes ?? [];
  const when = {
    ...(input.on !== undefined ? { on: input.on } : {}),
    ...(input.where !== undefined ? { where: input.where } : {}),
    ...(input.dates ? { dates: input.dates } : {}),
  };
  if (input.scenario !== undefined) {
    const scenario = resolveEntity(reg, input.scenario, ['scenario'], 'a scenario preset');
    const preset = scenarioInput(reg, scenario.id);
    const stage = input.stage ?? preset.stage;
    const origin: InputOrigin = { scenario: { id: scenario.id, title: scenario.kind === 'source' ? scenario.cite : scenario.title } };
    return explainArtifacts(
      reg,
      { artifacts: preset.artifacts, ...(stage !== undefined ? { stage } : {}), probes: [...preset.probes, ...extra], ...when },
      origin,
      max,
    );
  }
  if (words) {
    const reading = readSituation(reg, {
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...(input.picks ? { picks: input.picks } : {}),
    });
    const from_text = fromTextOf(reading);
    if (reading.observations.length === 0) {
      if (reading.questions.length > 0 || reading.not_covered) return unanalysed(reg, from_text, input.stage);
      throw new AnalysisError('not-found', nothingStated(reading));
    }
    return explainArtifacts(
      reg,
      {
        artifacts: reading.observations.map((m) => m.id),
        ...(input.stage !== undefined ? { stage: input.stage } : {}),
        probes: extra,
        ...when,
      },
      { from_text },
      max,
    );
  }
  return explainArtifacts(
    reg,
    { artifacts: input.artifacts ?? [], ...(input.stage !== undefined ? { stage: input.stage } : {}), probes: extra, ...when },
    {},
    max,
  );
}

/** The reader's reading as the result carries it (input.from_text). */
export function fromTextOf(r: Reading): NonNullable<ExplainResult['input']['from_text']> {
  return {
    text: r.text,
    ...(r.message !== undefined ? { message: r.message } : {}),
    matched: r.observations.map((o) => ({
      id: o.id,
      title: o.title,
      why: o.why,
      quotes: o.quotes,
      from: o.from,
      ...(o.check ? { check: o.check } : {}),
    })),
    denied: r.denied,
    questions: r.questions,
    ...(r.not_covered ? { not_covered: r.not_covered } : {}),
    message_tells: r.message_tells,
    answered: r.answered,
  };
}

const EXAMPLES = '"no reply after the final interview", "offer withdrawn after I accepted", "asked about the gap in my CV"';

/** Why nothing was read from the words, and what to do. */
function nothingStated(r: Reading): string {
  const denied =
    r.denied.length > 0 ? ` You said it was not ${r.denied.map((d) => `${d.id} (${d.title})`).join(' or ')}, so that is not analysed.` : '';
  return `No observation in the atlas is stated clearly enough in ${r.text !== '' ? 'that description' : 'that message'} to explain it.${denied} Say what you saw or were told and when, in a few words (e.g. ${EXAMPLES}), find the observation with hoba search, or give artifact IDs such as A-009.`;
}

/**
 * A result with nothing analysed: the words raised a question that needs an answer first, or lie outside
 * the atlas. The reading says which, and the verdict what to do.
 */
function unanalysed(reg: Registry, from_text: NonNullable<ExplainResult['input']['from_text']>, stage: string | undefined): ExplainResult {
  const asks = from_text.questions.length > 0 && !from_text.not_covered;
  const verdict = asks
    ? {
        code: 'answer-first' as const,
        text: `Answer first: ${from_text.questions.map((q) => q.ask).join(' ')} Your answer decides which observation is analysed.`,
        details: from_text.questions.flatMap((q) => q.options.map((o) => `${o.answer}: ${o.artifact} ${o.title}`)),
      }
    : {
        code: 'not-covered' as const,
        text: `Not covered: ${from_text.not_covered!.topics.length > 0 ? `${from_text.not_covered!.topics.map((t) => t.title.toLowerCase()).join('; ')} lies outside the atlas.` : 'this lies outside the atlas.'} ${from_text.not_covered!.covers}`,
        details: from_text.not_covered!.topics.map((t) => t.instead),
      };
  const result: Omit<ExplainResult, 'candidate'> = {
    registry_version: reg.version,
    notice: UNCALIBRATED_NOTICE,
    input: { artifacts: [], ...(stage !== undefined ? { stage: stage as never } : {}), probes: [], from_text },
    hard_facts: { artifacts: [], observed: [] },
    obstacle: { stages: [], from: 'artifacts', barriers: [] },
    behind: { mechanisms: [], excluded: [], ruled_out: [], patterns: [], loops: [], non_inferences: [], source_caveats: [] },
    agency: {
      candidate: [],
      intermediary: [],
      none: [],
      same_stage: { candidate: [], intermediary: [], none: [] },
      probes: [],
      other_probes: [],
      next_steps: [],
      law: [],
      deadlines: [],
      verdict,
    },
  };
  return { ...result, candidate: candidateView(reg, result, []) };
}
