// The ten MCP tools, defined once: name, title, a description written for a model, a bounded zod input
// schema, the shape of the result (derived from the analysis result schemas, compact: see output-schema.ts)
// and the analysis call behind it. Both variants register from this list; the hosted one leaves out what
// only makes sense for a checkout.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  AnalysisError,
  BarrierRef,
  Citation,
  CompatibleMechanism,
  CompatibleMechanisms,
  DiagnosticProbes,
  EntityRef,
  ExplainedArtifact,
  CandidateItem,
  CandidateView,
  DateLine,
  DeadlineView,
  ExplainResult,
  Interventions,
  MAX_QUERY_LENGTH,
  METHODOLOGY_SECTIONS,
  Methodology,
  Neighbourhood,
  NextStepView,
  NodeView,
  PatternMatch,
  PatternMatches,
  ProbeOutcomeView,
  ProbeView,
  SearchResult,
  Verdict,
  SourceCaveat,
  explain,
  findCompatibleMechanisms,
  findInterventions,
  findPatterns,
  getDiagnosticProbes,
  getNode,
  methodology,
  readsAsAccount,
  searchIndexOf,
  traverse,
  type AtlasSearch,
} from '../analysis/index.ts';
import { accountReader, MAX_ACCOUNT_LENGTH, MAX_MESSAGE_LENGTH, readerModelOf } from '../analysis/reader.ts';
import type { ReaderModel } from '../analysis/reader-model.ts';
import { MAX_DEPTH } from '../analysis/terms.ts';
import { listTotal } from '../analysis/protocol.ts';
import { KINDS, Manifest, RELATIONS, STAGES } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import type { OpenedAtlas } from '../registry/snapshot.ts';
import { capList, summaryOnly, withTruncation, type Truncation } from './compact.ts';
import { compactOutput, inputSchemaOf, once, opened, projectTo, type ArgumentRule } from './output-schema.ts';

export type Variant = 'local' | 'hosted';

/** The methodology's vocabularies by name (get_methodology's section may name one). */
const VOCABULARIES = Object.keys(Methodology.shape.vocabularies.shape) as Array<keyof Methodology['vocabularies']>;

/** What the tools read. */
export interface ToolAtlas {
  registry: Registry;
  /** The search index, built or loaded on first use. */
  search(): AtlasSearch;
  /** The situation reader's model (the snapshot's, else trained on first use). */
  reader(): ReaderModel;
  /** Where the atlas came from, reported by get_registry_info. */
  origin: { from: 'checkout' | 'bundled snapshot'; checkout?: string; content_hash?: string };
}

/** What the tools read, from an opened atlas: a checkout's (local) or the bundled snapshot (hosted). No
 * file access here: the edge worker (src/worker/) builds its atlas with it too. */
