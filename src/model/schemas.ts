// One zod definition per kind. Types, validation, JSON Schema, OpenAPI components and MCP output
// schemas all derive from these; nothing here is written twice elsewhere.
import { z } from 'zod';
import {
  ACTORS,
  CONCERNS,
  COSTS,
  DAY_COUNTS,
  EFFECT_LEVELS,
  EVIDENCE_LEVELS,
  FIDELITIES,
  INTERVENTION_ACTORS,
  INTERVENTION_SCOPES,
  JURISDICTIONS,
  KINDS,
  LIMIT_EVENTS,
  LIMIT_EXTENSIONS,
  LIMIT_PARTIES,
  LIMIT_UNITS,
  LOOP_RELATIONS,
  MECHANISM_FAMILIES,
  NATURES,
  PATTERN_SHAPES,
  PROBE_AGENCIES,
  RELATIONS,
  REMOVABILITIES,
  SOURCE_TYPES,
  SOURCE_STATUSES,
  SPECIMEN_MEDIA,
  STAGES,
  STATUSES,
  TOPICS,
  VERDICT_CODES,
  VIEWPOINTS,
  VISIBILITIES,
  idPattern,
  withArticle,
  type Kind,
} from './vocab.ts';

const text = (description: string) => z.string().trim().min(1, 'must not be empty').describe(description);
/** A list of prose items; `required` is the message shown when the list must not be empty. */
const texts = (description: string, required?: string) => {
  const list = z.array(z.string().trim().min(1, 'must not be empty'));
  return (required ? list.min(1, required) : list).describe(description);
};
const ref = (kind: Kind) => z.string().regex(new RegExp(idPattern(kind)), `must be ${withArticle(kind)} ID (${idPattern(kind)})`);
const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens (e.g. ask-for-status)');

export const StageSchema = z.enum(STAGES).describe('Funnel stage, in funnel order: ' + STAGES.join(', '));
export const EvidenceLevelSchema = z
  .enum(EVIDENCE_LEVELS)
  .describe('How well the claim is supported; supported and established require sources');

/** Fields every kind except source shares. */
const common = (kind: Kind) => ({
  id: ref(kind).describe(`Permanent ${kind} ID`),
  title: text('Short human-readable name'),
  summary: text('One or two sentences saying what this is'),
  description: text('Longer explanation').optional(),
  aliases: texts('Other names people use for this, to help search').default([]),
  sources: z.array(ref('source')).default([]).describe('Evidence cited (source IDs)'),
  status: z.enum(STATUSES).default('active').describe('Deprecated entities keep resolving and name their successor'),
  superseded_by: ref(kind).optional().describe('Successor of a deprecated entity'),
  topics: z
    .array(z.enum(TOPICS))
    .default([])
    .describe('Coverage topics this entity belongs to (parts of hiring beyond a US white-collar tech funnel)'),
});

const sourceList = (what: string) =>
  z.array(ref('source')).default([]).describe(`${what} (source IDs; each is also in the entity’s own sources)`);

/** A length of time: how many days, weeks, months or years, and for days, how they are counted. */
const Period = {
  length: z.int().min(1).max(100_000).describe('How many units'),
  unit: z.enum(LIMIT_UNITS).describe('days, weeks, months or years'),
  days: z
    .enum(DAY_COUNTS)
    .default('calendar')
    .describe(
      'For days: calendar (weekends and holidays count) or business (Monday to Friday; public holidays are not known to the atlas)',
    ),
  less_one_day: z
    .boolean()
    .default(false)
    .describe(
      'The period starts with the day of the event ("three months starting with the date of the act", in practice three months less one day)',
    ),
};

