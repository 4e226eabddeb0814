// hoba explain: the HOBA protocol (Hard facts, Obstacle, Behind, Agency) for what a person observed,
// given as artifact IDs, a worked scenario (--scenario S-003) or their own words. The text leads with what
// matters (the verdict, the few most direct explanations, what would tell them apart, what can still be
// done, what the facts do not establish) and fits a phone screen; --full shows everything, --json the
// whole structure.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { explainArtifacts, listTotal, ruleOutWords, type ProbeOutcomeInput } from '../analysis/protocol.ts';
import { normaliseId } from '../analysis/resolve.ts';
import type { CompatibleMechanism, ExplainResult, ProbeView } from '../analysis/schemas.ts';
import type { Fidelity } from '../model/vocab.ts';
import { STAGES } from '../model/vocab.ts';
import { PLAIN_WHO_SHORT, verdictHeading } from '../model/plain.ts';
import { locateAtlas, openLocated } from './atlas.ts';
import { CliError, colour, writeJson } from './io.ts';
import { renderCandidate } from './candidate-text.ts';
import { citationLine } from './show.ts';
import { withAnalysisErrors, choiceOption, InvalidArgumentError, terminalWidth, wrap } from './text.ts';
import { writeOut } from './out.ts';
import { storedText } from './stored-text.ts';

export interface ExplainOptions {
  stage?: string;
  /** A file holding a message the person received, or "-" for standard input. */
  message?: string;
  /** Answers to the reader's questions (observation IDs). */
  pick?: string[];
  probe?: ProbeOutcomeInput[];
  scenario?: string;
  full?: boolean;
  brief?: boolean;
  json?: boolean;
  dir?: string;
  on?: string;
  where?: string;
}

function collectPick(value: string, previous: string[] = []): string[] {
  const id = normaliseId(value.trim());
  if (id === undefined || !id.startsWith('A-'))
    throw new InvalidArgumentError('Use an observation ID from the question, e.g. --pick A-046.');
  return [...previous, id];
}

function collectProbe(value: string, previous: ProbeOutcomeInput[] = []): ProbeOutcomeInput[] {
  const m = /^([^=\s]+)=([^=\s]+)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('Use <probe_id>=<outcome_id>, e.g. --probe final-silence-ask-timeline-once=no-reply.');
  return [...previous, { probe: m[1]!, outcome: m[2]! }];
}

