import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, Meeting, Section, SourceAdapter } from '../../catalog/catalog-model.js';
import { parseTerm } from '../../catalog/terms.js';
import { RecordError, combine, courseCode, distinctNames, field, fileRejected, mapRecords, provenance, readJson, shape, text } from './shared.js';

const SOURCE = 'langara-schedule';
const INSTITUTION = 'langara';

const SemesterShape = z.object({
  datetime_retrieved: z.string().nullish(),
  year: z.union([z.number().int(), z.string()]),
  semester: z.union([z.number().int(), z.string()]),
  courses_first_day: z.string().nullish(),
  courses_last_day: z.string().nullish(),
  courses: z.array(z.unknown()),
});

const ScheduleShape = z.object({
  type: z.string(),
  days: z.string(),
  time: z.string(),
  start: z.string().nullish(),
  end: z.string().nullish(),
  room: z.string().nullish(),
  instructor: z.string().nullish(),
});

const SectionShape = z.object({
  crn: z.number().int(),
  subject: z.string(),
  course_code: z.union([z.number().int(), z.string()]),
  section: z.string(),
  credits: z.number().nullish(),
  title: z.string().nullish(),
  notes: z.string().nullish(),
  seats: z.union([z.number(), z.string()]).nullish(),
  waitlist: z.union([z.number(), z.string()]).nullish(),
  schedule: z.array(ScheduleShape),
});

/** Langara's own schedule words mapped to the codes other sources use, so filters work across schools. */
const MEETING_TYPES: Record<string, string> = {
  Lecture: 'LEC',
  Lab: 'LAB',
  Seminar: 'SEM',
  Tutorial: 'TUT',
  Exam: 'EXAM',
  WWW: 'WWW',
};

type Day = Meeting['days'][number];
const DAY_POSITIONS: [string, Day][] = [['M', 'Mo'], ['T', 'Tu'], ['W', 'We'], ['R', 'Th'], ['F', 'Fr'], ['S', 'Sa'], ['U', 'Su']];

/** "M-W----": one position per weekday, letter or dash; anything else rejects the section. */
export function parseLangaraDays(input: string): Day[] {
  const value = input.trim();
  if (value.length !== DAY_POSITIONS.length) throw new RecordError(`unrecognised days: "${input}"`);
  return DAY_POSITIONS.flatMap(([letter, day], index) => {
    const ch = value[index];
    if (ch === '-') return [];
    if (ch === letter) return [day];
    throw new RecordError(`unrecognised days: "${input}"`);
  });
}

/** "1430-1620" → ["14:30", "16:20"]; "-" or blank → no time (online or unscheduled). */
export function parseLangaraTime(input: string): [string, string] | undefined {
  const value = input.trim();
  if (value === '' || value === '-') return undefined;
  const match = /^(\d{2})(\d{2})-(\d{2})(\d{2})$/.exec(value);
  if (!match) throw new RecordError(`unrecognised time: "${input}"`);
  return [`${match[1]}:${match[2]}`, `${match[3]}:${match[4]}`];
}

/** ". TBA" is the scraper's rendering of an unassigned instructor; blank cells occur too. */
function instructorCell(input: string | null | undefined): string | undefined {
  const value = text(input);
  return value && !/^\.?\s*TBA$/i.test(value) ? value : undefined;
}

/** The semester's first and last days of classes, from the file's header. */
interface ClassDays {
  first?: string;
  last?: string;
}

function meeting(entry: z.infer<typeof ScheduleShape>, classDays: ClassDays): Meeting {
  const type = text(entry.type);
  const time = parseLangaraTime(entry.time);
  const days = parseLangaraDays(entry.days);
  // A weekly meeting the schedule leaves undated runs from the semester's first to its last day of classes.
  const weekly = days.length > 0 && type !== 'Exam' && !text(entry.start) && !text(entry.end) && classDays.first && classDays.last;
  return {
    // The model requires a type; a blank one (the scraper allows " ") must not reject the section.
    type: type ? (MEETING_TYPES[type] ?? type) : 'OTHER',
    days,
    startTime: time?.[0],
    endTime: time?.[1],
    startDate: weekly ? classDays.first : text(entry.start),
    endDate: weekly ? classDays.last : text(entry.end),
    room: text(entry.room),
    instructor: instructorCell(entry.instructor),
  };
}

function seats(raw: z.infer<typeof SectionShape>): Section['seats'] {
  // "N/A" means no waitlist and "Full" a full one of unknown length: neither is a count.
  const waitlist = typeof raw.waitlist === 'number' && Number.isInteger(raw.waitlist) ? raw.waitlist : null;
  if (typeof raw.seats === 'number') return { available: raw.seats, status: raw.seats > 0 ? 'open' : 'full', waitlist };
  // "Inact" is "registration not open yet" in the scraper's schema.
  if (raw.seats === 'Inact') return { available: null, status: 'inactive', waitlist };
  if (raw.seats === 'Cancel') return { available: null, status: 'cancelled', waitlist };
  return { available: null, status: 'unknown', waitlist };
}

function section(raw: unknown, termId: string, yearSemester: string, context: AdapterContext, retrievedAt: string | undefined, classDays: ClassDays): Section {
  const entry = shape(SectionShape, raw);
  const code = courseCode(entry.subject, entry.course_code);
  const meetings = entry.schedule.map((item) => meeting(item, classDays));
  return {
    kind: 'section',
    institution: INSTITUTION,
    code,
    // CRNs are unique within a Langara term, so term + CRN identifies the row in the source.
    provenance: provenance(SOURCE, context, `${yearSemester} ${entry.crn}`, retrievedAt ? { retrievedAt } : {}),
    term: termId,
    section: entry.section.trim(),
    title: text(entry.title),
    classNumber: String(entry.crn),
    credits: entry.credits ?? null,
    // A meeting cell can name several people ("Nicole Jenni, Troy Chenier"); names never contain commas here.
    instructors: distinctNames(meetings.flatMap((m) => m.instructor?.split(',') ?? [])),
    meetings,
    seats: seats(entry),
    notes: text(entry.notes),
  };
}

/**
 * "2023-06-13 21:39:51" is Python's local `datetime.now()` with no zone, so the offset is unknown:
 * emit the same wall-clock time in ISO form rather than guessing a zone.
 */
export function retrievedAtFrom(input: string | null | undefined): string | undefined {
  const value = input?.trim() ?? '';
  return /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/.test(value) ? value.replace(' ', 'T') : undefined;
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, SemesterShape);
  if (!file.ok) return file.output;
  const { year, semester, courses } = file.value;
  const yearSemester = `${year}${semester}`;
  const termId = parseTerm(yearSemester);
  if (!termId) return fileRejected(context, `not a Langara term: year ${year}, semester ${semester}`, raw).output;
  const retrievedAt = retrievedAtFrom(file.value.datetime_retrieved);
  const isoDate = (value: string | null | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? value.trim() : undefined);
  const classDays = { first: isoDate(file.value.courses_first_day), last: isoDate(file.value.courses_last_day) };
  return combine(
    mapRecords(
      courses,
      (item) => `${yearSemester} ${field(item, 'crn')}`,
      (item) => [section(item, termId, yearSemester, context, retrievedAt, classDays)],
    ),
  );
}

export const langaraScheduleAdapter: SourceAdapter = {
  name: SOURCE,
  // One file per semester: a run retires only sections of the terms it carries.
  scopeOf: (record) => ('term' in record && record.term) || 'all',
  description: 'Langara College semester schedules (langara-course-api <yyyyss>.json): sections with meetings, seats, waitlists',
  institutions: [INSTITUTION],
  parse,
};
