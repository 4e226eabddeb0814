// The record on the analyze page: saved in this browser's localStorage, never sent anywhere. The person
// saves the analysis they see, adds dated events, prints the record (a print view of its own), downloads
// it as Markdown, JSON or an .ics calendar of the deadlines (files made here, from a Blob: no request),
// opens a downloaded record again, or deletes it. Events that time limits run from (a request sent, Acas
// early conciliation) feed the next analysis's dates.
import type { ExplainResult } from '../../analysis/schemas.ts';
import { longDate } from '../../analysis/dates.ts';
import { html } from '../html.ts';
import { fragmentOf, type AnalyzeState } from './lib/analyze-state.ts';
import { byId, setHtml } from './lib/dom.ts';
import {
  EVENT_LABELS,
  emptyRecord,
  parseRecord,
  RECORD_KEY,
  recordIcs,
  recordJson,
  recordMarkdown,
  savedAnalysisOf,
  sortEvents,
  type CaseRecord,
  type EventType,
} from './lib/record.ts';

export interface RecordHooks {
  /** The analysis on the page now, if any. */
  current: () => { state: AnalyzeState; result?: ExplainResult } | undefined;
  /** Open an analysis (a saved record's). */
  open: (state: AnalyzeState) => void;
}

/** Today's date on this device's calendar (YYYY-MM-DD). */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function load(): CaseRecord {
  try {
    const text = localStorage.getItem(RECORD_KEY);
    if (text === null) return emptyRecord();
    const parsed = parseRecord(text);
    return 'record' in parsed ? parsed.record : emptyRecord();
  } catch {
    return emptyRecord();
  }
}

let storable = true;
function store(r: CaseRecord): void {
  try {
    if (r.events.length === 0 && r.analysis === undefined) localStorage.removeItem(RECORD_KEY);
    else localStorage.setItem(RECORD_KEY, JSON.stringify(r));
    storable = true;
  } catch {
    storable = false;
  }
}