export function registerExplain(program: Command): void {
  const command = program.command('explain');
  command
    .description('Explain what you observed: artifact IDs, a worked scenario, or your own words')
    .argument('[observation...]', 'artifact IDs (e.g. A-009; find them with hoba search), or what happened in your own words')
    .addOption(choiceOption(command, '--stage <stage>', 'the funnel stage where it happened (default: the artifacts’ own stages)', STAGES))
    .option('--probe <probe_id=outcome_id>', 'the outcome of a probe you ran; repeatable', collectProbe)
    .option('--scenario <scenario_id>', 'explain a worked scenario (S-001…): its observations, stage and probe outcomes')
    .option(
      '--message <file>',
      'a message you received (rejection email, portal history, recruiter’s text, letter): a file, or - for standard input',
    )
    .option(
      '--pick <artifact_id>',
      'answer a question hoba asked about your words: the observation you choose (e.g. A-046); repeatable',
      collectPick,
    )
    .option('--on <date>', 'the day it happened (YYYY-MM-DD): the law’s time limits become dates')
    .option(
      '--where <place>',
      'where you are, by name (California, England, Germany) or code: uk (uk-eng, uk-wls, uk-sct, uk-nir), us or a state (us-ca…), eu or a member state (eu-de…)',
    )
    .option('--full', 'show everything: both tiers, every probe, barriers, patterns, loops and caveats')
    .option('--brief', 'the short technical report (IDs, tiers, probes) instead of the plain answer')
    .option('--json', 'print the full structure as JSON (always complete, with or without --full)')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
By default the answer is in plain words: what it can and cannot mean, the one
thing worth checking, what to do now and by when, and the possible explanations
grouped, one line each. --full shows everything (with IDs), --brief a short
technical report, --json the whole structure. With --on and --where, the law's
time limits are shown as dates (not legal advice: check them with an adviser).
Nothing you give leaves your computer.

What you observed can be given three ways:
  artifact IDs     hoba explain A-009 A-027
  a scenario       hoba explain --scenario S-003   (a worked situation, preset)
  your own words   hoba explain "I was ghosted after the final interview"
                   (any argument that is not an artifact ID makes the whole line
                   plain words; hoba quotes the words each observation was read
                   from; English only)
  a message        hoba explain --message rejection.txt ["what happened"]
                   (a message you received, read against the tell-tale lines of
                   the atlas's examples: which lines are tells and what each does
                   and does not establish; - reads it from standard input)

Reading your words, hoba never picks what you deny ("nobody asked about my
age"). When two observations read alike it asks the one question that tells
them apart instead of guessing: answer with --pick <artifact> (on a terminal
it asks you). When your words are about something the atlas does not cover
(after starting a job, probation, dismissal, a dispute with your employer, CV
writing…) it says so, and what it does cover.

The explanations come in two tiers. First, the mechanisms that PRODUCE what you
saw (they emit the observation), most direct first: direct before euphemism,
distortion, noise and silence, then those accounting for more of what you saw,
then the strongest evidence. Second, those that only ACT AT THE SAME STAGE and
are not recorded as producing it: kept (nothing is dropped for being less direct) but
collapsed to one line unless --full. An observation can rule a mechanism out,
with its reason (an offer the employer rescinded rules out "held as backup").

Then: what would tell the explanations apart (probes, and the outcome that rules
something out), what you can still do whatever the cause, and what the facts do
NOT establish. The order ranks directness, not likelihood: the result is
topological and uncalibrated, with no probabilities. "Low signal" is a valid
verdict; it never hides a step that holds whatever the cause.

H  hard facts   the observations (a deprecated ID is replaced by its successor)
O  obstacle     the barriers at --stage, else at the observations' stages
B  behind       the two tiers of mechanisms, patterns, loops, and what the facts
                do NOT establish
A  agency       who can remove each mechanism, the probes, what you can still
                do, and a verdict

Examples:
  $ hoba explain A-009                   silence after the final interview
  $ hoba explain A-009 --stage team      only the barriers at one of its stages
  $ hoba explain A-009 A-027             two observations (a pattern may fire)
  $ hoba explain A-009 --probe final-silence-ask-timeline-once=no-reply
  $ hoba explain --scenario S-001        a worked scenario
  $ hoba explain "they said I was overqualified"
  $ hoba explain "my background check came back wrong" --pick A-046
  $ hoba explain --message email.txt "got this after the final round"
  $ hoba explain A-024 --on 2026-11-20 --where uk   your deadlines as dates
  $ hoba explain A-009 --full            everything, both tiers
  $ hoba explain A-004 --json | jq .agency.verdict`,
    )
    .action(runExplain);
}

/** The command itself, for commander and for main.ts's parser of the usual forms alike. */
export async function runExplain(words: string[], opts: ExplainOptions): Promise<void> {
  const place = await locateAtlas(opts.dir);
  const stage = {
    ...(opts.stage ? { stage: opts.stage } : {}),
    ...(opts.on !== undefined ? { on: opts.on } : {}),
    ...(opts.where !== undefined ? { where: opts.where } : {}),
  };
  const probes = opts.probe ?? [];
  // One observation and no option: the text the build laid out, when it is there (stored-text.ts); then
  // the atlas is not even opened.
  const plain =
    words.length === 1 &&
    opts.scenario === undefined &&
    opts.message === undefined &&
    opts.pick === undefined &&
    probes.length === 0 &&
    Object.keys(stage).length === 0 &&
    !opts.json &&
    !opts.full &&
    !opts.brief;
  const stored = plain ? storedText(place, 'explain', words[0]!) : undefined;
  if (stored !== undefined) return writeOut(stored);
  const atlas = await openLocated(place);
  const { registry } = atlas;
  let result: ExplainResult;
  // A lone scenario ID reads as --scenario.
  const lone = words.length === 1 ? normaliseId(words[0]!) : undefined;
  const scenario = opts.scenario ?? (lone?.startsWith('S-') ? lone : undefined);
  if (scenario !== undefined) {
    if (opts.scenario !== undefined && words.length > 0)
      throw new CliError('Give either --scenario or what you observed (artifact IDs or your own words), not both.', 2, 'usage');
    // Loaded only here: the scenario and plain-words paths need modules the ID path does not.
    const { explain } = await import('../analysis/explain.ts');
    result = withAnalysisErrors(() => explain(registry, { scenario, ...stage, probes }));
  } else if (words.length === 0 && opts.message === undefined) {
    throw new CliError(
      'Say what you observed: artifact IDs (such as A-009), --scenario S-001, your own words in quotes, or --message <file> with a message you received.',
      2,
      'usage',
    );
  } else if (opts.message === undefined && words.every((w) => normaliseId(w) !== undefined)) {
    if (opts.pick !== undefined)
      throw new CliError('--pick answers a question asked about your words: give it with the same words (or --message).', 2, 'usage');
    result = withAnalysisErrors(() => explainArtifacts(registry, { artifacts: words, ...stage, probes }));
  } else {
    const { explain } = await import('../analysis/explain.ts');
    // The reader's model saved in the snapshot (trained at build time), so the words are not retrained on here.
    (await import('../analysis/reader.ts')).readerModelOf(atlas);
    const message = opts.message !== undefined ? readMessage(opts.message) : undefined;
    const text = words.join(' ');
    const input = { ...(text !== '' ? { text } : {}), ...(message !== undefined ? { message } : {}), ...stage, probes };
    result = withAnalysisErrors(() => explain(registry, { ...input, ...(opts.pick ? { picks: opts.pick } : {}) }));
    // On a terminal, a question is asked there and then; the answer re-reads the words with it.
    const questions = result.input.from_text?.questions ?? [];
    if (questions.length > 0 && !opts.json && opts.message !== '-' && process.stdin.isTTY && process.stdout.isTTY) {
      const picks = await askQuestions(questions);
      if (picks.length > 0) result = withAnalysisErrors(() => explain(registry, { ...input, picks: [...(opts.pick ?? []), ...picks] }));
    }
  }
  if (opts.json) writeJson(result);
  else if (opts.full || opts.brief) writeOut(renderExplanation(result, { full: opts.full === true, width: terminalWidth() }));
  else writeOut(renderCandidate(result, { width: terminalWidth() }));
}

/** The message given with --message: a file's text, or standard input's for "-". */
function readMessage(file: string): string {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      file === '-'
        ? 'could not read the message from standard input.'
        : `could not read the message file ${file}${code === 'ENOENT' ? ': there is no such file' : ''}. Save the message you received as a text file and pass its path, or - to read it from standard input.`,
      2,
      'usage',
    );
  }
  if (text.trim() === '')
    throw new CliError(
      `the message ${file === '-' ? 'on standard input' : `in ${file}`} is empty: paste the message you received into it.`,
      2,
      'usage',
    );
  return text;
}

type Question = NonNullable<ExplainResult['input']['from_text']>['questions'][number];

/** Puts each question to the person on the terminal; returns the observations of their answers (none skipped). */
async function askQuestions(questions: readonly Question[]): Promise<string[]> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const picks: string[] = [];
  try {
    for (const q of questions) {
      const lines = [colour.bold(q.ask), ...q.options.map((o, i) => `  ${i + 1}. ${o.answer} (${o.artifact} ${o.title})`)];
      process.stdout.write(`${lines.join('\n')}\n`);
      const answer = (await rl.question(`Your answer (1–${q.options.length}, Enter to skip): `)).trim();
      const n = Number(answer);
      if (Number.isInteger(n) && n >= 1 && n <= q.options.length) picks.push(q.options[n - 1]!.artifact);
    }
  } finally {
    rl.close();
  }
  return picks;
}

// ── text ────────────────────────────────────────────────────────────────────────────────────────────

export interface RenderOptions {
  /** Everything, not only what matters first. */
  full: boolean;
  /** Columns; no line is longer. */
  width: number;
}

/** How many items of each list the short report shows; shrunk until the report fits its line budget. */
interface Caps {
  first: number;
  probes: number;
  outcomes: number;
  steps: number;
  nonInferences: number;
  details: boolean;
  /** Long actions cut to their first sentences (the rest is in --full). */
  sentences?: number;
  /** How many same-stage mechanisms the collapsed line names. */
  sameStageNames?: number;
  /** Whether a probe outcome's observation is quoted (false: its ID alone). */
  quotes?: boolean;
  /** Whether the pointers are shown (the command to report an outcome; "what you can still do is below"). */
  hints?: boolean;
}

/** The first `n` sentences of a text, marked when cut. */
function firstSentences(text: string, n: number | undefined): string {
  const all = text.trim().split(/(?<=[.!?])\s+(?=[A-Z])/);
  return n === undefined || all.length <= n ? text.trim() : `${all.slice(0, n).join(' ')} (…)`;
}

const CAP_STEPS: Caps[] = [
  { first: 5, probes: 2, outcomes: 2, steps: 3, nonInferences: 3, details: true },
  { first: 4, probes: 2, outcomes: 2, steps: 3, nonInferences: 2, details: false },
  { first: 3, probes: 2, outcomes: 1, steps: 2, nonInferences: 2, details: false },
  { first: 3, probes: 1, outcomes: 1, steps: 2, nonInferences: 1, details: false },
  { first: 3, probes: 1, outcomes: 1, steps: 1, nonInferences: 1, details: false },
  { first: 3, probes: 1, outcomes: 1, steps: 1, nonInferences: 1, details: false, sentences: 2, sameStageNames: 1 },
  { first: 2, probes: 1, outcomes: 1, steps: 1, nonInferences: 1, details: false, sentences: 1, sameStageNames: 1 },
  { first: 2, probes: 1, outcomes: 1, steps: 1, nonInferences: 1, details: false, sentences: 1, sameStageNames: 1, hints: false },
  {
    first: 2,
    probes: 1,
    outcomes: 1,
    steps: 1,
    nonInferences: 1,
    details: false,
    sentences: 1,
    sameStageNames: 0,
    hints: false,
    quotes: false,
  },
];

/** The short report aims at this many lines; --full has no limit. */
export const SHORT_LINES = 40;

/** How what you saw comes out of the mechanism (its emission fidelity), in a few words. */
const FIDELITY_SHORT: Record<Fidelity, string> = {
  direct: 'a direct result',
  euphemism: 'behind softened words',
  distortion: 'behind a misleading reason',
  noise: 'a weak link',
  void: 'as silence',
};

/** "M-016 Decision latency": a name beside every ID, never a bare ID. */
const named = (x: { id: string; title: string }) => `${x.id} ${x.title}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function renderExplanation(r: ExplainResult, options: RenderOptions = { full: false, width: 80 }): string {
  if (options.full) return render(r, options, undefined);
  // The first caps that fit; the smallest when none does.
  for (const caps of CAP_STEPS) {
    const text = render(r, options, caps);
    if (text.split('\n').length - 1 <= SHORT_LINES) return text;
  }
  return render(r, options, CAP_STEPS.at(-1));
}

function render(r: ExplainResult, { full, width }: RenderOptions, caps: Caps | undefined): string {
  const out: string[] = [];
  const para = (text: string, indent = '  ', first = indent) => out.push(wrap(text, indent, first, width));
  const bullet = (text: string, indent = '  ', marker = '- ') =>
    out.push(wrap(text, indent + ' '.repeat(marker.length), indent + marker, width));
  const dim = (text: string, indent = '  ', first = indent) => out.push(colour.dim(wrap(text, indent, first, width)));
  const section = (title: string) => out.push('', colour.bold(wrap(title, '', '', width)));
  const mechanisms = new Map(r.behind.mechanisms.map((m) => [m.id, m]));
  const report: Report = {
    r,
    full,
    width,
    caps,
    out,
    para,
    bullet,
    dim,
    section,
    single: r.hard_facts.artifacts.length === 1,
    first: r.behind.mechanisms.filter((m) => m.tier === 'produces'),
    nameOf: (id: string) => named(mechanisms.get(id) ?? r.behind.excluded.find((x) => x.id === id) ?? { id, title: '' }).trim(),
  };

  // What was observed, and where it came from.
  if (r.input.scenario) para(`Scenario ${r.input.scenario.id}: ${r.input.scenario.title}`, '  ', '');
  if (r.input.from_text) renderReading(r.input.from_text, { para, dim, bullet, section, width, out });
  if (r.hard_facts.artifacts.length === 0) {
    // Nothing analysed: the words raised a question, or lie outside the atlas.
    section(verdictHeading(r.agency.verdict.code));
    para(r.agency.verdict.text);
    for (const d of r.agency.verdict.details) dim(d, '    ', '  - ');
    return out.join('\n') + '\n';
  }
  renderObserved(report);
  renderVerdict(report);
  renderBehind(report);
  renderProbes(report);
  renderSteps(report);
  renderLaw(report);
  renderNonInferences(report);
  if (full) renderFull(r, out, { para, dim, bullet, section, width });
  else {
    out.push('');
    dim('Ranked by directness, not likelihood. Compatible is not proven. More: --full', '', '');
  }
  return out.join('\n') + '\n';
}

/** One explain report being written: the result, the options, the lines so far and the writers, and what several sections share. */
interface Report extends Writers {
  r: ExplainResult;
  full: boolean;
  width: number;
  caps: Caps | undefined;
  out: string[];
  section: (title: string) => void;
  /** One observation: its ID is left off the lines that would name it. */
  single: boolean;
  /** The first tier: the mechanisms that can produce what was seen. */
  first: ExplainResult['behind']['mechanisms'];
  /** A mechanism's name by ID, excluded ones included. */
  nameOf: (id: string) => string;
}

/** "(2 of 5; more with --full)" after a heading whose list the short report cuts. */
const shownOf = (n: number, cap: number | undefined) => (cap !== undefined && n > cap ? ` (${cap} of ${n}; more with --full)` : '');
const limit = <T>(xs: readonly T[], n: number | undefined) => (n === undefined ? xs : xs.slice(0, n));

/** What was observed (each artifact, deprecated ones with their successor), the stages, and the outcomes reported. */
function renderObserved({ r, out, width, dim, bullet, nameOf }: Report): void {
  for (const a of r.hard_facts.artifacts) {
    if (!r.input.from_text) out.push(colour.bold(wrap(`${r.input.scenario ? 'Observed' : 'You saw'}: ${named(a)}`, '  ', '', width)));
    if (a.successor)
      out.push(colour.yellow(wrap(`${a.id} is deprecated: analysed as its successor ${named(a.successor)}`, '  ', '  ', width)));
  }
  const where = r.obstacle.from === 'option' ? `stage given: ${r.obstacle.stages.join(', ')}` : `stages: ${r.obstacle.stages.join(', ')}`;
  dim(`${where} · registry ${r.registry_version}`, '  ', '');
  for (const o of r.hard_facts.observed) {
    bullet(
      `You found (${o.probe} = ${o.outcome}): ${o.observation}${o.excludes.length > 0 ? ` This rules out ${o.excludes.map(nameOf).join('; ')}.` : ' This rules nothing out.'}`,
      '',
      '+ ',
    );
  }
  if (r.obstacle.stage_note) out.push(colour.yellow(wrap(`note: ${r.obstacle.stage_note}`, '  ', '  ', width)));
}

/** The verdict, with its details (in full) and the pointer to what can still be done. */
function renderVerdict({ r, full, caps, section, para, dim }: Report): void {
  // The verdict first.
  const v = r.agency.verdict;
  section(verdictHeading(v.code));
  para(v.text);
  for (const d of v.details) {
    if (d.startsWith('What you can still do')) continue;
    if (full || caps?.details) dim(d, '    ', '  - ');
  }
  if (r.agency.next_steps.length > 0 && v.code !== 'nothing-left' && caps?.hints !== false) {
    dim(
      `What you can still do, whatever the cause, is below${!full && r.agency.law.length > 0 ? '; the law and its time limits: --full' : ''}.`,
    );
  }
}

/** What could have produced this: the first tier, the second (collapsed unless in full), patterns, and what was ruled out. */
function renderBehind({ r, full, caps, single, first, section, para, dim, bullet }: Report): void {
  // B: the first tier, then the second, collapsed by default.
  const second = r.behind.mechanisms.filter((m) => m.tier === 'same-stage');
  // At scale the second tier is listed in part (by ID): its whole length is counted, never the part.
  const secondTotal = listTotal(r, 'behind.mechanisms', r.behind.mechanisms.length) - first.length;
  section(
    first.length > 0
      ? `What could have produced this (${first.length}; compatible, not proven)`
      : 'No remaining mechanism produces what you saw',
  );
  limit(first, caps?.first).forEach((m, i) => {
    para(`${i + 1}. ${named(m)}`, '     ', '  ');
    const how = full
      ? m.why.replace(/\.$/, '')
      : `${FIDELITY_SHORT[bestFidelity(m)]}${single ? '' : ` · ${accounted(m, r.hard_facts.artifacts)}`}`;
    dim(`${how} · ${m.evidence_level}${baselineMark(m)} · ${PLAIN_WHO_SHORT[m.facets.removability]}`, '     ');
    if (full) dim(m.summary, '     ');
  });
  // The whole first tier is always named (at most eight): only the detail lines are cut to fit.
  const unshown = caps !== undefined ? first.slice(caps.first) : [];
  if (unshown.length > 0) para(`Also: ${unshown.map(named).join('; ')}.`, '  ', '  ');
  if (second.length > 0) {
    if (full) {
      section(
        `${plural(secondTotal, 'more mechanism acts', 'more mechanisms act')} at the same stage; the atlas does not record them as producing what you saw`,
      );
      for (const m of second) {
        para(`- ${named(m)}`, '    ', '  ');
        dim(`${m.why} (${m.evidence_level}${baselineMark(m)} · ${PLAIN_WHO_SHORT[m.facets.removability]})`, '    ');
      }
      if (secondTotal > second.length) dim(`+ ${secondTotal - second.length} more, after ${second.at(-1)!.id} by ID: ${CUT_HINT}`, '  ');
    } else {
      // Honest baselines named first: the ordinary causes are the ones a reader must not lose.
      const shown = [...second].sort((a, b) => Number(b.honest_baseline) - Number(a.honest_baseline)).slice(0, caps?.sameStageNames ?? 2);
      const rest = secondTotal - shown.length;
      const list =
        shown.length === 0 ? '' : `: ${shown.map(named).join('; ')}${rest > 0 ? `; and ${rest} other${rest === 1 ? '' : 's'}` : ''}`;
      const lists =
        secondTotal === second.length
          ? `--full lists ${second.length === 1 ? 'it' : 'them'}`
          : `--full lists the first ${second.length} by ID`;
      dim(
        `${secondTotal === 1 ? 'One more mechanism acts' : `${secondTotal} more act`} at the same stage, not recorded as producing what you saw${list}. ${lists}.`,
        '  ',
      );
    }
  }
  // A triggered pattern is what several observations together say: never only in --full.
  const triggered = r.behind.patterns.filter((p) => p.match === 'triggered');
  if (triggered.length > 0 && !full) {
    dim(`Together these match ${triggered.map((p) => `the pattern ${named(p)}`).join('; ')}. --full says what it establishes.`);
  }
  if (r.behind.ruled_out.length > 0) {
    if (full) {
      section('Ruled out by what you saw');
      for (const x of r.behind.ruled_out) bullet(`${named(x)}: ${x.reason} [${x.by}]`);
    } else {
      dim(`Ruled out by what you saw: ${r.behind.ruled_out.map(named).join('; ')}. --full gives the reasons.`);
    }
  }
  if (r.behind.excluded.length > 0 && full) {
    section('Ruled out by the outcomes you reported');
    for (const x of r.behind.excluded) bullet(`${named(x)} (by ${x.by.map((b) => `${b.probe} = ${b.outcome}`).join(', ')})`);
  }
}

/** What would tell the explanations apart: the probes, and how to report an outcome. */
function renderProbes({ r, full, caps, width, first, section, para, dim, bullet }: Report): void {
  // What would tell them apart.
  const probes = r.agency.probes;
  if (probes.length > 0) {
    section(`What would tell them apart${shownOf(probes.length, caps?.probes)}`);
    limit(probes, caps?.probes).forEach((p, i) => {
      renderProbe(p, i, {
        para,
        dim,
        bullet,
        mechanisms: r.behind.mechanisms,
        firstCount: first.length,
        full,
        outcomes: caps?.outcomes,
        sentences: caps?.sentences,
        quotes: caps?.quotes !== false,
      });
    });
    const command = `hoba explain ${commandOf(r)} --probe <probe>=<outcome>`;
    if (caps?.hints === false) {
      // Left out to fit; --help says how to report an outcome.
    } else if (`  Tell hoba what you found: ${command}`.length <= width) dim(`Tell hoba what you found: ${command}`);
    else {
      dim('Tell hoba what you found:');
      dim(command, '      ', '    ');
    }
  }
  if (full && r.agency.other_probes.length > 0) {
    dim(
      `Probes that cannot narrow the set (hoba show <artifact> says what each outcome tells): ${r.agency.other_probes.map((p) => p.probe).join(', ')}.`,
    );
  }
}

/** What can still be done, whatever the cause. */
function renderSteps({ r, full, caps, single, section, dim, bullet }: Report): void {
  // What you can still do.
  const steps = r.agency.next_steps;
  if (steps.length > 0) {
    section(`What you can still do, whatever the cause${shownOf(steps.length, caps?.steps)}`);
    for (const s of limit(steps, caps?.steps)) {
      bullet(
        `${firstSentences(s.action, caps?.sentences)}${s.by_when ? ` By when: ${s.by_when.trim()}` : ''}${single ? '' : ` [${s.artifact.id}]`}`,
      );
      if (full) {
        dim(`Why: ${s.why}`, '    ');
        for (const c of s.citations) dim(`${citationLine(c)}${c.caveat ? ` ${c.caveat}` : ''}`, '      ', '    ');
      }
    }
  }
}

/** The law these observations depend on, by jurisdiction (in full only). */
function renderLaw({ r, full, single, section, dim, bullet }: Report): void {
  // The law these observations depend on, by jurisdiction (in full).
  if (full && r.agency.law.length > 0) {
    section('The law, by jurisdiction (not legal advice)');
    for (const n of r.agency.law) {
      bullet(`${n.jurisdiction}${n.where ? ` (${n.where})` : ''}: ${n.instrument}. ${n.says}${single ? '' : ` [${n.artifact.id}]`}`);
      if (n.remedy) dim(`Remedy: ${n.remedy}`, '    ');
      if (n.time_limit) dim(`Time limit: ${n.time_limit}`, '    ');
      if (n.status_note) dim(`Status: ${n.status_note}`, '    ');
    }
    if (r.agency.legal_notice) dim(r.agency.legal_notice);
  }
}

/** What the facts do NOT establish. */
function renderNonInferences({ r, caps, single, section, bullet }: Report): void {
  // What the facts do NOT establish.
  section(`What these facts do NOT establish${shownOf(r.behind.non_inferences.length, caps?.nonInferences)}`);
  for (const n of limit(r.behind.non_inferences, caps?.nonInferences))
    bullet(`${n.text}${single && n.from.startsWith('A-') ? '' : ` [${n.from}]`}`);
}

type FromText = NonNullable<ExplainResult['input']['from_text']>;

/**
 * How the reader read the words: what was chosen (with the person's words, and the question to check a
 * choice between two readings), what they denied, the questions to answer, "not covered", and the
 * tell-tale lines of a pasted message.
 */
function renderReading(
  t: FromText,
  { para, dim, bullet, section, out, width }: Writers & { section: (title: string) => void; out: string[]; width: number },
): void {
  if (t.text !== '') para(`You wrote: "${t.text}"`, '  ', '');
  if (t.message !== undefined) {
    const lines = t.message.split('\n').filter((l) => l.trim() !== '');
    para(
      `You pasted a message of ${plural(lines.length, 'line')}, starting "${lines[0]!.trim().slice(0, 60)}${lines[0]!.trim().length > 60 ? '…' : ''}"`,
      '  ',
      '',
    );
  }
  if (t.matched.length > 0) {
    out.push(
      colour.bold(
        wrap(`Read as ${t.matched.length === 1 ? 'this observation' : `these ${t.matched.length} observations`}:`, '', '', width),
      ),
    );
    for (const m of t.matched) {
      bullet(named(m));
      dim(m.why, '    ');
      if (m.check) {
        dim(`To check: ${m.check.ask}`, '    ');
        for (const o of m.check.options) dim(`If "${o.answer}": --pick ${o.artifact} (${o.title})`, '      ', '    ');
      }
    }
  }
  for (const d of t.denied) dim(`Not ${named(d)}: you said "${d.quote}".`, '  ', '');
  for (const q of t.questions) {
    section(`Question: ${q.ask}`);
    if (q.quote !== undefined) dim(`Your words "${q.quote}" could be either, so hoba asks rather than guesses.`);
    q.options.forEach((o, i) => {
      para(`${i + 1}. ${o.answer}: --pick ${o.artifact} (${o.title})`, '     ', '  ');
    });
  }
  if (t.not_covered) {
    const topics = t.not_covered.topics;
    section(`Not covered by the atlas${topics.length > 0 ? `: ${topics.map((x) => x.title.toLowerCase()).join('; ')}` : ''}`);
    if (t.not_covered.quote !== undefined) dim(`Read from your words "${t.not_covered.quote}".`);
    for (const x of topics) {
      para(x.summary);
      para(`Where to turn: ${x.instead}`);
    }
    para(`What the atlas covers: ${t.not_covered.covers}`);
  }
  if (t.message_tells.length > 0) {
    section('What the message says, line by line');
    for (const m of t.message_tells) {
      para(named(m.artifact), '  ', '  ');
      for (const tell of m.tells) {
        bullet(`"${tell.line}"`, '    ');
        dim(tell.reading, '      ');
      }
    }
  }
}

/** Marks an honest baseline whose title does not already say so. */
const baselineMark = (m: CompatibleMechanism) => (m.honest_baseline && !/honest baseline/i.test(m.title) ? ' · honest baseline' : '');

/** Which of several observations a mechanism produces, in words: "both observations", "only 'Title'". */
function accounted(
  m: CompatibleMechanism,
  given: ReadonlyArray<{ id: string; title: string; successor?: { id: string } | undefined }>,
): string {
  const emitted = new Set(m.compatible_because.emits.map((e) => e.artifact));
  const produced = given.filter((a) => emitted.has(a.successor?.id ?? a.id));
  if (produced.length === given.length) return given.length === 2 ? 'both observations' : `all ${given.length} observations`;
  return `${produced.length === 1 ? 'only' : `${produced.length} of ${given.length}:`} ${produced.map((a) => `"${a.title.replace(/"/g, "'")}"`).join(', ')}`;
}

