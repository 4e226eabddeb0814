// The shape of every analysis result, as zod, defined once. The analysis functions are typed by these
// (type-only imports, so zod stays off the CLI's start-up path); the MCP server uses them as tool
// output schemas (z.toJSONSchema(schema, { io: 'output' })) and the tests validate results against them.
// Entity records reuse the content schemas of src/model, tagged with their kind.
import { z } from 'zod';
import {
  ACTORS,
  COSTS,
  DAY_COUNTS,
  LIMIT_EVENTS,
  LIMIT_UNITS,
  EFFECT_LEVELS,
  EVIDENCE_LEVELS,
  FIDELITIES,
  INTERVENTION_ACTORS,
  JURISDICTIONS,
  KINDS,
  NATURES,
  PROBE_AGENCIES,
  RELATIONS,
  REMOVABILITIES,
  STATUSES,
  TOPICS,
  VIEWPOINTS,
  VISIBILITIES,
  Barrier,
  Edge,
  Emission,
  EntityRecord as EntityRecordSchema,
  Intervention,
  LawNote,
  Mechanism,
  NextStep,
  Pattern,
  Probe,
  ProbeOutcome,
  Source,
  EvidenceLevelSchema,
  StageSchema,
} from '../model/index.ts';
import { PLAIN_GROUPS } from '../model/plain.ts';
import { TIERS, VERDICT_CODES } from './terms.ts';

const Id = z.string().describe('A permanent atlas ID, such as A-009 or M-001');
const RegistryVersion = z.string().describe('Version of the atlas content the result was computed from (semver)');
const KindSchema = z.enum(KINDS).describe('Entity kind');
const RelationSchema = z.enum(RELATIONS).describe('Typed, directed graph relation');

/** A short pointer to an entity: enough to name it in a list. */
export const EntityRef = z
  .strictObject({
    id: Id,
    kind: KindSchema,
    title: z.string(),
    status: z.enum(STATUSES).describe('deprecated entities still resolve; see their successor'),
  })
  .describe('A reference to an atlas entity');

// ── search ────────────────────────────────────────────────────────────────────────────────────────

export const SearchHit = z
  .strictObject({
    id: Id,
    kind: KindSchema,
    title: z.string(),
    summary: z.string(),
    status: z.enum(STATUSES),
    exact: z.boolean().describe('True when the query named this ID'),
    score: z.number().describe('Relevance (BM25, boosted by field); only the order is meaningful'),
    matched: z.array(z.string()).describe('Index terms the query matched (normalised)'),
    read: z
      .strictObject({
        quote: z.string().describe('The words of the query that state it, as typed (empty when none stand out)'),
        open: z
          .boolean()
          .describe('True when the words leave two readings open and this is one of them (explain_observation with the text asks which)'),
      })
      .optional()
      .describe(
        'Present when the query reads as an account of what happened (six words or more) and the situation reader reads it as stating this observation; such hits come right after exact IDs',
      ),
  })
  .describe('One search result');

export const SearchResult = z
  .strictObject({
    registry_version: RegistryVersion,
    query: z.string(),
    kinds: z.array(KindSchema).describe('Kinds searched (all when the request named none)'),
    total: z
      .int()
      .min(0)
      .describe(
        'Number of relevant matches before the limit: those scoring at least 30% of the best match (exact IDs and the observations read from an account always count)',
      ),
    results: z
      .array(SearchHit)
      .describe(
        'Exact ID matches first; then, when the query reads as an account of what happened, the observations the situation reader reads it as stating (`read`); then the best matches',
      ),
    suggestions: z.array(z.string()).describe('Close terms to try when nothing (or little) matched'),
  })
  .describe('Full-text search over every kind: IDs, titles, aliases, summaries and body text');

// ── entity view ───────────────────────────────────────────────────────────────────────────────────

export const RelationLink = z
  .strictObject({
    relation: RelationSchema,
    direction: z.enum(['out', 'in']).describe('out: this entity is the edge source; in: the target'),
    label: z.string().describe('The relation read from this entity, e.g. "emits" or "masked by"'),
    node: EntityRef.describe('The entity at the other end'),
    fidelity: z.enum(FIDELITIES).optional().describe('For emits: how faithfully the artifact reflects the mechanism'),
  })
  .describe('A graph edge seen from one of its ends');