/** The record's events for the analysis: the dates that time limits run from. */
export function recordEvents(): CaseRecord['events'] {
  return load().events;
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function initRecord(hooks: RecordHooks): { refresh: () => void } {
  const section = byId('record');
  const saved = byId('record-saved');
  const saveButton = byId<HTMLButtonElement>('record-save');
  const events = byId('record-events');
  const addForm = byId<HTMLFormElement>('record-add');
  const type = byId<HTMLSelectElement>('event-type');
  const date = byId<HTMLInputElement>('event-date');
  const note = byId<HTMLInputElement>('event-note');
  const status = byId('record-status');
  const printView = byId('record-print-view');
  const importInput = byId<HTMLInputElement>('record-import');
  let record = load();
  section.hidden = false;
  date.value = today();

  const say = (text: string) =>
    (status.textContent = storable ? text : `${text} This browser does not let the page keep it: download a copy.`);
  const analysisLink = () => (record.analysis ? `${location.origin}${location.pathname}#${fragmentOf(record.analysis.state)}` : undefined);

  function render(): void {
    const a = record.analysis;
    setHtml(
      saved,
      a
        ? html`<p>Saved analysis (${longDate(a.saved)}): <strong>${a.what}</strong>. ${a.heading}. <button type="button" data-record-open="1">Open it</button></p>`
        : html`<p class="answer-hint">No analysis saved yet.</p>`,
    );
    const cur = hooks.current();
    saveButton.disabled = cur?.result === undefined;
    saveButton.textContent =
      a && cur && fragmentOf(cur.state) === fragmentOf(a.state) ? 'Update the saved analysis' : 'Save this analysis to my record';
    setHtml(
      events,
      record.events.length === 0
        ? html`<li class="answer-hint">Nothing yet. Add the first date below.</li>`
        : html`${sortEvents(record.events).map(
            (e) =>
              html`<li>${longDate(e.date)}: ${EVENT_LABELS[e.type]}${e.note ? html`. ${e.note}` : ''} <button type="button" data-record-remove="${e.id}">Remove<span class="visually-hidden"> ${EVENT_LABELS[e.type]}, ${longDate(e.date)}</span></button></li>\n`,
          )}`,
    );
    // The print view: the record as a page of its own (shown only when printing the record).
    const md = recordMarkdown(record, analysisLink());
    setHtml(printView, html`${md.split('\n\n').map((block) => printBlock(block))}`);
  }

  function printBlock(block: string) {
    const b = block.trim();
    if (b === '') return '';
    if (b.startsWith('### ')) return html`<h3>${b.slice(4)}</h3>\n`;
    if (b.startsWith('## ')) return html`<h2>${b.slice(3)}</h2>\n`;
    if (b.startsWith('# ')) return html`<h1>${b.slice(2)}</h1>\n`;
    if (b.startsWith('- ')) return html`<ul>${b.split('\n').map((l) => html`<li>${l.replace(/^- /, '')}</li>`)}</ul>\n`;
    if (/^\*\*.*\*\*$/.test(b)) return html`<p><strong>${b.slice(2, -2)}</strong></p>\n`;
    return html`<p>${b}</p>\n`;
  }

  function save(r: CaseRecord, message: string): void {
    record = r;
    store(record);
    render();
    say(message);
  }

  saveButton.addEventListener('click', () => {
    const cur = hooks.current();
    if (!cur?.result) return;
    save({ ...record, analysis: savedAnalysisOf(cur.result, cur.state, today()) }, 'Saved in this browser. Nothing was sent anywhere.');
  });

  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date.value)) {
      date.focus();
      say('Give the date of the event first.');
      return;
    }
    const e = {
      id: `e${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
      type: type.value as EventType,
      date: date.value,
      ...(note.value.trim() ? { note: note.value.trim() } : {}),
    };
    save(
      { ...record, events: sortEvents([...record.events, e]) },
      `Added: ${EVENT_LABELS[e.type]}, ${longDate(e.date)}. Kept in this browser only.`,
    );
    note.value = '';
    // A request or Acas dates change the deadlines: the analysis on the page is run again with them.
    const cur = hooks.current();
    if (cur && ['request-sent', 'conciliation-started', 'certificate'].includes(e.type)) hooks.open(cur.state);
  });

  section.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('button') : null;
    if (!target) return;
    const remove = target.dataset['recordRemove'];
    if (remove) {
      save({ ...record, events: record.events.filter((e) => e.id !== remove) }, 'Event removed.');
      addForm.querySelector('select')?.focus();
    } else if (target.dataset['recordOpen'] && record.analysis) hooks.open(record.analysis.state);
  });

  byId('record-print').addEventListener('click', () => {
    render();
    document.body.classList.add('print-record');
    window.print();
  });
  window.addEventListener('afterprint', () => document.body.classList.remove('print-record'));
  byId('record-md').addEventListener('click', () => download('hiring-record.md', 'text/markdown', recordMarkdown(record, analysisLink())));
  byId('record-json').addEventListener('click', () => download('hiring-record.json', 'application/json', recordJson(record)));
  byId('record-ics').addEventListener('click', () => {
    const n = record.analysis?.deadlines.reduce((k, d) => k + d.dates.length, 0) ?? 0;
    if (n === 0) {
      say('There is no date to put in a calendar yet: save an analysis after giving the date it happened and where you are.');
      return;
    }
    download('hiring-deadlines.ics', 'text/calendar', recordIcs(record, today()));
    say(`${n === 1 ? 'One date' : `${n} dates`} saved to a calendar file, each with a reminder a week before.`);
  });
  importInput.addEventListener('change', () => {
    const file = importInput.files?.[0];
    if (!file) return;
    void file.text().then((text) => {
      const parsed = parseRecord(text);
      importInput.value = '';
      if ('error' in parsed) {
        say(parsed.error);
        return;
      }
      save(
        parsed.record,
        `Opened the record: ${parsed.record.events.length} ${parsed.record.events.length === 1 ? 'event' : 'events'}. Kept in this browser only.`,
      );
    });
  });
  byId('record-clear').addEventListener('click', () => {
    if (!window.confirm('Delete your record from this browser? Download a copy first if you want to keep it.')) return;
    save(emptyRecord(), 'Your record was deleted from this browser.');
  });

  render();
  return { refresh: render };
}
