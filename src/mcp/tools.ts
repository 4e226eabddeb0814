// The ten MCP tools, defined once: name, title, a description written for a model, a bounded zod input
// schema, an output schema derived from the analysis result schemas, and the analysis call behind it.
// Both variants register from this list; the hosted one leaves out what only makes sense for a checkout.
import { z } from 'zod';
import {
  AnalysisError,
  CompatibleMechanisms,
  MAX_QUERY_LENGTH,
  DiagnosticProbes,
  ExplainResult,
  Interventions,
  Methodology,
  Neighbourhood,
  NodeView,
  PatternMatches,
  SearchResult,
  explain,
  findCompatibleMechanisms,
  findInterventions,
  findPatterns,
  getDiagnosticProbes,
  getNode,
  methodology,
  traverse,
  type AtlasSearch,
  type CompatibleMechanism,
} from '../analysis/index.ts';
import { MAX_DEPTH } from '../analysis/terms.ts';
import { KINDS, Manifest, RELATIONS, STAGES } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import { capList, summaryOnly, withTruncation, type Truncation } from './compact.ts';

export type Variant = 'local' | 'hosted';

/** What the tools read. */
export interface ToolAtlas {
  registry: Registry;
  /** The search index, built or loaded on first use. */
  search(): AtlasSearch;
  /** Where the atlas came from, reported by get_registry_info. */
  origin: { from: 'checkout' | 'bundled snapshot'; checkout?: string; content_hash?: string };
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Listed by the hosted variant too. */
  hosted: boolean;
  run(atlas: ToolAtlas, args: z.output<I>): z.output<O>;
}

const tool = <I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>) => def as unknown as ToolDefinition;

// ── shared inputs ───────────────────────────────────────────────────────────────────────────────────

/** IDs are read leniently ("a-9" is A-009); the analysis layer resolves them and names close matches. */
const id = (example: string) => z.string().trim().min(1).max(20).describe(`An atlas ID such as ${example}`);
const ids = (example: string, what: string, max = 10) => z.array(id(example)).min(1).max(max).describe(what);
const stage = z.enum(STAGES).describe('Funnel stage where it happened; by default the observations’ own stages');
const detail = z
  .enum(['summary', 'full'])
  .default('summary')
  .describe('summary (default) leaves out per-item notes and caps long lists; full returns everything');
const limit = (dflt: number, max: number, what: string) =>
  z.int().min(1).max(max).default(dflt).describe(`Most ${what} to return (default ${dflt}, at most ${max})`);

const UNCALIBRATED = 'Results are topological and uncalibrated: compatible, not proven, and never a probability.';

// ── compacting explanations ─────────────────────────────────────────────────────────────────────────

/**
 * Caps a mechanism list without reordering it: the mechanisms that emit a given artifact and the honest
 * baselines are kept first, then the rest in ID order, so a cut never hides the most direct matches.
 */
function capMechanisms(list: CompatibleMechanism[], max: number, path: string, truncated: Truncation[]): CompatibleMechanism[] {
  if (list.length <= max) return list;
  const rank = (m: CompatibleMechanism) => (m.compatible_because.emits.length > 0 ? 0 : m.honest_baseline ? 1 : 2);
  const keep = new Set([...list].sort((a, b) => rank(a) - rank(b)).slice(0, max).map((m) => m.id));
  truncated.push({
    list: path,
    shown: max,
    total: list.length,
    more: `Kept the ${max} most direct (those emitting a given observation, then honest baselines); call again with a higher limit (the full list has ${list.length}) or use get_node on any ID named elsewhere in the result.`,
  });
  return list.filter((m) => keep.has(m.id));
}

// ── the tools ───────────────────────────────────────────────────────────────────────────────────────