/** How to read a source whose status is not current (see sourceCaveat in node.ts). */
const Caveat = z
  .string()
  .describe(
    'Present when the source is not current, and says how to read it: withdrawn guidance (taken down) and repealed law (no longer in force) must not be read as current; a contested finding is disputed; a superseded one is replaced by a later source',
  );

/** A cited source: the fields of the source a citation shows, and a caveat when it is not current. */
export const Citation = Source.pick({
  id: true,
  cite: true,
  title: true,
  year: true,
  venue: true,
  url: true,
  doi: true,
  peer_reviewed: true,
  status: true,
})
  .extend({
    title: z.string().describe('Title (the short citation where the bibliography records no title)'),
    venue: z.string().describe('Where it appeared (empty where the bibliography records none)'),
    caveat: Caveat.optional(),
  })
  .describe('A cited source');

/** A source that is not current, with the entities of a result that rely on it. */
export const SourceCaveat = Citation.extend({
  caveat: Caveat,
  cited_by: z.array(Id).describe('The entities of this result that cite it'),
}).describe('A cited source that is not current (withdrawn, repealed, contested or superseded)');

export const ProbeExclusion = z
  .strictObject({
    artifact: EntityRef,
    probe: z.string(),
    outcome: z.string(),
    observation: z.string(),
  })
  .describe('A probe outcome that rules a mechanism out');

export const NodeView = z
  .strictObject({
    registry_version: RegistryVersion,
    node: EntityRef,
    entity: EntityRecordSchema,
    successor: EntityRef.optional().describe('For a deprecated entity: the active entity that replaces it'),
    predecessors: z.array(EntityRef).describe('Deprecated entities this one replaces'),
    relations: z.array(RelationLink).describe('Every edge touching the entity, outgoing first, in relation order'),
    ruled_out_by: z.array(ProbeExclusion).describe('For a mechanism: the probe outcomes that exclude it'),
    citations: z.array(Citation).describe('The sources the entity cites'),
    caveat: Caveat.optional().describe(
      'For a source that is not current: how to read it (withdrawn guidance and repealed law are not current)',
    ),
    legal_notice: z.string().optional().describe('Present when the entity carries law notes: they are not legal advice'),
  })
  .describe('One entity with its relations in both directions and its citations');

// ── compatible mechanisms ─────────────────────────────────────────────────────────────────────────

export const CompatibleMechanism = Mechanism.pick({
  id: true,
  title: true,
  summary: true,
  family: true,
  facets: true,
  evidence_level: true,
  honest_baseline: true,
})
  .extend({
    tier: z
      .enum(TIERS)
      .describe(
        'produces: it emits a given observation (first tier); same-stage: it only acts at an identified barrier and is not recorded as producing what was observed (second tier)',
      ),
    why: z.string().describe('One plain sentence saying why the mechanism is listed, naming the observation or barrier by title'),
    compatible_because: z
      .strictObject({
        emits: z.array(Emission).describe('Given artifacts this mechanism emits, with fidelity'),
        operates_at: z.array(Id).describe('Identified barriers this mechanism operates at'),
      })
      .describe('Why the mechanism is on the table'),
    amplifies: z.array(EntityRef),
    masks: z.array(EntityRef),
    amplified_by: z.array(EntityRef),
    masked_by: z.array(EntityRef),
  })
  .describe('A mechanism compatible with the facts: compatible, not proven');

export const RuledOutMechanism = z
  .strictObject({
    id: Id,
    title: z.string(),
    by: Id.describe('The given artifact (observation) that rules it out'),
    reason: z.string().describe('Why that observation rules the mechanism out'),
  })
  .describe('A mechanism acting at the same stage that a given observation rules out, with the reason');

export const BarrierRef = Barrier.pick({ id: true, title: true, stage: true, order: true, pass_condition: true }).describe(
  'A barrier of the funnel',
);

