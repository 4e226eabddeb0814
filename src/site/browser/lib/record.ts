// The record a person keeps of their case, in their own browser only: a saved analysis (what the atlas
// said, in plain words, with the deadlines) and the dated events they add (applied, interviewed, a message,
// a check, an offer withdrawn, a request sent, Acas early conciliation). What an adviser, a union, an
// agency or a tribunal asks for. Pure functions: the record as data, checked when imported, and its
// exports (Markdown, JSON, an .ics calendar of the deadlines). The page (browser/record.ts) keeps it in
// localStorage and never sends it anywhere.
import { personDeadlines } from '../../../analysis/deadlines.ts';
import type { ExplainResult } from '../../../analysis/schemas.ts';
import { isIsoDate, addDays, longDate } from '../../../analysis/dates.ts';
import type { AnalyzeState } from './analyze-state.ts';

const RECORD_FORMAT = 'hoba-record';
const RECORD_VERSION = 1;
/** The localStorage key. */
export const RECORD_KEY = 'hoba.record.v1';

export const EVENT_TYPES = [
  'applied',
  'interviewed',
  'message',
  'check-started',
  'offer-withdrawn',
  'request-sent',
  'conciliation-started',
  'certificate',
  'other',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_LABELS: Record<EventType, string> = {
  applied: 'Applied',
  interviewed: 'Interviewed',
  message: 'Message received',
  'check-started': 'Check started (background, references…)',
  'offer-withdrawn': 'Offer withdrawn',
  'request-sent': 'Request sent (for data, feedback or reasons)',
  'conciliation-started': 'Acas early conciliation started',
  certificate: 'Acas certificate received',
  other: 'Something else',
};

export interface RecordEvent {
  id: string;
  type: EventType;
  /** YYYY-MM-DD. */
  date: string;
  note?: string;
}

/** What the atlas said, kept as the person saw it (the words do not change if the atlas does). */
export interface SavedAnalysis {
  /** The analysis as the page's address holds it, to open it again. */
  state: AnalyzeState;
  registry_version: string;
  saved: string;
  what: string;
  heading: string;
  lead: string[];
  groups: Array<{ label: string; items: string[] }>;
  deadlines: Array<{ line: string; action: string; who: 'you' | 'employer'; dates: Array<{ date: string; label: string }> }>;
  notice: string;
  legal?: string;
}

export interface CaseRecord {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  analysis?: SavedAnalysis;
  events: RecordEvent[];
}

export const emptyRecord = (): CaseRecord => ({ format: RECORD_FORMAT, version: RECORD_VERSION, events: [] });

/** The analysis of a result, as the record keeps it. */
export function savedAnalysisOf(r: ExplainResult, state: AnalyzeState, today: string): SavedAnalysis {
  const what = r.input.scenario
    ? r.input.scenario.title
    : r.input.from_text
      ? `“${r.input.from_text.text}”`
      : r.hard_facts.artifacts.map((a) => (a.successor ?? a).title).join('; ');
  return {
    state,
    registry_version: r.registry_version,
    saved: today,
    what,
    heading: r.candidate.heading,
    lead: r.candidate.lead,
    groups: r.candidate.groups.map((g) => ({ label: g.label, items: g.items.map((i) => i.title) })),
    deadlines: personDeadlines(r.agency.deadlines).map(({ text, deadline: d }) => ({
      line: text,
      action: d.action,
      who: d.who,
      dates: d.dates.map((x) => ({ date: x.date, label: x.label })),
    })),
    notice: r.candidate.notice,
    ...(r.candidate.legal ? { legal: r.candidate.legal } : {}),
  };
}

/** The dates of events that time limits run from: the latest request sent, and Acas early conciliation. */
export function datesOfEvents(events: readonly RecordEvent[]): {
  request?: string;
  conciliation_start?: string;
  conciliation_certificate?: string;
} {
  const latest = (type: EventType) =>
    events
      .filter((e) => e.type === type)
      .map((e) => e.date)
      .sort()
      .at(-1);
  const request = latest('request-sent');
  const start = latest('conciliation-started');
  const certificate = latest('certificate');
  return {
    ...(request ? { request } : {}),
    ...(start && certificate && certificate >= start ? { conciliation_start: start, conciliation_certificate: certificate } : {}),
  };
}

const isText = (v: unknown, max = 5000): v is string => typeof v === 'string' && v.length <= max;

/** A record read from a file or from storage, checked field by field; a reason when it is not one. */
export function parseRecord(text: string): { record: CaseRecord } | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'This file is not a record saved by this site (it is not JSON).' };
  }
  const o = data as Partial<CaseRecord> | null;
  if (!o || typeof o !== 'object' || o.format !== RECORD_FORMAT) return { error: 'This file is not a record saved by this site.' };
  if (o.version !== RECORD_VERSION)
    return { error: `This record is of version ${String(o.version)}; this site reads version ${RECORD_VERSION}.` };
  if (!Array.isArray(o.events) || o.events.length > 500) return { error: 'The record’s list of events is missing or too long.' };
  const events: RecordEvent[] = [];
  for (const [i, e] of o.events.entries()) {
    if (
      !e ||
      typeof e !== 'object' ||
      !isText(e.id, 40) ||
      !EVENT_TYPES.includes(e.type) ||
      !isText(e.date, 10) ||
      !isIsoDate(e.date) ||
      (e.note !== undefined && !isText(e.note, 2000))
    ) {
      return {
        error: `Event ${i + 1} of the record is not readable (each needs a type, a date written YYYY-MM-DD, and at most a short note).`,
      };
    }
    events.push({ id: e.id, type: e.type, date: e.date, ...(e.note ? { note: e.note } : {}) });
  }
  const a = o.analysis;
  if (a !== undefined) {
    const ok =
      a &&
      typeof a === 'object' &&
      a.state &&
      typeof a.state === 'object' &&
      Array.isArray(a.state.probes) &&
      isText(a.registry_version, 40) &&
      isText(a.what) &&
      isText(a.heading) &&
      Array.isArray(a.lead) &&
      a.lead.every((p) => isText(p)) &&
      Array.isArray(a.groups) &&
      Array.isArray(a.deadlines) &&
      isText(a.notice);
    if (!ok) return { error: 'The analysis saved in this record is not readable.' };
  }
  return { record: { format: RECORD_FORMAT, version: RECORD_VERSION, ...(a ? { analysis: a } : {}), events: sortEvents(events) } };
}

