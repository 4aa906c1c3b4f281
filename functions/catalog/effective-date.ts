import * as z from 'zod/v4';
import { findInstitution } from './institutions.js';

/** Where an institution keeps its calendar: every institution we know is in BC unless it says otherwise. */
const DEFAULT_TIME_ZONE = 'America/Vancouver';

export function institutionTimeZone(institution: string): string {
  return findInstitution(institution)?.timeZone ?? DEFAULT_TIME_ZONE;
}

// RFC 3339 full-date, or date-time with an offset (seed 000: "RFC3339 date/time"). RFC 3339 §5.6
// allows lower-case t/z and §5.6's note a space for the T; a time without an offset names no instant.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2})))?$/;

function isRealDateOrDateTime(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return false;
  if (m[4] === undefined) return true;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  const offsetOk = m[8] === undefined || (Number(m[8]) < 24 && Number(m[9]) < 60);
  return hour < 24 && minute < 60 && second <= 60 && offsetOk;
}

/** An effective-date input: a plain date, or an instant that is read as its calendar date where the institution is. */
export function effectiveDateInput(description: string) {
  return z
    .string()
    .max(40)
    .regex(RFC3339, { message: 'expected an RFC 3339 date (2023-03-01) or date-time with an offset (2023-03-01T09:30:00-08:00)', abort: true })
    .refine(isRealDateOrDateTime, 'not a real calendar date or time')
    .describe(
      `${description}: YYYY-MM-DD or an RFC 3339 date-time (its date in the institution's time zone)`,
    );
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) at an instant in a time zone. */
function calendarDateIn(instant: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format.format(instant);
}

/**
 * The effective calendar date of an input validated by `effectiveDateInput`: a date is itself, a
 * date-time is the date at that instant in `timeZone`; no input means today there.
 */
export function effectiveDate(input: string | undefined, now: Date, timeZone: string): string {
  if (input === undefined) return calendarDateIn(now, timeZone);
  if (input.length === 10) return input;
  // Date cannot hold a leap second; 23:59:60 is the same calendar date as 23:59:59.
  const instant = new Date(input.toUpperCase().replace(' ', 'T').replace(/:60(?=[.Z+-])/, ':59'));
  return calendarDateIn(instant, timeZone);
}
