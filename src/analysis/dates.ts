// Calendar-date arithmetic for time limits: pure functions over ISO dates (YYYY-MM-DD), no time zones and
// no clock (a date is a day on the calendar, whatever the zone of whoever reads it). The rules:
//
// - days:    the day of the event does not count; the limit ends N days later (the EEOC's 180 days from
//            1 March end on 28 August). Business days skip Saturdays and Sundays (public holidays are
//            not known here, and are said to move the date later).
// - months:  the "corresponding date" rule: the same day of the month N months later; where that month
//            has no such day, its last day (one month from 31 January is 28 or 29 February). Years alike
//            (29 February → 28 February).
// - less one day: a period "starting with" the day of the event ("three months less one day") ends the
//            day before the corresponding date; where that month has no such day, on its last day (an
//            act on 31 August: 30 November, as the EAT held in Pruden v Cunard Ellerman, 1993).
// - stop-the-clock (Acas early conciliation, Employment Rights Act 1996 s.207B): the days after the
//            day conciliation started (Day A) up to the day of the certificate (Day B) are not counted,
//            and a limit that would end between Day A and one month after Day B ends one month after
//            Day B instead.
import type { DayCount, LimitUnit } from '../model/vocab.ts';

const DAY_MS = 86_400_000;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number (days since 1970-01-01) of a valid ISO date, or undefined. */
function dayNumber(iso: string): number | undefined {
  const m = ISO.exec(iso);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return Date.UTC(y, mo - 1, d) / DAY_MS;
}

function isoOf(day: number): string {
  const t = new Date(day * DAY_MS);
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`;
}

function parts(iso: string): [number, number, number] {
  const m = ISO.exec(iso)!;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Whether a text is a real calendar date written YYYY-MM-DD (2027-02-29 is not). */
export function isIsoDate(text: string): boolean {
  return dayNumber(text) !== undefined;
}

function day(iso: string): number {
  const n = dayNumber(iso);
  if (n === undefined) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${iso}`);
  return n;
}

/** The date `n` calendar days after `iso` (negative: before). */
export function addDays(iso: string, n: number): string {
  return isoOf(day(iso) + n);
}

/** The day of the week, 0 = Sunday … 6 = Saturday. */
export function weekday(iso: string): number {
  // 1970-01-01 was a Thursday.
  return (((day(iso) + 4) % 7) + 7) % 7;
}

/** The date `n` business days (Monday to Friday) after `iso`; the day itself does not count. */
export function addBusinessDays(iso: string, n: number): string {
  let d = day(iso);
  let left = n;
  while (left > 0) {
    d += 1;
    const w = weekday(isoOf(d));
    if (w !== 0 && w !== 6) left -= 1;
  }
  return isoOf(d);
}

/** The corresponding date `n` months later, or the last day of that month when it has no such day; `exists` says which. */
function corresponding(iso: string, n: number): { date: string; exists: boolean } {
  const [y, m, d] = parts(iso);
  const index = y * 12 + (m - 1) + n;
  const [ty, tm] = [Math.floor(index / 12), (index % 12) + 1];
  const last = daysInMonth(ty, tm);
  const exists = d <= last;
  return { date: `${String(ty).padStart(4, '0')}-${String(tm).padStart(2, '0')}-${String(exists ? d : last).padStart(2, '0')}`, exists };
}

/** The date `n` months after `iso` (the corresponding date; the month's last day when it has none). */
export function addMonths(iso: string, n: number): string {
  day(iso);
  return corresponding(iso, n).date;
}

/** A period of `n` months starting with the day of `iso`: it ends the day before the corresponding date, or on the month's last day when there is none. */
export function monthsLessOneDay(iso: string, n: number): string {
  day(iso);
  const c = corresponding(iso, n);
  return c.exists ? addDays(c.date, -1) : c.date;
}

export interface PeriodSpec {
  length: number;
  unit: LimitUnit;
  days?: DayCount;
  less_one_day?: boolean;
}

/** The last day of a period that runs from the event on `iso`. */
export function periodEnd(iso: string, p: PeriodSpec): string {
  const less = p.less_one_day === true;
  switch (p.unit) {
    case 'days':
      if (p.days === 'business') return addBusinessDays(iso, less ? p.length - 1 : p.length);
      return addDays(iso, less ? p.length - 1 : p.length);
    case 'weeks':
      return addDays(iso, p.length * 7 - (less ? 1 : 0));
    case 'months':
      return less ? monthsLessOneDay(iso, p.length) : addMonths(iso, p.length);
    case 'years':
      return less ? monthsLessOneDay(iso, p.length * 12) : addMonths(iso, p.length * 12);
  }
}

/**
 * Acas early conciliation's stop-the-clock (Employment Rights Act 1996 s.207B(3), (4)): `deadline` is the
 * limit without it, `dayA` the day conciliation started, `dayB` the day of the certificate.
 */
export function stopTheClock(deadline: string, dayA: string, dayB: string): string {
  const [a, b] = [day(dayA), day(dayB)];
  if (b < a) throw new RangeError(`The certificate (${dayB}) cannot come before conciliation started (${dayA}).`);
  const extended = day(deadline) + (b - a);
  const floor = day(addMonths(dayB, 1));
  return isoOf(extended >= a && extended <= floor ? floor : extended);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "14 September 2027". */
export function longDate(iso: string): string {
  const [y, m, d] = parts(iso);
  day(iso);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** "Tuesday 14 September 2027". */
export function longDateWithDay(iso: string): string {
  return `${WEEKDAYS[weekday(iso)]} ${longDate(iso)}`;
}

/** Days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return day(b) - day(a);
}
