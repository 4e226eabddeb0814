// Date arithmetic for time limits, on cases checked by hand (the working is in each comment), for every
// kind of limit the atlas holds: calendar days across month ends and leap years, months by the
// corresponding-date rule, "three months less one day", business days, years, the EU's two further
// months, a state agency's 300 days, and Acas early conciliation's stop-the-clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addBusinessDays,
  addDays,
  addMonths,
  daysBetween,
  isIsoDate,
  longDate,
  longDateWithDay,
  monthsLessOneDay,
  periodEnd,
  stopTheClock,
  weekday,
} from '../../src/analysis/dates.ts';
import { deadlinesOf, periodWords } from '../../src/analysis/deadlines.ts';
import { AnalysisError } from '../../src/analysis/resolve.ts';
import { appliesAt, placeOf, placesNamed, placeTyped } from '../../src/model/places.ts';
import { LawNote } from '../../src/model/schemas.ts';

describe('calendar dates', () => {
  test('only real dates written YYYY-MM-DD are dates', () => {
    for (const d of ['2026-11-20', '2028-02-29', '2000-02-29']) assert.ok(isIsoDate(d), d);
    for (const d of ['2027-02-29', '1900-02-29', '2026-13-01', '2026-04-31', '20-11-2026', '2026-11-20T00:00', '', '2026-1-5'])
      assert.ok(!isIsoDate(d), d);
  });

  test('weekdays: 1 January 2026 was a Thursday, 20 November 2026 a Friday, 14 September 2027 a Tuesday', () => {
    assert.equal(weekday('2026-01-01'), 4);
    assert.equal(weekday('2026-11-20'), 5);
    assert.equal(longDateWithDay('2027-09-14'), 'Tuesday 14 September 2027');
    assert.equal(longDate('2027-01-05'), '5 January 2027');
  });

  test('calendar days: the day of the event does not count', () => {
    // 1 March 2026 + 180: 30 left in March (31 Mar = 30), Apr 60, May 91, Jun 121, Jul 152, then 28 → 28 August.
    assert.equal(addDays('2026-03-01', 180), '2026-08-28');
    // 20 November 2026 + 180: Nov 30 (10), Dec 41, Jan 72, Feb 100, Mar 131, Apr 161, then 19 → 19 May 2027.
    assert.equal(addDays('2026-11-20', 180), '2027-05-19');
    // + 300: May 192, Jun 222, Jul 253, Aug 284, then 16 → 16 September 2027.
    assert.equal(addDays('2026-11-20', 300), '2027-09-16');
    // Across a leap February: 1 December 2027 + 180: Dec 30, Jan 61, Feb 29 days (90), Mar 121, Apr 151, then 29 → 29 May 2028;
    // the same a year earlier (28-day February) ends on 30 May 2027.
    assert.equal(addDays('2027-12-01', 180), '2028-05-29');
    assert.equal(addDays('2026-12-01', 180), '2027-05-30');
    // A year end: 20 December 2026 + 45 = 3 February 2027 (11 to 31 Dec, 31 in Jan, 3).
    assert.equal(addDays('2026-12-20', 45), '2027-02-03');
    assert.equal(daysBetween('2026-11-20', '2027-09-16'), 300);
  });

  test('months: the corresponding date, or the last day of a shorter month', () => {
    assert.equal(addMonths('2026-03-15', 1), '2026-04-15');
    assert.equal(addMonths('2026-12-15', 1), '2027-01-15');
    assert.equal(addMonths('2027-01-31', 1), '2027-02-28');
    assert.equal(addMonths('2028-01-31', 1), '2028-02-29');
    assert.equal(addMonths('2026-08-31', 1), '2026-09-30');
    // Years: 29 February has no corresponding date in a common year.
    assert.equal(addMonths('2028-02-29', 12), '2029-02-28');
    assert.equal(periodEnd('2026-11-20', { length: 6, unit: 'years' }), '2032-11-20');
    assert.equal(periodEnd('2026-11-20', { length: 1, unit: 'years' }), '2027-11-20');
    assert.equal(periodEnd('2026-11-20', { length: 2, unit: 'weeks' }), '2026-12-04');
  });

  test('three months less one day: the day before the corresponding date, or the month’s last day when it has none', () => {
    // An act on 1 March: the period is 1 March to 31 May.
    assert.equal(monthsLessOneDay('2026-03-01', 3), '2026-05-31');
    // 31 October: 31 January exists, so 30 January.
    assert.equal(monthsLessOneDay('2026-10-31', 3), '2027-01-30');
    // 31 August: there is no 31 November, so 30 November (Pruden v Cunard Ellerman, EAT 1993).
    assert.equal(monthsLessOneDay('2026-08-31', 3), '2026-11-30');
    // Month ends into February: no 30 February, so its last day; 29 February exists only in a leap year.
    assert.equal(monthsLessOneDay('2026-11-30', 3), '2027-02-28');
    assert.equal(monthsLessOneDay('2026-11-29', 3), '2027-02-28');
    assert.equal(monthsLessOneDay('2026-11-28', 3), '2027-02-27');
    assert.equal(monthsLessOneDay('2027-11-29', 3), '2028-02-28');
    assert.equal(monthsLessOneDay('2027-11-30', 3), '2028-02-29');
    // Six months (the 2025 Act's longer limit): 20 November → 19 May.
    assert.equal(periodEnd('2026-11-20', { length: 6, unit: 'months', less_one_day: true }), '2027-05-19');
    assert.equal(periodEnd('2026-11-20', { length: 3, unit: 'months', less_one_day: true }), '2027-02-19');
  });

  test('business days: Monday to Friday, the day itself not counted', () => {
    // Friday 20 November 2026 + 5: Mon 23, Tue 24, Wed 25, Thu 26, Fri 27.
    assert.equal(addBusinessDays('2026-11-20', 5), '2026-11-27');
    // Wednesday 23 December 2026 + 5: Thu 24, Fri 25, Mon 28, Tue 29, Wed 30 (public holidays are not known).
    assert.equal(addBusinessDays('2026-12-23', 5), '2026-12-30');
    // From a Saturday: Mon 23 is the first.
    assert.equal(addBusinessDays('2026-11-21', 1), '2026-11-23');
    // A notice emailed on Friday 20 November counts as received two business days later (Tue 24), then five
    // business days to answer: Wed 25, Thu 26, Fri 27, Mon 30, Tue 1 December.
    assert.equal(addBusinessDays(addBusinessDays('2026-11-20', 2), 5), '2026-12-01');
    assert.equal(periodEnd('2026-11-20', { length: 5, unit: 'days', days: 'business' }), '2026-11-27');
  });

  test('Acas early conciliation stops the clock, and leaves at least a month after the certificate', () => {
    // Act 1 March 2026: limit 31 May. Conciliation 10 May to 20 May: 10 days not counted → 10 June, which
    // falls before 20 June (a month after the certificate), so 20 June.
    assert.equal(stopTheClock('2026-05-31', '2026-05-10', '2026-05-20'), '2026-06-20');
    // Early conciliation 5 to 10 March: 5 days → 5 June, after 10 April: 5 June.
    assert.equal(stopTheClock('2026-05-31', '2026-03-05', '2026-03-10'), '2026-06-05');
    // A long conciliation, 1 April to 31 May: 60 days → 30 July, after 30 June: 30 July.
    assert.equal(stopTheClock('2026-05-31', '2026-04-01', '2026-05-31'), '2026-07-30');
    assert.throws(() => stopTheClock('2026-05-31', '2026-05-20', '2026-05-10'), RangeError);
  });

  test('a date that is not one is refused, never guessed', () => {
    assert.throws(() => addDays('2027-02-29', 1), RangeError);
    assert.throws(() => longDate('2026-13-01'), RangeError);
  });
});