export const LimitExtension = z
  .strictObject({
    kind: z
      .enum(LIMIT_EXTENSIONS)
      .describe(
        'replaces: a longer limit applies instead when the condition holds; adds: more time after the limit; stop-the-clock: time between two events does not count (Acas early conciliation)',
      ),
    ...Period,
    length: Period.length.optional(),
    unit: Period.unit.optional(),
    when: text('The condition, in plain words ("where a state or local agency enforces a law against the same discrimination")'),
    label: text('A few words naming it in a date line ("300 days", "Acas early conciliation", "two more months for a complex request")'),
    applies_in: z
      .array(z.string().regex(/^(uk|us|eu)(-[a-z]{2,3})?$/, 'must be a place code such as us-ca or uk-eng'))
      .default([])
      .describe(
        'Places where the cited sources establish that the condition holds (place codes); elsewhere it is shown as a condition to check',
      ),
  })
  .superRefine((x, ctx) => {
    if (x.kind !== 'stop-the-clock' && (x.length === undefined || x.unit === undefined)) {
      ctx.addIssue({ code: 'custom', message: `a "${x.kind}" extension needs its length and unit`, path: ['length'] });
    }
  })
  .describe('A way the time limit can change: a longer limit, more time after it, or a stop-the-clock rule');

export const TimeLimit = z
  .discriminatedUnion('stated', [
    z.strictObject({
      stated: z.literal(true).describe('The cited sources state the limit'),
      action: text(
        'What must be done by the date, as an instruction ("File a charge with the EEOC"; for the employer: "Answer your request")',
      ),
      who: z.enum(LIMIT_PARTIES).default('you').describe('Whose deadline: the person’s own, or the employer’s'),
      from: z.enum(LIMIT_EVENTS).describe('The event it runs from: the act or decision, a notice received, or a request sent'),
      ...Period,
      extensions: z.array(LimitExtension).default([]).describe('Ways the limit can change (longer limits, more time, stop-the-clock)'),
    }),
    z.strictObject({
      stated: z.literal(false).describe('The cited sources do not state a limit: no date is computed'),
      action: text('What to do, and how soon, without a date ("Get advice promptly")'),
    }),
  ])
  .describe(
    'The time limit as data, for dates: its length and unit, how days count, the event it runs from, and its extensions; or that the sources state none',
  );

export const LawNote = z
  .strictObject({
    jurisdiction: z.enum(JURISDICTIONS).describe('Whose law: US federal, a US state or city, the UK, or the EU'),
    where: text('The state, city or member state, when the law is not the whole jurisdiction’s (required for us-state)').optional(),
    instrument: text('The statute, regulation, guidance or decision, by its official title (court decisions are described, not captioned)'),
    says: text('What it provides, in plain words'),
    remedy: text('What a candidate can do under it').optional(),
    time_limit: text('How long the candidate has to act, and from when (required with a remedy)').optional(),
    limit: TimeLimit.optional().describe(
      'The time limit as data, from which dates are computed (required with a remedy); time_limit keeps the words',
    ),
    status_note: text(
      'For withdrawn guidance or repealed law: what changed and when (required when a cited source is withdrawn or repealed)',
    ).optional(),
    sources: z
      .array(ref('source'))
      .min(1, 'cite the law or guidance (a source ID)')
      .describe('The text cited (source IDs; each is also in the entity’s own sources)'),
  })
  .describe(
    'Where a claim or a candidate’s option depends on law: for which jurisdiction, what the text says, the remedy and its time limit. Not legal advice.',
  );

const law = z.array(LawNote).default([]).describe('The jurisdiction layer: the law a claim or option depends on, per jurisdiction');

export const ProbeOutcome = z
  .strictObject({
    id: slug.describe('Outcome ID, unique within its probe'),
    observation: text('What the person running the probe sees'),
    excludes: z
      .array(ref('mechanism'))
      .default([])
      .describe('Mechanisms this outcome rules out; probes narrow explanations only through this list'),
    note: text('What the outcome does and does not tell').optional(),
  })
  .describe('One possible result of a diagnostic probe');

export const Probe = z
  .strictObject({
    id: slug.describe('Probe ID, unique across the atlas'),
    action: text('What to do'),
    agency: z.enum(PROBE_AGENCIES).describe('Who can run the probe'),
    cost: z.enum(COSTS).describe('Effort or risk of running it'),
    risk: text('What running the probe may cost the person').optional(),
    outcomes: z.array(ProbeOutcome).min(2, 'a probe needs at least two possible outcomes'),
  })
  .describe('A diagnostic step that can tell compatible mechanisms apart');

