// How to read the atlas: the method behind every answer, written for the people and agents who use it.
// The vocabularies are typed against src/model/vocab.ts, so a new value cannot be added without saying
// what it means.
import {
  ACTORS,
  EFFECT_LEVELS,
  EVIDENCE_LEVELS,
  FIDELITIES,
  HEDGE_WORDS,
  RATE_PARAPHRASES,
  INTERVENTION_ACTORS,
  JURISDICTIONS,
  KIND_INFO,
  KINDS,
  NATURES,
  RELATIONS,
  REMOVABILITIES,
  STAGES,
  TOPICS,
  VIEWPOINTS,
  VISIBILITIES,
  type EffectLevel,
  type EvidenceLevel,
  type InterventionActor,
  type Jurisdiction,
  type Topic,
  type Fidelity,
  type Kind,
  type Relation,
  type Removability,
  type Stage,
} from '../model/vocab.ts';
import type { Registry } from '../registry/registry.ts';
import type { Methodology } from './schemas.ts';
import { LEGAL_NOTICE, LOW_SIGNAL_TEXT, LOW_SIGNAL_WITH_STEPS_TEXT, VERDICT_CODES, type VerdictCode } from './terms.ts';

const KIND_MEANINGS: Record<Kind, string> = {
  artifact:
    'An observation: what a candidate directly sees or receives (silence, a template rejection, a reposted role). Each says what it does not establish, offers diagnostic probes, says what the candidate can still do whatever the cause (next steps), and may rule out a mechanism acting at the same stage, with the reason.',
  barrier:
    'A structural gate of the hiring funnel that a candidate must pass (résumé screen, hiring-manager interview, offer approval). Barriers form a directed acyclic graph over the stages.',
  mechanism:
    'A process that makes a barrier reject, stall or misclassify a candidate, described by four facets, the barriers it operates at, the artifacts it emits and its evidence level.',
  pattern:
    'A recurring configuration worth naming (a double bind, a reversal, a silence): a set of artifacts that, seen together, establish something specific and still leave much open.',
  loop: 'A persistent causal cycle among mechanisms, where each makes the next stronger or hides it, so the situation sustains itself.',
  intervention:
    'A change a system actor (employer, hiring team, vendor, regulator, job platform) can make that targets mechanisms, barriers or loops, with expected effects and how to measure them.',
  scenario:
    'A worked situation in a candidate’s plain words, the observations (and probe outcomes) it maps to, and the analysis expected of it: a preset for explain and a regression test of the atlas.',
  source: 'A study, survey, statute or report from a vetted bibliography, cited by ID.',
};

const STAGE_MEANINGS: Record<Stage, string> = {
  'pre-posting': 'Before the role is advertised: the requisition, its budget, level and requirements.',
  sourcing: 'How the role reaches people: postings, ad delivery, referrals and internal channels.',
  ingestion: 'The application enters the system: forms, knockout questions, résumé parsing.',
  screening: 'The first read of applications, by people or software.',
  recruiter: 'The recruiter screen: a first conversation about fit, logistics and pay.',
  technical: 'Technical assessment: tests, live exercises, technical interviews.',
  'take-home': 'Work done outside the interview: assignments and work samples.',
  'hiring-manager': 'The interview with the person who will manage the role and usually owns the decision.',
  team: 'Panel or team interviews and the debrief where interviewers compare notes.',
  compensation: 'Aligning pay: bands, expectations, pay history.',
  references: 'Reference and background checks.',
  offer: 'Approving, extending and negotiating the offer.',
  'post-offer': 'From acceptance to the first day, when an offer can still be withdrawn.',
};

const RELATION_MEANINGS: Record<Relation, [from: string, to: string, meaning: string]> = {
  precedes: ['barrier', 'barrier', 'The first gate comes before the second in the funnel.'],
  operates_at: ['mechanism', 'barrier', 'The mechanism acts at this gate.'],
  emits: ['mechanism', 'artifact', 'The mechanism can produce this observation, with a fidelity.'],
  amplifies: ['mechanism', 'mechanism', 'The first mechanism makes the second stronger or more likely.'],
  masks: ['mechanism', 'mechanism', 'The first mechanism hides the second from the candidate.'],
  instantiates: ['artifact or mechanism', 'pattern', 'The artifact is required by the pattern, or the mechanism is compatible with it.'],
  member_of: ['mechanism', 'loop', 'The mechanism is part of the causal loop.'],
  targets: ['intervention', 'mechanism, barrier or loop', 'The intervention changes this.'],
  mitigates: ['intervention', 'pattern or loop', 'The intervention weakens this pattern or loop.'],
  observes: ['scenario', 'artifact', 'The worked situation includes this observation.'],
  cites: ['any entity', 'source', 'The entity relies on this source.'],
};