// A law note of each kind, as content would hold it.
const note = (limit: unknown, extra: Record<string, unknown> = {}) => ({
  ...LawNote.parse({
    jurisdiction: 'us-federal',
    instrument: 'Title VII',
    says: 'x',
    remedy: 'y',
    time_limit: 'words',
    limit,
    sources: ['E-113'],
    ...extra,
  }),
  artifact: { id: 'A-024', title: 'Offer rescinded' },
});

const EEOC = note({
  stated: true,
  action: 'File a charge with the EEOC',
  from: 'act',
  length: 180,
  unit: 'days',
  extensions: [
    {
      kind: 'replaces',
      length: 300,
      unit: 'days',
      when: 'where a state or local agency enforces a law against the same discrimination',
      label: '300 days',
      applies_in: ['us-ca'],
    },
  ],
});
const TRIBUNAL = note(
  {
    stated: true,
    action: 'Start Acas early conciliation, then claim at an employment tribunal',
    from: 'act',
    length: 3,
    unit: 'months',
    less_one_day: true,
    extensions: [
      {
        kind: 'stop-the-clock',
        when: 'Starting Acas early conciliation within this time pauses the clock.',
        label: 'Acas early conciliation',
      },
      {
        kind: 'replaces',
        length: 6,
        unit: 'months',
        less_one_day: true,
        when: 'if the Employment Rights Act 2025’s six-month limit is in force',
        label: 'six months less one day',
      },
    ],
  },
  { jurisdiction: 'uk', where: 'England, Wales and Scotland', instrument: 'Equality Act 2010' },
);
const ACCESS = note(
  {
    stated: true,
    action: 'The employer must answer your request',
    who: 'employer',
    from: 'request',
    length: 1,
    unit: 'months',
    extensions: [
      {
        kind: 'adds',
        length: 2,
        unit: 'months',
        when: 'if it tells you within the first month that the request is complex',
        label: 'two more months',
      },
    ],
  },
  { jurisdiction: 'eu', instrument: 'GDPR Article 12' },
);
const UNSTATED = note({ stated: false, action: 'Get advice promptly' }, { jurisdiction: 'us-state', where: 'Minnesota', instrument: 'x' });
const NYC = note(
  { stated: true, action: 'Complain to the NYC Commission on Human Rights', from: 'act', length: 1, unit: 'years' },
  { jurisdiction: 'us-state', where: 'New York City', instrument: 'NYC' },
);

