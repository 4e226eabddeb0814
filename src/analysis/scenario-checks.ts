// Worked scenarios (S-…) as regression tests: a situation in the candidate's words, the explain input it
// maps to (scenario-input.ts), and the analysis it must produce. checkScenarios runs explain on every
// scenario and lists where the answer and the expectation part, so an edit that changes an answer without
// its expectation is caught.
import type { PathSegment } from '../registry/references.ts';
import type { Registry } from '../registry/registry.ts';
import { problem, type Location, type Problem } from '../registry/rules.ts';
import { explain, type ExplainInput } from './explain.ts';
import { AnalysisError, titled } from './resolve.ts';
import { inputOf, type Scenario } from './scenario-input.ts';
import type { ExplainResult } from './schemas.ts';
import type { TIERS } from './terms.ts';

type Explained = ExplainResult['behind']['mechanisms'][number];
type Tier = (typeof TIERS)[number];

/**
 * The tier of a mechanism in an explain result: `produces` when it emits what was observed, `same-stage`
 * when it only acts where it happened.
 */
export function tierOf(m: Explained): Tier {
  return m.tier;
}

const TIER_WORDS: Record<Tier, string> = {
  produces: 'the first tier (produces what was observed)',
  'same-stage': 'the second tier (only acts at the same stage)',
};

/** One place where the analysis and the expectation part: what, and the field of the scenario it concerns. */
export interface Mismatch {
  path: PathSegment[];
  message: string;
}

/**
 * Where an explain result and a scenario's expectation part, in plain words; empty when they agree.
 * Checks the first tier, the mechanisms that must not appear, the probes offered and the verdict.
 */
export function checkScenario(reg: Registry, scenario: Scenario, result: ExplainResult): string[] {
  return mismatchesOf(reg, scenario, result).map((m) => m.message);
}

function mismatchesOf(reg: Registry, scenario: Scenario, result: ExplainResult): Mismatch[] {
  const name = (id: string) => {
    const e = reg.get(id);
    return e && e.kind !== 'source' ? titled(e) : id;
  };
  const listed = new Map(result.behind.mechanisms.map((m) => [m.id, tierOf(m)] as const));
  const excluded = new Map(result.behind.excluded.map((m) => [m.id, m.by] as const));
  const ruledOut = new Map(result.behind.ruled_out.map((m) => [m.id, m] as const));
  const mismatches: Mismatch[] = [];
  const { expect } = scenario;

  expect.first_tier.forEach((id, i) => {
    const tier = listed.get(id);
    if (tier === 'produces') return;
    const by = excluded.get(id);
    const rule = ruledOut.get(id);
    const where =
      tier !== undefined
        ? `it is in ${TIER_WORDS[tier]}`
        : by !== undefined
          ? `it is excluded by ${by.map((b) => `${b.probe} → ${b.outcome}`).join(', ')}`
          : rule !== undefined
            ? `${rule.by} rules it out (${rule.reason.replace(/\.$/, '')})`
            : 'it does not appear at all';
    mismatches.push({
      path: ['expect', 'first_tier', i],
      message: `${name(id)} should be in the first tier (produces what was observed), but ${where}.`,
    });
  });
  expect.absent.forEach((id, i) => {
    const tier = listed.get(id);
    if (tier !== undefined)
      mismatches.push({
        path: ['expect', 'absent', i],
        message: `${name(id)} should not appear at all, but it is in ${TIER_WORDS[tier]}.`,
      });
  });
  const offered = new Set(result.agency.probes.map((p) => p.id));
  const idle = new Set(result.agency.other_probes.map((p) => p.probe));
  expect.probes.forEach((probe, i) => {
    if (offered.has(probe)) return;
    const why = idle.has(probe)
      ? 'it is listed only among the probes that cannot narrow the remaining set'
      : result.input.probes.some((p) => p.probe === probe)
        ? 'its outcome is already given in the input'
        : 'no probe of that ID belongs to the scenario’s artifacts';
    mismatches.push({ path: ['expect', 'probes', i], message: `Probe ${probe} should be offered, but ${why}.` });
  });
  if (result.agency.verdict.code !== expect.verdict) {
    mismatches.push({
      path: ['expect', 'verdict'],
      message: `The verdict should be ${expect.verdict}, but explain gives ${result.agency.verdict.code}: “${result.agency.verdict.text}”`,
    });
  }
  return mismatches;
}

export interface ScenarioCheck {
  id: string;
  title: string;
  mismatches: string[];
}

/** Runs explain on one scenario's input and checks the result against its expectation. */
export function runScenario(reg: Registry, scenario: Scenario): { result?: ExplainResult; mismatches: Mismatch[] } {
  const input: ExplainInput = inputOf(scenario);
  let result: ExplainResult;
  try {
    // Unbounded: a mechanism that must not appear is looked for in the whole second tier.
    result = explain(reg, input, Infinity);
  } catch (error) {
    if (error instanceof AnalysisError)
      return { mismatches: [{ path: ['input'], message: `explain rejects the scenario’s input: ${error.message}` }] };
    throw error;
  }
  return { result, mismatches: mismatchesOf(reg, scenario, result) };
}

const activeScenarios = (reg: Registry) => reg.all('scenario').filter((s) => s.status === 'active');

/** Every active scenario, checked against explain: the atlas's regression suite. Sorted by ID. */
export function checkScenarios(reg: Registry): ScenarioCheck[] {
  return activeScenarios(reg).map((s) => ({ id: s.id, title: s.title, mismatches: runScenario(reg, s).mismatches.map((m) => m.message) }));
}

/**
 * The scenario-expectation problems of an atlas, for `hoba validate`: one per mismatch, at the line of the
 * expectation it concerns. Scenarios that already have an error (`skip`) are not run: that error says more.
 * The registry cannot run the analysis (it sits below it), so the CLI merges these into its report.
 */
export function scenarioProblems(
  reg: Registry,
  locate: (id: string, path: readonly PathSegment[]) => Location = () => ({}),
  skip: ReadonlySet<string> = new Set(),
): Problem[] {
  return activeScenarios(reg)
    .filter((s) => !skip.has(s.id))
    .flatMap((s) =>
      runScenario(reg, s).mismatches.map((m) =>
        problem(
          'scenario-expectation',
          `${m.message} Update the expectation if the new answer is right, or fix the content that changed it.`,
          {
            entity: s.id,
            ...locate(s.id, m.path),
          },
        ),
      ),
    );
}