const EVIDENCE_MEANINGS: Record<EvidenceLevel, string> = {
  established: 'Replicated findings from strong designs (field experiments, meta-analyses, statutes in force). Must cite sources.',
  supported:
    'Backed by at least one credible source, but not replicated widely or not measured directly for this exact claim. Must cite sources.',
  hypothesis:
    'A plausible mechanism consistent with practice and reports, not yet tested by a vetted source. Treat it as a question, not a finding.',
  illustrative:
    'A description of how something can happen, included to make a configuration recognisable; it makes no claim about frequency.',
};

const FIDELITY_MEANINGS: Record<Fidelity, string> = {
  direct:
    'The artifact mirrors what the mechanism did (a rejection right after a knockout answer). It still shows that the mechanism acted, not that it was right.',
  euphemism: 'The artifact reports the mechanism in softened, generic words that many other mechanisms also produce ("closer alignment").',
  distortion: 'The artifact misrepresents what happened: it points to a different cause than the one at work.',
  noise: 'The link is weak: the mechanism only sometimes produces this artifact, among many other causes.',
  void: 'The mechanism produces an absence (silence, no status change). Absence looks the same whatever caused it.',
};

const ACTOR_MEANINGS: Record<(typeof ACTORS)[number], string> = {
  system: 'Software and process machinery: applicant tracking systems, automated scoring, scheduling.',
  recruiter: 'Recruiters and coordinators.',
  'hiring-manager': 'The hiring manager and interviewers.',
  policy: 'Written or unwritten organisational policy: budgets, rules, legal caution.',
  external: 'Forces outside this process: other candidates, the market.',
  candidate: 'The candidate themself: their skills, choices and circumstances.',
};

const NATURE_MEANINGS: Record<(typeof NATURES)[number], string> = {
  rule: 'An explicit rule or requirement applied as such.',
  incentive: 'Someone acts on their incentives (time, budget, risk) rather than on the candidate.',
  bias: 'A systematic error in judgement about people or groups.',
  noise: 'Unsystematic variation: the same candidate would get a different answer another day or from another person.',
  void: 'The absence of a process: nobody owns the step, so nothing happens.',
};

const VISIBILITY_MEANINGS: Record<(typeof VISIBILITIES)[number], string> = {
  observable: 'A candidate can see it operate.',
  inferable: 'A candidate cannot see it directly but can infer it from several signals.',
  opaque: 'A candidate cannot tell from outside whether it operated.',
};

const REMOVABILITY_MEANINGS: Record<Removability, string> = {
  candidate: 'The candidate can remove or work around it (build a skill, fix a document, choose differently).',
  intermediary: 'Only someone inside the process can remove it: a recruiter, a referrer, the hiring manager, a vendor.',
  none: 'Nobody in the process can remove it from the candidate’s side; it changes only through the employer, the market or the law.',
};

const VERDICT_MEANINGS: Record<VerdictCode, string> = {
  'run-probe':
    'A probe the candidate can run (alone or through a lawful right) has an outcome that rules out some, but not all, of the remaining mechanisms: run it before concluding anything.',
  'act-on-candidate-removable':
    'No candidate probe narrows the set, but a first-tier mechanism (one that can produce what was observed) is within the candidate’s reach; act on it only where other evidence points there.',
  'low-signal': `${LOW_SIGNAL_TEXT} Nothing the candidate can run tells the remaining mechanisms apart, and no first-tier mechanism is theirs to remove. When the observations carry next steps the verdict says so instead ("${LOW_SIGNAL_WITH_STEPS_TEXT}"): low signal never hides an action that holds whatever the cause. This is a valid, honest answer, not a failure.`,
  'nothing-left':
    'The reported probe outcomes exclude every compatible mechanism: check the outcomes, or the atlas is missing a mechanism.',
  'answer-first':
    'The words given could be one observation or another, and the reader would be guessing: answer its question (input.from_text.questions) and the analysis follows. Nothing is analysed until then.',
  'not-covered':
    'The words given are about something the atlas does not cover (input.from_text.not_covered says what, and where to turn); nothing is analysed rather than the nearest observation.',
};

const EFFECT_MEANINGS: Record<EffectLevel, string> = {
  established: 'Replicated evidence that the change works as intended, from strong designs.',
  supported: 'At least one credible study finds that the change works, not widely replicated.',
  mixed: 'Studies find effects in both directions, or none, or evidence of harm alongside the benefit.',
  contested: 'The main estimates are disputed (methods, data or replication).',
  unmeasured: 'Nobody has measured whether the change works; the summary says what would measure it.',
};

