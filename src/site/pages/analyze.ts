// "What happened to you?": the HOBA protocol in the browser. The page is generated at build time with
// everything that does not depend on the person's input (the observations by stage, the stages, the worked
// scenarios); src/site/browser/analyze.ts runs explain() on what they give and renders the result. Without
// JavaScript the page says what it does and leads to the scenarios (each analysed on its own page) and the
// observation pages.
import { methodology } from '../../analysis/methodology.ts';
import { MAX_ACCOUNT_LENGTH, MAX_MESSAGE_LENGTH } from '../../analysis/reader.ts';
import { STAGES } from '../../model/vocab.ts';
import type { Registry } from '../../registry/registry.ts';
import { html } from '../html.ts';
import type { SitePage } from '../page.ts';
import { page } from '../layout.ts';
import { SITE, browsePath, entityPath } from '../paths.ts';
import { browseLinks, searchPage, SEARCH_ANALYZE_CSS } from './search.ts';
import { EVENT_LABELS, EVENT_TYPES } from '../browser/lib/record.ts';

/** A stage as a reader names it: "hiring-manager" → "Hiring manager". */
const stageLabel = (stage: string) => stage.charAt(0).toUpperCase() + stage.slice(1).replace(/-/g, ' ');

const ANALYZE_CSS = `
.answer-picks { max-height: 28rem; overflow-y: auto; border: 1px solid var(--line); border-radius: 4px; padding: 0 0.75rem; margin: 0.5rem 0; background: var(--bg); }
.answer-picks fieldset { border: 0; border-top: 1px solid var(--line); margin: 0; padding: 0.5rem 0; min-width: 0; }
.answer-picks fieldset:first-child { border-top: 0; }
.answer-picks legend { font-weight: 600; padding: 0; }
.answer-picks ul { list-style: none; margin: 0; padding: 0; }
.answer-picks li { margin: 0.2rem 0; }
.answer-picks label { display: flex; gap: 0.5rem; align-items: flex-start; font-weight: 400; }
.answer-picks input[type="checkbox"] { margin-top: 0.3rem; flex: none; width: 1.1rem; height: 1.1rem; }
#result { border-top: 3px solid var(--strong-line); margin-top: 2rem; }
#result h2:focus, .answer-found > li:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
.answer-tier { padding-left: 1.6rem; }
.answer-tier > li { margin: 0.75rem 0; }
.answer-tier p, .answer-probe p, .answer-steps p { margin: 0.15rem 0; }
.answer-steps > li { margin: 0.6rem 0; }
.answer-verdict { border-left: 4px solid var(--accent); padding: 0.25rem 0.75rem; margin: 1rem 0; }
.answer-verdict h3 { margin-top: 0.25rem; }
.answer-probes { padding-left: 1.4rem; }
.answer-probe { margin: 0.5rem 0 1.25rem; }
.answer-probe fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0.5rem 0; padding: 0.25rem 0.75rem 0.5rem; min-width: 0; }
.answer-outcomes { list-style: none; padding: 0; margin: 0; }
.answer-outcomes > li { margin: 0.5rem 0; }
.answer-outcomes button { text-align: left; width: 100%; }
.answer-found > li { margin: 0.5rem 0; }
.answer-split ul { margin: 0; padding-left: 1.1rem; }
.answer-link { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.answer-link input { flex: 1 1 12rem; min-width: 0; font-size: 0.9em; }
.answer-question, .answer-not-covered { border-left: 4px solid var(--accent); padding: 0.25rem 0.75rem; margin: 1rem 0; }
.answer-question h3, .answer-not-covered h3 { margin-top: 0.25rem; }
.answer-answers { list-style: none; padding: 0; margin: 0.5rem 0; }
.answer-answers > li { margin: 0.5rem 0; }
.answer-answers button { text-align: left; }
.answer-message { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16rem; overflow-y: auto; }
.answer-tells > li, .answer-read > li { margin: 0.4rem 0; }
`;