describe('deadlines from law notes', () => {
  test('the words of a period', () => {
    assert.equal(periodWords({ length: 180, unit: 'days' }), '180 days');
    assert.equal(periodWords({ length: 3, unit: 'months', less_one_day: true }), 'three months less one day');
    assert.equal(periodWords({ length: 5, unit: 'days', days: 'business' }), 'five business days');
    assert.equal(periodWords({ length: 1, unit: 'years' }), 'one year');
  });

  test('without a date, the limit in words; with one, real dates and the conditions beside them', () => {
    const [words] = deadlinesOf([EEOC], {});
    assert.equal(words!.dates.length, 0);
    assert.equal(
      words!.line,
      'File a charge with the EEOC within 180 days of what happened. It becomes 300 days where a state or local agency enforces a law against the same discrimination.',
    );
    const [us] = deadlinesOf([EEOC], { on: '2026-11-20', where: 'us-tx' });
    assert.deepEqual(
      us!.dates.map((d) => d.date),
      ['2027-05-19', '2027-09-16'],
    );
    assert.equal(
      us!.line,
      'File a charge with the EEOC by 19 May 2027 (180 days from 20 November 2026), or by 16 September 2027 (300 days) where a state or local agency enforces a law against the same discrimination.',
    );
    // Where the sources establish the condition, it is said as holding.
    const [ca] = deadlinesOf([EEOC], { on: '2026-11-20', where: 'us-ca' });
    assert.match(ca!.line, /; by 16 September 2027 \(300 days: where a state or local agency/);
  });

  test('three months less one day, the 2025 Act’s six months, and the stop-the-clock with conciliation dates', () => {
    const [uk] = deadlinesOf([TRIBUNAL], { on: '2026-11-20', where: 'uk-sct' });
    assert.deepEqual(
      uk!.dates.map((d) => [d.date, d.kind]),
      [
        ['2027-02-19', 'limit'],
        ['2027-05-19', 'replaces'],
      ],
    );
    assert.match(
      uk!.line,
      /by 19 February 2027 \(three months less one day from 20 November 2026\), or by 19 May 2027 \(six months less one day\) if the Employment Rights Act 2025’s six-month limit is in force\. Starting Acas early conciliation within this time pauses the clock\.$/,
    );
    // Conciliation 1 to 15 February 2027: 14 days → 5 March, before 15 March (a month after the certificate) → 15 March.
    const [withAcas] = deadlinesOf([TRIBUNAL], {
      on: '2026-11-20',
      where: 'uk',
      dates: { conciliation_start: '2027-02-01', conciliation_certificate: '2027-02-15' },
    });
    assert.deepEqual(withAcas!.dates.find((d) => d.kind === 'stop-the-clock')!.date, '2027-03-15');
    assert.equal(withAcas!.applies, 'maybe', 'the UK as a whole: a note for Great Britain may apply');
    assert.deepEqual(deadlinesOf([TRIBUNAL], { on: '2026-11-20', where: 'uk-nir' }), [], 'Northern Ireland is not Great Britain');
  });

  test('the employer’s deadline runs from the request: one month, or three with the extension', () => {
    const [none] = deadlinesOf([ACCESS], { on: '2026-11-20', where: 'eu-de' });
    assert.equal(none!.dates.length, 0, '--on is what happened, not the request');
    const [eu] = deadlinesOf([ACCESS], { where: 'eu-de', dates: { request: '2027-01-31' } });
    assert.deepEqual(
      eu!.dates.map((d) => d.date),
      ['2027-02-28', '2027-04-30'],
    );
    assert.equal(eu!.who, 'employer');
  });

  test('a limit the sources do not state gives no date; a city’s note may apply in its state', () => {
    const [mn] = deadlinesOf([UNSTATED], { on: '2026-11-20', where: 'us-mn' });
    assert.equal(mn!.stated, false);
    assert.deepEqual(mn!.dates, []);
    assert.match(mn!.line, /no time limit/);
    const [ny] = deadlinesOf([NYC], { on: '2026-11-20', where: 'us-ny' });
    assert.equal(ny!.applies, 'maybe');
    assert.equal(ny!.dates[0]!.date, '2027-11-20');
    assert.deepEqual(deadlinesOf([NYC, UNSTATED, TRIBUNAL, ACCESS], { where: 'us-ca' }), []);
  });

  test('bad inputs are said plainly', () => {
    assert.throws(
      () => deadlinesOf([EEOC], { where: 'us-zz' }),
      (e: unknown) => e instanceof AnalysisError && /not a place the atlas knows/.test(e.message),
    );
  });
});

describe('places', () => {
  test('a person may type a place by its name or its code; content names codes only', () => {
    for (const [typed, code] of [
      ['California', 'us-ca'],
      ['  new   york ', 'us-ny'],
      ['NYC', 'us-ny'],
      ['the UK', 'uk'],
      ['United Kingdom', 'uk'],
      ['England', 'uk-eng'],
      ['Germany', 'eu-de'],
      ['USA', 'us'],
      ['us-wa', 'us-wa'],
      ['EU', 'eu'],
    ] as const) {
      assert.equal(placeTyped(typed)?.code, code, typed);
    }
    for (const typed of ['Atlantis', 'Calif', 'the', '']) assert.equal(placeTyped(typed), undefined, typed);
    assert.equal(placeOf('California'), undefined, 'a law note’s applies_in takes codes only');
    const notes = [NYC, UNSTATED, TRIBUNAL, ACCESS, EEOC];
    const byName = deadlinesOf(notes, { on: '2026-11-20', where: 'California' });
    assert.ok(byName.length > 0, 'the federal note applies in California');
    assert.deepEqual(byName, deadlinesOf(notes, { on: '2026-11-20', where: 'us-ca' }));
    assert.throws(
      () => deadlinesOf([EEOC], { where: 'Atlantis' }),
      (e: unknown) => e instanceof AnalysisError && /by name \(California, England, Germany\) or code/.test(e.message),
    );
  });

  test('the names a note uses', () => {
    assert.deepEqual(placesNamed('Hawaii, Minnesota and Vermont').codes, ['us-hi', 'us-mn', 'us-vt']);
    assert.deepEqual(placesNamed('England, Wales and Scotland').codes, ['uk-eng', 'uk-wls', 'uk-sct']);
    assert.deepEqual(placesNamed('Great Britain').codes, ['uk-eng', 'uk-wls', 'uk-sct']);
    assert.deepEqual(placesNamed('New York City'), { codes: ['us-ny'], city: true, unknown: [] });
    assert.deepEqual(placesNamed('Atlantis').unknown, ['Atlantis']);
  });

  test('whether a note applies', () => {
    assert.equal(appliesAt({ jurisdiction: 'us-federal' }, placeOf('us-ca')), 'yes');
    assert.equal(appliesAt({ jurisdiction: 'us-state', where: 'California' }, placeOf('us-ca')), 'yes');
    assert.equal(appliesAt({ jurisdiction: 'us-state', where: 'California' }, placeOf('us')), 'maybe');
    assert.equal(appliesAt({ jurisdiction: 'us-state', where: 'California' }, placeOf('us-ny')), 'no');
    assert.equal(appliesAt({ jurisdiction: 'eu' }, placeOf('eu-de')), 'yes');
    assert.equal(appliesAt({ jurisdiction: 'eu' }, placeOf('uk')), 'no');
    assert.equal(appliesAt({ jurisdiction: 'uk', where: 'England and Wales' }, placeOf('UK-ENG')), 'yes');
    assert.equal(appliesAt({ jurisdiction: 'uk' }, undefined), 'maybe');
  });
});