const Notice = z.string().describe('States that the result is topological and uncalibrated (no probabilities)');

/** A list cut short: the analysis bounds the lists that grow with the atlas, and the MCP tools their summaries. */
export const Truncation = z
  .strictObject({
    list: z.string().describe('The list that was cut, as a path in the result'),
    shown: z.int().min(0),
    total: z.int().min(0).optional().describe('Length of the whole list, when known'),
    more: z.string().describe('How to get the rest'),
  })
  .describe('A list cut short to keep the result compact');

const TruncatedLists = z
  .array(Truncation)
  .optional()
  .describe(
    'Present when lists were cut short (the second tier of mechanisms, barriers or loops past the first 100, by ID): each entry gives the whole list’s length and says how to get the rest',
  );

export const CompatibleMechanisms = z
  .strictObject({
    registry_version: RegistryVersion,
    artifacts: z.array(Id).describe('Artifacts given (deprecated ones replaced by their successors)'),
    barriers: z.array(BarrierRef).describe('Barriers identified: at the given stage, else at the artifacts’ stages'),
    mechanisms: z
      .array(CompatibleMechanism)
      .describe(
        'Union of: emits a given artifact (tier produces, ranked first: most direct fidelity, most artifacts, strongest evidence) and operates at an identified barrier (tier same-stage, by ID)',
      ),
    ruled_out: z.array(RuledOutMechanism).describe('Mechanisms the given artifacts rule out (their rules_out), left out of the list'),
    notice: Notice,
    truncated_lists: TruncatedLists,
  })
  .describe('Mechanisms compatible with a set of observations');

// ── probes ────────────────────────────────────────────────────────────────────────────────────────

export const ProbeOutcomeView = ProbeOutcome.extend({
  narrows: z.array(Id).describe('The mechanisms under consideration this outcome would rule out'),
}).describe('A possible outcome of a probe');

export const ProbeView = Probe.extend({
  artifact: EntityRef,
  outcomes: z.array(ProbeOutcomeView),
  distinguishes: z.boolean().describe('True when some outcome rules out some, but not all, of the mechanisms under consideration'),
  narrows_first_tier: z
    .boolean()
    .describe('True when some outcome rules out a mechanism under consideration that produces a given observation (the first tier)'),
}).describe('A diagnostic probe of an artifact');

export const DiagnosticProbes = z
  .strictObject({
    registry_version: RegistryVersion,
    artifacts: z.array(Id),
    mechanisms: z.array(Id).describe('Mechanisms the probes were weighed against'),
    probes: z
      .array(ProbeView)
      .describe(
        'Distinguishing probes first; among them those narrowing the first tier; then candidate before intermediary, cheapest first',
      ),
  })
  .describe('The probes that can tell compatible mechanisms apart');

// ── patterns ──────────────────────────────────────────────────────────────────────────────────────

export const PatternMatch = Pattern.pick({
  id: true,
  title: true,
  summary: true,
  shape: true,
  evidence_level: true,
  trigger_rule: true,
  required_artifacts: true,
  compatible_mechanisms: true,
  establishes: true,
  non_inferences: true,
})
  .extend({
    match: z
      .enum(['triggered', 'partial', 'mechanism', 'listed'])
      .describe(
        'triggered: every required artifact given; partial: some given; mechanism: shares a given mechanism; listed: no filter given',
      ),
    present: z.array(Id).describe('Required artifacts that were given'),
    missing: z.array(Id).describe('Required artifacts not given'),
  })
  .describe('A recurring pattern and how the given facts match it');

export const PatternMatches = z
  .strictObject({
    registry_version: RegistryVersion,
    artifacts: z.array(Id),
    mechanisms: z.array(Id),
    patterns: z.array(PatternMatch).describe('Triggered first, then partial, then by shared mechanism'),
  })
  .describe('Patterns matching given artifacts or mechanisms');

// ── interventions ─────────────────────────────────────────────────────────────────────────────────