function bestFidelity(m: CompatibleMechanism): Fidelity {
  const order: Fidelity[] = ['direct', 'euphemism', 'distortion', 'noise', 'void'];
  return [...m.compatible_because.emits].sort((a, b) => order.indexOf(a.fidelity) - order.indexOf(b.fidelity))[0]?.fidelity ?? 'void';
}

/** The part of a command line that repeats this input. */
function commandOf(r: ExplainResult): string {
  // A scenario carries its own outcomes; otherwise those already reported are repeated, so that the next
  // run adds to them.
  if (r.input.scenario) return `--scenario ${r.input.scenario.id}`;
  const probes = r.input.probes.map((p) => ` --probe ${p.probe}=${p.outcome}`).join('');
  return r.input.artifacts.join(' ') + (r.input.stage ? ` --stage ${r.input.stage}` : '') + probes;
}

interface Writers {
  para: (text: string, indent?: string, first?: string) => void;
  dim: (text: string, indent?: string, first?: string) => void;
  bullet: (text: string, indent?: string, marker?: string) => void;
}

function renderProbe(
  p: ProbeView,
  i: number,
  {
    para,
    dim,
    mechanisms,
    firstCount,
    full,
    outcomes,
    sentences,
    quotes,
  }: Writers & {
    mechanisms: CompatibleMechanism[];
    firstCount: number;
    full: boolean;
    outcomes: number | undefined;
    sentences: number | undefined;
    quotes: boolean;
  },
): void {
  const who = p.agency === 'candidate' ? 'you can do this' : 'needs someone inside the process';
  para(`${i + 1}. ${firstSentences(p.action, sentences)}`, '     ', '  ');
  dim(`${p.id} · ${who} · ${p.cost} cost${p.narrows_first_tier ? '' : ' · narrows only the same-stage mechanisms'}`, '     ');
  if (full && p.risk) dim(`Risk: ${p.risk}`, '     ');
  // Outcomes that rule out something that could have produced it first, then the others, as authored.
  const firstTier = new Set(mechanisms.filter((m) => m.tier === 'produces').map((m) => m.id));
  const reach = (o: ProbeView['outcomes'][number]) => (o.narrows.some((id) => firstTier.has(id)) ? 0 : 1);
  const telling = p.outcomes.filter((o) => o.narrows.length > 0).sort((a, b) => reach(a) - reach(b));
  for (const o of outcomes === undefined ? telling : telling.slice(0, outcomes)) {
    // Counted from narrows, which is complete: the listed mechanisms may stop short of the second tier.
    para(
      `${o.id}: ${quotes ? `"${o.observation.trim()}" ` : ''}Rules out ${ruleOutWords(o.narrows, mechanisms, firstCount)}.`,
      '       ',
      '     → ',
    );
  }
  if (outcomes !== undefined && telling.length > outcomes)
    dim(
      `+ ${plural(telling.length - outcomes, 'more outcome')} that ${telling.length - outcomes === 1 ? 'rules' : 'rule'} something out.`,
      '       ',
      '     ',
    );
  if (full) {
    const others = p.outcomes.filter((o) => o.narrows.length === 0);
    if (others.length > 0) dim(`Other outcomes (rule nothing out): ${others.map((o) => o.id).join(', ')}.`, '       ', '     ');
  }
}

