// The atlas's controlled vocabularies. Every enum used by a schema, a CLI option, an MCP input or a
// route is defined here once.

/** Funnel stages, in funnel order (DESIGN.md §3). */
export const STAGES = [
  'pre-posting',
  'sourcing',
  'ingestion',
  'screening',
  'recruiter',
  'technical',
  'take-home',
  'hiring-manager',
  'team',
  'compensation',
  'references',
  'offer',
  'post-offer',
] as const;
export type Stage = (typeof STAGES)[number];

export const KINDS = ['artifact', 'barrier', 'mechanism', 'pattern', 'loop', 'intervention', 'scenario', 'source'] as const;
export type Kind = (typeof KINDS)[number];

/** ID letter, content directory and collection name of each kind. */
export const KIND_INFO: Record<Kind, { prefix: string; dir: string; label: string }> = {
  artifact: { prefix: 'A', dir: 'artifacts', label: 'artifact (observation)' },
  barrier: { prefix: 'B', dir: 'barriers', label: 'barrier' },
  mechanism: { prefix: 'M', dir: 'mechanisms', label: 'mechanism' },
  pattern: { prefix: 'P', dir: 'patterns', label: 'pattern' },
  loop: { prefix: 'L', dir: 'loops', label: 'loop' },
  intervention: { prefix: 'I', dir: 'interventions', label: 'intervention' },
  scenario: { prefix: 'S', dir: 'scenarios', label: 'scenario' },
  source: { prefix: 'E', dir: 'sources', label: 'source' },
};

/** The ID letters of every kind, from KIND_INFO: "ABMPLISE". */
export const ID_LETTERS = KINDS.map((k) => KIND_INFO[k].prefix).join('');

/**
 * An atlas ID as regular-expression source, with no anchors or boundaries: a kind letter (ID_LETTERS), a
 * hyphen, three or more digits. The one place every ID pattern is built from.
 */
export const ID_SOURCE = `[${ID_LETTERS}]-\\d{3,}`;

/** A parenthesised group of IDs in prose, as regular-expression source: "(E-070)", "(M-017; E-071)", "(see M-016)". */
export const ID_GROUP_SOURCE = `\\((?:(?:see|e\\.g\\.|cf\\.)\\s+)?${ID_SOURCE}(?:\\s*[,;]\\s*(?:(?:see|and)\\s+)?${ID_SOURCE})*\\)`;

/** IDs: a kind letter, a hyphen, a zero-padded number of at least three digits. */
const ID_PATTERN = `^${ID_SOURCE}$`;

export function idPattern(kind: Kind): string {
  return `^${KIND_INFO[kind].prefix}-[0-9]{3,}$`;
}

/** The kind an ID's letter names, or undefined when the ID has no valid shape. */
export function kindOfId(id: string): Kind | undefined {
  if (!new RegExp(ID_PATTERN).test(id)) return undefined;
  return KINDS.find((k) => KIND_INFO[k].prefix === id[0]);
}

/** An atlas ID written inside prose ("(E-068)", "see M-016"): any kind letter, a hyphen, three or more digits. */
const ID_IN_PROSE = new RegExp(`\\b${ID_SOURCE}\\b`, 'g');

/**
 * A capitalised document word just before an ID-shaped token makes it another body's document number, not an
 * atlas ID: "Form I-129", "Handbook M-274", "Publication E-123", "Schedule B-100". ("Form I-9" has one digit and
 * is not ID-shaped at all.) Capitalised only, so that ordinary prose ("the form A-015 describes") still counts.
 */
const DOCUMENT_WORD_BEFORE = /\b(?:Form|Forms|Handbook|Publication|Schedule)\s+$/;

/** Whether the ID-shaped token at `index` of `text` is a document number ("Handbook M-274"), not an atlas ID. */
export function isDocumentNumberAt(text: string, index: number): boolean {
  return DOCUMENT_WORD_BEFORE.test(text.slice(Math.max(0, index - 24), index));
}

/** The atlas IDs a piece of prose names, with where each starts; document numbers are left out. */
export function idsInProse(text: string): Array<{ id: string; index: number }> {
  const found: Array<{ id: string; index: number }> = [];
  for (const m of text.matchAll(ID_IN_PROSE)) if (!isDocumentNumberAt(text, m.index)) found.push({ id: m[0], index: m.index });
  return found;
}

