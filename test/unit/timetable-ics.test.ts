import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, fold, zonedInstant } from '../../functions/course/timetable/ics.js';
import { combinationCalendar } from '../../functions/course/timetable/timetable-calendar.js';
import { buildTimetable, type TimetableCourse } from '../../functions/course/timetable/timetable.js';
import { meet, section } from '../support/section-builder.js';

const TERM = '2026-spring';
const DATES = { startDate: '2026-01-05', endDate: '2026-04-10' };
const LONG_TITLE = 'Applied Linear Algebra, Eigenvalues; and a title long enough to be folded — with “quotes”';

const math: TimetableCourse = {
  ref: 'sfu:MATH 232',
  code: 'MATH 232',
  title: LONG_TITLE,
  sections: [section('sfu:MATH 232', TERM, 'D100', [meet('LEC', 'MoWeFr', '11:30', '12:20', { campus: 'Burnaby', ...DATES })], { instructors: ['Zoë Ångström-Łukasiewicz'], classNumber: '5267' })],
};
const cmpt: TimetableCourse = {
  ref: 'sfu:CMPT 225',
  code: 'CMPT 225',
  title: 'Data Structures and Programming',
  sections: [
    section('sfu:CMPT 225', TERM, 'D100', [meet('LEC', 'We', '15:30', '16:20', { campus: 'Burnaby', ...DATES }), meet('LEC', 'Fr', '14:30', '16:20', { campus: 'Burnaby', ...DATES })]),
    section('sfu:CMPT 225', TERM, 'D101', [meet('LAB', 'Tu', '10:30', '11:20', { campus: 'Burnaby', ...DATES })]),
    // One date only: a workshop, not a weekly class.
    section('sfu:CMPT 225', TERM, 'D102', [meet('LAB', 'Th', '10:30', '11:20', { campus: 'Burnaby', startDate: '2026-02-12', endDate: '2026-02-12' })]),
  ],
};

/** The calendar of the combination that takes `lab` (CMPT 225's weekly D101 unless said). */
function calendarOf(courses: TimetableCourse[], lab = 'D101', now = new Date('2026-11-26T18:00:00Z')) {
  const timetable = buildTimetable(courses, TERM);
  const combination = timetable.combinations.find((c) => c.options.some((o) => o.placements.some((p) => p.section.section === lab)))!;
  return combinationCalendar(combination, {
    term: timetable.term,
    span: timetable.span,
    codes: new Map(courses.map((c) => [c.ref, c.code])),
    titles: new Map(courses.map((c) => [c.ref, c.title])),
    now,
  });
}

/** Parsed by ical.js (Mozilla's iCalendar library), its zone registered from the file's own VTIMEZONE. */
function parsed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

/** Every date from..to (inclusive) that falls on one of the weekdays (0 = Sunday). */
function datesOn(from: string, to: string, weekdays: number[]): string[] {
  const dates: string[] = [];
  for (const day = new Date(`${from}T00:00:00Z`); day.toISOString().slice(0, 10) <= to; day.setUTCDate(day.getUTCDate() + 1)) {
    if (weekdays.includes(day.getUTCDay())) dates.push(day.toISOString().slice(0, 10));
  }
  return dates;
}

describe('the .ics export of a timetable', () => {
  const text = calendarOf([math, cmpt]);
  const { calendar, events } = parsed(text);

  it('is CRLF-terminated, folded at 75 octets without splitting a character, and unfolds to the long values', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    const description = events.find((e) => e.summary.startsWith('MATH 232'))!.description;
    expect(description).toContain(LONG_TITLE);
    expect(description).toContain('Zoë Ångström-Łukasiewicz');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  });

  it('has one weekly event per meeting, named by course and section, placed where it meets', () => {
    const summaries = events.map((e) => e.summary).sort();
    expect(summaries).toEqual(['CMPT 225 D100 Lecture', 'CMPT 225 D100 Lecture', 'CMPT 225 D101 Lab', 'MATH 232 D100 Lecture']);
    for (const event of events) expect(event.location).toBe('Burnaby');
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  });

  it('starts each event on its first day in America/Vancouver (zone defined in the file) and repeats weekly until the last day', () => {
    expect(calendar.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid')).toBe('America/Vancouver');
    const lecture = events.find((e) => e.summary === 'MATH 232 D100 Lecture')!;
    expect(lecture.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Vancouver');
    expect(lecture.startDate.zone!.tzid).toBe('America/Vancouver');
    expect(lecture.startDate.toString()).toBe('2026-01-05T11:30:00');
    expect(lecture.endDate.toString()).toBe('2026-01-05T12:20:00');
    const rule = lecture.component.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rule.freq).toBe('WEEKLY');
    expect(rule.parts.BYDAY).toEqual(['MO', 'WE', 'FR']);
    // UNTIL is UTC (the zone's DTSTART requires it): the end of April 10 in Vancouver.
    expect(rule.until!.zone).toBe(ICAL.Timezone.utcTimezone);
    const endOfLastDay = ICAL.Time.fromData({ year: 2026, month: 4, day: 10, hour: 23, minute: 59, second: 59 }, ICAL.TimezoneService.get('America/Vancouver')!);
    expect(rule.until!.toUnixTime()).toBe(endOfLastDay.toUnixTime());

    const occurrences: ICAL.Time[] = [];
    const iterator = lecture.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) occurrences.push(next);
    expect(occurrences.map((t) => t.toString().slice(0, 10))).toEqual(datesOn('2026-01-05', '2026-04-10', [1, 3, 5]));
    // 11:30 local on both sides of the change to daylight time (March 8): 19:30 UTC, then 18:30 UTC.
    const utc = (t: ICAL.Time) => t.toJSDate().toISOString().slice(11, 16);
    expect(utc(occurrences.find((t) => t.toString().startsWith('2026-01-07'))!)).toBe('19:30');
    expect(utc(occurrences.find((t) => t.toString().startsWith('2026-03-09'))!)).toBe('18:30');
    expect(occurrences.every((t) => t.toString().endsWith('T11:30:00'))).toBe(true);
  });

  it('keeps a meeting on one date as a single event, and the same UIDs in a later export', () => {
    const single = parsed(calendarOf([cmpt], 'D102')).events.find((e) => e.summary === 'CMPT 225 D102 Lab')!;
    expect(single.startDate.toString()).toBe('2026-02-12T10:30:00');
    expect(single.component.getFirstPropertyValue('rrule')).toBeNull();
    expect(single.isRecurring()).toBe(false);

    const later = parsed(calendarOf([math, cmpt], 'D101', new Date('2027-01-02T00:00:00Z'))).events;
    expect(later.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());
  });

  it('escapes text and folds by octets', () => {
    expect(escapeText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
    const folded = fold(`DESCRIPTION:${'é'.repeat(80)}`);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'é'.repeat(80)}`);
    // Local times in the zone, across both offsets.
    expect(zonedInstant('2026-01-15', '09:00:00').toISOString()).toBe('2026-01-15T17:00:00.000Z');
    expect(zonedInstant('2026-07-15', '09:00:00').toISOString()).toBe('2026-07-15T16:00:00.000Z');
  });
});