export const NextStep = z
  .strictObject({
    id: slug.describe('Step ID, unique within its artifact'),
    action: text('What the candidate can do, whatever produced the observation'),
    why: text('Why the step holds whichever mechanism is behind it'),
    by_when: text('When it must be done, where timing matters (a deadline, a window)').optional(),
    sources: z.array(ref('source')).default([]).describe('Evidence or law the step relies on (source IDs)'),
  })
  .describe(
    'A forward-looking action that holds whatever the cause: what to keep doing, what resets a signal, what to document and by when',
  );

const RuledOut = z
  .strictObject({
    mechanism: ref('mechanism'),
    reason: text('Why this observation rules the mechanism out'),
  })
  .describe('A mechanism (typically an honest baseline acting at the same stage) that this observation rules out, with the reason');

const SpecimenTell = z
  .strictObject({
    quote: text('A line of the specimen, verbatim'),
    reading: text('What the line signals, and what it does not establish'),
  })
  .describe('A tell-tale line of a specimen, marked');

export const Specimen = z
  .strictObject({
    id: slug.describe('Specimen ID, unique within its artifact'),
    medium: z.enum(SPECIMEN_MEDIA).describe('The form it takes'),
    title: text('What the specimen shows'),
    text: text('The specimen: an illustrative, anonymised composite with [placeholders] for names; never a real employer’s text'),
    tells: z
      .array(SpecimenTell)
      .min(1, 'mark at least one tell-tale line')
      .describe('The lines that matter, each quoted verbatim from the text'),
  })
  .describe('An illustrative, anonymised specimen of what the candidate sees, with the tell-tale lines marked');

export const Artifact = z
  .strictObject({
    ...common('artifact'),
    stages: z.array(StageSchema).min(1, 'list at least one stage where this is observed'),
    concerns: z
      .array(z.enum(CONCERNS))
      .default([])
      .describe(
        'What the observation is itself about when it involves a check, a record or a protected trait: explanations concerning these are shown first only then',
      ),
    non_inferences: texts('What this observation does NOT establish', 'say what this observation does not establish'),
    probes: z.array(Probe).min(1, 'give at least one diagnostic probe'),
    next_steps: z.array(NextStep).default([]).describe('What the candidate can still do, whatever the cause'),
    rules_out: z
      .array(RuledOut)
      .default([])
      .describe('Mechanisms that act at the same stage but cannot have produced this observation, each with the reason'),
    specimens: z
      .array(Specimen)
      .default([])
      .describe('Illustrative, anonymised examples of what the candidate sees, with the tell-tale lines marked'),
    voices: z
      .array(z.string().trim().min(1, 'must not be empty'))
      .default([])
      .describe(
        'First-person accounts of this observation in the words people use (varied registers, sectors and Englishes; typos kept): what the situation reader learns from; never an ID, an employer or a person',
      ),
    law,
  })
  .describe('An artifact: what a candidate directly sees or receives');

const BarrierVariant = z
  .strictObject({
    id: slug.describe('Variant ID, unique within its barrier'),
    applies_to: text('The sector, jurisdiction or context where the gate differs (e.g. UK and EU practice, public-sector competitions)'),
    differs: text('How the gate, its order or its pass condition differs there'),
    sources: sourceList('Evidence or law for the variant'),
  })
  .describe('A context where this barrier’s gate or order differs');

export const Barrier = z
  .strictObject({
    ...common('barrier'),
    stage: StageSchema,
    order: z.int().min(1).describe('Position in the funnel; a barrier that precedes another has a lower order'),
    precedes: z.array(ref('barrier')).default([]).describe('Barriers that come after this one (DAG edges)'),
    pass_condition: text('What a candidate must satisfy to get past this barrier'),
    variants: z.array(BarrierVariant).default([]).describe('Contexts where the gate or its order differs (sector, jurisdiction)'),
    law,
  })
  .describe('A barrier: a structural gate in the hiring funnel; barriers form a DAG');

const Facets = z
  .strictObject({
    actor: z.enum(ACTORS).describe('Who or what drives the mechanism'),
    nature: z.enum(NATURES).describe('Rule, incentive, bias, noise or void (absence of a process)'),
    visibility: z.enum(VISIBILITIES).describe('Whether a candidate can see it operate'),
    removability: z.enum(REMOVABILITIES).describe('Who can remove or work around it'),
  })
  .describe('The four facets of a mechanism');

