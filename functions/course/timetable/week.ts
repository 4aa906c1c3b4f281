import type { Meeting } from '../../catalog/catalog-model.js';

export type Day = Meeting['days'][number];
export const DAYS: readonly Day[] = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
/** How timetables are ordered: fewest campus changes and gaps, fewest days on campus, or latest mornings. */
export const RANKINGS = ['compact', 'fewest-days', 'late-start'] as const;
export type Ranking = (typeof RANKINGS)[number];

export const dayIndex = (day: Day) => DAYS.indexOf(day);

/** "HH:MM" → minutes after midnight; undefined for anything else. */
export function minutesOf(clock: string | undefined): number | undefined {
  const match = clock ? /^(\d{1,2}):(\d{2})$/.exec(clock) : null;
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : undefined;
}

export const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Exams sit outside the weekly pattern (one date, in the exam period): a timetable leaves them out. */
const NOT_WEEKLY = new Set(['EXAM']);

/**
 * A meeting that takes a place in the week: days, a start and an end, and not an exam. Online parts
 * without a time ("WWW", "OLC" with no days) take none.
 */
export function isTimed(meeting: Meeting): boolean {
  return meeting.days.length > 0 && minutesOf(meeting.startTime) !== undefined && minutesOf(meeting.endTime) !== undefined && !NOT_WEEKLY.has(meeting.type);
}

/** A meeting on one day, as minutes, with the dates it runs between when the source gives them. */
export interface Slot {
  day: Day;
  start: number;
  end: number;
  startDate?: string;
  endDate?: string;
  campus?: string;
}

export function slotsOf(meeting: Meeting): Slot[] {
  if (!isTimed(meeting)) return [];
  const start = minutesOf(meeting.startTime)!;
  const end = minutesOf(meeting.endTime)!;
  return meeting.days.map((day) => ({
    day,
    start,
    end,
    ...(meeting.startDate ? { startDate: meeting.startDate } : {}),
    ...(meeting.endDate ? { endDate: meeting.endDate } : {}),
    ...(meeting.campus ? { campus: meeting.campus } : {}),
  }));
}

/** Undated meetings run all term, so they overlap any dates. ISO dates compare as strings. */
function datesOverlap(a: Slot, b: Slot): boolean {
  return (a.startDate ?? '') <= (b.endDate ?? '9999') && (b.startDate ?? '') <= (a.endDate ?? '9999');
}

/** Same day, overlapping minutes (10:20 end and 10:20 start touch, they do not clash), overlapping dates. */
export function slotsClash(a: Slot, b: Slot): boolean {
  return a.day === b.day && a.start < b.end && b.start < a.end && datesOverlap(a, b);
}
