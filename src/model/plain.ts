// The plain-language form of every label a person sees: evidence levels, fidelities, tiers, facets,
// verdicts, and the groups the candidate view sorts explanations into. Defined once here and used by the
// site, the CLI and the MCP server (the analysis's candidate view carries these words), so that "behind
// softened words", "evidence: hypothesis" or "intermediary" never reach a worried reader unexplained.
// Every record is keyed by its vocabulary, so a new value cannot be added without its plain words.
import type { Concern, EvidenceLevel, Fidelity, Removability, Topic, VerdictCode } from './vocab.ts';
import { ACTORS, MECHANISM_FAMILIES, NATURES, VISIBILITIES } from './vocab.ts';

type Actor = (typeof ACTORS)[number];
type Family = (typeof MECHANISM_FAMILIES)[number];

/** How well the atlas's sources back an explanation, in words a person reads without a glossary. */
export const PLAIN_EVIDENCE: Record<EvidenceLevel, string> = {
  established: 'well studied',
  supported: 'backed by some research',
  hypothesis: 'a reasoned idea, not yet studied',
  illustrative: 'an example only, not studied',
};

/** How what the person saw comes out of an explanation (its emission fidelity). */
export const PLAIN_FIDELITY: Record<Fidelity, string> = {
  direct: 'What you saw can follow straight from it.',
  euphemism: 'It can hide behind polite words.',
  distortion: 'The reason you were given may not be the real one.',
  noise: 'What you saw is only a weak sign of it.',
  void: 'It shows only as silence.',
};

/** The two tiers of explanations. */
export const PLAIN_TIER: Record<'produces' | 'same-stage', string> = {
  produces: 'can cause what you saw',
  'same-stage': 'happens at the same step, but would not cause this by itself',
};

/** The verdict headings: one per verdict code. */
export const PLAIN_VERDICT: Record<VerdictCode, string> = {
  'run-probe': 'Check one thing first',
  'act-on-candidate-removable': 'Part of this may be in your hands',
  'low-signal': 'This alone does not tell you much',
  'nothing-left': 'The atlas has no explanation left',
  'answer-first': 'Answer one question first',
  'not-covered': 'This is not something the atlas covers',
};

/** The heading of a verdict, as the command line and the analyze page print it: "Verdict: Check one thing first". */
export const verdictHeading = (code: VerdictCode) => `Verdict: ${PLAIN_VERDICT[code]}`;

/** Who or what an explanation comes from (the actor facet). */
export const PLAIN_ACTOR: Record<Actor, string> = {
  system: 'the hiring software or systems',
  recruiter: 'the recruiter',
  'hiring-manager': 'the hiring manager or the team',
  policy: 'the employer’s own rules',
  external: 'something outside the employer (the job market, another candidate, a third party)',
  candidate: 'a candidate’s own choices or circumstances',
};

/** What kind of thing it is (the nature facet). */
export const PLAIN_NATURE: Record<(typeof NATURES)[number], string> = {
  rule: 'a rule',
  incentive: 'someone’s own interest',
  bias: 'a bias',
  noise: 'chance and inconsistency',
  void: 'something not happening (delay or neglect)',
};

/** Whether the person can see it (the visibility facet). */
export const PLAIN_VISIBILITY: Record<(typeof VISIBILITIES)[number], string> = {
  observable: 'you can see it',
  inferable: 'you can work it out',
  opaque: 'hidden from you',
};

/**
 * Who can change an explanation, phrased for the case: the removability facet read with the actor, so
 * that "no one can change it" is never said of something the employer itself does.
 */
const WHO: Record<Removability, Record<Actor, string>> = {
  candidate: {
    candidate: 'You can change this.',
    system: 'You can work around this.',
    policy: 'You can work around this.',
    recruiter: 'You can work around this.',
    'hiring-manager': 'You can work around this.',
    external: 'You can work around this.',
  },
  intermediary: {
    system: 'The employer’s own systems: someone inside can change them, not you.',
    policy: 'The employer’s own rules: someone inside can change them, not you.',
    recruiter: 'The recruiter can change this, not you.',
    'hiring-manager': 'The hiring manager or team can change this, not you.',
    external: 'A third party (an agency, a screening company) can change this, not you.',
    candidate: 'Someone inside the process can change this, not you.',
  },
  none: {
    system: 'The employer’s own process: nothing you do changes it.',
    policy: 'The employer’s own decision: nothing you do changes it.',
    recruiter: 'The recruiter’s side: nothing you do changes it.',
    'hiring-manager': 'The people deciding: nothing you do changes it.',
    external: 'Outside anyone’s control in this process.',
    candidate: 'A candidate’s own choice: nothing you do changes it.',
  },
};