export function toolAtlas(atlas: OpenedAtlas, checkout?: string): ToolAtlas {
  let search: AtlasSearch | undefined;
  let reader: ReaderModel | undefined;
  return {
    registry: atlas.registry,
    search: () => (search ??= searchIndexOf(atlas)),
    reader: () => (reader ??= readerModelOf(atlas)),
    origin:
      checkout !== undefined
        ? { from: 'checkout', checkout, content_hash: atlas.content_hash }
        : { from: 'bundled snapshot', content_hash: atlas.content_hash },
  };
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, R = unknown> {
  name: string;
  title: string;
  description: string;
  /** The arguments, as zod (built on first use): they bound every input. */
  arguments: () => I;
  /** The input schema registered with the SDK: validates and parses with `arguments`, its JSON Schema built once. */
  input: StandardSchemaWithJSON<z.input<I>, z.output<I>>;
  /** What every result looks like (built on first use): a zod schema whose objects are open, so detail "full" may add fields. */
  shape: () => z.ZodType;
  /** The output schema registered with the SDK: validates with the shape, advertises its compact JSON Schema. */
  output: StandardSchemaWithJSON;
  /** Listed by the hosted variant too. */
  hosted: boolean;
  run(atlas: ToolAtlas, args: z.output<I>): R;
}

// A tool's schemas are written as functions and built on its first use: a server started for one call
// builds that tool's schemas only (see once in output-schema.ts).
type ToolSpec<I extends z.ZodObject, S extends z.ZodType> = Omit<
  ToolDefinition<I, z.output<S>>,
  'arguments' | 'input' | 'output' | 'shape'
> & {
  input: () => I;
  shape: () => S;
  /** Arguments of which exactly one, or at least one, must be given (advertised as oneOf or anyOf). */
  rule?: ArgumentRule;
};
const tool = <I extends z.ZodObject, S extends z.ZodType>({ input, shape, rule, ...spec }: ToolSpec<I, S>) => {
  const [args, result] = [once(input), once(shape)];
  return {
    ...spec,
    arguments: args,
    input: inputSchemaOf(args, rule),
    shape: result,
    output: compactOutput(result),
  } as unknown as ToolDefinition;
};

// ── shared inputs ───────────────────────────────────────────────────────────────────────────────────

/** IDs are read leniently ("a-9" is A-009); the analysis layer resolves them and names close matches. */
const id = (example: string) => z.string().trim().min(1).max(20).describe(`An atlas ID such as ${example}`);
const ids = (example: string, what: string, max = 10) => z.array(id(example)).min(1).max(max).describe(what);
const stage = once(() => z.enum(STAGES).describe('Funnel stage where it happened; by default the observations’ own stages'));
const detail = once(() =>
  z.enum(['summary', 'full']).default('summary').describe('summary (default): brief items, capped lists; full: everything'),
);
const limit = (dflt: number, max: number, what: string) =>
  z.int().min(1).max(max).default(dflt).describe(`Most ${what} to return (default ${dflt}, at most ${max})`);

/** Plain words for explain_observation: a few paragraphs at most, as the analysis reads them. */
const MAX_TEXT_LENGTH = MAX_ACCOUNT_LENGTH;

const UNCALIBRATED = 'Results are topological and uncalibrated: compatible, not proven, and never a probability.';

// ── result shapes ───────────────────────────────────────────────────────────────────────────────────
// What the summary of each result holds, picked from the analysis result schemas. A summary returns
// exactly these fields; detail "full" returns the whole analysis result, whose objects carry more fields
// (the advertised objects are open, so both validate against the same output schema).

/**
 * A compatible mechanism in brief. The second tier ("same-stage") keeps only id, title and tier: its tier
 * says why it is listed (it acts at the stage and produces none of what was observed).
 */
const MechanismBrief = once(() =>
  CompatibleMechanism.pick({ id: true, title: true, tier: true }).extend(
    CompatibleMechanism.pick({ why: true, evidence_level: true, honest_baseline: true }).partial().shape,
  ),
);
const BarrierBrief = once(() => BarrierRef.pick({ id: true, title: true, stage: true }));
const CitationBrief = once(() => Citation.pick({ id: true, cite: true, status: true, caveat: true }));
/**
 * A probe in brief: what to do, who can and at what cost, and the outcomes that would rule something out
 * here. Its risk, the notes, and the outcomes that rule nothing out (they leave the analysis as it is) are
 * in detail "full" and get_diagnostic_probes.
 */
const ProbeBrief = once(() =>
  ProbeView.pick({ id: true, action: true, agency: true, cost: true, narrows_first_tier: true }).extend({
    artifact: EntityRef.pick({ id: true }),
    outcomes: z.array(ProbeOutcomeView.pick({ id: true, observation: true, narrows: true })),
  }),
);
const ExplainShape = once(() =>
  withTruncation(
    ExplainResult.extend({
      // The words given are the caller's own: a summary says what the reader made of them (the observations
      // with the words quoted, what was denied, the questions to put to the person, not covered, the
      // message's tell-tale lines), without echoing the words or the message.
      // Advertised as an open object (tools/list stays within 30 KB); its fields are those of FromText.
      input: ExplainResult.shape.input.extend({ from_text: z.looseObject({}).optional() }),
      // The outcomes reported are in input.probes; what they excluded is in behind.excluded.
      hard_facts: z.object({ artifacts: z.array(ExplainedArtifact.pick({ id: true, title: true, stages: true, status: true })) }),
      obstacle: ExplainResult.shape.obstacle.extend({ barriers: z.array(BarrierBrief()) }),
      // Loops (which causal cycles the mechanisms belong to) are in detail "full".
      behind: ExplainResult.shape.behind.omit({ loops: true }).extend({
        mechanisms: z.array(MechanismBrief()),
        patterns: z.array(PatternMatch.pick({ id: true, title: true, match: true, missing: true })),
        // A source that is not current keeps its caveat even in a summary: it says how to read what rests on it.
        source_caveats: z.array(SourceCaveat.pick({ id: true, cite: true, status: true, caveat: true, cited_by: true })),
      }),
      // The split of the second tier (same_stage), the probes that cannot narrow (other_probes) and the law
      // notes are in detail "full"; a summary keeps the legal notice and which jurisdictions have notes.
      agency: ExplainResult.shape.agency.omit({ same_stage: true, other_probes: true, law: true }).extend({
        // The law notes' time limits as dates (from `on`, for `where`): what a person acts on, in brief.
        deadlines: z.array(DeadlineView.pick({ where: true, line: true }).extend({ dates: z.array(DateLine.pick({ date: true })) })),
        law_jurisdictions: z
          .array(z.string())
          .optional()
          .describe('Jurisdictions with law notes on these observations (the notes, with time limits, are in detail "full")'),
        probes: z.array(ProbeBrief()),
        // The verdict's code and sentence; its details restate the probes, mechanisms and next steps above.
        verdict: Verdict.pick({ code: true, text: true }),
        next_steps: z.array(
          NextStepView.pick({ id: true, action: true, by_when: true }).extend({
            artifact: EntityRef.pick({ id: true }),
            // Sources by ID: a source that is not current is also in behind.source_caveats, with its caveat.
            citations: z.array(Citation.pick({ id: true, caveat: true }).partial({ caveat: true })),
          }),
        ),
      }),
      // The plain answer: its lead and each explanation's line; the details are in detail "full".
      candidate: CandidateView.pick({ heading: true, lead: true }).extend({
        groups: z.array(z.object({ label: z.string(), items: z.array(CandidateItem.pick({ id: true, title: true, relevant_if: true })) })),
      }),
    }),
  ),
);
type ExplainSummary = z.output<ReturnType<typeof ExplainShape>>;
const MechanismsShape = once(() =>
  withTruncation(CompatibleMechanisms.extend({ barriers: z.array(BarrierBrief()), mechanisms: z.array(MechanismBrief()) })),
);

/**
 * Caps a mechanism list: it is ranked (first tier first), so a cut never hides the most direct matches.
 * The analysis may have cut the list already (`cuts`, its truncated_lists): the recorded cut then keeps
 * the whole list's length and says how to get past the analysis's own bound. `truncated` receives the
 * analysis's cuts and this one, one entry per list.
 */
function capMechanisms<T extends { tier: string }>(
  list: T[],
  max: number,
  path: string,
  cuts: readonly Truncation[] | undefined,
  truncated: Truncation[],
  how = 'raise limit, or use detail "full"',
): T[] {
  const earlier = cuts?.find((t) => t.list === path);
  truncated.push(...(cuts ?? []).filter((t) => t !== earlier));
  if (list.length <= max) {
    if (earlier) truncated.push(earlier);
    return list;
  }
  const first = list.filter((m) => m.tier === 'produces').length;
  const total = listTotal({ truncated_lists: cuts }, path, list.length);
  const which = max < first ? '(first-tier ones among them)' : 'of the second tier (they only act at the same stage)';
  const past = earlier ? ` Past the first ${list.length}: ${earlier.more}` : '';
  truncated.push({ list: path, shown: max, total, more: `${total - max} more ${which}: ${how}.${past}` });
  return list.slice(0, max);
}

/** A mechanism in brief: the second tier only names itself and its tier. */
function briefMechanism<T extends { tier: string }>(m: T): T {
  if (m.tier === 'produces') {
    // Only the honest baselines say so; false is the rule.
    const { honest_baseline, ...rest } = m as T & { honest_baseline?: boolean };
    return (honest_baseline ? m : rest) as T;
  }
  const {
    why: _w,
    evidence_level: _e,
    honest_baseline: _h,
    ...brief
  } = m as T & Record<'why' | 'evidence_level' | 'honest_baseline', unknown>;
  return brief as unknown as T;
}

/**
 * What a summary of an explanation may weigh, in bytes of JSON: it is sent twice (as text and as
 * structured content), and one observation's summary should leave room in an assistant's context.
 */
export const SUMMARY_BUDGET = 8 * 1024;
const MAX_SUMMARY_PROBES = 2;
const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** How much of an explanation a summary keeps: each rung of explainSummary's ladder sets these. */
interface SummaryCut {
  probes: number;
  steps: number;
  /** The fewest mechanisms kept (the most is `limit`): the first tier's length, or 1 on the last rungs. */
  floor: number;
  /** Non-inferences kept per observation. */
  perArtifact: number;
  /** Barriers, patterns and ruled-out mechanisms kept (the last rungs, for many unrelated observations at once). */
  others: number;
  /** Whether the plain answer keeps its groups (they name the same explanations as behind.mechanisms): only the first rung. */
  groups: boolean;
}

/**
 * The summary of an explanation: the fields of ExplainShape, the second tier in brief, lists capped by
 * `max` mechanisms, two probes and every next step. Over SUMMARY_BUDGET it cuts, in this order until it
 * fits: the second tier from its end, the probes after the first, the next steps after the first two,
 * the last probe, the next steps after the first, the last next step; then (many observations at once,
 * or a long account naming several) the first tier from its end down to one, the non-inferences,
 * evenly, down to one per observation, and last the barriers, patterns, ruled-out mechanisms, deadlines and
 * source caveats to three, then one, then none (each cut said). Deadlines repeated by several observations are said once. Each time it
 * first tries the most of the mechanisms that fits. The verdict is never cut. Every cut is said in truncated_lists, with detail
 * "full" as the way to the rest.
 */
function explainSummary(result: ExplainResult, max: number): ExplainSummary {
  const all = result.behind.mechanisms;
  const first = all.filter((m) => m.tier === 'produces').length;
  const steps = result.agency.next_steps.length;
  const byArtifact = new Map<string, number>();
  for (const n of result.behind.non_inferences) byArtifact.set(n.from, (byArtifact.get(n.from) ?? 0) + 1);
  const perArtifact = Math.max(0, ...byArtifact.values());
  // The tool says why (a summary keeps to SUMMARY_BUDGET); each cut says only where the rest is.
  const fullDetail = 'use detail "full"';
  const build = (shown: number, cut: SummaryCut): ExplainSummary => {
    const truncated: Truncation[] = [];
    const how = shown < Math.min(max, all.length) ? fullDetail : undefined;
    const mechanisms = capMechanisms(all, shown, 'behind.mechanisms', result.truncated_lists, truncated, how);
    const probes = capList(
      result.agency.probes,
      cut.probes,
      'agency.probes',
      truncated,
      'call again with detail "full", or use get_diagnostic_probes',
    );
    const nextSteps = capList(result.agency.next_steps, cut.steps, 'agency.next_steps', truncated, fullDetail);
    const counts = new Map<string, number>();
    const nonInferences = result.behind.non_inferences.filter((n) => {
      const seen = (counts.get(n.from) ?? 0) + 1;
      counts.set(n.from, seen);
      return seen <= cut.perArtifact;
    });
    const cutNonInferences = result.behind.non_inferences.length - nonInferences.length;
    if (cutNonInferences > 0) {
      truncated.push({
        list: 'behind.non_inferences',
        shown: nonInferences.length,
        total: result.behind.non_inferences.length,
        more: `${cutNonInferences} more (the first ${cut.perArtifact} of each observation; pass them on): ${fullDetail}.`,
      });
    }
    // A list the analysis cut already keeps its whole length in the one entry that says the cut.
    const capWhole = <T>(list: readonly T[], max: number, path: string, how: string): T[] => {
      if (list.length <= max) return [...list];
      const total = listTotal({ truncated_lists: result.truncated_lists }, path, list.length);
      const earlier = truncated.findIndex((t) => t.list === path);
      if (earlier >= 0) truncated.splice(earlier, 1);
      truncated.push({ list: path, shown: max, total, more: `${total - max} more: ${how}.` });
      return list.slice(0, max);
    };
    const barriers = capWhole(result.obstacle.barriers, cut.others, 'obstacle.barriers', fullDetail);
    const patterns = capWhole(result.behind.patterns, cut.others, 'behind.patterns', 'use find_patterns, or detail "full"');
    const ruledOut = capWhole(result.behind.ruled_out, cut.others, 'behind.ruled_out', fullDetail);
    // Only the outcomes that would rule something out here: the others leave the analysis as it is.
    const narrowing = probes.map((p) => ({ ...p, outcomes: p.outcomes.filter((o) => o.narrows.length > 0) }));
    const jurisdictions = [...new Set(result.agency.law.map((n) => n.jurisdiction))];
    const agency = {
      ...result.agency,
      probes: narrowing,
      next_steps: nextSteps,
      ...(jurisdictions.length > 0 ? { law_jurisdictions: jurisdictions } : {}),
    };
    const obstacle = { ...result.obstacle, barriers };
    const behind = { ...result.behind, mechanisms, patterns, ruled_out: ruledOut, non_inferences: nonInferences };
    const out = projectTo<ExplainSummary>(ExplainShape(), { ...result, obstacle, behind, agency });
    out.behind.mechanisms = out.behind.mechanisms.map(briefMechanism);
    // Two observations under one law note give the same deadline twice; in brief (no artifact) it is one line.
    const deadlines = [...new Map(out.agency.deadlines.map((d) => [JSON.stringify(d), d])).values()];
    out.agency.deadlines = capWhole(deadlines, cut.others, 'agency.deadlines', fullDetail);
    out.behind.source_caveats = capWhole(out.behind.source_caveats, cut.others, 'behind.source_caveats', fullDetail);
    // What the reader made of the words, without echoing them (the shape advertises it as an open object).
    if (result.input.from_text) {
      const { text: _text, message: _message, answered: _answered, ...reading } = result.input.from_text;
      (out.input as { from_text?: unknown }).from_text = reading;
    }
    if (!cut.groups && out.candidate.groups.length > 0) {
      const items = out.candidate.groups.reduce((n, g) => n + g.items.length, 0);
      out.candidate.groups = [];
      truncated.push({
        list: 'candidate.groups',
        shown: 0,
        total: items,
        more: `the plain answer's explanations, grouped: ${fullDetail} (behind.mechanisms names them)`,
      });
    }
    if (truncated.length) out.truncated_lists = truncated;
    else delete out.truncated_lists;
    return out;
  };
  const most = Math.min(max, all.length);
  const tier = Math.min(first, most);
  // The rungs, in order; each is tried with the most mechanisms that fit, between `floor` and `most`.
  const ladder: SummaryCut[] = [];
  const rung = (probes: number, stepCount: number, floor = tier, kept = perArtifact, others = Infinity, groups = false) =>
    ladder.push({ probes, steps: Math.min(steps, stepCount), floor: Math.min(floor, most), perArtifact: kept, others, groups });
  // First the plain answer whole; then its groups go before anything else is cut.
  rung(MAX_SUMMARY_PROBES, steps, tier, perArtifact, Infinity, true);
  for (let p = MAX_SUMMARY_PROBES; p >= 1; p--) rung(p, steps);
  if (steps > 2) rung(1, 2);
  rung(0, 2);
  if (steps > 1) rung(0, 1);
  if (steps > 0) rung(0, 0);
  if (tier > 1) rung(0, 0, 1);
  for (let k = perArtifact - 1; k >= 1; k--) rung(0, 0, 1, k);
  rung(0, 0, 1, 1, 3);
  rung(0, 0, 1, 1, 1);
  rung(0, 0, 1, 1, 0);
  let out = build(most, ladder[0]!);
  for (const cut of ladder) {
    out = build(most, cut);
    if (byteLength(out) <= SUMMARY_BUDGET) return out;
    // Does it fit with the mechanisms cut to the floor? If not, go to the next rung.
    const smallest = build(cut.floor, cut);
    if (byteLength(smallest) > SUMMARY_BUDGET) {
      out = smallest;
      continue;
    }
    // Start from an estimate (the entries' own sizes, from the end), then step down until it fits.
    let over = byteLength(out) - SUMMARY_BUDGET;
    let shown = most;
    while (over > 0 && shown > cut.floor) over -= byteLength(out.behind.mechanisms[--shown]) + 1;
    for (shown = Math.min(most, shown + 1); shown > cut.floor; shown--) {
      out = build(shown, cut);
      if (byteLength(out) <= SUMMARY_BUDGET) return out;
    }
    return smallest;
  }
  return out;
}

/** What explain_observation explains: exactly one of these. */
// The person's words are one way in, as text, a pasted message, or both.
const EXPLAIN_INPUTS = ['artifacts', 'scenario', ['text', 'message']] as const;

// ── the tools ───────────────────────────────────────────────────────────────────────────────────────

const RegistryInfo = () =>
  z
    .strictObject({
      registry_version: Manifest.shape.registry_version,
      name: Manifest.shape.name,
      description: Manifest.shape.description,
      schema_version: Manifest.shape.schema_version,
      description_version: Manifest.shape.description_version,
      licences: Manifest.shape.licences,
      released: Manifest.shape.released,
      counts: z.strictObject(Object.fromEntries(KINDS.map((k) => [k, z.int().min(0)])) as Record<(typeof KINDS)[number], z.ZodInt>),
      edges: z.int().min(0).describe('Number of typed edges in the graph'),
      from: z.enum(['checkout', 'bundled snapshot']).describe('Where this server reads the atlas from'),
      checkout: z.string().optional().describe('The checkout served (local variant)'),
      content_hash: z.string().optional().describe('sha256 of the checkout’s content/ (what snapshots and the static mirror are keyed on)'),
    })
    .describe('The atlas this server serves: versions, licences, counts and origin');

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'get_registry_info',
    title: 'Atlas version and contents',
    description:
      'Describes the atlas this server reads: content version (registry_version), release date, licences, entity counts by kind, and the checkout it comes from. Use it to cite the version you relied on or to check the checkout. No arguments.',
    input: () => z.strictObject({}),
    shape: RegistryInfo,
    hosted: false,
    run: ({ registry, origin }) => {
      const m = registry.manifest;
      return {
        registry_version: m.registry_version,
        name: m.name,
        description: m.description,
        schema_version: m.schema_version,
        description_version: m.description_version,
        licences: m.licences,
        released: m.released,
        counts: Object.fromEntries(KINDS.map((k) => [k, registry.all(k).length])) as Record<(typeof KINDS)[number], number>,
        edges: registry.edges.length,
        ...origin,
      };
    },
  }),

  tool({
    name: 'search_registry',
    title: 'Search the atlas',
    description:
      'Full-text search over every kind (IDs, titles, aliases, summaries, body text), tolerant of everyday words and typos: turns a description into IDs for explain_observation. Exact IDs first; an account of six words or more is also read, and the observations it states come next (`read`). Close terms suggested when little matches. English only.',
    input: () =>
      z.strictObject({
        query: z
          .string()
          .trim()
          .min(1)
          .max(MAX_QUERY_LENGTH)
          .describe(`Words to look for, or an ID (at most ${MAX_QUERY_LENGTH} characters)`),
        kinds: z.array(z.enum(KINDS)).max(KINDS.length).optional().describe('Only these kinds (default: all)'),
        limit: limit(10, 50, 'results'),
      }),
    shape: () => SearchResult,
    hosted: true,
    run: (atlas, { query, kinds, limit }) =>
      atlas.search().search(query, {
        kinds: kinds ?? [],
        limit,
        // An account of what happened is read too: the observations it states come after exact IDs.
        ...(readsAsAccount(query, kinds) ? { read: accountReader(atlas.registry, atlas.reader()) } : {}),
      }),
  }),

  tool({
    name: 'get_node',
    title: 'One entity with its relations',
    description:
      'One entity by ID (any kind) with all its fields (in `entity`, as its kind’s schema defines it), every relation in both directions, its citations (a source that is not current carries a caveat: never present withdrawn guidance or repealed law as current) and, for a deprecated ID, its successor. Use it for the detail behind an ID another tool returned. Artifacts carry what they do NOT establish, probes and next steps. detail "summary" leaves out probe notes and risks.',
    input: () =>
      z.strictObject({
        id: id('M-001 or A-009'),
        detail: detail(),
        limit: limit(60, 500, 'relations'),
      }),
    shape: () => withTruncation(NodeView.extend({ entity: EntityRef.pick({ id: true, kind: true }), citations: z.array(CitationBrief()) })),
    hosted: true,
    run: ({ registry }, args) => {
      const view = getNode(registry, args.id);
      const truncated: Truncation[] = [];
      const relations = capList(
        view.relations,
        args.limit,
        'relations',
        truncated,
        'call again with a higher limit, or use traverse_graph for the neighbourhood',
      );
      const out = { ...view, relations, ...(truncated.length ? { truncated_lists: truncated } : {}) };
      return args.detail === 'full' ? out : summaryOnly(out, ['note', 'risk']);
    },
  }),

  tool({
    name: 'explain_observation',
    title: 'Explain what an observation can and cannot mean (HOBA)',
    description:
      'Runs the HOBA protocol on what a candidate observed, exactly one of: `artifacts` (IDs), `scenario` (S-…, see hoba://scenario/…), or their `text` and/or a `message` they got. ' +
      'input.from_text: what the words state (quoted), deny, ask (answer with `picks`), or find not_covered. ' +
      'Returns the barriers; mechanisms in two tiers, "produces" (ranked by directness, not likelihood; each says why) then "same-stage"; ruled_out with reasons; patterns; what the facts do NOT establish (always pass it on); probes that tell mechanisms apart; next_steps (what the candidate can still do whatever the cause); and a verdict. Report probe outcomes in `probes` and call again: only explicit exclusions narrow. ' +
      '`candidate`: the plain answer for a person (show it first); `on` and `where` give agency.deadlines dates (not legal advice). ' +
      'A summary keeps to about 8 KB (cuts are said in truncated_lists); detail "full" returns everything. ' +
      UNCALIBRATED +
      ' Never present a compatible mechanism as the cause.',
    input: () =>
      z.strictObject({
        artifacts: ids('A-009', 'Observation (artifact) IDs you already know').optional(),
        scenario: id('S-003').optional().describe('A worked scenario (S-…): a preset of observations, stage and probe outcomes'),
        text: z.string().trim().min(1).max(MAX_TEXT_LENGTH).optional().describe('What happened, in their words'),
        message: z.string().trim().min(1).max(MAX_MESSAGE_LENGTH).optional().describe('A message, as pasted'),
        picks: z.array(z.string().trim().min(1).max(20)).max(10).optional().describe('Answers to questions'),
        stage: stage().optional(),
        on: z.iso.date().optional().describe('The date it happened'),
        where: z.string().trim().min(2).max(40).optional().describe('Where: a name or code (California, uk, us-ca…)'),
        probes: z
          .array(
            z.strictObject({
              probe: z.string().trim().min(1).max(80).describe('Probe ID, from a previous result'),
              outcome: z.string().trim().min(1).max(80).describe('Outcome ID of that probe'),
            }),
          )
          .max(20)
          .optional()
          .describe('Outcomes of probes already run (added to a scenario’s own)'),
        detail: detail(),
        limit: limit(16, 60, 'compatible mechanisms, first tier first'),
      }),
    shape: ExplainShape,
    rule: { exactlyOne: EXPLAIN_INPUTS },
    hosted: true,
    run: (atlas, args) => {
      const { registry } = atlas;
      const words = args.text !== undefined || args.message !== undefined;
      const given = [...(['artifacts', 'scenario'] as const).filter((k) => args[k] !== undefined), ...(words ? ['text' as const] : [])];
      if (given.length !== 1) {
        throw new AnalysisError(
          'invalid-argument',
          `${given.length === 0 ? 'Nothing to explain' : `Both ${given.join(' and ')} were given`}: give exactly one of artifacts (observation IDs such as ["A-009"]), scenario (a preset such as "S-003") or the person’s words (text, and/or a pasted message).`,
          [],
          ['artifacts', 'scenario', 'text', 'message'],
        );
      }
      if (args.picks !== undefined && !words)
        throw new AnalysisError(
          'invalid-argument',
          'picks answer the questions asked about text or a message: give them with the same text (and message).',
          [],
          ['text', 'message'],
        );
      // Words are read with the reader's model: open it the way this server does (from the snapshot when
      // there is one), so that the analysis reuses it instead of training its own.
      if (words) atlas.reader();
      const result = explain(registry, {
        ...(args.artifacts ? { artifacts: args.artifacts } : {}),
        ...(args.scenario !== undefined ? { scenario: args.scenario } : {}),
        ...(args.text !== undefined ? { text: args.text } : {}),
        ...(args.message !== undefined ? { message: args.message } : {}),
        ...(args.picks !== undefined ? { picks: args.picks } : {}),
        ...(args.stage ? { stage: args.stage } : {}),
        ...(args.probes ? { probes: args.probes } : {}),
        ...(args.on !== undefined ? { on: args.on } : {}),
        ...(args.where !== undefined ? { where: args.where } : {}),
      });
      return args.detail === 'full' ? result : explainSummary(result, args.limit);
    },
  }),

  tool({
    name: 'find_compatible_mechanisms',
    title: 'Mechanisms compatible with observations',
    description:
      'Mechanisms compatible with observations (artifact IDs), a stage or barrier IDs, in two tiers: "produces" (emits a given observation; most direct first) then "same-stage" (only operates at an identified barrier), each with why; ruled_out apart, with reasons. detail "full" adds summaries, facets, emissions and what each masks or amplifies. The explanations without the full HOBA report. ' +
      UNCALIBRATED,
    input: () =>
      z.strictObject({
        artifacts: ids('A-001', 'Artifact IDs').optional(),
        stage: stage().optional(),
        barriers: ids('B-005', 'Barrier IDs, named directly').optional(),
        detail: detail(),
        limit: limit(20, 60, 'mechanisms'),
      }),
    shape: MechanismsShape,
    rule: { atLeastOne: ['artifacts', 'stage', 'barriers'] },
    hosted: true,
    run: ({ registry }, args) => {
      if (!args.artifacts && !args.stage && !args.barriers) {
        throw new AnalysisError('invalid-argument', 'Give at least one of: artifacts, stage, barriers.');
      }
      const result = findCompatibleMechanisms(registry, {
        ...(args.artifacts ? { artifacts: args.artifacts } : {}),
        ...(args.stage ? { stage: args.stage } : {}),
        ...(args.barriers ? { barriers: args.barriers } : {}),
      });
      if (args.detail === 'full') return result;
      const truncated: Truncation[] = [];
      const mechanisms = capMechanisms(result.mechanisms, args.limit, 'mechanisms', result.truncated_lists, truncated);
      const out = projectTo<z.output<ReturnType<typeof MechanismsShape>>>(MechanismsShape(), { ...result, mechanisms });
      out.mechanisms = out.mechanisms.map(briefMechanism);
      return truncated.length ? { ...out, truncated_lists: truncated } : out;
    },
  }),

  tool({
    name: 'get_diagnostic_probes',
    title: 'Probes that tell mechanisms apart',
    description:
      'The diagnostic probes of given observations: steps the candidate (alone or through a lawful route) or an intermediary can take, with cost, risk and outcomes, each saying which mechanisms under consideration it would rule out. Narrowing probes first, the candidate’s own and cheapest first. Weighed against the compatible mechanisms, or against `mechanisms` if given. Feed outcomes back into explain_observation.',
    input: () =>
      z.strictObject({
        artifacts: ids('A-009', 'Artifact IDs whose probes to return'),
        mechanisms: ids('M-031', 'Mechanisms to weigh the probes against (default: those compatible)', 60).optional(),
        stage: stage().optional(),
        detail: detail(),
        limit: limit(10, 60, 'probes'),
      }),
    shape: () => withTruncation(DiagnosticProbes.extend({ probes: z.array(ProbeBrief()) })),
    hosted: true,
    run: ({ registry }, args) => {
      const result = getDiagnosticProbes(registry, {
        artifacts: args.artifacts,
        ...(args.mechanisms ? { mechanisms: args.mechanisms } : {}),
        ...(args.stage ? { stage: args.stage } : {}),
      });
      const truncated: Truncation[] = [];
      const probes = capList(result.probes, args.limit, 'probes', truncated, 'call again with a higher limit');
      const out = { ...result, probes, ...(truncated.length ? { truncated_lists: truncated } : {}) };
      return args.detail === 'full' ? out : summaryOnly(out, ['note']);
    },
  }),

  tool({
    name: 'find_patterns',
    title: 'Recurring patterns',
    description:
      'Named patterns (double binds, reversals, silences…) matching given observations or mechanisms: triggered when every required observation is given, partial when some are (the missing ones say what else to look for). Each says what it establishes and what it does NOT. No arguments: every pattern.',
    input: () =>
      z.strictObject({
        artifacts: ids('A-016', 'Artifact IDs').optional(),
        mechanisms: ids('M-019', 'Mechanism IDs').optional(),
        limit: limit(10, 50, 'patterns'),
      }),
    shape: () => withTruncation(PatternMatches),
    hosted: true,
    run: ({ registry }, args) => {
      const result = findPatterns(registry, {
        ...(args.artifacts ? { artifacts: args.artifacts } : {}),
        ...(args.mechanisms ? { mechanisms: args.mechanisms } : {}),
      });
      const truncated: Truncation[] = [];
      const patterns = capList(result.patterns, args.limit, 'patterns', truncated, 'call again with a higher limit');
      return { ...result, patterns, ...(truncated.length ? { truncated_lists: truncated } : {}) };
    },
  }),

  tool({
    name: 'get_interventions',
    title: 'Interventions by system actors',
    description:
      'Interventions targeting or mitigating given mechanisms, barriers, loops or patterns: changes employers, hiring teams, vendors, regulators or platforms can make (not advice to candidates), with expected effects, measurements, trade-offs, cost and evidence level. A mechanism also reaches those aimed at its loops.',
    input: () =>
      z.strictObject({
        ids: ids('M-013 or L-003', 'Mechanism, barrier, loop or pattern IDs'),
        limit: limit(10, 50, 'interventions'),
      }),
    shape: () => withTruncation(Interventions),
    hosted: true,
    run: ({ registry }, args) => {
      const result = findInterventions(registry, args.ids);
      const truncated: Truncation[] = [];
      const interventions = capList(result.interventions, args.limit, 'interventions', truncated, 'call again with a higher limit');
      return { ...result, interventions, ...(truncated.length ? { truncated_lists: truncated } : {}) };
    },
  }),

  tool({
    name: 'traverse_graph',
    title: 'Graph neighbourhood',
    description: `Walks the typed graph from one entity, breadth-first, to a depth of 1 to ${MAX_DEPTH}, following the chosen relations (default: all but cites) out, in or both ways. Returns the nodes with their distance and the edges followed. Use it to see what surrounds an entity or how two connect.`,
    input: () =>
      z.strictObject({
        id: id('M-029'),
        depth: z.int().min(1).max(MAX_DEPTH).default(1).describe(`Steps from the start (1 to ${MAX_DEPTH}, default 1)`),
        direction: z.enum(['out', 'in', 'both']).default('both').describe('Follow edges out of, into, or both ways from each node'),
        relations: z
          .array(z.enum(RELATIONS))
          .max(RELATIONS.length)
          .optional()
          .describe('Relations to follow (default: every relation but cites)'),
        limit: limit(60, 300, 'nodes (the start included)'),
      }),
    shape: () => withTruncation(Neighbourhood),
    hosted: true,
    run: ({ registry }, args) => {
      const result = traverse(registry, args.id, {
        depth: args.depth,
        direction: args.direction,
        limit: args.limit,
        ...(args.relations ? { relations: args.relations } : {}),
      });
      if (!result.truncated) return result;
      const more = `the node limit stopped the walk: call again with a higher limit (at most 300), a smaller depth, or fewer relations`;
      return { ...result, truncated_lists: [{ list: 'nodes', shown: result.nodes.length, more }] };
    },
  }),

  tool({
    name: 'get_methodology',
    title: 'How to read the atlas',
    description:
      'The method behind every answer: rules of inference (an observation is not a cause; a compatible mechanism is not a proven one), the HOBA protocol, tiers, probes and lawful routes, next steps, scenarios, the situation reader (words and messages in, questions, what the atlas does not cover), evidence levels, fidelities, facets, and every vocabulary with its meaning. Read it before interpreting results for a person. With no `section`: the summary, the legal notice and the table of contents (each section\u2019s ID and title). `section` returns one section\u2019s text, "vocabularies" every vocabulary, a vocabulary\u2019s name that vocabulary, "all" everything (about 38 KB).',
    input: () =>
      z.strictObject({
        section: z
          .enum(['all', ...METHODOLOGY_SECTIONS, 'vocabularies', ...VOCABULARIES] as [string, ...string[]])
          .optional()
          .describe('A section ID, "vocabularies", one vocabulary by name, or "all"; default: the table of contents'),
      }),
    // The vocabularies list their own values (each with its meaning), so their IDs are advertised as strings.
    shape: () =>
      Methodology.partial({ title: true, summary: true, legal_notice: true }).extend({
        sections: z.array(Methodology.shape.sections.element.partial({ body: true })),
        vocabularies: opened(Methodology.shape.vocabularies, { enumsAsStrings: true }).partial().optional(),
        contents: z.string().optional().describe('How to read the table of contents: which section values to call again with'),
      }),
    hosted: true,
    run: ({ registry }, args) => {
      const m = methodology(registry);
      const { registry_version } = m;
      switch (args.section) {
        case undefined:
          return {
            registry_version,
            title: m.title,
            summary: m.summary,
            sections: m.sections.map(({ id, title }) => ({ id, title })),
            contents: `The table of contents. Call again with section set to a section ID above for its text, to "vocabularies" for every vocabulary with its meanings, to one vocabulary (${VOCABULARIES.join(', ')}), or to "all" for everything.`,
            legal_notice: m.legal_notice,
          };
        case 'all':
          return m;
        case 'vocabularies':
          return { registry_version, sections: [], vocabularies: m.vocabularies };
      }
      // A section first: "facets" names both a section and a vocabulary (which "vocabularies" includes).
      const sections = m.sections.filter((s) => s.id === args.section);
      const vocabulary = VOCABULARIES.find((v) => v === args.section);
      if (sections.length === 0 && vocabulary)
        return { registry_version, sections: [], vocabularies: { [vocabulary]: m.vocabularies[vocabulary] } };
      return { registry_version, sections };
    },
  }),
];

export function toolsFor(variant: Variant): readonly ToolDefinition[] {
  return TOOLS.filter((t) => variant === 'local' || t.hosted);
}
