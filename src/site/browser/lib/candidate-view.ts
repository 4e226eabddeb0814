// The candidate view (analysis/candidate.ts) as HTML, for the analyze page (in the browser) and the
// scenario pages (at build time): the same words as `hoba explain`'s default text. What it can and cannot
// mean, the one thing worth checking (with buttons to record what was found), what to do now and by when;
// the person's own deadlines; then the explanations, grouped, each one line that opens for its detail.
// No ID in the default text: IDs sit inside the opened details, beside the links.
import { PLACES } from '../../../model/places.ts';
import { personDeadlines } from '../../../analysis/deadlines.ts';
import type { ExplainResult } from '../../../analysis/schemas.ts';
import { html, type Raw } from '../../html.ts';
import { readingHtml } from './explain-view.ts';
import { entityPath, SITE } from '../../paths.ts';

export interface CandidateHtmlOptions {
  /** Whether the page can record probe outcomes (the analyze page; a static page cannot). */
  interactive: boolean;
  /** The page holds a form for the date and place (the analyze page), else a link to it (`datesHref`). */
  datesForm: boolean;
  datesHref?: string;
  /** The heading level of the view's sections. */
  level?: 2 | 3;
}

const heading = (level: 2 | 3, id: string, text: string | Raw) =>
  level === 2 ? html`<h2 id="${id}">${text}</h2>` : html`<h3 id="${id}">${text}</h3>`;
const subheading = (level: 2 | 3, text: string) => (level === 2 ? html`<h3>${text}</h3>` : html`<h4>${text}</h4>`);

/** The options of the "where are you?" list: countries, then their parts, grouped. */
function placeOptions(selected: string | undefined): Raw {
  const group = (country: 'uk' | 'us' | 'eu', label: string) => html`<optgroup label="${label}">
${PLACES.filter((p) => p.country === country).map((p) => html`<option value="${p.code}"${p.code === selected ? html` selected` : ''}>${p.code.includes('-') ? p.name : `${p.name} (somewhere in it)`}</option>\n`)}</optgroup>\n`;
  return html`<option value="">I would rather not say</option>
${group('uk', 'United Kingdom')}${group('us', 'United States')}${group('eu', 'European Union')}`;
}

/** The candidate view of a result. */
export function candidateHtml(r: ExplainResult, o: CandidateHtmlOptions): Raw {
  const c = r.candidate;
  const level = o.level ?? 3;
  const what = r.input.from_text
    ? readingHtml(r.input.from_text)
    : html`<p>${r.input.scenario ? 'What happened' : 'You saw'}: ${r.hard_facts.artifacts.map((a, i) => html`${i ? '; ' : ''}<a href="${entityPath((a.successor ?? a).id)}">${(a.successor ?? a).title}</a>`)}.</p>`;
  const found = r.hard_facts.observed.map(
    (f) => html`<p id="cv-found-${f.probe.replace(/[^A-Za-z0-9_-]/g, '_')}" tabindex="-1">You found: ${f.observation}</p>\n`,
  );

  // The one thing worth checking: its outcomes as buttons, as the full view's probes have them.
  const probe = c.check ? r.agency.probes.find((p) => p.id === c.check!.probe) : undefined;
  const record =
    o.interactive && probe
      ? html`<details class="cv-found">
<summary>Did you check? Say what you found</summary>
<ul class="answer-outcomes">
${probe.outcomes.map((x) => html`<li><button type="button" data-probe="${probe.id}" data-outcome="${x.id}">${x.observation}</button></li>\n`)}</ul>
</details>`
      : '';

  const deadlines = r.agency.deadlines;
  const given = r.input.on !== undefined || r.input.where !== undefined;
  const dateLines = personDeadlines(deadlines).map(({ text }) => html`<li>${text}</li>\n`);
  const dates =
    deadlines.length > 0
      ? html`<section class="cv-dates" aria-labelledby="cv-dates-h">
${heading(level, 'cv-dates-h', given ? 'Your deadlines' : 'Deadlines')}
${
  o.datesForm
    ? html`<form id="case-form" class="cv-case">
<div class="cv-case-fields">
<div class="answer-field"><label for="case-on">When did it happen?</label><input type="date" id="case-on" name="on" value="${r.input.on ?? ''}" aria-describedby="case-hint"></div>
<div class="answer-field"><label for="case-where">Where are you?</label><select id="case-where" name="where" aria-describedby="case-hint">${placeOptions(r.input.where)}</select></div>
<button type="submit">Show my dates</button>
</div>
<p id="case-hint" class="answer-hint">Worked out in your browser: nothing is sent anywhere.</p>
</form>`
    : o.datesHref
      ? html`<p><a href="${o.datesHref}">Work out your own dates</a> (in your browser: nothing is sent anywhere).</p>`
      : ''
}
${given ? html`<ul class="cv-deadlines">${dateLines}</ul>` : html`<details><summary>The time limits, in words</summary><ul class="cv-deadlines">${dateLines}</ul></details>`}
${c.legal ? html`<p class="notice">${c.legal} <a href="${SITE.methodology}#law">The full notice</a></p>` : ''}
</section>`
      : '';

  const item = (i: ExplainResult['candidate']['groups'][number]['items'][number]) => html`<li data-id="${i.id}"><details>
<summary><span class="cv-title">${i.title}</span></summary>
<div class="cv-more">
<p><strong>${i.who}</strong></p>
${i.relevant_if ? html`<p>${i.relevant_if}</p>` : ''}
<p>${i.how}${i.note ? ` ${i.note}` : ''}</p>
<p>${i.summary}</p>
<p class="answer-meta">How well studied: ${i.evidence}.${i.ordinary ? ' An ordinary cause: it happens in fair processes too.' : ''} <a href="${entityPath(i.id)}">Read more about it <span class="id">${i.id}</span></a></p>
</div>
</details></li>
`;
  const groups =
    c.groups.length > 0
      ? html`${heading(level, 'cv-why-h', 'What could explain it')}
${c.groups.map((g) => html`<div class="cv-group" data-group="${g.id}">${subheading(level, g.label)}${(g.relevant_if ?? []).map((x) => html`<p class="cv-if">${x}</p>`)}<ul class="cv-items">${g.items.map(item)}</ul></div>\n`)}
${c.also ? html`<p class="answer-meta">${c.also}</p>` : ''}`
      : '';

  return html`<div class="cv" data-registry="${r.registry_version}">
<div class="cv-what">${what}${found}${c.note ? html`<p class="note">${c.note}</p>` : ''}</div>
<section class="cv-lead" aria-labelledby="cv-lead-h" data-verdict="${r.agency.verdict.code}">
${heading(level, 'cv-lead-h', c.heading)}
${c.lead.map((p) => html`<p>${p}</p>\n`)}${record}
</section>
${dates}
${groups}
<p class="note">${c.notice}</p>
</div>`;
}