export const Emission = z
  .strictObject({
    artifact: ref('artifact'),
    fidelity: z.enum(FIDELITIES).describe('How faithfully the artifact reflects this mechanism'),
    note: text('How the mechanism produces this artifact').optional(),
  })
  .describe('An artifact a mechanism emits, with its fidelity');

const Perspective = z
  .strictObject({
    viewpoint: z.enum(VIEWPOINTS).describe('Whose view'),
    sees: text('What actually reaches this party'),
    reads: text('How they interpret it, and where that reading goes wrong'),
    does: text('What they do next'),
  })
  .describe(
    'What one party (the candidate, the recruiter, the hiring manager, the system…) sees, reads and does while the mechanism operates',
  );

export const Mechanism = z
  .strictObject({
    ...common('mechanism'),
    family: z.enum(MECHANISM_FAMILIES).describe('Mechanism family'),
    facets: Facets,
    operates_at: z.array(ref('barrier')).min(1, 'name at least one barrier where this operates'),
    emits: z.array(Emission).min(1, 'name at least one artifact this emits'),
    amplifies: z.array(ref('mechanism')).default([]).describe('Mechanisms this one makes stronger or more likely'),
    masks: z.array(ref('mechanism')).default([]).describe('Mechanisms this one hides from the candidate'),
    honest_baseline: z
      .boolean()
      .default(false)
      .describe('True for the ordinary explanations that must always stay on the table (skill gap, stronger competitor)'),
    evidence_level: EvidenceLevelSchema,
    perspectives: z.array(Perspective).default([]).describe('What each party sees, reads and does while the mechanism operates'),
    law,
  })
  .describe('A mechanism: the process that makes a barrier reject, stall or misclassify');

export const Pattern = z
  .strictObject({
    ...common('pattern'),
    shape: z.enum(PATTERN_SHAPES).describe('The kind of configuration'),
    required_artifacts: z.array(ref('artifact')).min(1, 'name the artifacts that must all be observed'),
    compatible_mechanisms: z.array(ref('mechanism')).min(1, 'name at least one compatible mechanism'),
    trigger_rule: text('When the pattern applies'),
    establishes: texts('What observing the pattern does establish', 'say what the pattern establishes'),
    non_inferences: texts('What the pattern does NOT establish', 'say what the pattern does not establish'),
    evidence_level: EvidenceLevelSchema,
  })
  .describe('A pattern: a recurring configuration of artifacts and mechanisms worth naming');

const LoopEdge = z
  .strictObject({
    from: ref('mechanism'),
    to: ref('mechanism'),
    relation: z.enum(LOOP_RELATIONS),
  })
  .describe('A declared edge of a loop; it must exist among the mechanisms’ amplifies/masks relations');

export const Loop = z
  .strictObject({
    ...common('loop'),
    mechanisms: z.array(ref('mechanism')).min(2, 'a loop needs at least two mechanisms'),
    edges: z.array(LoopEdge).min(2, 'a loop needs at least two edges'),
    entry_points: z.array(ref('mechanism')).min(1, 'name at least one entry point'),
    evidence_level: EvidenceLevelSchema,
  })
  .describe('A loop: a persistent causal cycle among mechanisms');

const Effect = z
  .strictObject({
    level: z
      .enum(EFFECT_LEVELS)
      .describe('How well the evidence says the change works: established, supported, mixed, contested or unmeasured'),
    summary: text(
      'What the evidence says about whether this change works, including any evidence of harm; for unmeasured, what would measure it',
    ),
    sources: sourceList('Evidence on the effect'),
  })
  .describe('The evidence that the intervention works, separate from the evidence that its target exists');