const INTERVENTION_ACTOR_MEANINGS: Record<InterventionActor, string> = {
  employer: 'Employer policy: rules, budgets and commitments set for the whole organisation.',
  'hiring-team': 'The hiring manager and interviewers: how they assess and decide.',
  'recruiting-team': 'The recruiting process: recruiters, coordinators and how they run the funnel.',
  vendor: 'A vendor of hiring software or services: applicant-tracking systems, assessments, background screening.',
  'job-platform': 'A job board or professional network: what postings show, how applications and messages flow.',
  regulator: 'A regulator or legislature: law, guidance and enforcement in a jurisdiction.',
  intermediary: 'Someone between candidates and employers: public employment services, career services, unions, agencies.',
  candidate: 'The candidate: steps a person can take to protect themself or reach a better-informed decision.',
};

const JURISDICTION_MEANINGS: Record<Jurisdiction, string> = {
  'us-federal': 'United States federal law and federal agency guidance.',
  'us-state': 'The law of one US state or city (the note says which).',
  uk: 'The law of the United Kingdom (the note says when it covers only part of it).',
  eu: 'European Union law; a note on one member state’s law says which.',
};

const VIEWPOINT_MEANINGS: Record<(typeof VIEWPOINTS)[number], string> = {
  candidate: 'The person applying: what reaches them is an artifact, or nothing.',
  recruiter: 'The recruiter or coordinator running the process.',
  'hiring-manager': 'The hiring manager and interviewers who assess and decide.',
  system: 'The software: applicant-tracking systems, scoring, scheduling and messaging.',
  intermediary: 'Someone between the two sides: an agency recruiter, a career service, a public employment service, a union.',
  employer: 'The organisation’s policy level: budgets, rules, legal caution.',
};

const TOPIC_MEANINGS: Record<Topic, string> = {
  'culture-fit': 'Judgements of "fit" and the homophily they can carry.',
  religion: 'Religious affiliation and practice.',
  'sexual-orientation-gender-identity': 'Sexual orientation and gender identity.',
  'pregnancy-caregiving': 'Pregnancy, fertility and caring responsibilities.',
  appearance: 'Looks, weight and presentation.',
  neurodivergence: 'Autism, ADHD and other neurodivergence, and interview formats.',
  'early-career': 'New graduates and entry-level hiring.',
  'career-change-return': 'Career changers and people returning after time out.',
  'internal-mobility': 'Applying inside one’s own employer.',
  intermediaries: 'Agency, RPO and executive recruiters, and outbound sourcing.',
  'generative-ai': 'Generative AI on either side: written applications, model screening, AI interviewers, interview fraud.',
  'job-scams': 'Fake recruiters and job scams.',
  'reference-checks': 'Reference checks.',
  'background-checks': 'Background, credit and right-to-work checks, and their errors.',
  'offer-rescission-remedies': 'What can be done, in law, about a withdrawn offer.',
  'hourly-frontline': 'Hourly and frontline hiring.',
  'public-sector': 'Public-sector hiring: merit rules, competitions, lists.',
  academic: 'Academic searches.',
  'licensed-professions': 'Licensed professions: licences, registration, recognition of foreign credentials.',
  'labour-market-cycle': 'How the labour-market cycle changes requirements and chances.',
  'remote-location': 'Location limits on remote work.',
};

const terms = <T extends string>(ids: readonly T[], meanings: Record<T, string>) => ids.map((id) => ({ id, meaning: meanings[id] }));

