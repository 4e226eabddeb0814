// The analyze page: H → O → B → A in the browser. What the person gives (their words and a pasted
// message, the observations they tick and the stage, or a worked scenario) goes to the same explain() as
// `hoba explain`; answering the reader's question runs it again with the answer (as --pick does), and
// recording a probe outcome runs it again with that outcome (as --probe p=o does). The state lives in the
// address's fragment, so a link reproduces the analysis; nothing is sent anywhere (the only requests are
// the atlas's static data files).
import { explain } from '../../analysis/explain.ts';
import { AnalysisError } from '../../analysis/resolve.ts';
import type { ExplainResult } from '../../analysis/schemas.ts';
import type { Registry } from '../../registry/registry.ts';
import { html } from '../html.ts';
import { entityPath } from '../paths.ts';
import { explainInputOf, fragmentOf, stateOfFragment, type AnalyzeState } from './lib/analyze-state.ts';
import { loadReader, loadRegistry, LOAD_FAILED } from './lib/atlas.ts';
import { byId, setHtml } from './lib/dom.ts';
import { PLAIN_VERDICT } from '../../model/plain.ts';
import { candidateHtml } from './lib/candidate-view.ts';
import { datesOfEvents } from './lib/record.ts';
import { initRecord, recordEvents } from './record-ui.ts';
import { explanationHtml, probeDomId } from './lib/explain-view.ts';

const app = byId('analyze-app');
const textForm = byId<HTMLFormElement>('form-text');
const textArea = byId<HTMLTextAreaElement>('text');
const messageArea = byId<HTMLTextAreaElement>('message');
const pickForm = byId<HTMLFormElement>('form-pick');
const filter = byId<HTMLInputElement>('filter');
const filterCount = byId('filter-count');
const picks = byId('picks');
const picked = byId('picked');
const stageSelect = byId<HTMLSelectElement>('stage');
const scenarioForm = byId<HTMLFormElement>('form-scenario');
const scenarioSelect = byId<HTMLSelectElement>('scenario');
const status = byId('analyze-status');
const resultSection = byId('result');
const resultHeading = byId('result-h');
const resultBody = byId('result-body');
const share = byId<HTMLInputElement>('share');
const copyButton = byId<HTMLButtonElement>('copy');
const copyStatus = byId('copy-status');

byId('analyze-nojs').hidden = true;
app.hidden = false;

const checkboxes = () => [...picks.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];

// ── running the analysis ─────────────────────────────────────────────────────────────────────────────

let current: { state: AnalyzeState; result?: ExplainResult } | undefined;
let fullOpen = false;
let ticket = 0;

type Focus = { to: 'heading' } | { to: 'found'; probe: string } | { to: 'cv-found'; probe: string } | { to: 'dates' } | { to: 'none' };

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a screen reader hears when a result arrives. */
function summary(r: ExplainResult): string {
  if (r.hard_facts.artifacts.length === 0) return `${PLAIN_VERDICT[r.agency.verdict.code]}. ${r.agency.verdict.text}`;
  const first = r.candidate.groups.reduce((n, g) => n + g.items.length, 0);
  return `${PLAIN_VERDICT[r.agency.verdict.code]}. ${count(first, 'possible explanation')}.`;
}

async function run(state: AnalyzeState, focus: Focus, lead = ''): Promise<void> {
  const mine = ++ticket;
  status.textContent = 'Analysing…';
  let reg: Registry;
  try {
    reg = await loadRegistry();
    // Plain words are read with the reader's model; the model is loaded only when needed.
    if (state.text !== undefined || state.message !== undefined) await loadReader();
  } catch {
    if (mine !== ticket) return;
    showError(html`<p>${LOAD_FAILED}</p>`);
    return;
  }
  if (mine !== ticket) return; // a later run replaced this one
  const fragment = fragmentOf(state);
  if (location.hash.slice(1) !== fragment) history.replaceState(null, '', `#${fragment}`);
  share.value = location.href;
  copyStatus.textContent = '';
  let result: ExplainResult;
  try {
    // The record's dates (a request sent, Acas early conciliation) count, as they are the person's own.
    const dates = datesOfEvents(recordEvents());
    result = explain(reg, { ...explainInputOf(state), ...(Object.keys(dates).length > 0 ? { dates } : {}) });
  } catch (err) {
    if (!(err instanceof AnalysisError)) throw err;
    current = { state };
    syncForms(state);
    const suggestions =
      err.suggestions.length > 0
        ? html`<p>Closest in the atlas:</p><ul>${err.suggestions.map((s) => html`<li><a href="${entityPath(s.id)}">${s.id} ${s.title}</a></li>`)}</ul>`
        : '';
    // A link may carry an outcome this version of the atlas no longer has: the rest can still be analysed.
    const retry =
      state.probes.length > 0
        ? html`<p><button type="button" data-drop-outcomes="1">Analyse without the recorded outcomes</button></p>`
        : '';
    const words =
      state.text !== undefined || state.message !== undefined
        ? html`<p>You can also tick what you saw in the list of observations above.</p>`
        : '';
    showError(html`<p>${err.message}</p>${suggestions}${retry}${words}`, focus);
    return;
  }
  current = { state, result };
  record.refresh();
  setHtml(
    resultBody,
    html`${candidateHtml(result, { interactive: true, datesForm: true })}
<details class="cv-full" id="full">
<summary>Everything the atlas holds on this: every explanation, each check and what it tells, the law, the sources</summary>
${explanationHtml(reg, result, { recorded: state.probes })}
</details>`,
  );
  // The full analysis stays open across runs when the person opened it.
  const full = document.getElementById('full') as HTMLDetailsElement | null;
  if (full) {
    full.open = fullOpen;
    full.addEventListener('toggle', () => (fullOpen = full.open));
  }
  resultSection.hidden = false;
  syncForms(state, result);
  status.textContent = `${lead}${summary(result)}`;
  moveFocus(focus);
}