/** How to see the second tier past the part a result lists (at scale): a barrier at a time. */
const CUT_HINT = 'hoba show <barrier> names the mechanisms acting at each barrier above.';

/** --full: who can change what, the barriers, patterns, loops, caveats and the notice. */
function renderFull(
  r: ExplainResult,
  out: string[],
  { para, dim, bullet, section, width }: Writers & { section: (t: string) => void; width: number },
): void {
  const names = new Map(r.behind.mechanisms.map((m) => [m.id, m]));
  const list = (ids: string[]) => (ids.length > 0 ? ids.map((id) => named(names.get(id) ?? { id, title: '' })).join('; ') : 'none');
  section('Who can change them');
  dim('Those that could produce what you saw:', '  ', '  ');
  bullet(`you: ${list(r.agency.candidate)}`, '    ');
  bullet(`only someone inside the process: ${list(r.agency.intermediary)}`, '    ');
  bullet(`no one in the process: ${list(r.agency.none)}`, '    ');
  const s = r.agency.same_stage;
  if (s.candidate.length + s.intermediary.length + s.none.length > 0) {
    dim('Those that only act at the same stage:', '  ', '  ');
    bullet(`you: ${list(s.candidate)}`, '    ');
    bullet(`only someone inside the process: ${list(s.intermediary)}`, '    ');
    bullet(`no one in the process: ${list(s.none)}`, '    ');
  }
  section('Where it happened (barriers)');
  if (r.obstacle.barriers.length === 0) para('No barrier of the atlas sits at this stage.');
  for (const b of r.obstacle.barriers) bullet(`${named(b)} (${b.stage})`);
  const barriers = listTotal(r, 'obstacle.barriers', r.obstacle.barriers.length);
  if (barriers > r.obstacle.barriers.length)
    dim(
      `+ ${barriers - r.obstacle.barriers.length} more, after ${r.obstacle.barriers.at(-1)!.id} by ID: the REST API lists them all (/api/v1/barriers).`,
      '  ',
    );
  if (r.behind.patterns.length > 0) {
    section('Patterns');
    for (const p of r.behind.patterns) {
      bullet(
        `${named(p)}: ${p.match === 'triggered' ? 'triggered by what you saw' : `partly matched; it would take ${p.missing.join(', ')} as well`}`,
      );
      if (p.match === 'triggered') for (const e of p.establishes) dim(`It establishes: ${e}`, '      ', '    ');
    }
  }
  if (r.behind.loops.length > 0) {
    section('Loops the mechanisms take part in');
    for (const l of r.behind.loops)
      bullet(`${named(l)}; here through ${l.compatible_members.map((id) => named(names.get(id) ?? { id, title: '' })).join('; ')}`);
    const loops = listTotal(r, 'behind.loops', r.behind.loops.length);
    if (loops > r.behind.loops.length)
      dim(
        `+ ${loops - r.behind.loops.length} more, after ${r.behind.loops.at(-1)!.id} by ID: hoba show <mechanism> names its loops.`,
        '  ',
      );
  }
  if (r.behind.source_caveats.length > 0) {
    section('Sources above that are not current (read what rests on them with care)');
    for (const c of r.behind.source_caveats) {
      bullet(citationLine(c));
      const titles = new Map<string, { id: string; title: string }>(
        [...r.behind.mechanisms, ...r.behind.patterns, ...r.behind.loops, ...r.hard_facts.artifacts].map((x) => [x.id, x]),
      );
      const citedBy = c.cited_by.map((id) => named(titles.get(id) ?? { id, title: '' }).trim()).join('; ');
      out.push(colour.yellow(wrap(c.caveat, '    ', '    ', width)), colour.dim(wrap(`cited by ${citedBy}`, '    ', '    ', width)));
    }
  }
  out.push('');
  dim(r.notice, '', '');
}