function sections(baselines: string[], reg?: Registry): Array<{ id: string; title: string; body: string }> {
  return [
    {
      id: 'purpose',
      title: 'What the atlas is for',
      body: `The Hiring Obstacles & Barriers Atlas links what candidates observe in hiring processes (silence, template rejections, reposted roles, late pay changes) to the mechanisms that can produce those observations, the gates of the funnel where they act, and what could change them.

It is built for candidates trying to read their situation without fooling themselves, for researchers and practitioners who want a shared vocabulary, and for AI agents that answer questions about hiring. It answers "what could be going on, and how could I tell?", never "what is going on".`,
    },
    {
      id: 'rules-of-inference',
      title: 'Rules of inference',
      body: `These rules hold for every answer the atlas gives, through every door (command line, API, MCP tools, site).

1. **An observation is not a cause.** Every artifact and every pattern lists what it does *not* establish. Read those lists first.
2. **A compatible mechanism is not a proven one.** "Compatible" means the atlas links the mechanism to the facts: it can produce what was observed (first tier), or it acts at the gate where it happened (second tier). Every observation in the atlas has at least two mechanisms that can produce it.
3. **Honest baselines are ordinary explanations, not afterthoughts.** The ordinary causes (in this version of the atlas: ${baselines.join('; ')}) enter an explanation like every other mechanism, wherever they can act or produce what was seen, and leave it only for a stated reason: an observation that rules them out, or a reported probe outcome that excludes them.
4. **Topological and uncalibrated.** Explanations follow the links of the graph. They carry no probabilities; the order of a list ranks how directly a mechanism accounts for the facts, never how likely it is. Figures appear only where a cited source states them, with that source.
5. **Narrowing needs an explicit exclusion.** A mechanism leaves an explanation only when the atlas records why: a probe outcome that excludes it, or an observation that rules it out (with the reason). Absence of news, tone, or timing never removes anything by itself.
6. **Sourced or labelled.** Claims marked supported or established cite vetted sources; everything else is labelled a hypothesis or illustrative, and a hypothesis says what evidence would settle it. Whether an intervention *works* is rated apart from whether its target exists (see "Interventions").
7. **No names in the atlas's own words.** The atlas's prose (titles, descriptions, probes, specimens, perspectives, law notes) never names an employer, recruiter, vendor, platform or person: it describes mechanisms, not culprits. Laws are named by their official titles; court decisions are described, not captioned. The source records are the exception, and only they: a citation must identify its source, so a source's title, authors, publisher or case caption appear as the bibliography gives them.
8. **Calibrated words.** The atlas never says how likely a cause or an outcome is: likelihood words (${HEDGE_WORDS.likelihood.filter((w) => !w.includes(' ')).join(', ')}…) are not used. Frequency words (${HEDGE_WORDS.frequency.slice(0, 8).join(', ')}…) state a rate in the world, so they appear only in an entity that cites a source for it, preferably with the source's figure; a paraphrase of a rate without a figure (${RATE_PARAPHRASES.slice(0, 6).join(', ')}…) appears only in a sentence that cites the source for it. Possibility words (${HEDGE_WORDS.possibility.join(', ')}) claim no rate and are always allowed. Specimens, aliases and scenario situations quote other people's words and are exempt. Nor does the atlas say that an observation shows or proves its cause: emission notes, probe outcomes and summaries say what an observation is consistent with. The validator enforces this (rules uncalibrated-likelihood, unsourced-frequency and causal-overclaim).`,
    },
    {
      id: 'hoba',
      title: 'The HOBA protocol',
      body: `\`explain\` (the explain_observation tool) applies four steps to what a candidate observed, given as observation IDs, as a worked scenario, or in the candidate's own words (see the sections on scenarios and plain words).

**H — Hard facts.** Resolve the observed artifacts. A deprecated artifact still resolves; the analysis uses its successor and says so. Reported probe outcomes are facts too.

**O — Obstacle.** Identify the barriers involved: those at the stage the candidate names, or, when no stage is given, those at every stage where the artifacts occur.

**B — Behind.** List the mechanisms compatible with the facts, in two tiers (see "Tiers of an explanation"): those that *produce* what was observed (they emit a given artifact) first, then those that only *act at the same stage* (they operate at an identified barrier, and the atlas does not record them as producing what was observed). The union rule stays: a mechanism is never dropped for being less direct, nor only because of the stage. Each says why it is listed, and carries its evidence level, facets, emissions and what it masks or amplifies. An observation can rule a mechanism out, with the reason (listed under ruled out). Then come the patterns the artifacts trigger (every required artifact observed) or partly match (with what is missing), the loops the mechanisms belong to, and the union of everything the artifacts and the triggered patterns do *not* establish.

**A — Agency.** Split the first tier by who can remove each mechanism: the candidate, an intermediary, or nobody in the process (the second tier is split apart, so that the split and the verdict speak about the same mechanisms). List the probes that would tell the remaining mechanisms apart (see "Diagnostic probes"), what the candidate can still do whatever the cause (see "What you can still do"), and a verdict:

- **run-probe** — a probe the candidate can run, alone or through a lawful right, can narrow the set: run it first.
- **act-on-candidate-removable** — no probe can, but a first-tier mechanism is within the candidate's reach. Act on it only where other evidence points there.
- **low-signal** — "${LOW_SIGNAL_TEXT}" No probe the candidate can run narrows the set, and no first-tier mechanism is theirs to remove; a mechanism that only acts at the same stage is not by itself a reason to act on this observation. When the observations carry next steps, the verdict says instead: "${LOW_SIGNAL_WITH_STEPS_TEXT}" Low signal never hides an indicated action.
- **nothing-left** — the reported outcomes exclude every compatible mechanism; the input or the atlas needs checking.
- **answer-first** — the words could be one observation or another: nothing is analysed until the person answers the reader's question.
- **not-covered** — the words are about something the atlas does not cover: nothing is analysed; the reader says where to turn.

Report a probe outcome (\`--probe <probe>=<outcome>\`, or \`probes\` in the tool) and run the protocol again: the mechanisms that outcome excludes leave the whole case, and are listed with the outcome that excluded them.`,
    },
    {
      id: 'tiers',
      title: 'Tiers of an explanation',
      body: `Every mechanism in an explanation carries its tier and one plain sentence saying why it is there.

- **produces** (first tier) — it emits one of the observations given: it can produce what the candidate saw. These come first, ranked by directness: the best fidelity of its emissions (direct, then euphemism, distortion, noise, void), then how many of the given observations it accounts for, then its evidence level, then its ID.
- **same-stage** (second tier) — it only operates at a barrier identified from the stage: it acts where this happened, but the atlas does not record it as producing what was seen. These follow, by ID. The text output collapses them to one line by default; nothing is dropped.

The ranking says how directly a mechanism accounts for the facts. It is not a likelihood: the last mechanism of the first tier may be the one at work.

**Honest baselines are scoped to stages.** A genuine skill gap or a stronger competing candidate enters an explanation like any other mechanism: in the first tier where it emits what was observed, in the second where it acts at the stage. It is not added to every case, so it does not appear where it cannot act (a rejection minutes after applying, an offer the employer withdrew).

**Ruled out.** An observation can rule out a mechanism acting at the same stage, with the reason: an offer that was rescinded rules out "held as backup", because the employer had chosen the candidate. A mechanism ruled out is listed apart, with the observation and the reason, never silently dropped. Like a probe exclusion, it is recorded in the atlas, not inferred.

The agency split and the verdict speak about the first tier: only a mechanism that can produce what was observed makes acting on this observation worthwhile.`,
    },
    {
      id: 'evidence',
      title: 'Evidence levels',
      body: `Every mechanism, pattern, loop and intervention carries an evidence level.

${terms(EVIDENCE_LEVELS, EVIDENCE_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

An evidence level describes the claim that the mechanism exists and works as described, not how often it explains a particular case. Sources are copied verbatim from a vetted bibliography; industry surveys are marked as such in the text and are indicative only.`,
    },
    {
      id: 'fidelity',
      title: 'Emission fidelity',
      body: `A mechanism *emits* artifacts: it is one of the things that can produce them. Each emission says how faithfully the artifact reflects the mechanism.

${terms(FIDELITIES, FIDELITY_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

Much of what a candidate sees is euphemism or silence, which is why one observation alone seldom separates mechanisms and probes matter.`,
    },
    {
      id: 'facets',
      title: 'Mechanism facets',
      body: `Four facets describe each mechanism.

**actor** — who or what drives it:
${terms(ACTORS, ACTOR_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

**nature** — what kind of process it is:
${terms(NATURES, NATURE_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

**visibility** — whether the candidate can see it:
${terms(VISIBILITIES, VISIBILITY_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

**removability** — who can remove or work around it (the A step of HOBA):
${terms(REMOVABILITIES, REMOVABILITY_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}`,
    },
    {
      id: 'probes',
      title: 'Diagnostic probes',
      body: `Each artifact offers probes: concrete, low-drama steps that can tell mechanisms apart, such as asking once for a timeline, comparing two versions of a posting, or asking for one's own records. A probe states who can run it, its cost, what it may cost the person running it, and its possible outcomes.

An outcome may *exclude* mechanisms. That is the only way a probe narrows an explanation: an outcome that excludes a mechanism removes it from the whole case. An outcome that excludes nothing still tells something (its note says what), but it does not make any mechanism less compatible. Probes are never a licence to pester: many are one message, sent once.

**Within the candidate's reach.** Every observation has at least one probe the candidate can run alone, or through a lawful right, with an outcome that excludes at least one mechanism. Lawful routes include a data-access request for one's own application records (under the GDPR or UK GDPR), or a copy of a background-check report. The atlas does not advise asking an employee to read out or relay confidential records such as interview scorecards or interviewer notes: that can breach their confidentiality or data-protection duties, and it rewards the inside access the atlas describes as unequal. Where an intermediary (a referrer, a recruiter) can help, the probe says so and ranks after the candidate's own.

**Ranking.** Probes that can narrow the set come first; among them, those that can rule out a first-tier mechanism before those that only narrow the second tier; then the candidate's own before an intermediary's; then the cheapest. Probes that cannot narrow the remaining set are listed apart: they may still be worth running for what they tell.`,
    },
    {
      id: 'next-steps',
      title: 'What you can still do',
      body: `An explanation ends with what the candidate can still do whatever the cause: forward-looking actions that hold for every mechanism in the case, such as keeping other applications going, keeping the evidence of what was sent and received, what resets a signal, and what to document and by when. Each belongs to an observation, says why it holds, may say by when it matters, and cites a vetted source where its claim needs one.

Next steps are not probes (they do not tell mechanisms apart) and not advice about a cause (they hold whichever cause is at work). They are why a low-signal verdict never means "do nothing": when next steps exist, the verdict says that no action aimed at one explanation is justified, but the steps that help whatever the cause are.`,
    },
    {
      id: 'scenarios',
      title: 'Worked scenarios',
      body: `A scenario (S-001, S-002…) is a realistic situation in a candidate's plain words, with what it maps to: the observations, optionally the stage and probe outcomes already run. It states the analysis it expects: the mechanisms that must be in the first tier, those that must not appear at all, the probes that must be offered, and the verdict.

Scenarios are presets: \`hoba explain --scenario S-003\`, the scenario argument of the explain_observation tool, the REST collection /api/v1/scenarios, the OpenAPI description and the graph (a scenario observes its artifacts). They are also regression tests: \`hoba validate\` runs the analysis on every scenario and reports an error (rule scenario-expectation) when the answer and the expectation part, so an edit to the atlas cannot silently change what a worked case says. An expectation records what the analysis should say, not whatever it happens to say.`,
    },
    {
      id: 'plain-words',
      title: 'Your words in: the situation reader',
      body: `\`hoba explain "<what happened, in your words>"\` (with \`--message <file>\` for a message you received), the text and message arguments of the explain_observation tool, and the analyze page all read a person's account with one reader, the same code everywhere, and explain the observations it states. It is a classifier trained when the atlas is built, on each observation's voices (first-person accounts in the words people use, in many registers and Englishes) and a labelled corpus of accounts; it is deterministic and is measured on accounts it never saw (QUALITY.md in the repository gives the figures and the commands that produce them).

- **What the account states.** An observation is meant to be chosen only when the account states it, not when its words merely overlap; each comes with the person's own words that state it, quoted as typed.
- **What the account denies is set aside.** "Nobody asked about my age", "it wasn't a scam, I checked": the reader says it set them aside. It is trained never to choose what an account denies, and on accounts it never saw it still chose one in about one account with a denial in seven: check what it read.
- **Questions instead of guesses.** When an account could be one observation or another (the atlas lists these pairs as distinctions), it asks the one question that tells them apart ("Had you already received an offer?") with an answer for each. Nothing is analysed until the person answers (\`--pick\`, \`picks\`, or a button on the site). When it reads one of such a pair without asking, it still says the question with the other answers (\`check\` on the observation read), so the choice is never silent and can be changed the same way.
- **Not covered.** When the account is about something the atlas does not cover (below), it says so, says where to turn, and analyses nothing, rather than choosing the nearest observation.
- **Messages as evidence.** A pasted message (a rejection email, a portal's status history, a recruiter's text, a letter) is read against the tell-tale lines of the atlas's specimens: the answer quotes which lines of the message are tells, and what each does and does not establish.
- **Search reads an account too.** A search of six words or more (\`hoba search\`, search_registry, the search page) is read the same way, and the observations it states come first, each with the words that state it (\`read\` in the result); both readings of an open question are listed. Shorter queries are keywords and are searched only.

It reads English only, and says so for another language. It reads words, it does not understand them: the reading is only as good as the observations it chooses, so check them, answer its questions, or pick the observations yourself.`,
    },
    {
      id: 'not-covered',
      title: 'What the atlas does not cover',
      body: `${reg?.manifest.covers ?? 'The atlas covers what a candidate sees while being hired.'}

It does not cover these; the situation reader recognises them and says so:

${(reg?.manifest.not_covered ?? []).map((t) => `- **${t.title}.** ${t.summary} Where to turn: ${t.instead}`).join('\n')}`,
    },
    {
      id: 'candidate-view',
      title: 'The answer a person reads first, their dates, and their record',
      body: `Every explanation carries a **candidate view** (\`candidate\` in the JSON): the same analysis in plain words, for a person who is worried rather than a researcher. It is the default text of \`hoba explain\`, the top of the analyze page and of every scenario's page, and part of every explain_observation result.

- **First, in at most about 120 words:** what the facts can and cannot mean (the kinds of explanation, and the first thing they do not establish; never how likely), the one thing worth checking and how (the first probe the person can run, with what its answer would rule out), and what to do now and by when (the first next step, and the nearest legal deadline when there is one).
- **Then the possible explanations, grouped** the way a person grasps them: something about the employer's process; the job itself (its budget, pay or timing); another candidate; something about you that you can change; how people judged you; the terms of the offer; an agency's interests; a scam; a check on your background, record or references; unlawful treatment. One line each, opened for who can change it (phrased for the case: "the employer's own process", "you can change this", "a third party"), how it shows, how well it is studied, and a link.
- **No ID, slug or vocabulary word** in that text: the plain forms of the evidence levels, fidelities, tiers, facets and verdicts are defined once (src/model/plain.ts) and used by the site, the CLI and MCP. The suite holds every worked scenario's default text to Flesch–Kincaid grade 8 or below, measured with a readability library, and to three phone screens (390 × 844) before the details.
- **Checks, records and protected traits come last** unless the account brings them in: an explanation that concerns a background or reference check, a record, or a protected trait is listed after the others unless an observation given is itself about it (the artifact's \`concerns\`), or nothing else remains, and it always says what would make it relevant. For an offer withdrawn, criminal-record screening is not the first thing shown to someone who mentioned no check.
- **Explanations confined to some kind of hiring come last** unless the account brings that kind in: one that happens only in an academic search, under the public sector's rules, in hourly volume screening, in a move inside one's own employer, or in a licensed profession is listed after the others unless an observation given is of that kind (the artifact's \`topics\`), or nothing else remains, and it says when it would apply. Silence after a final interview is not explained first by faculty hiring to someone who named no academic search.

**Deadlines as dates.** Each law note that gives a remedy has its time limit as data (\`limit\`): its length and unit, whether days are calendar or business days, the event it runs from (the act, a notice, a request), "less one day" rules, and its extensions (a state agency's 300 days, Acas early conciliation's stop-the-clock, the EU's two further months, a longer limit not yet confirmed in force), with the words still shown. Where the sources state no limit, the note says so (\`stated: false\`) and no date is computed. Given the date it happened and where the person is (both optional: \`hoba explain … --on 2026-11-20 --where uk\`, the \`on\` and \`where\` inputs of explain_observation, or the form on the analyze page), the answer gives real dates ("File a charge with the EEOC by 19 May 2027 (180 days from 20 November 2026), or by 16 September 2027 (300 days) where a state or local agency enforces a law against the same discrimination"), with "check these dates with an adviser" and the not-legal-advice notice beside them. The arithmetic is pure calendar-date arithmetic (no time zones): days after the event, the corresponding date for months and years (the month's last day when it has none), the day before it for "three months less one day", Monday to Friday for business days (public holidays are not known), and Acas's stop-the-clock from the dates of conciliation and its certificate. Each rule is tested on hand-checked dates.

**A record the person keeps.** On the analyze page a person can save the analysis and add dated events (applied, interviewed, a message, a check started, an offer withdrawn, a request sent, Acas early conciliation and its certificate). The record lives only in their browser (localStorage); it prints on a page of its own (A4 or Letter, one to three pages), downloads as Markdown, JSON (which opens again) and an .ics calendar of the deadlines, and is deleted with one button. Nothing leaves the device: the date, the place and the record are never sent, and the suite checks that no request carries them. This is what an adviser, a union, an equality agency or a tribunal asks for.`,
    },
    {
      id: 'patterns-and-loops',
      title: 'Patterns and loops',
      body: `A **pattern** names a configuration of artifacts seen together, with a trigger rule, what observing it does establish, and what it does not. It is triggered only when every required artifact has been observed; a partial match shows what is missing. A pattern never makes a mechanism more likely; it makes the question sharper.

A **loop** is a cycle among mechanisms (one amplifies or masks the next, and so on back to the first). Loops explain why some situations persist and where they can be broken: their entry points. Every cycle in the mechanisms' relations is declared as a loop, and every declared loop is checked against those relations.`,
    },
    {
      id: 'interventions',
      title: 'Interventions',
      body: `Interventions are changes that someone in or around hiring can make. Each names its actor class:

${terms(INTERVENTION_ACTORS, INTERVENTION_ACTOR_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

Each names what it targets (mechanisms, barriers, loops) or mitigates (patterns, loops), its expected effects, how to measure whether it worked, and its known trade-offs.

**Two kinds of evidence.** An intervention's \`evidence_level\` says how well the problem it targets is evidenced. Its \`effect\` says, separately, what the evidence says about whether the change works:

${terms(EFFECT_LEVELS, EFFECT_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

A well-documented problem can have a fix whose effect is mixed, contested or unmeasured; the atlas says so rather than borrowing the problem's evidence for the fix. Interventions by the candidate are steps that protect a person or inform a decision; the A step of HOBA covers what a candidate can do about one observation.`,
    },
    {
      id: 'law',
      title: 'Law, by jurisdiction',
      body: `Where a claim or a candidate's option depends on law, the entity carries law notes: for which jurisdiction it holds, the instrument (statute, regulation, guidance or decision), what it provides in plain words, the remedy it gives a candidate, the time limit for using it, and the source cited.

${terms(JURISDICTIONS, JURISDICTION_MEANINGS)
  .map((t) => `- **${t.id}** — ${t.meaning}`)
  .join('\n')}

Time limits are short (months, not years, for discrimination complaints in the US and the UK), so a note that gives a remedy always states its limit, in words and as data from which the person's own dates are computed (see the candidate view). Guidance that has been withdrawn and law that has been repealed are never presented as current: a note citing them says what changed (status_note), and every citation of them carries a caveat.

${LEGAL_NOTICE}`,
    },
    {
      id: 'specimens-and-perspectives',
      title: 'Specimens and perspectives',
      body: `**Specimens** let a person recognise their situation: a template rejection email, a portal's status history from day 0 to day 41, a posting before and after a re-post. Each is an illustrative, anonymised composite, never a real employer's text, with placeholders in square brackets, and with its tell-tale lines marked: what each line signals and what it does not establish.

**Perspectives** show a mechanism from each side: what the candidate, the recruiter, the hiring manager, the software, an intermediary or the employer's policy level each sees, how they read it, and what they do. A mechanism that looks like indifference from outside can be a queue, a rule or a budget from inside; perspectives make that visible without naming anyone.`,
    },
    {
      id: 'identifiers-and-versions',
      title: 'Identifiers, deprecation and versions',
      body: `IDs are permanent and never reused: a kind letter, a hyphen and a zero-padded number (A-001 artifact, B-001 barrier, M-001 mechanism, P-001 pattern, L-001 loop, I-001 intervention, S-001 scenario, E-001 source). A retired entity is kept with status deprecated and the ID of its successor, so old links keep resolving.

Every answer carries the registry_version of the content it was computed from (semantic versioning: patch for wording, minor for new or deprecated entities, major for changes that break consumers). Cite it with the IDs when you quote an answer.`,
    },
    {
      id: 'limits',
      title: 'What the atlas cannot do',
      body: `It cannot tell what happened in a specific process: it has no access to any employer's data and makes no calibrated estimate of how likely each explanation is. It does not judge people or employers. It is incomplete: a mechanism missing from the atlas may still be at work, and the honest baselines are there partly for that reason. A reading of someone's words can choose the wrong observation (its measured accuracy is published with the code); a scenario shows one worked case, not what usually happens. When the atlas has nothing more to say, it says so (low signal) rather than guess.`,
    },
  ];
}

