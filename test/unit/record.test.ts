// The record a person keeps (site/browser/lib/record.ts), as data: saved from an analysis, read back
// from a file only when every field is what it should be, and exported as Markdown and as an iCalendar
// file whose dates are the deadlines' own.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { explain } from '../../src/analysis/explain.ts';
import type { Registry } from '../../src/registry/registry.ts';
import {
  datesOfEvents,
  emptyRecord,
  parseRecord,
  recordIcs,
  recordJson,
  recordMarkdown,
  savedAnalysisOf,
  type CaseRecord,
} from '../../src/site/browser/lib/record.ts';
import { ROOT } from '../helpers.ts';
import { loadAtlas } from '../readability.ts';

let reg: Registry;
let record: CaseRecord;
before(() => {
  reg = loadAtlas(ROOT).registry;
  const state = { artifacts: ['A-024'], probes: [], on: '2026-11-20', where: 'us-ca' };
  const r = explain(reg, { artifacts: ['A-024'], on: '2026-11-20', where: 'us-ca' });
  record = {
    ...emptyRecord(),
    analysis: savedAnalysisOf(r, state, '2026-11-27'),
    events: [
      { id: 'e2', type: 'offer-withdrawn', date: '2026-11-20', note: 'Phone call; then an email, "budget"' },
      { id: 'e1', type: 'applied', date: '2026-09-01' },
    ],
  };
});

describe('the record', () => {
  test('saved from an analysis: the plain answer and the deadlines with their dates', () => {
    const a = record.analysis!;
    assert.equal(a.what, 'Offer rescinded');
    assert.ok(a.lead.length > 0 && a.groups.length > 0);
    const eeoc = a.deadlines.find((d) => d.action === 'File a charge with the EEOC')!;
    assert.deepEqual(
      eeoc.dates.map((d) => d.date),
      ['2027-05-19', '2027-09-16'],
    );
  });

  test('read back: what it wrote, events in date order; anything else is refused with a reason', () => {
    const back = parseRecord(recordJson(record));
    assert.ok('record' in back);
    assert.deepEqual(
      back.record.events.map((e) => e.id),
      ['e1', 'e2'],
    );
    assert.deepEqual(back.record.analysis, record.analysis);
    for (const [text, says] of [
      ['not json', /not JSON/],
      ['{"format":"other"}', /not a record saved by this site/],
      [JSON.stringify({ ...record, version: 9 }), /version 9/],
      [JSON.stringify({ ...record, events: [{ id: 'x', type: 'applied', date: '2026-02-30' }] }), /Event 1/],
      [JSON.stringify({ ...record, events: [{ id: 'x', type: 'hacked', date: '2026-02-03' }] }), /Event 1/],
      [JSON.stringify({ ...record, analysis: { ...record.analysis, lead: [7] } }), /analysis saved in this record/],
    ] as const) {
      const r = parseRecord(text);
      assert.ok('error' in r && says.test(r.error), `${text.slice(0, 40)}: ${JSON.stringify(r)}`);
    }
  });

  test('Markdown: what happened by date, what the atlas said, the deadlines and the notices', () => {
    const md = recordMarkdown(record, 'https://example.org/analyze/#a=A-024');
    assert.match(md, /^# My record of a hiring process\n/);
    assert.ok(md.indexOf('1 September 2026: Applied') < md.indexOf('20 November 2026: Offer withdrawn. Phone call'));
    assert.match(md, /### Deadlines \(not legal advice\)\n\n(- [^\n]*\n)*- File a charge with the EEOC by 19 May 2027/);
    assert.match(md, /Not legal advice\. Check these dates with an adviser/);
    assert.match(md, /The analysis: https:\/\/example\.org\/analyze\/#a=A-024/);
  });

  test('the calendar: one all-day event per date, escaped and folded as RFC 5545 says, with a reminder', () => {
    const ics = recordIcs(record, '2026-11-27');
    assert.match(ics, /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    assert.match(ics, /END:VCALENDAR\r\n$/);
    assert.ok(ics.includes('DTSTART;VALUE=DATE:20270519\r\nDTEND;VALUE=DATE:20270520\r\n'));
    assert.ok(ics.includes('DTSTART;VALUE=DATE:20270916\r\n'));
    assert.ok(ics.includes('DTSTAMP:20261127T000000Z'));
    assert.ok(ics.includes('TRIGGER:-P7D'));
    const events = ics.split('BEGIN:VEVENT').length - 1;
    assert.equal(
      events,
      record.analysis!.deadlines.reduce((n, d) => n + d.dates.length, 0),
    );
    for (const line of ics.split('\r\n')) assert.ok(new TextEncoder().encode(line).length <= 75, `a line over 75 octets: ${line}`);
    assert.match(ics.replace(/\r\n /g, ''), /SUMMARY:Deadline: File a charge with the EEOC \(180 days\)/);
    assert.match(ics.replace(/\r\n /g, ''), /DESCRIPTION:[^\r]*\\, or by 16 September 2027/, 'commas escaped');
  });

  test('the events that limits run from: the latest request, and Acas conciliation only with its certificate', () => {
    assert.deepEqual(
      datesOfEvents([
        { id: 'a', type: 'request-sent', date: '2026-12-01' },
        { id: 'b', type: 'request-sent', date: '2027-01-31' },
      ]),
      { request: '2027-01-31' },
    );
    assert.deepEqual(datesOfEvents([{ id: 'a', type: 'conciliation-started', date: '2027-02-01' }]), {});
    assert.deepEqual(
      datesOfEvents([
        { id: 'a', type: 'conciliation-started', date: '2027-02-01' },
        { id: 'b', type: 'certificate', date: '2027-02-15' },
      ]),
      { conciliation_start: '2027-02-01', conciliation_certificate: '2027-02-15' },
    );
  });
});