export const Intervention = z
  .strictObject({
    ...common('intervention'),
    actor: z.enum(INTERVENTION_ACTORS).describe('The system actor who makes the change'),
    scope: z.enum(INTERVENTION_SCOPES).describe('How far the change reaches'),
    cost: z.enum(COSTS).describe('Rough cost of making the change'),
    targets: z
      .array(z.string().regex(/^[MBL]-[0-9]{3,}$/, 'must be a mechanism, barrier or loop ID'))
      .min(1, 'name at least one mechanism, barrier or loop this targets'),
    mitigates: z
      .array(z.string().regex(/^[PL]-[0-9]{3,}$/, 'must be a pattern or loop ID'))
      .default([])
      .describe('Patterns or loops this weakens'),
    expected_effects: texts('What should change', 'say what the intervention is expected to change'),
    measurements: texts('How to tell whether it worked', 'say how to measure whether it worked'),
    tradeoffs: texts('Known costs, risks or evidence of harm').default([]),
    evidence_level: EvidenceLevelSchema.describe(
      'How well the problem the intervention targets is evidenced (whether it works is `effect`)',
    ),
    effect: Effect,
    law,
  })
  .describe('An intervention: a change by a system actor that targets a mechanism, barrier, pattern or loop');

const ScenarioProbeOutcome = z
  .strictObject({
    probe: slug.describe('ID of a probe of one of the scenario’s artifacts'),
    outcome: slug.describe('ID of one of that probe’s outcomes'),
  })
  .describe('The outcome of a probe the candidate has already run');

export const Scenario = z
  .strictObject({
    ...common('scenario'),
    situation: text('The situation in the candidate’s own plain words (first person; no employer, vendor or person named)'),
    input: z
      .strictObject({
        artifacts: z.array(ref('artifact')).min(1, 'name at least one artifact (what the candidate observed)'),
        stage: StageSchema.optional().describe('Funnel stage where it happened; by default the artifacts’ own stages'),
        probes: z.array(ScenarioProbeOutcome).default([]).describe('Outcomes of probes already run'),
      })
      .describe('What the situation maps to: the explain input this scenario presets'),
    expect: z
      .strictObject({
        first_tier: z
          .array(ref('mechanism'))
          .default([])
          .describe('Mechanisms that must be in the first tier (they produce what was observed)'),
        absent: z.array(ref('mechanism')).default([]).describe('Mechanisms that must not appear at all (in neither tier)'),
        probes: z.array(slug).default([]).describe('Probes that must be offered (agency.probes)'),
        verdict: z.enum(VERDICT_CODES).describe('The verdict code explain must reach'),
      })
      .describe('The expected analysis: a regression test of explain'),
  })
  .describe('A scenario: a worked situation in plain words, with the analysis it must produce (a preset and a regression test)');

export const Source = z
  .strictObject({
    id: ref('source').describe('Permanent source ID (from the shared bibliography)'),
    cite: text('Short citation'),
    authors: texts('Authors or issuing bodies'),
    year: z.int().nullable().describe('Year of publication; null for undated guidance pages'),
    title: text('Title').nullable().describe('Title; null where the bibliography records none (surfaces show the short citation)'),
    venue: text('Where it appeared').nullable().describe('Where it appeared; null where the bibliography records none'),
    doi: z.string().nullable(),
    url: z.string().url(),
    type: z.enum(SOURCE_TYPES).describe('Kind of source (the bibliography’s `kind` field)'),
    design: text('Study design'),
    peer_reviewed: z.boolean(),
    status: z
      .enum(SOURCE_STATUSES)
      .describe(
        'current, superseded or contested (scholarly status); withdrawn (guidance taken down) or repealed (law no longer in force)',
      ),
    superseded_by: ref('source').optional(),
    n: text('Sample or scope').nullable(),
    finding: text('Paraphrased finding')
      .nullable()
      .describe(
        'Paraphrased finding; null where the bibliography records none, and then nothing in the atlas may rest on the source (rule source-finding-missing)',
      ),
    relevant_to: texts('Topics'),
    verified: z.enum(['yes', 'partial']),
    verified_how: text('How the entry was verified')
      .nullable()
      .describe('How the entry was verified; null where the bibliography records none'),
  })
  .describe('A source: a study, survey, statute or report from the vetted bibliography');

/** A voice: one person's account, in their words (typos kept); never an ID, an employer or a person. */
const voices = (description: string) => z.array(z.string().trim().min(1, 'must not be empty')).default([]).describe(description);