export const ACTORS = ['system', 'recruiter', 'hiring-manager', 'policy', 'external', 'candidate'] as const;
export const NATURES = ['rule', 'incentive', 'bias', 'noise', 'void'] as const;
export const VISIBILITIES = ['observable', 'inferable', 'opaque'] as const;
export const REMOVABILITIES = ['candidate', 'intermediary', 'none'] as const;
export type Removability = (typeof REMOVABILITIES)[number];

/** How faithfully an artifact reflects the mechanism that emitted it. */
export const FIDELITIES = ['direct', 'euphemism', 'distortion', 'noise', 'void'] as const;
export type Fidelity = (typeof FIDELITIES)[number];

export const EVIDENCE_LEVELS = ['established', 'supported', 'hypothesis', 'illustrative'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
/** Evidence levels that must cite at least one source. */
export const SOURCED_EVIDENCE_LEVELS: readonly EvidenceLevel[] = ['established', 'supported'];

export const STATUSES = ['active', 'deprecated'] as const;

/**
 * Mechanism families (DESIGN.md §3). Every family must be covered by at least one active
 * mechanism; discrimination is split by trait so that each trait is covered on its own.
 */
export const MECHANISM_FAMILIES = [
  'skill-gap',
  'stronger-competitor',
  'parsing-and-knockout-filters',
  'automated-screening-bias',
  'recruiter-capacity',
  'ghost-posting',
  'headcount-and-budget',
  'preselection-and-referral',
  'role-redefinition',
  'shifting-rubric',
  'interview-noise',
  'scheduling-capacity',
  'compensation-mismatch',
  'employment-gap-penalty',
  'overqualification-penalty',
  'credential-inflation',
  'discrimination-race-ethnicity',
  'discrimination-gender-motherhood',
  'discrimination-age',
  'discrimination-disability',
  'discrimination-criminal-record',
  'location-and-authorisation',
  'automated-workflow',
  'legal-risk-feedback',
  'candidate-decline',
  // Added with the atlas-depth work (schema 1.3.0): the whole of hiring, not only a US tech funnel.
  'culture-fit-and-homophily',
  'discrimination-religion',
  'discrimination-sexual-orientation-gender-identity',
  'appearance-bias',
  'neurodivergence-and-format-bias',
  'early-career-experience-gap',
  'labour-market-cycle',
  'career-change-and-return',
  'internal-mobility',
  'intermediary-incentives',
  'generative-ai',
  'job-scam',
  'reference-and-background-checks',
  'frontline-volume-screening',
  'public-sector-rules',
  'academic-prestige',
  'licensing-and-recognition',
  // Added with the 0.4.0 coverage work (issue 25): what happens around the offer, retaliation, and unpaid
  // work used as selection.
  'offer-terms-and-tactics',
  'retaliation-and-blacklisting',
  'unpaid-work-as-selection',
] as const;

/**
 * Coverage topics: the parts of hiring beyond a US white-collar tech funnel that the atlas must cover
 * (`hoba stats` counts the mechanisms and artifacts tagged with each). An entity lists the topics it covers.
 */
export const TOPICS = [
  'culture-fit',
  'religion',
  'sexual-orientation-gender-identity',
  'pregnancy-caregiving',
  'appearance',
  'neurodivergence',
  'early-career',
  'career-change-return',
  'internal-mobility',
  'intermediaries',
  'generative-ai',
  'job-scams',
  'reference-checks',
  'background-checks',
  'offer-rescission-remedies',
  'hourly-frontline',
  'public-sector',
  'academic',
  'licensed-professions',
  'labour-market-cycle',
  'remote-location',
] as const;
export type Topic = (typeof TOPICS)[number];

/** Whose view of a mechanism a perspective gives. */
export const VIEWPOINTS = ['candidate', 'recruiter', 'hiring-manager', 'system', 'intermediary', 'employer'] as const;

/** The form an illustrative specimen takes. */
export const SPECIMEN_MEDIA = ['email', 'portal', 'posting', 'message', 'letter', 'call', 'form', 'report'] as const;

/**
 * What an observation may itself be about that makes some explanations sensitive: a check (background,
 * reference, drug, identity or vetting), a record (criminal record, a past complaint) or a protected trait
 * (age, sex, race, religion, disability, pregnancy…). An explanation that concerns one of these is shown
 * first only when an observation given is itself about it (or nothing else remains).
 */
export const CONCERNS = ['check', 'record', 'trait'] as const;
export type Concern = (typeof CONCERNS)[number];

/** Units of a law note's time limit. */
export const LIMIT_UNITS = ['days', 'weeks', 'months', 'years'] as const;
export type LimitUnit = (typeof LIMIT_UNITS)[number];
/** How days are counted: every calendar day (weekends and holidays count), or business days (Monday to Friday). */
export const DAY_COUNTS = ['calendar', 'business'] as const;
export type DayCount = (typeof DAY_COUNTS)[number];
/**
 * The event a time limit runs from: the act or decision complained of (a rejection, a withdrawn offer, a
 * question asked), a notice the person received (such as a pre-adverse-action notice), or a request the
 * person sent (the employer's answer is due from its receipt).
 */
export const LIMIT_EVENTS = ['act', 'notice', 'request'] as const;
export type LimitEvent = (typeof LIMIT_EVENTS)[number];
/** Whose deadline it is: the person's own (to file, complain, ask) or the employer's (to answer, to cure). */
export const LIMIT_PARTIES = ['you', 'employer'] as const;
/**
 * How a limit can change: a longer limit that replaces it when a condition holds (a state agency's 300
 * days, a law change not yet confirmed in force); more time added after it (the EU's two further months);
 * or a stop-the-clock rule (Acas early conciliation: the days between its start and its certificate do not
 * count, and at least a month remains after the certificate).
 */
export const LIMIT_EXTENSIONS = ['replaces', 'adds', 'stop-the-clock'] as const;

/** Jurisdictions of the law layer: US federal law, a US state (or city), the UK, the EU. */
export const JURISDICTIONS = ['us-federal', 'us-state', 'uk', 'eu'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/**
 * How well the evidence says an intervention works, separate from how well the problem it targets is
 * evidenced: mixed (effects in both directions or none), contested (disputed estimates), unmeasured.
 */
export const EFFECT_LEVELS = ['established', 'supported', 'mixed', 'contested', 'unmeasured'] as const;
export type EffectLevel = (typeof EFFECT_LEVELS)[number];
/** Effect levels that must cite a source: every level that says something about measured effects. */
export const SOURCED_EFFECT_LEVELS: readonly EffectLevel[] = ['established', 'supported', 'mixed', 'contested'];

export const PATTERN_SHAPES = ['double-bind', 'reversal', 'impossibility', 'silence', 'moving-target', 'cascade'] as const;

export const LOOP_RELATIONS = ['amplifies', 'masks'] as const;

/**
 * Who makes an intervention's change: employer policy, the hiring manager's team, the recruiting process,
 * a vendor or ATS, a job platform, a regulator or jurisdiction, an intermediary (public employment
 * service, career service, union, agency) or the candidate.
 */
export const INTERVENTION_ACTORS = [
  'employer',
  'hiring-team',
  'recruiting-team',
  'vendor',
  'job-platform',
  'regulator',
  'intermediary',
  'candidate',
] as const;
export type InterventionActor = (typeof INTERVENTION_ACTORS)[number];
export const INTERVENTION_SCOPES = ['process', 'organisation', 'market', 'jurisdiction'] as const;
export const COSTS = ['low', 'medium', 'high'] as const;

/** Who can run a diagnostic probe. */
export const PROBE_AGENCIES = ['candidate', 'intermediary'] as const;

/** Stable verdict codes of the HOBA protocol (explain). Never rename one; tools match on them. */
export const VERDICT_CODES = [
  'run-probe',
  'act-on-candidate-removable',
  'low-signal',
  'nothing-left',
  'answer-first',
  'not-covered',
] as const;
export type VerdictCode = (typeof VERDICT_CODES)[number];

export const SOURCE_TYPES = ['research', 'survey', 'reporting', 'primary', 'legal'] as const;
/** Status of a source: scholarly (current, superseded, contested) or legal (withdrawn: guidance taken down; repealed: law no longer in force). */
export const SOURCE_STATUSES = ['current', 'superseded', 'contested', 'withdrawn', 'repealed'] as const;

/** Typed, directed edges of the graph (DESIGN.md §3). */
export const RELATIONS = [
  'precedes',
  'operates_at',
  'emits',
  'amplifies',
  'masks',
  'instantiates',
  'member_of',
  'targets',
  'mitigates',
  'observes',
  'cites',
] as const;
export type Relation = (typeof RELATIONS)[number];

/** "a mechanism", "an artifact", "an intervention": a word of the vocabulary with its indefinite article. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/**
 * Qualitative hedges (methodology rule on calibration). The atlas is uncalibrated: it never says how
 * likely a cause is for a given case, so likelihood words are never allowed. Frequency words state a
 * rate in the world; they are allowed only in an entity that cites a source for it. Possibility words
 * (can, may, might, some, sometimes) claim no rate and are always allowed.
 */
export const HEDGE_WORDS = {
  likelihood: [
    'probably',
    'probable',
    'improbable',
    'likely',
    'unlikely',
    'most likely',
    'least likely',
    'likeliest',
    'most probable',
    'very likely',
    'highly likely',
    'almost certainly',
    'presumably',
    'surely',
    'in all likelihood',
    'chances are',
    'odds are',
  ],
  frequency: [
    'often',
    'usually',
    'commonly',
    'typically',
    'frequently',
    'rarely',
    'seldom',
    'generally',
    'more likely',
    'less likely',
    'as likely',
    'equally likely',
    'routinely',
    'usual',
    'tends to',
    'tend to',
    'tended to',
    'in most cases',
    'normally',
    'more often than not',
    'as a rule',
    'almost always',
    'nearly always',
    'invariably',
    'most of the time',
  ],
  possibility: ['can', 'may', 'might', 'could', 'some', 'sometimes'],
} as const;

/**
 * Frequency words that paraphrase a rate without a figure ("interviewers ask about gaps routinely", "the
 * usual wording", "a loosely structured process tends to produce"). They read as a fact about the world, so
 * each must sit in a sentence that cites the source for the rate (E-…); a source elsewhere in the entity is
 * not enough. "Routine" (a routine check) and "as usual" (in the ordinary way) are kinds, not rates; "normally"
 * and "generally" are left out because law states its rules with them ("a claim must normally be presented
 * within three months"), which is the rule's own wording, not a rate.
 */
export const RATE_PARAPHRASES = [
  'routinely',
  'usually',
  'usual',
  'typically',
  'commonly',
  'tends to',
  'tend to',
  'tended to',
  'in most cases',
  'more often than not',
  'almost always',
  'nearly always',
  'invariably',
  'most of the time',
] as const;

/**
 * The grounds of discrimination the atlas's mechanisms and law notes share: for each, the mechanism families
 * that discriminate on it and the words by which a law note names it. Automated screening bias can act on
 * any ground (words: undefined). Read by the validator (exclusion-on-say-so, discrimination-law-unreached).
 */
export const DISCRIMINATION_GROUNDS: ReadonlyArray<{
  ground: string;
  families: ReadonlyArray<(typeof MECHANISM_FAMILIES)[number]>;
  words?: RegExp;
}> = [
  {
    ground: 'disability',
    families: ['discrimination-disability', 'neurodivergence-and-format-bias'],
    words: /\b(?:disabilit\w*|Americans\s+with\s+Disabilities|ADA|health\s+condition)\b/i,
  },
  { ground: 'age', families: ['discrimination-age'], words: /\b(?:age|older|Age\s+Discrimination|ADEA)\b/i },
  { ground: 'sex or pregnancy', families: ['discrimination-gender-motherhood'], words: /\b(?:pregnan\w*|sex|maternity|motherhood)\b/i },
  {
    ground: 'race or national origin',
    families: ['discrimination-race-ethnicity'],
    words: /\b(?:race|racial|ethnic\w*|national\s+origin|citizenship\s+status)\b/i,
  },
  { ground: 'religion', families: ['discrimination-religion'], words: /\breligio\w*/i },
  {
    ground: 'sexual orientation or gender identity',
    families: ['discrimination-sexual-orientation-gender-identity'],
    words: /\b(?:sexual\s+orientation|gender\s+identity|transgender|gender\s+reassignment)\b/i,
  },
  { ground: 'criminal record', families: ['discrimination-criminal-record'], words: /\b(?:criminal\s+record|conviction\w*|arrest\w*)\b/i },
  { ground: 'any ground', families: ['automated-screening-bias'] },
];