export const InterventionMatch = Intervention.pick({
  id: true,
  title: true,
  summary: true,
  actor: true,
  scope: true,
  cost: true,
  evidence_level: true,
  expected_effects: true,
  measurements: true,
  tradeoffs: true,
})
  .extend({
    via: z
      .array(
        z.strictObject({
          relation: z.enum(['targets', 'mitigates']),
          node: EntityRef.describe('What the intervention targets or mitigates'),
          for: Id.describe('The requested entity this reaches (directly, or as a member of the loop in node)'),
        }),
      )
      .describe('How the intervention reaches the requested entities'),
  })
  .describe('A targeted system intervention');

export const Interventions = z
  .strictObject({
    registry_version: RegistryVersion,
    targets: z.array(EntityRef).describe('The mechanisms, barriers, loops or patterns asked about'),
    interventions: z.array(InterventionMatch).describe('Direct ones first, then those reaching a target through a loop'),
  })
  .describe('Interventions that target or mitigate the given entities');

// ── traversal ─────────────────────────────────────────────────────────────────────────────────────

export const Neighbourhood = z
  .strictObject({
    registry_version: RegistryVersion,
    root: EntityRef,
    depth: z.int().min(1),
    direction: z.enum(['out', 'in', 'both']),
    relations: z.array(RelationSchema).describe('Relations followed'),
    nodes: z.array(EntityRef.extend({ distance: z.int().min(0) })).describe('Root first, then by distance and ID'),
    edges: z.array(Edge).describe('Edges followed, among the listed nodes'),
    truncated: z.boolean().describe('True when the node limit cut the neighbourhood short'),
  })
  .describe('The graph neighbourhood of an entity');

// ── explain (HOBA) ────────────────────────────────────────────────────────────────────────────────

export const ExplainedArtifact = z
  .strictObject({
    id: Id.describe('The ID as given'),
    title: z.string(),
    summary: z.string(),
    stages: z.array(StageSchema),
    status: z.enum(STATUSES),
    successor: EntityRef.optional().describe('For a deprecated artifact: the one the analysis uses instead'),
  })
  .describe('A resolved observation');

export const ObservedOutcome = z
  .strictObject({
    artifact: Id,
    probe: z.string(),
    outcome: z.string(),
    observation: z.string(),
    note: z.string().optional(),
    excludes: z.array(Id),
  })
  .describe('A probe outcome the user reported');

export const ExcludedMechanism = z
  .strictObject({
    id: Id,
    title: z.string(),
    by: z.array(z.strictObject({ probe: z.string(), outcome: z.string() })),
  })
  .describe('A mechanism ruled out by a reported probe outcome');

export const AttributedText = z.strictObject({ from: Id, text: z.string() }).describe('A statement and the entity that makes it');

export const LoopMatch = z
  .strictObject({
    id: Id,
    title: z.string(),
    summary: z.string(),
    mechanisms: z.array(Id),
    compatible_members: z.array(Id).describe('Members among the remaining compatible mechanisms'),
    entry_points: z.array(Id),
    evidence_level: EvidenceLevelSchema,
  })
  .describe('A causal loop some compatible mechanisms belong to');

/** One answer of a distinction (the manifest's pairs that read alike): its observation and the answer that chooses it. */
const DistinctionAnswer = z.strictObject({ artifact: Id, title: z.string(), answer: z.string() });

