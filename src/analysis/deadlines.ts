// Deadlines as dates: each law note's structured time limit (its `limit`) read for where the person is
// and, when they give it, the date of what happened. Pure: the same function runs in the CLI, the MCP
// server and the browser, and nothing it is given leaves the device it runs on. A limit the sources do
// not state gives no date; a condition the atlas cannot check (a state agency, a law not yet confirmed in
// force) gives its own date beside the plain one, said as a condition. Not legal advice: every answer that
// shows a date shows the legal notice and "check this with an adviser" beside it.
import type { LawNote, LimitExtension, TimeLimit } from '../model/schemas.ts';
import { appliesAt, placeTyped, PLACES, type Place } from '../model/places.ts';
import type { LimitEvent } from '../model/vocab.ts';
import { isIsoDate, longDate, periodEnd, stopTheClock, type PeriodSpec } from './dates.ts';
import { AnalysisError } from './resolve.ts';
import type { DateLine, DeadlineView } from './schemas.ts';

export type { DeadlineView } from './schemas.ts';

/** What the person says about their case: all optional, all kept on their device. */
export interface CaseFacts {
  /** The date of what happened (the act, decision or notice), YYYY-MM-DD. */
  on?: string;
  /** Where they are: a place code (uk, uk-sct, us, us-ca, eu, eu-de…). */
  where?: string;
  /** Dates of other events, when known (the site's record has them): a request sent, and Acas early conciliation. */
  dates?: Partial<Record<LimitEvent, string>> & { conciliation_start?: string; conciliation_certificate?: string };
}

export const CHECK_WITH_ADVISER =
  'Not legal advice. Check these dates with an adviser: the atlas works them out from its sources, and it cannot see the details of your case.';

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const count = (n: number) => (n < NUMBERS.length ? NUMBERS[n]! : String(n));

/** "180 days", "three months less one day", "five business days", "one year". */
export function periodWords(p: PeriodSpec): string {
  const unit = p.length === 1 ? p.unit.replace(/s$/, '') : p.unit;
  const business = p.unit === 'days' && p.days === 'business' ? 'business ' : '';
  return `${p.unit === 'days' && p.length > 12 ? p.length : count(p.length)} ${business}${unit}${p.less_one_day ? ' less one day' : ''}`;
}

const EVENT_WORDS: Record<LimitEvent, string> = {
  act: 'what happened',
  notice: 'the notice',
  request: 'the day they received your request',
};

/** The place of a --where value, or an error that lists the codes. */
export function placeOfInput(where: string): Place {
  const place = placeTyped(where);
  if (!place) {
    const near = PLACES.filter((p) => p.code.startsWith(where.trim().toLowerCase().slice(0, 2))).map((p) => p.code);
    throw new AnalysisError(
      'invalid-argument',
      `"${where}" is not a place the atlas knows. Give a country, a US state, a UK nation or an EU member state by name (California, England, Germany) or code: uk (or uk-eng, uk-wls, uk-sct, uk-nir), us or a state (us-ca, us-ny…), eu or a member state (eu-de, eu-fr…).`,
      [],
      near.length > 0 ? near : PLACES.filter((p) => !p.code.includes('-')).map((p) => p.code),
    );
  }
  return place;
}

/** Checks a date given by the person. */
export function checkedDate(value: string, what = 'The date'): string {
  if (!isIsoDate(value.trim()))
    throw new AnalysisError('invalid-argument', `${what} must be a calendar date written YYYY-MM-DD, such as 2026-11-20 (got "${value}").`);
  return value.trim();
}

function startOf(limit: Extract<TimeLimit, { stated: true }>, facts: CaseFacts): string | undefined {
  const given = facts.dates?.[limit.from];
  if (given !== undefined) return given;
  // --on is the date of what happened: the act, or the notice that told of it.
  return limit.from === 'request' ? undefined : facts.on;
}

function extensionDate(
  ext: LimitExtension,
  start: string,
  base: Extract<TimeLimit, { stated: true }>,
  plain: string,
  facts: CaseFacts,
): string | undefined {
  if (ext.kind === 'replaces')
    return periodEnd(start, { length: ext.length!, unit: ext.unit!, days: ext.days, less_one_day: ext.less_one_day });
  if (ext.kind === 'adds') {
    // The whole period runs from the event: a month and two further months is three months from receipt.
    if (ext.unit === base.unit && ext.days === base.days) return periodEnd(start, { ...base, length: base.length + ext.length! });
    return periodEnd(plain, { length: ext.length!, unit: ext.unit!, days: ext.days });
  }
  const a = facts.dates?.conciliation_start;
  const b = facts.dates?.conciliation_certificate;
  return a !== undefined && b !== undefined ? stopTheClock(plain, a, b) : undefined;
}