/** The groups of the candidate view, in the order a person reads them (the analysis orders them by what it found first). */
export const PLAIN_GROUPS = [
  'process',
  'role',
  'others',
  'you',
  'judgement',
  'offer',
  'third-party',
  'scam',
  'checks',
  'unlawful',
] as const;
export type PlainGroup = (typeof PLAIN_GROUPS)[number];

export const PLAIN_GROUP_LABELS: Record<PlainGroup, { label: string; short: string }> = {
  process: { label: 'Something about the employer’s process', short: 'the employer’s process' },
  role: { label: 'Something about the job itself: its budget, pay or timing', short: 'the job itself' },
  others: { label: 'Another candidate, or their choice', short: 'another candidate' },
  you: { label: 'Something about you that you can change', short: 'something you can change' },
  judgement: { label: 'How people judged you', short: 'how people judged you' },
  offer: { label: 'Tactics or terms in the offer', short: 'the terms of the offer' },
  'third-party': { label: 'An agency’s or a recruiter’s own interests', short: 'an agency’s interests' },
  scam: { label: 'A scam, not a real job', short: 'a scam' },
  checks: { label: 'A check on your background, record or references', short: 'a background check' },
  unlawful: { label: 'Unlawful treatment', short: 'unlawful treatment' },
};

/**
 * What would make a sensitive explanation relevant, by what it concerns. Shown beside it whenever it is
 * listed: the person's account has not brought it in unless an observation is itself about it.
 */
export const PLAIN_RELEVANT_IF: Record<Concern, string> = {
  check: 'Only if a background, reference, drug or identity check was part of your process.',
  record: 'Only if a record of yours (a conviction, a past complaint) came up or could be found.',
  trait: 'Only if something the law protects (your age, sex, race, religion, a disability, a pregnancy) was known or could be guessed.',
};

/**
 * The kinds of hiring some families of explanation happen only in (an academic search, the public sector's
 * rules, hourly volume screening, an internal move, a licensed profession): the coverage topics an
 * observation given must carry for the explanation to be brought in, and what would make it relevant,
 * shown beside it otherwise. Like a sensitive one, it is listed after the others unless the account brings
 * it in: silence after a final interview is not explained first by faculty hiring to someone who named no
 * academic search.
 */
export interface FamilyContext {
  topics: readonly Topic[];
  relevant_if: string;
}

