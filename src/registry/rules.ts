// The validator's rule catalogue: every rule ID, its severity and what it checks, in one place.
// Rule IDs are stable: tools and people match on them. Never rename one; add new rules instead.

export type Severity = 'error' | 'warning';

export const RULES = {
  'yaml-syntax': { severity: 'error', checks: 'Every content file is well-formed YAML holding one mapping.' },
  'yaml-duplicate-key': { severity: 'error', checks: 'No YAML mapping repeats a key.' },
  'text-encoding': {
    severity: 'error',
    checks:
      'Every content file is valid UTF-8 (a leading BOM and CRLF line ends are fine) and holds no control character other than tab, line feed and carriage return, no noncharacter (U+FFFE, U+FDD0…) and no unpaired surrogate, neither raw nor from a YAML escape.',
  },
  manifest: { severity: 'error', checks: 'content/atlas.yaml exists and matches the manifest schema.' },
  schema: { severity: 'error', checks: 'Every entity matches the schema of its kind (types, enums, no unknown keys).' },
  'id-shape': { severity: 'error', checks: 'Every ID has the shape of its kind (e.g. M-001) and sits in that kind’s directory.' },
  'file-name': { severity: 'error', checks: 'Every file name starts with its entity’s ID and ends in .yaml.' },
  'duplicate-id': { severity: 'error', checks: 'No two files declare the same ID.' },
  'stray-file': { severity: 'warning', checks: 'Content files live in a kind directory (artifacts/, barriers/, …).' },
  'dangling-reference': { severity: 'error', checks: 'Every referenced ID exists.' },
  'wrong-kind-reference': { severity: 'error', checks: 'Every reference points at an entity of an allowed kind.' },
  'self-reference': { severity: 'error', checks: 'No entity precedes, amplifies, masks or supersedes itself.' },
  'duplicate-reference': { severity: 'error', checks: 'No reference list names the same ID twice.' },
  'deprecated-reference': { severity: 'warning', checks: 'Active entities do not point at deprecated ones (point at the successor).' },
  'deprecated-successor': {
    severity: 'error',
    checks: 'A deprecated entity names an existing, active successor of its kind; an active one names none.',
  },
  'barrier-cycle': { severity: 'error', checks: 'The barriers’ precedes relation is acyclic (the funnel is a DAG).' },
  'barrier-order': { severity: 'error', checks: 'A barrier that precedes another has a lower order and no later stage.' },
  'stage-without-barrier': { severity: 'warning', checks: 'Every funnel stage has at least one active barrier.' },
  'loop-declaration': {
    severity: 'error',
    checks:
      'A loop’s edges and entry points are among its members, no edge is declared twice, and its declared edges form one cycle: every member is touched by an edge and can reach every other along them.',
  },
  'loop-edge-missing': { severity: 'error', checks: 'Every edge a loop declares exists among its mechanisms’ amplifies/masks relations.' },
  'loop-not-strongly-connected': {
    severity: 'error',
    checks: 'A loop’s members lie in one strongly connected component of amplifies/masks.',
  },
  'loop-undeclared-cycle': {
    severity: 'error',
    checks:
      'Every cycle among mechanisms is accounted for by declared loops: each amplifies/masks relation that lies on a cycle (both ends in one strongly connected component) is an edge of some active loop. Covering the mechanisms with several loops is not enough: a relation between two loops makes a cycle neither declares.',
  },
  'honest-baseline-missing': { severity: 'error', checks: 'The atlas holds at least one active honest-baseline mechanism.' },
  'evidence-unsourced': { severity: 'error', checks: 'Claims marked supported or established cite at least one source.' },
  'source-bibliography': { severity: 'error', checks: 'Every source is a verbatim copy of an entry in the shared bibliography.' },
  'named-entity': {
    severity: 'error',
    checks:
      'Atlas prose never names an employer, vendor, platform or person, in any case or form (possessive, hyphenated), nor gives a web domain (cite sources by ID).',
  },
  'pattern-non-inferences': { severity: 'error', checks: 'Every pattern says what it establishes and what it does not.' },
  'artifact-non-inferences': { severity: 'error', checks: 'Every artifact says what it does not establish.' },
  'artifact-probes': { severity: 'error', checks: 'Every artifact has at least one diagnostic probe.' },
  'probe-duplicate-id': { severity: 'error', checks: 'Probe IDs are unique across the atlas; outcome IDs are unique within a probe.' },
  'mechanism-relations': { severity: 'error', checks: 'Every mechanism operates at a barrier and emits an artifact.' },
  'intervention-targets': { severity: 'error', checks: 'Every intervention names what it targets.' },
  'intervention-measurements': { severity: 'error', checks: 'Every intervention says what it should change and how to measure it.' },
  'family-uncovered': { severity: 'warning', checks: 'Every mechanism family of the design has an active mechanism.' },
  'mechanism-untargeted': { severity: 'warning', checks: 'Every active mechanism is targeted by at least one intervention.' },
  'artifact-orphan': { severity: 'warning', checks: 'Every active artifact is emitted by at least one mechanism.' },
  'artifact-emitters': {
    severity: 'warning',
    checks:
      'Every active artifact is emitted by at least two active mechanisms (an observation has more than one possible cause) and by at most eight (so explained alone, its first tier stays readable).',
  },
  'artifact-candidate-narrowing': {
    severity: 'warning',
    checks:
      'Every active artifact has a probe the candidate can run (alone or through a lawful right) with an outcome that excludes at least one mechanism.',
  },
  'artifact-next-steps': {
    severity: 'warning',
    checks: 'Every active artifact says what the candidate can still do, whatever the cause (next_steps).',
  },
  'next-step-source-unlisted': { severity: 'error', checks: 'A source a next step relies on is also listed in its artifact’s sources.' },
  'scenario-reference': {
    severity: 'error',
    checks:
      'A scenario’s probe outcomes and expected probes belong to its artifacts (the probe is one of theirs, the outcome one of the probe’s), each probe is reported once, and no mechanism is both expected in the first tier and expected absent.',
  },
  'scenario-expectation': {
    severity: 'error',
    checks:
      'Explaining a scenario’s input gives the analysis it expects: its first-tier mechanisms in the first tier, its absent mechanisms nowhere, its probes offered and its verdict (checked by hoba validate, which runs the analysis).',
  },
  'nested-source-unlisted': {
    severity: 'error',
    checks: 'A source that a law note, an intervention’s effect or a barrier variant cites is also listed in its entity’s sources.',
  },
  'law-limit': {
    severity: 'error',
    checks:
      'A law note that gives a remedy has its time limit as data (limit: length, unit, how days count, the event it runs from, extensions), so that dates can be computed; a limit is marked unstated when the words say the sources give none, and never stated then; where and applies_in name places the atlas knows.',
  },
  'law-note': {
    severity: 'error',
    checks:
      'A law note for a US state says where; a note giving a remedy states its time limit; a note citing withdrawn guidance or repealed law says so in status_note.',
  },
  'effect-unsourced': {
    severity: 'error',
    checks: 'An intervention’s effect level other than unmeasured cites the evidence on the effect.',
  },
  'voice-shared': {
    severity: 'error',
    checks:
      'No account is a voice of two artifacts or not-covered topics (compared without case, spacing or punctuation): a voice teaches the situation reader one observation.',
  },
  'voice-id': { severity: 'error', checks: 'A voice is a person’s own words: it holds no atlas ID (A-001, M-012…).' },
  distinction: {
    severity: 'error',
    checks:
      'A distinction (a question the situation reader asks when an account could be one observation or another) has a unique ID, names existing, active artifacts, each once, and no two distinctions offer the same pair.',
  },
  'not-covered-topic': {
    severity: 'error',
    checks: 'Each topic the atlas does not cover has a unique ID and at least five voices the situation reader learns it from.',
  },
  'specimen-tells': {
    severity: 'error',
    checks: 'Every tell of a specimen quotes its text verbatim, and specimen IDs are unique within an artifact.',
  },
  'mechanism-perspectives': {
    severity: 'warning',
    checks:
      'Every active mechanism gives perspectives: the candidate’s and at least two others (recruiter, hiring manager, system, intermediary, employer), each viewpoint once.',
  },
  'uncalibrated-likelihood': {
    severity: 'error',
    checks:
      'Atlas prose never says how likely a cause or outcome is (probably, likely, unlikely, likeliest, most likely, almost certainly…): the atlas is uncalibrated. Specimen texts, aliases and scenario situations (other people’s words) are exempt.',
  },
  'unsourced-frequency': {
    severity: 'warning',
    checks:
      'Frequency words (often, usually, commonly, typically, rarely, more likely…) state a rate, so they appear only in entities that cite a source; and a frequency paraphrase (routinely, usually, the usual, typically, commonly, tends to, in most cases, normally…) only in a sentence that cites the source for the rate (E-…), since a source elsewhere in the entity does not give that rate.',
  },
  'source-unused': { severity: 'warning', checks: 'Every source in content/sources is cited somewhere.' },
  // Added with the content audit of 2026-11 (atlas 0.4.0).
  'source-finding-missing': {
    severity: 'error',
    checks:
      'Nothing rests on a source whose bibliography entry has no finding: no entity, law note, next step or sentence cites it (cite an entry whose finding states the fact, or reword to what a finding supports).',
  },
  'causal-overclaim': {
    severity: 'error',
    checks:
      'Emission notes, probe outcome notes and summaries never claim that an observation proves or shows a cause ("shows that", "proves", "directly shows", "is the plainest sign"), unless they deny it ("does not show that"): an observation is consistent with a cause, it does not establish it.',
  },
  'exclusion-on-say-so': {
    severity: 'error',
    checks:
      'A probe outcome whose observation is only the employer’s word (they say, they tell you, a reply says…) excludes no discrimination mechanism: discrimination is seldom admitted, so only a document (a record, a written answer, a published policy) can remove it from the case.',
  },
  'discrimination-law-unreached': {
    severity: 'error',
    checks:
      'A law note on discrimination sits only on an artifact that a mechanism of the same ground (disability, age, sex or pregnancy, race, religion, orientation or gender identity, criminal record; any, for a note naming no ground) can reach: by emitting it or by acting at one of its stages. Otherwise no explanation of the artifact offers the cause the note rests on.',
  },
  'perspective-citation': {
    severity: 'error',
    checks:
      'A perspective other than the candidate’s (recruiter, hiring manager, system, intermediary, employer) says what that actor sees, reads and does, and cites no source: a research finding with its citation is the atlas’s commentary, and belongs in the mechanism’s description.',
  },
  'alias-title-clash': {
    severity: 'error',
    checks:
      'No artifact’s alias is another artifact’s title (ignoring case and punctuation): plain words would be read as the wrong observation.',
  },
  'uncited-source': {
    severity: 'error',
    checks:
      'The manifest’s "not cited, and why" list (uncited in content/atlas.yaml) names bibliography entries of its revision range, each once, with a reason, and none that the atlas cites.',
  },
  'inline-reference': {
    severity: 'error',
    checks:
      'An atlas ID written inside prose ("(E-068)", "see M-016") names an entity that exists (a source must be synced into content/sources). A token right after a capitalised document word (Form, Forms, Handbook, Publication, Schedule) is another body\u2019s document number, not an atlas ID, and is not checked ("Handbook M-274", "Form I-129"; "Form I-9" has too few digits to look like one). Other people\u2019s words (aliases, voices, specimen texts and quoted tells, scenario situations) are not checked either; a string that is only an ID is a structured reference, checked by dangling-reference.',
  },
  'source-status-unstated': {
    severity: 'warning',
    checks:
      'Prose that relies on a withdrawn or repealed source says so (withdrawn, repealed, rescinded, no longer in force…) where it cites it.',
  },
  // Added by the releases work: checked by hoba validate against releases/ (src/analysis/diff.ts).
  'release-version': {
    severity: 'warning',
    checks:
      'Content that differs from the latest recorded release (releases/index.json) has a registry_version above it, by at least the bump its changes need: major when an ID is removed (minor while the version is 0.x), minor for new, deprecated or restored entities, patch for edits.',
  },
  // Added by the static-mirror work: compares a fresh build with the published mirror.
  'mirror-parity': { severity: 'error', checks: 'The published mirror (_site/ or a deployed URL) matches a fresh build of the content.' },
} as const satisfies Record<string, { severity: Severity; checks: string }>;

export type RuleId = keyof typeof RULES;

export interface Problem {
  rule: RuleId;
  severity: Severity;
  /** The entity the problem concerns, when there is one. */
  entity?: string;
  /** Path relative to the checkout, e.g. content/mechanisms/M-001-skill-gap.yaml. */
  file?: string;
  line?: number;
  /** What is wrong and what to do about it. */
  message: string;
}

export interface Location {
  file?: string;
  line?: number;
}

export function problem(rule: RuleId, message: string, where: Location & { entity?: string } = {}): Problem {
  const p: Problem = { rule, severity: RULES[rule].severity, message };
  if (where.entity !== undefined) p.entity = where.entity;
  if (where.file !== undefined) p.file = where.file;
  if (where.line !== undefined) p.line = where.line;
  return p;
}

/** Stable order for reports: by file, then line, then rule. Problems without a file come first. */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.rule.localeCompare(b.rule) ||
      a.message.localeCompare(b.message),
  );
}