function showError(content: ReturnType<typeof html>, focus: Focus = { to: 'heading' }): void {
  setHtml(resultBody, html`<div class="answer-error" role="alert">${content}</div>`);
  resultSection.hidden = false;
  status.textContent = '';
  moveFocus(focus);
}

function moveFocus(focus: Focus): void {
  if (focus.to === 'none') return;
  const target =
    focus.to === 'found'
      ? (document.getElementById(`found-${probeDomId(focus.probe)}`) ?? resultHeading)
      : focus.to === 'cv-found'
        ? (document.getElementById(`cv-found-${focus.probe.replace(/[^A-Za-z0-9_-]/g, '_')}`) ?? resultHeading)
        : focus.to === 'dates'
          ? (document.getElementById('cv-dates-h') ?? resultHeading)
          : resultHeading;
  if (target !== resultHeading && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/** The forms show what is analysed: the observations ticked, the stage, the words or the scenario. */
function syncForms(state: AnalyzeState, result?: ExplainResult): void {
  const analysed = new Set(result?.input.artifacts ?? state.artifacts ?? []);
  for (const box of checkboxes()) box.checked = analysed.has(box.value);
  updatePicked();
  stageSelect.value = state.stage ?? '';
  if (state.text !== undefined || state.message !== undefined) {
    textArea.value = state.text ?? '';
    messageArea.value = state.message ?? '';
  }
  if (state.scenario !== undefined) scenarioSelect.value = result?.input.scenario?.id ?? state.scenario;
}

// ── the three ways in ────────────────────────────────────────────────────────────────────────────────

textForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = textArea.value.trim();
  const message = messageArea.value.trim();
  if (text === '' && message === '') {
    textArea.focus();
    status.textContent = 'Write a few words about what happened, or paste the message you received, first.';
    return;
  }
  void run({ ...(text !== '' ? { text } : {}), ...(message !== '' ? { message } : {}), probes: [] }, { to: 'heading' });
});

pickForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const artifacts = checkboxes()
    .filter((b) => b.checked)
    .map((b) => b.value);
  if (artifacts.length === 0) {
    picked.textContent = 'Tick at least one observation first.';
    (checkboxes().find((b) => !b.closest('li')?.hidden) ?? filter).focus();
    return;
  }
  void run({ artifacts, ...(stageSelect.value ? { stage: stageSelect.value } : {}), probes: [] }, { to: 'heading' });
});

scenarioForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void run({ scenario: scenarioSelect.value, probes: [] }, { to: 'heading' });
});

function updatePicked(): void {
  const ids = checkboxes()
    .filter((b) => b.checked)
    .map((b) => b.value);
  setHtml(
    picked,
    ids.length === 0
      ? html`None ticked yet.`
      : html`${count(ids.length, 'observation')} ticked: ${ids.map((id, i) => html`${i ? ', ' : ''}<span class="id">${id}</span>`)}.`,
  );
}
picks.addEventListener('change', updatePicked);