export const FromText = z
  .strictObject({
    text: z.string().describe('The words given, as read (empty when only a message was given)'),
    message: z.string().optional().describe('The message pasted, as read'),
    matched: z
      .array(
        z.strictObject({
          id: Id,
          title: z.string(),
          why: z.string(),
          quotes: z.array(z.string()).describe('The words (or message lines) that state it, as typed'),
          from: z.enum(['words', 'message', 'answer']),
          check: z
            .strictObject({ id: z.string(), ask: z.string(), options: z.array(DistinctionAnswer) })
            .optional()
            .describe(
              'When it is one answer of a distinction the words did not leave open: the question that tells the answers apart, to check with the person; another answer given back in picks reads the words as that one',
            ),
        }),
      )
      .describe('What the words state, strongest first: analysed'),
    denied: z.array(z.strictObject({ id: Id, title: z.string(), quote: z.string() })).describe('What the words deny: never analysed'),
    questions: z
      .array(
        z.strictObject({
          id: z.string(),
          ask: z.string().describe('Put it to the person'),
          quote: z.string().optional(),
          options: z.array(DistinctionAnswer).describe('Give the chosen artifact back in picks'),
        }),
      )
      .describe('Readings too close to choose: not analysed until answered'),
    not_covered: z
      .strictObject({
        topics: z.array(
          z.strictObject({ id: z.string(), title: z.string(), summary: z.string(), instead: z.string().describe('Where to turn') }),
        ),
        quote: z.string().optional(),
        covers: z.string(),
      })
      .optional()
      .describe('Outside the atlas: nothing analysed'),
    message_tells: z
      .array(
        z.strictObject({
          artifact: z.strictObject({ id: Id, title: z.string() }),
          tells: z.array(
            z.strictObject({
              line: z.string(),
              tell: z.string().describe('The specimen’s tell it matches'),
              reading: z.string().describe('What it does and does not establish'),
            }),
          ),
        }),
      )
      .describe('The message’s tell-tale lines'),
    answered: z.array(Id),
  })
  .describe('How the situation reader read a description in plain words (and a pasted message)');

export const NextStepView = NextStep.pick({ id: true, action: true, why: true, by_when: true })
  .extend({
    artifact: EntityRef.describe('The observation the step belongs to'),
    citations: z.array(Citation).describe('The sources the step relies on (a withdrawn or repealed one carries its caveat)'),
  })
  .describe('A forward-looking action that holds whatever the cause');

export const LawNoteView = LawNote.extend({
  artifact: EntityRef.describe('The observation the note belongs to'),
}).describe('A law note of an observed artifact: for which jurisdiction, what the text provides, the remedy and its time limit');

export const DateLine = z
  .strictObject({
    date: z.iso.date().describe('The last day, YYYY-MM-DD (a calendar date, no time zone)'),
    long: z.string().describe('The date in words: "14 September 2027"'),
    label: z.string().describe('What the date is: "180 days", "300 days", "two more months"'),
    kind: z.enum(['limit', 'replaces', 'adds', 'stop-the-clock']).describe('limit: the plain limit; the others: an extension of it'),
    condition: z.string().optional().describe('When this date applies instead of the plain limit'),
    holds: z.boolean().optional().describe('Whether the atlas’s sources establish the condition where the person is'),
  })
  .describe('One computed date of a time limit');

export const DeadlineView = z
  .strictObject({
    artifact: z.strictObject({ id: Id, title: z.string() }).describe('The observation whose law note this is'),
    jurisdiction: z.enum(JURISDICTIONS),
    where: z.string().optional(),
    instrument: z.string(),
    applies: z
      .enum(['yes', 'maybe'])
      .describe('yes: the note applies where the person said they are; maybe: no place was given, or the note is for a part of it'),
    time_limit: z.string().describe('The limit in the note’s own words'),
    stated: z.boolean().describe('False when the cited sources state no limit: no date is computed'),
    action: z.string().describe('What to do by the date (for the employer’s deadline: what they must do)'),
    who: z.enum(['you', 'employer']),
    from: z.enum(LIMIT_EVENTS).optional().describe('The event the limit runs from'),
    period: z
      .strictObject({ length: z.int(), unit: z.enum(LIMIT_UNITS), days: z.enum(DAY_COUNTS), words: z.string() })
      .optional()
      .describe('The stated limit’s length'),
    start: z.iso.date().optional().describe('The date it runs from, when given'),
    dates: z
      .array(DateLine)
      .describe('The computed dates, the plain limit first; empty without the date of the event, or for a limit the sources do not state'),
    line: z.string().describe('The answer for this note in plain words, with its dates'),
  })
  .describe('A law note’s time limit as dates, for where the person is and the date they gave. Not legal advice');

