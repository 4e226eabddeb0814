// An explain() result as HTML, for the analyze page: the same content as `hoba explain` (the verdict, the
// first tier, what the facts do not establish, the probes with their outcomes, what you can still do, the
// second tier collapsed, what was ruled out, patterns, loops, the agency split, the notice), with every
// entity linked to its page. The probe outcomes are buttons (data-probe, data-outcome) that the page's
// script turns into a new run with that outcome recorded, as `hoba explain --probe p=o` does.
import { listTotal, ruleOutWords } from '../../../analysis/protocol.ts';
import type { CompatibleMechanism, ExplainResult, ProbeView } from '../../../analysis/schemas.ts';
import { LEGAL_NOTICE } from '../../../analysis/terms.ts';
import { PLAIN_EVIDENCE, plainWho, verdictHeading } from '../../../model/plain.ts';
import type { Registry } from '../../../registry/registry.ts';
import { html, type Raw } from '../../html.ts';
import { entityPath, SITE } from '../../paths.ts';

/** How many of the things the facts do not establish are shown before "more". */
const NON_INFERENCES_SHOWN = 5;

/** A link to an entity's page, named by ID and title. */
const link = (x: { id: string; title?: string }) => html`<a href="${entityPath(x.id)}">${x.id}${x.title ? ` ${x.title}` : ''}</a>`;

const links = (xs: ReadonlyArray<{ id: string; title?: string }>, sep = '; ') => xs.map((x, i) => html`${i ? sep : ''}${link(x)}`);

/** The title of an entity (a source's short citation), or '' for an ID the registry does not hold. */
function titleOf(reg: Registry, id: string): string {
  const e = reg.get(id);
  return e === undefined ? '' : e.kind === 'source' ? e.cite : e.title;
}

/** An ID attribute value for a probe's elements. */
export const probeDomId = (probe: string) => `probe-${probe.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export interface ViewOptions {
  /** Probe outcomes the person recorded here (they can be undone); a scenario's own are not among them. */
  recorded: ReadonlyArray<{ probe: string; outcome: string }>;
}

function mechanismItem(m: CompatibleMechanism): Raw {
  // The why already says how what was observed comes out of it (its fidelity).
  return html`<li data-id="${m.id}">
<p><strong>${link(m)}</strong></p>
<p>${m.why}</p>
<p class="answer-meta"><span class="badge ev-${m.evidence_level}" title="evidence level: ${m.evidence_level}">${PLAIN_EVIDENCE[m.evidence_level]}</span>${m.honest_baseline ? html` <span class="badge">an ordinary cause</span>` : ''} ${plainWho(m)}</p>
</li>
`;
}

function probeItem(p: ProbeView, mechanisms: readonly CompatibleMechanism[], firstCount: number): Raw {
  const firstTier = new Set(mechanisms.filter((m) => m.tier === 'produces').map((m) => m.id));
  // Outcomes that rule out something that could have produced it first, then those ruling out less, as authored.
  const reach = (o: ProbeView['outcomes'][number]) => (o.narrows.some((id) => firstTier.has(id)) ? 0 : o.narrows.length > 0 ? 1 : 2);
  const outcomes = p.outcomes.map((o, k) => ({ o, k })).sort((a, b) => reach(a.o) - reach(b.o) || a.k - b.k);
  const dom = probeDomId(p.id);
  return html`<li class="answer-probe" data-probe="${p.id}" id="${dom}">