/** The IDs of the methodology's sections, in order (the same whatever the atlas holds). */
export const METHODOLOGY_SECTIONS: readonly string[] = sections([]).map((s) => s.id);

/** get_methodology: the method, the rules of inference and every vocabulary with its meaning. */
export function methodology(reg: Registry): Methodology {
  return {
    registry_version: reg.version,
    title: 'How to read the Hiring Obstacles & Barriers Atlas',
    summary:
      'An observation is not a cause and a compatible mechanism is not a proven one. The HOBA protocol (Hard facts, Obstacle, Behind, Agency) links observations to the mechanisms that can produce them (first tier) and those that only act at the same stage (second tier), removes one only for a recorded reason (a probe outcome, or an observation that rules it out), offers probes within the candidate’s reach and what the candidate can still do whatever the cause, and is topological and uncalibrated: no probabilities.',
    sections: sections(
      reg
        .all('mechanism')
        .filter((m) => m.honest_baseline && m.status === 'active')
        .map((m) => `${m.id} ${m.title.replace(/\s*\(honest baseline\)$/, '')}`),
      reg,
    ),
    vocabularies: {
      kinds: KINDS.map((k) => ({ id: k, prefix: KIND_INFO[k].prefix, meaning: KIND_MEANINGS[k] })),
      stages: STAGES.map((s) => ({ id: s, meaning: STAGE_MEANINGS[s] })),
      relations: RELATIONS.map((r) => ({
        id: r,
        from: RELATION_MEANINGS[r][0],
        to: RELATION_MEANINGS[r][1],
        meaning: RELATION_MEANINGS[r][2],
      })),
      evidence_levels: terms(EVIDENCE_LEVELS, EVIDENCE_MEANINGS),
      fidelities: terms(FIDELITIES, FIDELITY_MEANINGS),
      facets: {
        actor: terms(ACTORS, ACTOR_MEANINGS),
        nature: terms(NATURES, NATURE_MEANINGS),
        visibility: terms(VISIBILITIES, VISIBILITY_MEANINGS),
        removability: terms(REMOVABILITIES, REMOVABILITY_MEANINGS),
      },
      verdicts: terms(VERDICT_CODES, VERDICT_MEANINGS),
      effect_levels: terms(EFFECT_LEVELS, EFFECT_MEANINGS),
      intervention_actors: terms(INTERVENTION_ACTORS, INTERVENTION_ACTOR_MEANINGS),
      jurisdictions: terms(JURISDICTIONS, JURISDICTION_MEANINGS),
      viewpoints: terms(VIEWPOINTS, VIEWPOINT_MEANINGS),
      topics: terms(TOPICS, TOPIC_MEANINGS),
      hedges: { likelihood: [...HEDGE_WORDS.likelihood], frequency: [...HEDGE_WORDS.frequency], possibility: [...HEDGE_WORDS.possibility] },
    },
    legal_notice: LEGAL_NOTICE,
  };
}

/** The methodology as one Markdown document. */
export function methodologyMarkdown(m: Methodology): string {
  return [
    `# ${m.title}`,
    '',
    m.summary,
    '',
    ...m.sections.flatMap((s) => [`## ${s.title}`, '', s.body, '']),
    `_Registry ${m.registry_version}._`,
    '',
  ].join('\n');
}