export const CandidateItem = z
  .strictObject({
    id: Id.describe('For links; never shown in the default text'),
    title: z.string().describe('The explanation’s name in plain words'),
    who: z.string().describe('Who can change it, phrased for the case'),
    how: z.string().describe('How it shows in what you saw'),
    evidence: z.string().describe('How well it is studied, in plain words'),
    summary: z.string().describe('What it is (the IDs of its prose left out)'),
    note: z.string().optional().describe('How it shows in these observations, when the atlas says'),
    ordinary: z.boolean().optional().describe('True for an ordinary cause (an honest baseline)'),
    relevant_if: z
      .string()
      .optional()
      .describe(
        'For an explanation concerning a check, a record or a protected trait, or one that happens only in some kind of hiring (an academic search, the public sector): what would make it relevant',
      ),
    brought_in: z
      .boolean()
      .optional()
      .describe(
        'For such an explanation: whether an observation given is itself about it, or of that kind of hiring (else it is listed after the others)',
      ),
  })
  .describe('One possible explanation, in plain words');

export const CandidateView = z
  .strictObject({
    heading: z.string().describe('The verdict in plain words'),
    lead: z
      .array(z.string())
      .describe(
        'What the facts can and cannot mean, the one thing worth checking, and what to do now and by when: at most about 120 words, no IDs',
      ),
    check: z
      .strictObject({ probe: z.string(), artifact: Id, action: z.string(), outcome: z.string().optional(), tells: z.string().optional() })
      .optional()
      .describe('The one thing worth checking: the first probe the person can run'),
    now: z
      .strictObject({ step: z.string(), artifact: Id, action: z.string(), by_when: z.string().optional() })
      .optional()
      .describe('What to do now: the first next step'),
    groups: z
      .array(
        z.strictObject({
          id: z.enum(PLAIN_GROUPS),
          label: z.string(),
          relevant_if: z
            .array(z.string())
            .optional()
            .describe('What would make the group’s explanations that the account did not bring in relevant, said once'),
          items: z.array(CandidateItem),
        }),
      )
      .describe(
        'The explanations that can cause what was seen, grouped the way a person grasps them; a check, a record or a protected trait comes last unless the account brings it in',
      ),
    also: z.string().optional().describe('How many more things happen at the same step without causing this by themselves'),
    note: z.string().optional().describe('When the stage given is not one where an observation is recorded: said plainly'),
    notice: z.string().describe('That nothing here is a likelihood, in plain words'),
    legal: z
      .string()
      .optional()
      .describe(
        'Present when the observations carry law notes: not legal advice; check the dates with an adviser (the full legal notice is agency.legal_notice)',
      ),
  })
  .describe('The answer a worried person reads first: plain words, no IDs; the rest of the result keeps everything');

export const Verdict = z
  .strictObject({
    code: z
      .enum(VERDICT_CODES)
      .describe(
        'run-probe: a candidate-runnable probe can tell remaining mechanisms apart; act-on-candidate-removable: none can, but a first-tier mechanism (it emits a given artifact) is removable by the candidate; low-signal: neither (the details then list what the candidate can still do whatever the cause, when the observations give next steps); nothing-left: the reported outcomes excluded every mechanism',
      ),
    text: z.string(),
    details: z.array(z.string()),
  })
  .describe('What the protocol concludes');