const RegistryInfo = z
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
      'Describes the atlas this server reads: its content version (registry_version), release date, licences, how many entities of each kind it holds, and which checkout it comes from. Use it to cite the version you relied on or to check that a local checkout is the one you expect. Takes no arguments.',
    input: z.strictObject({}),
    output: RegistryInfo,
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
      'Full-text search over every kind of entity (observations/artifacts, barriers, mechanisms, patterns, loops, interventions, sources): IDs, titles, aliases, summaries and body text, with prefix and typo tolerance. Use it first to turn what a person describes ("ghosted after the final interview", "salary lowered at offer") into atlas IDs, then pass artifact IDs to explain_observation. Returns ranked hits with kind, title and summary; exact ID matches come first; when nothing matches it suggests close terms.',
    input: z.strictObject({
      query: z.string().trim().min(1).max(MAX_QUERY_LENGTH).describe(`Words to look for, or an ID (at most ${MAX_QUERY_LENGTH} characters)`),
      kinds: z.array(z.enum(KINDS)).max(KINDS.length).optional().describe('Only these kinds (default: all)'),
      limit: limit(10, 50, 'results'),
    }),
    output: SearchResult,
    hosted: true,
    run: (atlas, { query, kinds, limit }) => atlas.search().search(query, { kinds: kinds ?? [], limit }),
  }),

  tool({
    name: 'get_node',
    title: 'One entity with its relations',
    description:
      'Returns one entity by ID (any kind), with all its fields, every relation read in both directions (what a mechanism emits and where it operates, what masks it, which interventions target it, which patterns require an artifact…), its citations (a withdrawn, repealed, contested or superseded source carries a caveat: never present withdrawn guidance or repealed law as current), and, for a deprecated ID, its successor. Use it to read the detail behind an ID another tool returned. Artifacts carry their non-inferences (what the observation does NOT establish) and diagnostic probes.',
    input: z.strictObject({
      id: id('M-001 or A-009'),
      detail,
      limit: limit(60, 500, 'relations'),
    }),
    output: withTruncation(NodeView),
    hosted: true,
    run: ({ registry }, args) => {
      const view = getNode(registry, args.id);
      const truncated: Truncation[] = [];
      const relations = capList(view.relations, args.limit, 'relations', truncated, 'call again with a higher limit, or use traverse_graph for the neighbourhood');
      const out = { ...view, relations, ...(truncated.length ? { truncated_lists: truncated } : {}) };
      return args.detail === 'full' ? out : summaryOnly(out, ['note', 'risk']);
    },
  }),

  tool({
    name: 'explain_observation',
    title: 'Explain what an observation can and cannot mean (HOBA)',
    description:
      'Runs the HOBA protocol on what a candidate observed. H: resolves the artifact IDs (find them with search_registry). O: the funnel barriers at the given stage, or at the observations’ stages. B: every mechanism compatible with the facts (union of: operates at an identified barrier, emits a given observation; honest baselines such as a genuine skill gap or a stronger candidate always stay on the table), with evidence level, facets and emission fidelity; related patterns and loops; what the facts do NOT establish; and, in source_caveats, cited sources that are not current (withdrawn guidance, repealed law, contested findings). A: who could remove each mechanism (candidate, intermediary, no one), the diagnostic probes that would tell the remaining mechanisms apart, and a verdict (run-probe, act-on-candidate-removable, low-signal, nothing-left). Report outcomes of probes already run in `probes` to narrow the set (only explicit exclusions narrow it). ' +
      UNCALIBRATED +
      ' Never present a compatible mechanism as the cause.',
    input: z.strictObject({
      artifacts: ids('A-009', 'Artifact (observation) IDs, as found with search_registry'),
      stage: stage.optional(),
      probes: z
        .array(
          z.strictObject({
            probe: z.string().trim().min(1).max(80).describe('Probe ID, from a previous result'),
            outcome: z.string().trim().min(1).max(80).describe('Outcome ID of that probe'),
          }),
        )
        .max(20)
        .optional()
        .describe('Outcomes of probes already run'),
      detail,
      limit: limit(20, 60, 'compatible mechanisms'),
    }),
    output: withTruncation(ExplainResult),
    hosted: true,
    run: ({ registry }, args) => {
      const result = explain(registry, {
        artifacts: args.artifacts,
        ...(args.stage ? { stage: args.stage } : {}),
        ...(args.probes ? { probes: args.probes } : {}),
      });
      if (args.detail === 'full') return result;
      const truncated: Truncation[] = [];
      const mechanisms = capMechanisms(result.behind.mechanisms, args.limit, 'behind.mechanisms', truncated);
      const probes = capList(result.agency.probes, 5, 'agency.probes', truncated, 'call again with detail "full", or use get_diagnostic_probes');
      const out = { ...result, behind: { ...result.behind, mechanisms }, agency: { ...result.agency, probes }, ...(truncated.length ? { truncated_lists: truncated } : {}) };
      return summaryOnly(out, ['note', 'risk']);
    },
  }),

  tool({
    name: 'find_compatible_mechanisms',
    title: 'Mechanisms compatible with observations',
    description:
      'Lists the mechanisms compatible with a set of observations (artifact IDs), a funnel stage, or barrier IDs: those that emit a given observation plus those that operate at an identified barrier, with honest baselines always included. Each comes with why it is compatible, its evidence level, facets and what it masks or amplifies. Use it when you need the candidate explanations without the full HOBA report. ' +
      UNCALIBRATED,
    input: z.strictObject({
      artifacts: ids('A-001', 'Artifact IDs').optional(),
      stage: stage.optional(),
      barriers: ids('B-005', 'Barrier IDs, named directly').optional(),
      detail,
      limit: limit(20, 60, 'mechanisms'),
    }),
    output: withTruncation(CompatibleMechanisms),
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
      const mechanisms = capMechanisms(result.mechanisms, args.limit, 'mechanisms', truncated);
      return summaryOnly({ ...result, mechanisms, ...(truncated.length ? { truncated_lists: truncated } : {}) }, ['note']);
    },
  }),

  tool({
    name: 'get_diagnostic_probes',
    title: 'Probes that tell mechanisms apart',
    description:
      'Returns the diagnostic probes of the given observations: concrete steps a candidate (or an intermediary such as a referrer) can take, with cost, risk and possible outcomes, and for each outcome which of the mechanisms under consideration it would rule out. Probes that can narrow the set come first, candidate-runnable and cheapest first. By default the probes are weighed against the mechanisms compatible with the observations; pass `mechanisms` to weigh them against your own shortlist. Feed observed outcomes back into explain_observation.',
    input: z.strictObject({
      artifacts: ids('A-009', 'Artifact IDs whose probes to return'),
      mechanisms: ids('M-031', 'Mechanisms to weigh the probes against (default: those compatible)', 60).optional(),
      stage: stage.optional(),
      detail,
      limit: limit(10, 60, 'probes'),
    }),
    output: withTruncation(DiagnosticProbes),
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
      'Finds the named patterns (double binds, reversals, silences, impossibilities…) that match given observations or mechanisms: triggered when every required observation is given, partial when some are (with the missing ones listed, which tells you what else to look for). Each pattern says what the configuration establishes and what it does NOT establish. With no arguments, lists every pattern.',
    input: z.strictObject({
      artifacts: ids('A-016', 'Artifact IDs').optional(),
      mechanisms: ids('M-019', 'Mechanism IDs').optional(),
      limit: limit(10, 50, 'patterns'),
    }),
    output: withTruncation(PatternMatches),
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
      'Returns the interventions that target or mitigate the given mechanisms, barriers, loops or patterns: changes an employer, hiring team, recruiting team, vendor, regulator or job platform can make (not advice to candidates), with expected effects, how to measure them, known trade-offs or evidence of harm, cost and evidence level. A mechanism also reaches the interventions aimed at a loop it belongs to.',
    input: z.strictObject({
      ids: ids('M-013 or L-003', 'Mechanism, barrier, loop or pattern IDs'),
      limit: limit(10, 50, 'interventions'),
    }),
    output: withTruncation(Interventions),
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
    description: `Walks the typed graph from one entity, breadth-first, up to a depth of 1 to ${MAX_DEPTH}, following the chosen relations (default: all but cites) outwards, inwards or both. Returns the nodes with their distance and the edges followed (source, target, relation, fidelity for emits). Use it to see what surrounds a mechanism or a pattern, or how two entities connect.`,
    input: z.strictObject({
      id: id('M-029'),
      depth: z.int().min(1).max(MAX_DEPTH).default(1).describe(`Steps from the start (1 to ${MAX_DEPTH}, default 1)`),
      direction: z.enum(['out', 'in', 'both']).default('both').describe('Follow edges out of, into, or both ways from each node'),
      relations: z.array(z.enum(RELATIONS)).max(RELATIONS.length).optional().describe('Relations to follow (default: every relation but cites)'),
      limit: limit(60, 300, 'nodes (the start included)'),
    }),
    output: withTruncation(Neighbourhood),
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
      'Returns the method behind every answer: the HOBA protocol, the rules of inference (an observation is not a cause; a compatible mechanism is not a proven one; honest baselines stay on the table), evidence levels, emission fidelities, mechanism facets, verdict codes, and every vocabulary with its meaning. Read it before interpreting results for a person. Pass `section` for one section only.',
    input: z.strictObject({
      section: z.string().trim().min(1).max(60).optional().describe('One section ID (e.g. hoba, rules-of-inference, evidence); default all'),
    }),
    output: Methodology,
    hosted: true,
    run: ({ registry }, args) => {
      const m = methodology(registry);
      if (args.section === undefined) return m;
      const sections = m.sections.filter((s) => s.id === args.section);
      if (sections.length === 0) {
        throw new AnalysisError('invalid-argument', `"${args.section}" is not a section. Use one of: ${m.sections.map((s) => s.id).join(', ')}.`, [], m.sections.map((s) => s.id));
      }
      return { ...m, sections };
    },
  }),
];

export function toolsFor(variant: Variant): readonly ToolDefinition[] {
  return TOOLS.filter((t) => variant === 'local' || t.hosted);
}
