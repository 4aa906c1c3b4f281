import { dayIndex, type Day } from './week.js';

/**
 * iCalendar (RFC 5545) for a timetable: one VEVENT per meeting, repeating weekly on its days until its
 * last date, in the institution's local time with the zone's definition included, so calendar apps
 * that do not know the zone name still place classes right across the DST change.
 */

/** Every institution we serve is in British Columbia. */
const TIME_ZONE = 'America/Vancouver';

/** America/Vancouver's rules since 2007 (second Sunday of March, first Sunday of November). */
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0800',
  'TZOFFSETTO:-0700',
  'TZNAME:PDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0700',
  'TZOFFSETTO:-0800',
  'TZNAME:PST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

export interface CalendarMeeting {
  /** Stable across exports, so importing again updates events instead of duplicating them. */
  uid: string;
  summary: string;
  location?: string;
  description?: string;
  days: Day[];
  /** "HH:MM", local time. */
  start: string;
  end: string;
  /** "YYYY-MM-DD": the first and last dates the meeting may fall on. */
  firstDate: string;
  lastDate: string;
}

export function toICalendar(meetings: CalendarMeeting[], options: { name: string; now: Date }): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tutor Nexus//Timetable//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', `X-WR-CALNAME:${escapeText(options.name)}`, `X-WR-TIMEZONE:${TIME_ZONE}`, ...VTIMEZONE];
  const stamp = utcStamp(options.now);
  for (const meeting of meetings) lines.push(...event(meeting, stamp));
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

function event(meeting: CalendarMeeting, stamp: string): string[] {
  const first = firstOccurrence(meeting.firstDate, meeting.lastDate, meeting.days);
  if (!first) return [];
  const local = (date: string, clock: string) => `${date.replaceAll('-', '')}T${clock.replace(':', '')}00`;
  const once = first === meeting.lastDate;
  return [
    'BEGIN:VEVENT',
    `UID:${meeting.uid}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=${TIME_ZONE}:${local(first, meeting.start)}`,
    `DTEND;TZID=${TIME_ZONE}:${local(first, meeting.end)}`,
    // UNTIL must be UTC when DTSTART has a zone (RFC 5545 3.3.10): the end of the last local day.
    ...(once ? [] : [`RRULE:FREQ=WEEKLY;BYDAY=${meeting.days.map((d) => d.toUpperCase()).join(',')};UNTIL=${utcStamp(zonedInstant(meeting.lastDate, '23:59:59'))}`]),
    `SUMMARY:${escapeText(meeting.summary)}`,
    ...(meeting.location ? [`LOCATION:${escapeText(meeting.location)}`] : []),
    ...(meeting.description ? [`DESCRIPTION:${escapeText(meeting.description)}`] : []),
    'END:VEVENT',
  ];
}

/** The first date from `from` to `to` that falls on one of `days`. */
function firstOccurrence(from: string, to: string, days: Day[]): string | undefined {
  const wanted = new Set(days.map((day) => (dayIndex(day) + 1) % 7));
  const date = new Date(`${from}T00:00:00Z`);
  for (let i = 0; i < 7; i++) {
    const iso = date.toISOString().slice(0, 10);
    if (iso > to) return undefined;
    if (wanted.has(date.getUTCDay())) return iso;
    date.setUTCDate(date.getUTCDate() + 1);
  }
  return undefined;
}

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets continue on the next line after CRLF and a space, never inside a UTF-8 character. */
export function fold(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const room = parts.length === 0 ? 75 : 74;
    if (octets + size > room) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const utcStamp = (instant: Date) => `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** The instant a local date and time in the institution's zone stands for. */
export function zonedInstant(date: string, clock: string, timeZone = TIME_ZONE): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = clock.split(':').map(Number) as [number, number, number?];
  const asUtc = Date.UTC(y, m - 1, d, hh, mm, ss);
  // The zone's offset at the guess, then at the corrected instant (they differ only next to a DST change).
  const first = asUtc - offsetAt(asUtc, timeZone);
  return new Date(asUtc - offsetAt(first, timeZone));
}

function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - Math.floor(instant / 1000) * 1000;
}