/** The deadlines of law notes, for the person's place and dates (both optional). Notes without a limit are left out. */
export function deadlinesOf(notes: ReadonlyArray<LawNote & { artifact: { id: string; title: string } }>, facts: CaseFacts): DeadlineView[] {
  const place = facts.where !== undefined ? placeOfInput(facts.where) : undefined;
  const out: DeadlineView[] = [];
  for (const note of notes) {
    const limit = note.limit;
    if (limit === undefined) continue;
    const applies = appliesAt(note, place);
    if (applies === 'no') continue;
    const base = {
      artifact: { id: note.artifact.id, title: note.artifact.title },
      jurisdiction: note.jurisdiction,
      ...(note.where !== undefined ? { where: note.where } : {}),
      instrument: note.instrument,
      applies,
      time_limit: note.time_limit ?? '',
    };
    if (!limit.stated) {
      out.push({
        ...base,
        stated: false,
        action: limit.action,
        who: 'you',
        dates: [],
        line: `${sentence(limit.action)} The atlas’s sources give no time limit for this.`,
      });
      continue;
    }
    const start = startOf(limit, facts);
    const words = periodWords(limit);
    const dates: DateLine[] = [];
    if (start !== undefined) {
      const plain = periodEnd(start, limit);
      dates.push({ date: plain, long: longDate(plain), label: words, kind: 'limit' });
      for (const ext of limit.extensions) {
        const date = extensionDate(ext, start, limit, plain, facts);
        if (date === undefined || date === plain) continue;
        const holds = place !== undefined && ext.applies_in.includes(place.code);
        dates.push({
          date,
          long: longDate(date),
          label: ext.label,
          kind: ext.kind,
          condition: ext.when,
          ...(place !== undefined ? { holds } : {}),
        });
      }
    }
    out.push({
      ...base,
      stated: true,
      action: limit.action,
      who: limit.who,
      from: limit.from,
      period: { length: limit.length, unit: limit.unit, days: limit.days, words },
      ...(start !== undefined ? { start } : {}),
      dates,
      line: lineOf(limit, words, start, dates),
    });
  }
  return out;
}

/**
 * The deadlines as a person reads them, each said once: its line, after "In <where>:" when the note may not
 * apply to them. Two observations can carry the same law note; the list a person sees names it once.
 */
export function personDeadlines<T extends Pick<DeadlineView, 'applies' | 'where' | 'line'>>(
  deadlines: readonly T[],
): Array<{ text: string; deadline: T }> {
  const seen = new Map<string, { text: string; deadline: T }>();
  for (const d of deadlines) {
    const text = `${d.applies === 'maybe' && d.where ? `In ${d.where}: ` : ''}${d.line}`;
    if (!seen.has(text)) seen.set(text, { text, deadline: d });
  }
  return [...seen.values()];
}

const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/** "File a charge with the EEOC by 19 May 2027 (180 days from 20 November 2026), or by 16 September 2027 (300 days) where …". */
function lineOf(limit: Extract<TimeLimit, { stated: true }>, words: string, start: string | undefined, dates: readonly DateLine[]): string {
  const action = limit.action.trim().replace(/[.]$/, '');
  const conditions = limit.extensions.filter((e) => e.kind !== 'stop-the-clock');
  const clock = limit.extensions.find((e) => e.kind === 'stop-the-clock');
  if (start === undefined || dates.length === 0) {
    const from = EVENT_WORDS[limit.from];
    const more = conditions
      .map((e) => ` ${e.kind === 'adds' ? 'It can be extended' : 'It becomes'} ${e.label} ${e.when.replace(/\.$/, '')}.`)
      .join('');
    return `${action} within ${words} of ${from}.${more}${clock ? ` ${sentence(clock.when)}` : ''}`;
  }
  const [plain, ...rest] = dates;
  let line = `${action} by ${plain!.long} (${words} from ${longDate(start)})`;
  for (const d of rest) {
    if (d.kind === 'stop-the-clock') line += `; with Acas early conciliation, by ${d.long}`;
    else if (d.holds === true) line += `; by ${d.long} (${d.label}: ${d.condition!.replace(/\.$/, '')})`;
    else line += `, or by ${d.long} (${d.label}) ${d.condition!.replace(/\.$/, '')}`;
  }
  line += '.';
  if (clock && !rest.some((d) => d.kind === 'stop-the-clock')) line += ` ${sentence(clock.when)}`;
  return line;
}