export const ExplainResult = z
  .strictObject({
    registry_version: RegistryVersion,
    notice: Notice,
    input: z.strictObject({
      artifacts: z.array(Id).describe('The observations analysed: as given, or chosen from the scenario or the plain words'),
      stage: StageSchema.optional(),
      probes: z.array(z.strictObject({ probe: z.string(), outcome: z.string() })),
      scenario: z
        .strictObject({ id: Id, title: z.string() })
        .optional()
        .describe('Present when the input was a worked scenario (a preset of artifacts, stage and probe outcomes)'),
      from_text: FromText.optional().describe(
        'Present when the input was plain words or a pasted message: what the reader chose (with the words), denied, asked, or found not covered',
      ),
      on: z.iso.date().optional().describe('The date of what happened, as given: deadlines are computed from it'),
      where: z
        .string()
        .optional()
        .describe(
          'Where the person is, as given (a place code such as uk, us-ca or eu-de): law notes for elsewhere are left out of the deadlines',
        ),
    }),
    hard_facts: z.strictObject({
      artifacts: z.array(ExplainedArtifact),
      observed: z.array(ObservedOutcome).describe('Probe outcomes the user reported'),
    }),
    obstacle: z.strictObject({
      stages: z.array(StageSchema).describe('The stage given, else the artifacts’ stages, in funnel order'),
      from: z.enum(['option', 'artifacts']).describe('Whether the stages came from the stage option or the artifacts'),
      barriers: z.array(BarrierRef),
      stage_note: z
        .string()
        .optional()
        .describe(
          'Present when the stage given is not one at which an observation is recorded: its barriers may not be where the observation comes from',
        ),
    }),
    behind: z.strictObject({
      mechanisms: z
        .array(CompatibleMechanism)
        .describe(
          'Remaining compatible mechanisms (union semantics): tier produces first, ranked by fidelity, then observations accounted for, then evidence level, then ID; tier same-stage after, by ID. The order ranks directness, not likelihood',
        ),
      excluded: z.array(ExcludedMechanism),
      ruled_out: z.array(RuledOutMechanism).describe('Mechanisms a given observation rules out (its rules_out), with the reason'),
      patterns: z.array(PatternMatch).describe('Triggered and partially matched patterns'),
      loops: z.array(LoopMatch),
      non_inferences: z.array(AttributedText).describe('What the facts do NOT establish: the artifacts’ and the triggered patterns’'),
      source_caveats: z
        .array(SourceCaveat)
        .describe(
          'Sources cited by the artifacts, mechanisms, patterns and loops above that are not current: read what rests on them with the caveat',
        ),
    }),
    agency: z.strictObject({
      candidate: z.array(Id).describe('First-tier mechanisms (they produce what was observed) the candidate can remove or work around'),
      intermediary: z.array(Id).describe('First-tier mechanisms only an intermediary (recruiter, referrer, manager) can remove'),
      none: z.array(Id).describe('First-tier mechanisms nobody in the process can remove from the candidate’s side'),
      same_stage: z
        .strictObject({ candidate: z.array(Id), intermediary: z.array(Id), none: z.array(Id) })
        .describe(
          'The same split for the second tier (mechanisms that only act at the same stage and are not recorded as producing what was observed), over those listed in behind.mechanisms',
        ),
      probes: z
        .array(ProbeView)
        .describe(
          'Probes of the given artifacts that distinguish remaining mechanisms: those narrowing the first tier first, then candidate-runnable before intermediary, cheapest first',
        ),
      other_probes: z
        .array(z.strictObject({ artifact: Id, probe: z.string(), agency: z.enum(PROBE_AGENCIES), cost: z.enum(COSTS) }))
        .describe(
          'Probes of the given artifacts that cannot narrow the remaining set (they may still be worth running for what they tell)',
        ),
      next_steps: z.array(NextStepView).describe('What the candidate can still do whatever the cause: the given observations’ next steps'),
      law: z
        .array(LawNoteView)
        .describe('The given observations’ law notes: options that depend on law, by jurisdiction, with their time limits'),
      legal_notice: z.string().optional().describe('Present when law lists anything: the notes are not legal advice'),
      deadlines: z
        .array(DeadlineView)
        .describe('The law notes’ time limits as dates (for where the person is, from the date given); in words when no date was given'),
      verdict: Verdict,
    }),
    candidate: CandidateView.describe('The candidate view: the same answer in plain words, for a person (no IDs in its text)'),
    truncated_lists: TruncatedLists,
  })
  .describe('The HOBA protocol applied to a set of observations: Hard facts, Obstacle, Behind, Agency');

// ── methodology ───────────────────────────────────────────────────────────────────────────────────

const Term = z.strictObject({ id: z.string(), meaning: z.string() });