const NotCoveredTopic = z
  .strictObject({
    id: slug.describe('A stable name for the topic (lower-case words joined by hyphens)'),
    title: text('What the atlas does not cover, in a few plain words'),
    summary: text('Why it lies outside the atlas, and what the atlas does cover nearby'),
    instead: text('Where a person can turn instead, described generically (no organisation named)'),
    voices: voices('First-person accounts of this topic: what the situation reader learns "not covered" from'),
  })
  .describe('A topic that lies outside the atlas: the situation reader says so instead of choosing the nearest observation');

const Distinction = z
  .strictObject({
    id: slug.describe('A stable name for the question'),
    ask: text('The one question whose answer tells the observations apart, put to the person'),
    answers: z
      .array(
        z.strictObject({
          artifact: ref('artifact').describe('The observation this answer means'),
          answer: text('The answer, in the person’s words (a button on the site)'),
        }),
      )
      .min(2, 'must offer at least two answers')
      .describe('One answer per observation, in the order offered'),
  })
  .describe('Observations that read alike: when an account could be either, the situation reader asks this instead of guessing');

export const Manifest = z
  .strictObject({
    name: z.literal('Hiring Obstacles & Barriers Atlas'),
    registry_version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version such as 1.0.0')
      .describe('Version of the atlas content (semver)'),
    schema_version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version')
      .describe('Version of the content model'),
    description_version: z.literal('0.4.1').describe('Version of the interface description (OpenAPI info.version)'),
    licences: z.strictObject({
      code: z.literal('MIT'),
      content: z.literal('CC-BY-SA-4.0'),
    }),
    released: z.iso.date().describe('Authored release date of this content version'),
    description: text('What the atlas is'),
    covers: text('What the atlas covers, in one paragraph: what the situation reader points to when an account lies outside it').optional(),
    not_covered: z.array(NotCoveredTopic).default([]).describe('What the atlas does not cover, topic by topic'),
    distinctions: z
      .array(Distinction)
      .default([])
      .describe('Questions the situation reader asks when an account could be one observation or another'),
    uncited: z
      .strictObject({
        from: ref('source').describe('First bibliography entry of the revision this list accounts for'),
        to: ref('source').describe('Last bibliography entry of that revision'),
        sources: z
          .array(
            z.strictObject({
              id: ref('source').describe('A bibliography entry of the revision that the atlas does not cite'),
              reason: text(
                'Why the atlas does not cite it (for example: what it measures fits no observation or mechanism, or a better source states the same fact)',
              ),
            }),
          )
          .default([])
          .describe('The entries of the revision the atlas does not cite, each with the reason'),
      })
      .optional()
      .describe(
        '"Not cited, and why": every bibliography entry from `from` to `to` is cited by the atlas or listed here with a reason (rule uncited-source and the stats target bibliography-revision)',
      ),
  })
  .describe('The atlas manifest (content/atlas.yaml)');

export const Edge = z
  .strictObject({
    source: z.string(),
    target: z.string(),
    relation: z.enum(RELATIONS),
    fidelity: z.enum(FIDELITIES).optional(),
  })
  .describe('A typed, directed edge of the graph');

export const SCHEMAS = {
  artifact: Artifact,
  barrier: Barrier,
  mechanism: Mechanism,
  pattern: Pattern,
  loop: Loop,
  intervention: Intervention,
  scenario: Scenario,
  source: Source,
} as const satisfies Record<Kind, z.ZodType>;

const kindTag = <K extends Kind>(kind: K) => ({ kind: z.literal(kind).describe('Entity kind') });

/** Each kind's schema tagged with its `kind`: an entity as the registry holds it and every surface serves it. */
export const RECORDS = {
  artifact: Artifact.extend(kindTag('artifact')),
  barrier: Barrier.extend(kindTag('barrier')),
  mechanism: Mechanism.extend(kindTag('mechanism')),
  pattern: Pattern.extend(kindTag('pattern')),
  loop: Loop.extend(kindTag('loop')),
  intervention: Intervention.extend(kindTag('intervention')),
  scenario: Scenario.extend(kindTag('scenario')),
  source: Source.extend(kindTag('source')),
} as const;