function analyzePage(reg: Registry): string {
  const meanings = new Map(methodology(reg).vocabularies.stages.map((s) => [s.id, s.meaning]));
  const observations = reg.all('artifact').filter((a) => a.status === 'active');
  // Each observation once, under the first stage (in funnel order) where it arises.
  const byStage = STAGES.map((stage) => ({ stage, items: observations.filter((a) => a.stages[0] === stage) })).filter(
    (g) => g.items.length > 0,
  );
  const scenarios = reg.all('scenario').filter((s) => s.status === 'active');
  const pickList = byStage.map(
    ({ stage, items }) => html`<fieldset data-stage="${stage}">
<legend>${stageLabel(stage)}</legend>
<ul>
${items.map((a) => html`<li data-id="${a.id}"><label><input type="checkbox" name="a" value="${a.id}"><span>${a.title} <span class="muted id">${a.id}</span></span></label></li>\n`)}</ul>
</fieldset>
`,
  );
  return page(reg, {
    title: 'What happened to you?',
    path: SITE.analyze,
    description:
      'Describe what happened in a hiring process, or pick what you saw: the atlas lists what could explain it, what would tell the explanations apart, and what you can still do. It runs in your browser.',
    scripts: ['analyze'],
    head: html`<link rel="stylesheet" href="${SITE.searchAnalyzeStylesheet}">\n<link rel="stylesheet" href="${SITE.analyzeStylesheet}">\n`,
    main: html`<h1>What happened to you?</h1>
<p>Tell the atlas what you saw or were told during a hiring process: silence after an interview, a rejection minutes after applying, an offer withdrawn.
It lists what could have produced it, what would tell those explanations apart, and what you can still do whatever the cause.</p>
<p class="note">An observation is not a cause. The explanations here are compatible with what you saw, not proven, and never probabilities.
The analysis runs in your browser: nothing you type is sent anywhere.</p>
<div id="analyze-nojs" class="panel">
<h2>This page runs in your browser</h2>
<p>The analysis runs as a script in your browser, and your browser is not running it. Without it you can:</p>
<ul>
<li>read the <a href="${browsePath('scenario')}">worked scenarios</a>: common situations told in a candidate’s words, each with what the atlas makes of it;</li>
<li>open an <a href="${browsePath('artifact')}">observation’s page</a>: it lists the mechanisms that can produce it, the probes that tell them apart and what you can still do;</li>
<li>or run the same analysis on the command line: <code>hoba explain "what happened, in your words"</code>.</li>
</ul>
<p>Everything in the atlas, by kind:</p>
${browseLinks()}
</div>
<div id="analyze-app" hidden>
<section aria-labelledby="words-h">
<h2 id="words-h">In your own words</h2>
<form id="form-text" class="panel">
<div class="answer-field">
<label for="text">What happened?</label>
<textarea id="text" name="text" rows="3" maxlength="${MAX_ACCOUNT_LENGTH}" aria-describedby="text-hint"></textarea>
<p id="text-hint" class="answer-hint">A sentence or a few, in English: what you saw or were told, and when. For example “no reply after the final interview” or “they asked about the gap in my CV and then said I was overqualified”. The atlas picks the observations your words state and quotes the words it went by; it never picks what you say did not happen. When two observations read alike it asks you which; when your words are about something it does not cover (a job you have started, a dismissal, a dispute with your employer, writing a CV) it says so.</p>
</div>
<div class="answer-field">
<label for="message">Paste the message you received (optional)</label>
<textarea id="message" name="message" rows="4" maxlength="${MAX_MESSAGE_LENGTH}" aria-describedby="message-hint"></textarea>
<p id="message-hint" class="answer-hint">A rejection email, the status history of an application portal, a recruiter’s text or a letter, as you received it. Its lines are read against the tell-tale lines of the atlas’s examples: you see which lines are tells, and what each does and does not establish. With or without words above.</p>
</div>
<button type="submit" class="button-primary">Analyse what I wrote</button>
</form>
</section>
<section aria-labelledby="pick-h">
<h2 id="pick-h">Or pick what you saw</h2>
<form id="form-pick" class="panel">
<div class="answer-field">
<label for="filter">Filter the observations</label>
<input type="search" id="filter" autocomplete="off" aria-describedby="filter-count" aria-controls="picks">
<p id="filter-count" class="answer-hint">${observations.length} observations, by the stage where they first arise. Tick every one you saw.</p>
</div>
<div id="picks" class="answer-picks">
${pickList}</div>
<p id="picked" class="answer-hint" aria-live="polite">None ticked yet.</p>
<div class="answer-field">
<label for="stage">Where did it happen? (optional)</label>
<select id="stage" name="stage" aria-describedby="stage-hint">
<option value="">Where these observations arise (their own stages)</option>
${STAGES.map((s) => html`<option value="${s}">${stageLabel(s)}: ${meanings.get(s) ?? ''}</option>\n`)}</select>
<p id="stage-hint" class="answer-hint">Only if you know the stage. It decides which gates (barriers) of the process are looked at.</p>
</div>
<button type="submit" class="button-primary">Analyse what I ticked</button>
</form>
</section>
<section aria-labelledby="scenario-h">
<h2 id="scenario-h">Or start from a worked scenario</h2>
<form id="form-scenario" class="panel">
<div class="answer-field">
<label for="scenario">A common situation</label>
<select id="scenario" name="scenario">
${scenarios.map((s) => html`<option value="${s.id}">${s.id}: ${s.title}</option>\n`)}</select>
</div>
<button type="submit" class="button-primary">Analyse this scenario</button>
<p class="answer-hint">Each has its own page too: <a href="${browsePath('scenario')}">the worked scenarios</a>.</p>
</form>
</section>
</div>
<p id="analyze-status" class="visually-hidden" role="status" aria-live="polite"></p>
<section id="result" aria-labelledby="result-h" hidden>
<h2 id="result-h" tabindex="-1">What the atlas makes of it</h2>
<div id="result-body"></div>
<h3 id="share-h">Keep or share this analysis</h3>
<div class="answer-link">
<label for="share" class="visually-hidden">Link to this analysis</label>
<input id="share" type="text" readonly aria-describedby="share-hint">
<button type="button" id="copy">Copy link</button>
</div>
<p id="copy-status" class="answer-hint" role="status" aria-live="polite"></p>
<p id="share-hint" class="answer-hint">The link reproduces this analysis: what you entered and the outcomes you recorded are in the part after “#”, which browsers keep to themselves and do not send to this site. Share it only if you are comfortable with what it holds.</p>
</section>
<section id="record" class="record no-print" aria-labelledby="record-h" hidden>
<h2 id="record-h">Your record</h2>
<p>Keep what happened, with dates, and what the atlas said. An adviser, a union, an agency or a tribunal will ask for this.</p>
<p class="note"><strong>Your record stays in this browser only: nothing is sent anywhere.</strong> Clearing your browser’s data deletes it, so download a copy to keep.</p>
<div id="record-saved"></div>
<p><button type="button" id="record-save" class="button-primary">Save this analysis to my record</button></p>
<h3 id="events-h">What happened, with dates</h3>
<ol id="record-events" class="record-events" aria-labelledby="events-h"></ol>
<form id="record-add" class="record-add">
<div class="answer-field"><label for="event-type">What happened</label><select id="event-type" name="type">
${EVENT_TYPES.map(
  (t) => html`<option value="${t}">${EVENT_LABELS[t]}</option>
`,
)}</select></div>
<div class="answer-field"><label for="event-date">When</label><input type="date" id="event-date" name="date" required></div>
<div class="answer-field"><label for="event-note">Note (optional)</label><input type="text" id="event-note" name="note" maxlength="2000"></div>
<button type="submit">Add to my record</button>
</form>
<h3>Keep a copy</h3>
<div class="record-actions">
<button type="button" id="record-print">Print, or save as PDF</button>
<button type="button" id="record-md">Download as text (Markdown)</button>
<button type="button" id="record-json">Download as data (JSON)</button>
<button type="button" id="record-ics">Put the deadlines in my calendar (.ics)</button>
</div>
<div class="answer-field"><label for="record-import">Open a record you downloaded (JSON)</label><input type="file" id="record-import" accept="application/json,.json"></div>
<p><button type="button" id="record-clear">Delete my record from this browser</button></p>
<p id="record-status" class="answer-hint" role="status" aria-live="polite"></p>
</section>
<div id="record-print-view" class="record-print"></div>
<p class="muted">The same analysis: <code>hoba explain</code> on the command line, the <code>explain_observation</code> tool of the MCP server, or <a href="${entityPath(scenarios[0]?.id ?? 'S-001')}">a scenario’s page</a>. How it works: <a href="${SITE.methodology}">the method</a>.</p>`,
  });
}

const sitePage = (url: string, text: string): SitePage => ({ url, bytes: Buffer.from(text, 'utf8') });

/** The search page and the analyze page. */
export function* analyzePages(reg: Registry): Generator<SitePage> {
  yield sitePage(SITE.searchAnalyzeStylesheet, SEARCH_ANALYZE_CSS);
  yield sitePage(SITE.analyzeStylesheet, ANALYZE_CSS);
  yield sitePage(SITE.search, searchPage(reg));
  yield sitePage(SITE.analyze, analyzePage(reg));
}