<p>${p.action}</p>
<p class="answer-meta">${p.agency === 'candidate' ? 'You can do this' : 'Needs someone inside the process (a referrer, a contact or the recruiter)'} · ${p.cost} cost${p.narrows_first_tier ? '' : ' · narrows only the mechanisms acting at the same stage'} · about ${link(p.artifact)}</p>
${p.risk ? html`<p class="answer-meta">Risk: ${p.risk}</p>` : ''}
<fieldset>
<legend>What did you find? Record it and the list narrows</legend>
<ul class="answer-outcomes">
${outcomes.map(({ o }) => {
  // Counted from narrows, which is complete: the listed mechanisms may stop short of the second tier.
  const effect = o.narrows.length > 0 ? `Rules out ${ruleOutWords(o.narrows, mechanisms, firstCount)}.` : 'Rules nothing out.';
  const id = `${dom}--${o.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return html`<li><button type="button" data-probe="${p.id}" data-outcome="${o.id}" aria-describedby="${id}">${o.observation}</button>
<p class="answer-meta" id="${id}">${effect}${o.note ? ` ${o.note}` : ''}</p></li>
`;
})}</ul>
</fieldset>
</li>
`;
}

type FromText = NonNullable<ExplainResult['input']['from_text']>;

/** The answers of a distinction, each a button that reads the words again with it (data-pick). */
function answersHtml(options: FromText['questions'][number]['options']): Raw {
  return html`<ul class="answer-answers">${options.map((o) => html`<li><button type="button" data-pick="${o.artifact}">${o.answer}</button> <span class="answer-meta">${link({ id: o.artifact, title: o.title })}</span></li>\n`)}</ul>`;
}

/** One answer of a distinction, chosen without a question: the question, and a button for each other answer. */
function checkHtml(check: NonNullable<FromText['matched'][number]['check']>): Raw {
  return html`<div class="answer-check" data-check="${check.id}"><p class="answer-meta">To check: ${check.ask}</p>
${answersHtml(check.options)}</div>`;
}

/**
 * How the situation reader read the words and the message: the observations chosen with the person's own
 * words, what they denied, the questions and the checks of a choice (buttons with data-pick, which the page
 * turns into a new run with that answer), "not covered" with where to turn, and the message's tell-tale lines.
 */
export function readingHtml(t: FromText): Raw {
  const lines = t.message?.split('\n').filter((l) => l.trim() !== '') ?? [];
  const quoted = (qs: readonly string[]) => qs.map((q, i) => html`${i ? ' and ' : ''}“${q}”`);
  return html`${t.text !== '' ? html`<p>You wrote: “${t.text}”</p>` : ''}
${t.message !== undefined ? html`<details><summary>You pasted a message (${lines.length} ${lines.length === 1 ? 'line' : 'lines'})</summary><pre class="answer-message">${t.message}</pre></details>` : ''}
${
  t.matched.length > 0
    ? html`<p>Read as ${t.matched.length === 1 ? 'this observation' : `these ${t.matched.length} observations`}:</p>
<ul class="answer-read">${t.matched.map((m) => html`<li data-read="${m.id}">${link(m)}<br><span class="answer-meta">${m.from === 'answer' ? 'Your answer' : m.from === 'message' ? 'From the message' : 'From your words'}${m.quotes.length > 0 ? html`: ${quoted(m.quotes)}` : ''}</span>${m.check ? checkHtml(m.check) : ''}</li>\n`)}</ul>`
    : ''
}
${t.denied.length > 0 ? html`<p class="answer-meta">Not analysed, because you said it was not so: ${t.denied.map((d, i) => html`${i ? '; ' : ''}${link(d)} (“${d.quote}”)`)}.</p>` : ''}
${t.questions.map(
  (q) => html`<div class="answer-question" role="group" aria-labelledby="ask-${q.id}" data-question="${q.id}">
<h3 id="ask-${q.id}">${q.ask}</h3>
<p class="answer-meta">${q.quote !== undefined ? html`Your words “${q.quote}” could mean either, so the atlas asks rather than guesses.` : 'Your words could mean either, so the atlas asks rather than guesses.'} Your answer decides which observation is analysed.</p>
${answersHtml(q.options)}
</div>\n`,
)}
${
  t.not_covered
    ? html`<div class="answer-not-covered" data-not-covered="${t.not_covered.topics.map((x) => x.id).join(' ')}">
<h3>Not covered by the atlas${t.not_covered.topics.length > 0 ? html`: ${t.not_covered.topics.map((x) => x.title.toLowerCase()).join('; ')}` : ''}</h3>
${t.not_covered.quote !== undefined ? html`<p class="answer-meta">Read from your words “${t.not_covered.quote}”.</p>` : ''}
${t.not_covered.topics.map((x) => html`<p>${x.summary}</p><p><strong>Where to turn:</strong> ${x.instead}</p>\n`)}
<p><strong>What the atlas covers:</strong> ${t.not_covered.covers} <a href="${SITE.methodology}#not-covered">What it does not cover</a>.</p>
</div>`
    : ''
}
${
  t.message_tells.length > 0
    ? html`<h3>What the message says, line by line</h3>
${t.message_tells.map((m) => html`<p>${link(m.artifact)}</p><ul class="answer-tells">${m.tells.map((x) => html`<li><q>${x.line}</q><br><span class="answer-meta">${x.reading}</span></li>\n`)}</ul>\n`)}`
    : ''
}
${t.matched.length > 0 ? html`<p class="answer-hint">Not what you meant? Pick the observations yourself in the list above.</p>` : ''}`;
}

/** The result of explain() as the analyze page shows it. */
export function explanationHtml(reg: Registry, r: ExplainResult, options: ViewOptions): Raw {
  const first = r.behind.mechanisms.filter((m) => m.tier === 'produces');
  const second = r.behind.mechanisms.filter((m) => m.tier === 'same-stage');
  // At scale the second tier, the gates and the loops are listed in part (by ID): their whole length is counted.
  const secondTotal = listTotal(r, 'behind.mechanisms', r.behind.mechanisms.length) - first.length;
  const barriersTotal = listTotal(r, 'obstacle.barriers', r.obstacle.barriers.length);
  const loopsTotal = listTotal(r, 'behind.loops', r.behind.loops.length);
  const firstOnes = (shown: number, total: number, what: string) =>
    total > shown ? html`<p class="answer-meta">The first ${shown} by ID of ${total}; ${what}.</p>` : '';
  const names = new Map<string, { id: string; title: string }>(
    [...r.behind.mechanisms, ...r.behind.excluded, ...r.behind.ruled_out].map((m) => [m.id, { id: m.id, title: m.title }]),
  );
  const named = (id: string) => names.get(id) ?? { id, title: titleOf(reg, id) };
  const recorded = new Set(options.recorded.map((p) => `${p.probe}=${p.outcome}`));
  const v = r.agency.verdict;
  const single = r.hard_facts.artifacts.length === 1;

  // H: what was analysed, and where it came from.
  const scenario = r.input.scenario ? reg.getOf('scenario', r.input.scenario.id) : undefined;
  // The reading of the words (quotes, questions, not covered, tells) leads the candidate view; here, the words.
  const what = r.input.from_text
    ? html`<p>You wrote: “${r.input.from_text.text}”</p>`
    : html`${r.input.scenario ? html`<p>Scenario ${link(r.input.scenario)}</p>${scenario ? html`<blockquote><p>${scenario.situation}</p></blockquote>` : ''}` : ''}
<p>${r.input.scenario ? 'Observed' : 'You saw'}:</p>
<ul>${r.hard_facts.artifacts.map((a) => html`<li>${link(a)}${a.successor ? html` (no longer used: analysed as its successor ${link(a.successor)})` : ''}</li>\n`)}</ul>`;
  const where = html`<p class="answer-meta">${r.obstacle.from === 'option' ? 'Stage given' : single ? 'Where it arises' : 'Where these arise'}: ${r.obstacle.stages.join(', ')}.${r.obstacle.barriers.length === 0 ? ' No gate (barrier) of the atlas sits at this stage.' : ''}</p>
${r.obstacle.barriers.length > 0 ? html`<details><summary>The gates of the process looked at (${barriersTotal})</summary><ul>${r.obstacle.barriers.map((b) => html`<li>${link(b)} <span class="answer-meta">(${b.stage})</span></li>`)}</ul>${firstOnes(r.obstacle.barriers.length, barriersTotal, 'the barriers page lists them all')}</details>` : ''}
${r.obstacle.stage_note ? html`<p class="note">${r.obstacle.stage_note}</p>` : ''}`;
  const found =
    r.hard_facts.observed.length > 0
      ? html`<h3>What you found</h3>
<ul class="answer-found">
${r.hard_facts.observed.map((o) => {
  const mine = recorded.has(`${o.probe}=${o.outcome}`);
  return html`<li id="found-${probeDomId(o.probe)}" tabindex="-1" data-probe="${o.probe}" data-outcome="${o.outcome}">${o.observation}
<span class="answer-meta">(${o.probe}: ${o.outcome}${mine ? '' : ', part of the scenario'})</span>
${o.excludes.length > 0 ? html`<br>This rules out ${links(o.excludes.map(named))}.` : html`<br>This rules nothing out.`}${o.note ? html` ${o.note}` : ''}
${mine ? html` <button type="button" data-undo="${o.probe}">Undo<span class="visually-hidden"> ${o.observation}</span></button>` : ''}</li>
`;
})}</ul>`
      : '';

  // The verdict first, as the CLI has it; its "what you can still do" detail is the section below.
  const details = v.details.filter((d) => !d.startsWith('What you can still do'));
  if (r.hard_facts.artifacts.length === 0) {
    // Nothing analysed: the words raised a question to answer first, or lie outside the atlas.
    return html`<div data-registry="${r.registry_version}" data-verdict="${v.code}">
${what}
<p class="note">${r.notice}</p>
</div>`;
  }
  const verdict = html`<div class="answer-verdict" data-verdict="${v.code}">
<h3>${verdictHeading(v.code)}</h3>
<p><strong>${v.text}</strong></p>
${details.length > 0 ? html`<ul>${details.map((d) => html`<li>${d}</li>\n`)}</ul>` : ''}
${r.agency.next_steps.length > 0 && v.code !== 'nothing-left' ? html`<p class="answer-meta">What you can still do, whatever the cause, is <a href="#steps-h">below</a>.</p>` : ''}
</div>`;

  const firstTier = html`<h3>What could have produced this${first.length > 0 ? ` (${first.length}; compatible, not proven)` : ''}</h3>
${first.length > 0 ? html`<ol class="answer-tier tier-produces" data-tier="produces">\n${first.map(mechanismItem)}</ol>` : html`<p data-tier="produces">No remaining mechanism of the atlas produces what you saw.</p>`}`;

  const triggered = r.behind.patterns.filter((p) => p.match === 'triggered');
  const partial = r.behind.patterns.filter((p) => p.match === 'partial');
  const patterns =
    r.behind.patterns.length > 0
      ? html`<h3>Patterns</h3>
<ul>
${triggered.map((p) => html`<li>Together these observations match the pattern ${link(p)}.${p.establishes.length > 0 ? html` It establishes:<ul>${p.establishes.map((e) => html`<li>${e}</li>`)}</ul>` : ''}</li>\n`)}${partial.map((p) => html`<li>Partly matched: ${link(p)}. It would take ${links(p.missing.map(named))} as well.</li>\n`)}</ul>`
      : '';

  // Always shown: the first few in full view, the rest one click away.
  const nonInference = (n: ExplainResult['behind']['non_inferences'][number]) =>
    html`<li>${n.text}${single && n.from.startsWith('A-') ? '' : html` <span class="answer-meta">(<a href="${entityPath(n.from)}" title="${named(n.from).title}">${n.from}</a>)</span>`}</li>\n`;
  const shownNon = r.behind.non_inferences.slice(0, NON_INFERENCES_SHOWN);
  const moreNon = r.behind.non_inferences.slice(NON_INFERENCES_SHOWN);
  const nonInferences = html`<h3>What these facts do NOT establish</h3>
<ul>${shownNon.map(nonInference)}</ul>
${moreNon.length > 0 ? html`<details><summary>${moreNon.length} more things these facts do not establish</summary><ul>${moreNon.map(nonInference)}</ul></details>` : ''}`;

  const probes =
    r.agency.probes.length > 0
      ? html`<h3 id="probes-h">What would tell them apart</h3>
<p>Each of these is something you (or someone inside the process) can check. When you know the answer, record it: the explanations it rules out are removed, exactly as <code>hoba explain --probe</code> does.</p>
<ol class="answer-probes">
${r.agency.probes.map((p) => probeItem(p, r.behind.mechanisms, first.length))}</ol>`
      : html`<h3 id="probes-h">What would tell them apart</h3><p>No probe of these observations can narrow what remains.</p>`;
  const otherProbes =
    r.agency.other_probes.length > 0
      ? html`<p class="answer-meta">Probes that cannot narrow the set, but whose outcomes still tell something (see the observation’s page): ${r.agency.other_probes.map((p, i) => html`${i ? '; ' : ''}${p.probe} (${link({ id: p.artifact })})`)}.</p>`
      : '';

  const step = (s: ExplainResult['agency']['next_steps'][number]) =>
    html`<li><p>${s.action}${s.by_when ? html` <strong>By when:</strong> ${s.by_when}` : ''}</p>
<p class="answer-meta">Why: ${s.why}${s.citations.length > 0 ? html` Sources: ${s.citations.map((c, i) => html`${i ? '; ' : ''}<a href="${entityPath(c.id)}">${c.cite}</a>${c.caveat ? ` (${c.caveat})` : ''}`)}.` : ''}</p></li>\n`;
  // Grouped by observation when there are several.
  const stepGroups = [...new Set(r.agency.next_steps.map((s) => s.artifact.id))].map((id) =>
    r.agency.next_steps.filter((s) => s.artifact.id === id),
  );
  // Where an observation's options depend on law, its page has the law notes, by jurisdiction.
  const withLaw = r.hard_facts.artifacts
    .map((a) => reg.getOf('artifact', a.successor?.id ?? a.id))
    .filter((a): a is NonNullable<typeof a> => a !== undefined && a.law.length > 0);
  const steps =
    r.agency.next_steps.length > 0
      ? html`<h3 id="steps-h">What you can still do, whatever the cause</h3>
${
  stepGroups.length === 1
    ? html`<ul class="answer-steps">${stepGroups[0]!.map(step)}</ul>`
    : stepGroups.map((g) => html`<h4>After ${link(g[0]!.artifact)}</h4>\n<ul class="answer-steps">${g.map(step)}</ul>\n`)
}
${withLaw.length > 0 ? html`<div class="notice"><p>Where these options depend on the law, the law notes (by jurisdiction, with time limits) are on ${links(withLaw, ', ')}.</p><p>${LEGAL_NOTICE}</p></div>` : ''}`
      : '';

  const secondTier =
    second.length > 0
      ? html`<details>
<summary>${secondTotal === 1 ? 'One more mechanism acts' : `${secondTotal} more mechanisms act`} at the same stage, not recorded as producing what you saw</summary>
<p>Kept, because nothing is dropped for being less direct; on its own, this observation does not point to ${secondTotal === 1 ? 'it' : 'them'}.</p>
<ol class="answer-tier tier-same-stage" data-tier="same-stage">
${second.map(mechanismItem)}</ol>${firstOnes(second.length, secondTotal, 'each gate’s page lists the mechanisms acting there')}
</details>`
      : '';

  const ruledOut =
    r.behind.ruled_out.length > 0 || r.behind.excluded.length > 0
      ? html`<h3>Ruled out</h3>
<ul>
${r.behind.ruled_out.map((x) => html`<li data-ruled-out="${x.id}">${link(x)}: ${x.reason} <span class="answer-meta">(because of ${link({ id: x.by, title: named(x.by).title })})</span></li>\n`)}${r.behind.excluded.map((x) => html`<li data-excluded="${x.id}">${link(x)}: ruled out by what you found (${x.by.map((b) => `${b.probe}: ${b.outcome}`).join('; ')})</li>\n`)}</ul>`
      : '';

  const cell = (ids: string[]) => (ids.length > 0 ? html`<ul>${ids.map((id) => html`<li>${link(named(id))}</li>`)}</ul>` : 'none');
  const split = (
    s: { candidate: string[]; intermediary: string[]; none: string[] },
    caption: string,
  ) => html`<div class="table-wrap answer-split" tabindex="0"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">Who can remove it</th><th scope="col">Mechanisms</th></tr></thead>
<tbody>
<tr><th scope="row">You</th><td>${cell(s.candidate)}</td></tr>
<tr><th scope="row">Someone inside the process</th><td>${cell(s.intermediary)}</td></tr>
<tr><th scope="row">No one in the process</th><td>${cell(s.none)}</td></tr>
</tbody>
</table></div>`;
  const ss = r.agency.same_stage;
  const agency = html`<h3>Who can change them</h3>
${split(r.agency, 'The mechanisms that could have produced what you saw')}
${ss.candidate.length + ss.intermediary.length + ss.none.length > 0 ? html`<details><summary>The same for those that only act at the same stage</summary>${split(ss, 'The mechanisms that only act at the same stage')}</details>` : ''}`;

  const loops =
    r.behind.loops.length > 0
      ? html`<details>
<summary>Loops these mechanisms take part in (${loopsTotal})</summary>
<ul>${r.behind.loops.map((l) => html`<li>${link(l)}: ${l.summary} <span class="answer-meta">Here through ${links(l.compatible_members.map(named))}.</span></li>\n`)}</ul>${firstOnes(r.behind.loops.length, loopsTotal, 'each mechanism’s page names its loops')}
</details>`
      : '';
  const caveats =
    r.behind.source_caveats.length > 0
      ? html`<details>
<summary>Sources above that are not current (${r.behind.source_caveats.length})</summary>
<ul>${r.behind.source_caveats.map(
          (c) =>
            html`<li><a href="${entityPath(c.id)}">${c.cite}</a>: ${c.caveat} <span class="answer-meta">Cited by ${links(
              c.cited_by.map((id) => ({ id })),
              ', ',
            )}.</span></li>\n`,
        )}</ul>
</details>`
      : '';

  return html`<div data-registry="${r.registry_version}">
${what}
${where}
${found}
${verdict}
${firstTier}
${patterns}
${nonInferences}
${probes}
${otherProbes}
${steps}
${secondTier}
${ruledOut}
${agency}
${loops}
${caveats}
<p class="note">${r.notice}</p>
</div>`;
}