/** Any entity, tagged with its kind. */
export const EntityRecord = z
  .discriminatedUnion('kind', [
    RECORDS.artifact,
    RECORDS.barrier,
    RECORDS.mechanism,
    RECORDS.pattern,
    RECORDS.loop,
    RECORDS.intervention,
    RECORDS.scenario,
    RECORDS.source,
  ])
  .describe('An atlas entity with all its fields');

export type Artifact = z.infer<typeof Artifact>;
export type Barrier = z.infer<typeof Barrier>;
export type Mechanism = z.infer<typeof Mechanism>;
export type Pattern = z.infer<typeof Pattern>;
export type Loop = z.infer<typeof Loop>;
export type Intervention = z.infer<typeof Intervention>;
export type Scenario = z.infer<typeof Scenario>;
export type Source = z.infer<typeof Source>;
export type Manifest = z.infer<typeof Manifest>;
type NotCoveredTopic = z.infer<typeof NotCoveredTopic>;
type Distinction = z.infer<typeof Distinction>;
export type Edge = z.infer<typeof Edge>;
export type Probe = z.infer<typeof Probe>;
export type NextStep = z.infer<typeof NextStep>;
type RuledOut = z.infer<typeof RuledOut>;
export type Emission = z.infer<typeof Emission>;
export type LawNote = z.infer<typeof LawNote>;
export type TimeLimit = z.infer<typeof TimeLimit>;
export type LimitExtension = z.infer<typeof LimitExtension>;
export type Specimen = z.infer<typeof Specimen>;
type Perspective = z.infer<typeof Perspective>;
type Effect = z.infer<typeof Effect>;
type BarrierVariant = z.infer<typeof BarrierVariant>;

/** Each kind's entity, tagged with its kind (what the registry holds). */
export type EntityOf = { [K in Kind]: z.infer<(typeof RECORDS)[K]> };
/** Any entity, tagged with its kind. */
export type Entity = z.infer<typeof EntityRecord>;

export { KINDS };

const CorpusId = z.string().regex(/^(?:tr|te)-[A-Za-z0-9-]+$/, 'must start with tr- (train or dev) or te- (held-out test)');
/** What an account states, as a labeller reads it: the labels of a corpus item (ReaderCorpusItem, ReaderSecondLabel). */
const CorpusLabels = {
  artifacts: z.array(ref('artifact')).describe('The exact set of observations the account states'),
  negated: z.array(ref('artifact')).default([]).describe('Observations the account explicitly denies'),
  out_of_scope: z.boolean().default(false).describe('About something the atlas does not cover'),
  ask: z.array(ref('artifact')).default([]).describe('Readings the text cannot tell apart: the right answer is to ask'),
};
/**
 * One labelled account of the situation reader's corpus (quality/reader/*.yaml): what a person wrote (and
 * any message they pasted), and what it states. Not atlas content: what the reader is trained and measured
 * on (TEAM.md, "The situation reader's data").
 */
export const ReaderCorpusItem = z
  .strictObject({
    id: CorpusId,
    text: z.string().trim().min(1, 'must not be empty').optional().describe('The account exactly as typed'),
    message: z.string().trim().min(1, 'must not be empty').optional().describe('A message the person pasted'),
    ...CorpusLabels,
    tags: z.array(z.string()).default([]),
  })
  .refine((x) => x.text !== undefined || x.message !== undefined, 'needs a text, a message or both')
  .describe('A labelled account of the situation reader’s corpus');
export type ReaderCorpusItem = z.infer<typeof ReaderCorpusItem>;

/**
 * A second, independent labelling of a corpus account (quality/reader/agreement.yaml): the labels another
 * labeller gave it blind, from the definitions alone, to measure how often two careful readers agree.
 */
export const ReaderSecondLabel = z
  .strictObject({
    id: CorpusId,
    ...CorpusLabels,
    unsure: z.string().optional().describe('Where the labeller hesitated, in a few words'),
  })
  .describe('A second labeller’s reading of a corpus account');
export type ReaderSecondLabel = z.infer<typeof ReaderSecondLabel>;