export const Methodology = z
  .strictObject({
    registry_version: RegistryVersion,
    title: z.string(),
    summary: z.string(),
    sections: z.array(z.strictObject({ id: z.string(), title: z.string(), body: z.string().describe('Markdown') })),
    vocabularies: z.strictObject({
      kinds: z.array(z.strictObject({ id: KindSchema, prefix: z.string(), meaning: z.string() })),
      stages: z.array(z.strictObject({ id: StageSchema, meaning: z.string() })),
      relations: z.array(z.strictObject({ id: RelationSchema, from: z.string(), to: z.string(), meaning: z.string() })),
      evidence_levels: z.array(Term.extend({ id: z.enum(EVIDENCE_LEVELS) })),
      fidelities: z.array(Term.extend({ id: z.enum(FIDELITIES) })),
      facets: z.strictObject({
        actor: z.array(Term.extend({ id: z.enum(ACTORS) })),
        nature: z.array(Term.extend({ id: z.enum(NATURES) })),
        visibility: z.array(Term.extend({ id: z.enum(VISIBILITIES) })),
        removability: z.array(Term.extend({ id: z.enum(REMOVABILITIES) })),
      }),
      verdicts: z.array(Term.extend({ id: z.enum(VERDICT_CODES) })),
      effect_levels: z.array(Term.extend({ id: z.enum(EFFECT_LEVELS) })),
      intervention_actors: z.array(Term.extend({ id: z.enum(INTERVENTION_ACTORS) })),
      jurisdictions: z.array(Term.extend({ id: z.enum(JURISDICTIONS) })),
      viewpoints: z.array(Term.extend({ id: z.enum(VIEWPOINTS) })),
      topics: z.array(Term.extend({ id: z.enum(TOPICS) })),
      hedges: z
        .strictObject({
          likelihood: z.array(z.string()).describe('Never used: the atlas does not say how likely a cause is'),
          frequency: z.array(z.string()).describe('Used only in entities that cite a source for the rate'),
          possibility: z.array(z.string()).describe('Always allowed: they claim no rate'),
        })
        .describe('The qualitative words the atlas allows, and where (enforced by the validator)'),
    }),
    legal_notice: z.string().describe('Shown wherever an entity carries law notes'),
  })
  .describe('How to read the atlas: the HOBA protocol, evidence levels, fidelities, facets and the rules of inference');

export type EntityRef = z.infer<typeof EntityRef>;
export type Truncation = z.infer<typeof Truncation>;
export type EntityRecord = z.infer<typeof EntityRecordSchema>;
export type SearchHit = z.infer<typeof SearchHit>;
export type SearchResult = z.infer<typeof SearchResult>;
export type RelationLink = z.infer<typeof RelationLink>;
export type Citation = z.infer<typeof Citation>;
export type SourceCaveat = z.infer<typeof SourceCaveat>;
export type ProbeExclusion = z.infer<typeof ProbeExclusion>;
export type NodeView = z.infer<typeof NodeView>;
export type CompatibleMechanism = z.infer<typeof CompatibleMechanism>;
export type BarrierRef = z.infer<typeof BarrierRef>;
export type CompatibleMechanisms = z.infer<typeof CompatibleMechanisms>;
export type ProbeView = z.infer<typeof ProbeView>;
export type DiagnosticProbes = z.infer<typeof DiagnosticProbes>;
export type PatternMatch = z.infer<typeof PatternMatch>;
export type PatternMatches = z.infer<typeof PatternMatches>;
export type InterventionMatch = z.infer<typeof InterventionMatch>;
export type Interventions = z.infer<typeof Interventions>;
export type Neighbourhood = z.infer<typeof Neighbourhood>;
export type ExplainResult = z.infer<typeof ExplainResult>;
export type Verdict = z.infer<typeof Verdict>;
export type RuledOutMechanism = z.infer<typeof RuledOutMechanism>;
export type NextStepView = z.infer<typeof NextStepView>;
export type LawNoteView = z.infer<typeof LawNoteView>;
export type FromText = z.infer<typeof FromText>;
export type LoopMatch = z.infer<typeof LoopMatch>;
export type Methodology = z.infer<typeof Methodology>;
export type DeadlineView = z.infer<typeof DeadlineView>;
export type DateLine = z.infer<typeof DateLine>;
export type CandidateView = z.infer<typeof CandidateView>;