// The filter matches every word typed against an observation's title, ID and everyday names.
let haystacks: Map<string, string> | undefined;
function filterPicks(): void {
  const words = filter.value
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  let shown = 0;
  for (const li of picks.querySelectorAll<HTMLLIElement>('li[data-id]')) {
    const id = li.dataset['id']!;
    const hay = haystacks?.get(id) ?? (li.textContent ?? '').toLowerCase();
    li.hidden = !words.every((w) => hay.includes(w));
    if (!li.hidden) shown++;
  }
  for (const fs of picks.querySelectorAll<HTMLFieldSetElement>('fieldset')) fs.hidden = fs.querySelector('li:not([hidden])') === null;
  const total = picks.querySelectorAll('li[data-id]').length;
  filterCount.textContent =
    words.length === 0
      ? `${total} observations, by the stage where they first arise. Tick every one you saw.`
      : shown === 0
        ? `None of the ${total} observations matches “${filter.value.trim()}”. Try another word, or describe it in your own words above.`
        : `${shown} of ${total} observations match. Ticked ones stay ticked when hidden.`;
}
filter.addEventListener('input', filterPicks);

// ── the person's date and place: kept in the fragment, never sent ──────────────────────────────────────

resultBody.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id !== 'case-form' || !current) return;
  event.preventDefault();
  const on = (form.elements.namedItem('on') as HTMLInputElement | null)?.value ?? '';
  const where = (form.elements.namedItem('where') as HTMLSelectElement | null)?.value ?? '';
  const { on: _on, where: _where, ...rest } = current.state;
  void run(
    { ...rest, ...(on ? { on } : {}), ...(where ? { where } : {}) },
    { to: 'dates' },
    on || where ? 'Your dates are shown. ' : 'Dates cleared. ',
  );
});

// ── recording probe outcomes ─────────────────────────────────────────────────────────────────────────

resultBody.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (!target || !current) return;
  const { state, result } = current;
  const probe = target.dataset['probe'];
  const outcome = target.dataset['outcome'];
  if (probe && outcome) {
    const before = new Set(result?.behind.mechanisms.map((m) => m.id));
    const view = result?.agency.probes.find((p) => p.id === probe)?.outcomes.find((o) => o.id === outcome);
    const ruledOut = view ? view.narrows.filter((id) => before.has(id)).length : 0;
    // Focus goes to what was recorded: in the full analysis when it came from there, else in the plain answer.
    fullOpen = target.closest('#full') !== null;
    void run(
      { ...state, probes: [...state.probes, { probe, outcome }] },
      fullOpen ? { to: 'found', probe } : { to: 'cv-found', probe },
      `Recorded: ${view?.observation ?? outcome} ${ruledOut > 0 ? `It ruled out ${count(ruledOut, 'mechanism')}.` : 'It ruled nothing out.'} `,
    );
    return;
  }
  const pick = target.dataset['pick'];
  if (pick) {
    // An answer to the reader's question: read the same words again with it (it is kept in the link).
    void run(
      { ...state, picks: [...(state.picks ?? []).filter((p) => p !== pick), pick] },
      { to: 'heading' },
      `Answered: ${target.textContent ?? pick}. `,
    );
    return;
  }
  if (target.dataset['dropOutcomes']) {
    void run({ ...state, probes: [] }, { to: 'heading' });
    return;
  }
  const undo = target.dataset['undo'];
  if (undo) void run({ ...state, probes: state.probes.filter((p) => p.probe !== undo) }, { to: 'heading' }, 'Outcome removed. ');
});

// ── the link ─────────────────────────────────────────────────────────────────────────────────────────

copyButton.addEventListener('click', () => {
  share.value = location.href;
  const copied = () => (copyStatus.textContent = 'Link copied. Opening it shows this same analysis.');
  const manual = () => {
    share.focus();
    share.select();
    copyStatus.textContent = 'Your browser did not allow copying: the link is selected, copy it from the box.';
  };
  if (navigator.clipboard) navigator.clipboard.writeText(share.value).then(copied, manual);
  else manual();
});

// ── start: from the address, and whenever the fragment changes ─────────────────────────────────────────

const record = initRecord({ current: () => current, open: (state) => void run(state, { to: 'heading' }) });

function fromAddress(): void {
  // The home page's box, without a script there, arrives as ?text=…: it moves into the fragment (which
  // stays in the browser) and leaves the address.
  const query = new URLSearchParams(location.search);
  const typed = query.get('text')?.trim();
  if (typed) {
    history.replaceState(null, '', `${location.pathname}#${fragmentOf({ text: typed, probes: [] })}`);
  }
  const state = stateOfFragment(location.hash);
  if (!state) return;
  if (current && fragmentOf(current.state) === fragmentOf(state)) return;
  void run(state, { to: 'heading' });
}
window.addEventListener('hashchange', fromAddress);
fromAddress();

void loadRegistry().then(
  (reg) => {
    haystacks = new Map(reg.all('artifact').map((a) => [a.id, [a.id, a.title, ...a.aliases].join(' ').toLowerCase()]));
    if (filter.value) filterPicks();
  },
  () => undefined,
);