export const sortEvents = (events: readonly RecordEvent[]) =>
  [...events].sort((x, y) => x.date.localeCompare(y.date) || x.id.localeCompare(y.id));

/** The record as JSON, as it is downloaded (and read back by parseRecord). */
export const recordJson = (r: CaseRecord) => `${JSON.stringify(r, null, 2)}\n`;

/** The record as Markdown: what happened, what the atlas said, the deadlines, the notices. */
export function recordMarkdown(r: CaseRecord, link?: string): string {
  const out: string[] = ['# My record of a hiring process', ''];
  out.push('Kept in my own browser with the Hiring Obstacles & Barriers Atlas. It is my own note of events, not legal advice.', '');
  out.push('## What happened', '');
  if (r.events.length === 0) out.push('No events recorded yet.', '');
  for (const e of sortEvents(r.events)) out.push(`- ${longDate(e.date)}: ${EVENT_LABELS[e.type]}${e.note ? `. ${e.note}` : ''}`);
  if (r.events.length > 0) out.push('');
  const a = r.analysis;
  if (a) {
    out.push(
      `## What the atlas said (version ${a.registry_version}, saved ${longDate(a.saved)})`,
      '',
      `About: ${a.what}`,
      '',
      `**${a.heading}**`,
      '',
    );
    for (const p of a.lead) out.push(p, '');
    if (a.groups.length > 0) {
      out.push('### What could explain it', '');
      for (const g of a.groups) out.push(`- ${g.label}: ${g.items.join('; ')}`);
      out.push('');
    }
    if (a.deadlines.length > 0) {
      out.push('### Deadlines (not legal advice)', '');
      for (const d of a.deadlines) out.push(`- ${d.line}`);
      out.push('');
      if (a.legal) out.push(a.legal, '');
    }
    out.push(a.notice, '');
  }
  if (link) out.push(`The analysis: ${link}`, '');
  return out.join('\n');
}

/** Text escaped for an iCalendar value (RFC 5545 §3.3.11), folded at 75 octets. */
function icsText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const ch of line) {
    if (new TextEncoder().encode(current + ch).length > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = ch;
    } else current += ch;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const compact = (iso: string) => iso.replace(/-/g, '');

/** The deadlines as an iCalendar file: one all-day event per date, with a reminder a week before. */
export function recordIcs(r: CaseRecord, today: string): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Hiring Obstacles and Barriers Atlas//Record//EN', 'CALSCALE:GREGORIAN'];
  const seen = new Set<string>();
  for (const [i, d] of (r.analysis?.deadlines ?? []).entries()) {
    for (const [k, x] of d.dates.entries()) {
      const uid = `${compact(x.date)}-${i}-${k}@record.hoba`;
      if (seen.has(uid)) continue;
      seen.add(uid);
      const summary =
        d.who === 'you' ? `Deadline: ${d.action.replace(/\.$/, '')} (${x.label})` : `Due: ${d.action.replace(/\.$/, '')} (${x.label})`;
      lines.push(
        'BEGIN:VEVENT',
        `UID:${uid}`,
        `DTSTAMP:${compact(today)}T000000Z`,
        `DTSTART;VALUE=DATE:${compact(x.date)}`,
        `DTEND;VALUE=DATE:${compact(addDays(x.date, 1))}`,
        `SUMMARY:${icsText(summary)}`,
        `DESCRIPTION:${icsText(`${d.line} Not legal advice: check this date with an adviser.`)}`,
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${icsText(summary)}`,
        'TRIGGER:-P7D',
        'END:VALARM',
        'END:VEVENT',
      );
    }
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