/** Each mechanism family's group, what it concerns when it is sensitive, the kind of hiring it happens only in, and a phrasing of who can change it when the facets alone mislead. */
export const FAMILY_PLAIN: Record<Family, { group: PlainGroup; concern?: Concern; context?: FamilyContext; who?: string }> = {
  'skill-gap': { group: 'you' },
  'stronger-competitor': { group: 'others', who: 'Another candidate: nothing you do now changes it.' },
  'parsing-and-knockout-filters': { group: 'process' },
  'automated-screening-bias': { group: 'process' },
  'recruiter-capacity': { group: 'process' },
  'ghost-posting': { group: 'role' },
  'headcount-and-budget': { group: 'role' },
  'preselection-and-referral': { group: 'others' },
  'role-redefinition': { group: 'role' },
  'shifting-rubric': { group: 'process' },
  'interview-noise': { group: 'process' },
  'scheduling-capacity': { group: 'process' },
  'compensation-mismatch': { group: 'role' },
  'employment-gap-penalty': { group: 'judgement' },
  'overqualification-penalty': { group: 'judgement' },
  'credential-inflation': { group: 'role' },
  'discrimination-race-ethnicity': { group: 'unlawful', concern: 'trait' },
  'discrimination-gender-motherhood': { group: 'unlawful', concern: 'trait' },
  'discrimination-age': { group: 'unlawful', concern: 'trait' },
  'discrimination-disability': { group: 'unlawful', concern: 'trait' },
  'discrimination-criminal-record': { group: 'checks', concern: 'record' },
  'location-and-authorisation': { group: 'role' },
  'automated-workflow': { group: 'process' },
  'legal-risk-feedback': { group: 'process' },
  'candidate-decline': { group: 'others', who: 'A candidate’s own choice: yours, or that of the person chosen ahead of you.' },
  'culture-fit-and-homophily': { group: 'judgement' },
  'discrimination-religion': { group: 'unlawful', concern: 'trait' },
  'discrimination-sexual-orientation-gender-identity': { group: 'unlawful', concern: 'trait' },
  'appearance-bias': { group: 'judgement' },
  'neurodivergence-and-format-bias': { group: 'process' },
  'early-career-experience-gap': { group: 'role' },
  'labour-market-cycle': { group: 'role' },
  'career-change-and-return': { group: 'judgement' },
  'internal-mobility': {
    group: 'process',
    context: { topics: ['internal-mobility'], relevant_if: 'Only if you applied for a move inside your own employer.' },
  },
  'intermediary-incentives': { group: 'third-party' },
  'generative-ai': { group: 'process' },
  'job-scam': { group: 'scam', who: 'You can protect yourself: stop, and check who is really asking.' },
  'reference-and-background-checks': { group: 'checks', concern: 'check' },
  'frontline-volume-screening': {
    group: 'process',
    context: {
      topics: ['hourly-frontline'],
      relevant_if: 'Only if you applied for hourly or frontline work (a shop, a warehouse, a restaurant, care).',
    },
  },
  'public-sector-rules': {
    group: 'process',
    context: {
      topics: ['public-sector', 'academic'],
      relevant_if: 'Only if you applied to a public employer or an institution that hires by formal rules (government, a university).',
    },
  },
  'academic-prestige': {
    group: 'judgement',
    context: { topics: ['academic'], relevant_if: 'Only if you applied for an academic post (a faculty search).' },
  },
  'licensing-and-recognition': {
    group: 'you',
    context: {
      topics: ['licensed-professions'],
      relevant_if: 'Only if the work needs a licence or registration (nursing, teaching, law, a trade).',
    },
  },
  'offer-terms-and-tactics': { group: 'offer' },
  'retaliation-and-blacklisting': {
    group: 'unlawful',
    concern: 'record',
    who: 'Another employer or a former one: nothing you do changes it, but the law may help.',
  },
  'unpaid-work-as-selection': { group: 'process' },
};

/** Who can change it, in a few words, for the technical reports (--brief, --full, the full view): the candidate view says it for the case (plainWho). */
export const PLAIN_WHO_SHORT: Record<Removability, string> = {
  candidate: 'you can act on it',
  intermediary: 'someone inside the process can change it',
  none: 'nothing you do changes it',
};

/** Who can change a mechanism, in plain words for its case. */
export function plainWho(m: { family: Family; facets: { actor: Actor; removability: Removability } }): string {
  return FAMILY_PLAIN[m.family].who ?? WHO[m.facets.removability][m.facets.actor];
}

/**
 * Words that belong to the atlas's own vocabulary and mean nothing to a worried reader: the candidate
 * view's default text never uses them (a test holds it). Plain English words that happen to be values
 * ("direct", "noise", "established") are not listed; the technical ones are.
 */
export const FACET_WORDS = [
  'mechanism',
  'artifact',
  'probe',
  'fidelity',
  'euphemism',
  'distortion',
  'hypothesis',
  'illustrative',
  'intermediary',
  'removab',
  'honest baseline',
  'same-stage',
  'first tier',
  'second tier',
  'facet',
  'barrier',
  'topological',
  'uncalibrated',
  'emits',
] as const;

/** The notice under every candidate view: the plain form of the uncalibrated notice. */
export const PLAIN_NOTICE = 'This lists what can explain what you saw. It cannot say how likely each one is, and none of them is proven.';
