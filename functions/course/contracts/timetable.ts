import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { CATALOG_TOOL } from './catalog-tool.js';
import { TermInput } from '../term-input.js';
import { DAYS, RANKINGS } from '../timetable/week.js';

const Clock = z
  .string()
  .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'a 24-hour time like "10:00"')
  .transform((value) => value.padStart(5, '0'));

const DayEnum = z.enum(DAYS as [string, ...string[]]);

export const TimetableMeetingSchema = z.object({
  course: z.string(),
  section: z.string(),
  kind: z.string().describe('Meeting type: LEC, LAB, TUT, SEM…'),
  day: DayEnum,
  start: z.string().describe('HH:MM as the section gives it'),
  end: z.string(),
  campus: z.string().optional(),
  room: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});

export const TimetableSectionSchema = z.object({
  course: z.string(),
  section: z.string(),
  kind: z.string().describe('The section\'s meeting types, e.g. "LEC" or "LAB"'),
  role: z.enum(['enrolment', 'component']).describe('enrolment: the lecture (or seminar…) enrolled in; component: its lab or tutorial'),
  sameTime: z.array(z.string()).describe('Other sections at exactly the same times: interchangeable'),
  classNumber: z.string().optional(),
  instructors: z.array(z.string()),
  campus: z.string().optional(),
});

export const CombinationSchema = z.object({
  rank: z.number().int().describe('1 = best for the chosen ranking'),
  sections: z.array(TimetableSectionSchema),
  meetings: z.array(TimetableMeetingSchema).describe('One entry per meeting per day, by day then time'),
  week: z.object({
    days: z.number().int(),
    gapMinutes: z.number().int().describe('Idle minutes between same-day classes beyond a 10-minute walk'),
    campusChanges: z.number().int().describe('Same-day moves between campuses'),
    rushedCampusChanges: z.number().int().describe('Of those, moves with under an hour to travel'),
    campuses: z.number().int(),
    earliestStart: z.string().nullable(),
    latestEnd: z.string().nullable(),
  }),
  ics: z.string().optional().describe('The combination as an iCalendar file (when ics is true)'),
});

export const TimetableCourseSchema = z.object({
  course: z.string(),
  title: z.string().nullable(),
  status: z.enum(['placed', 'no-sections', 'no-fixed-times', 'no-fit']),
  options: z.number().int().describe('Distinct ways to take it that fit'),
  untimed: z.array(z.string()).describe('Sections without fixed times, left out'),
  termsWithSections: z.array(z.string()),
  message: z.string(),
});

const ClashSide = z.object({ course: z.string(), section: z.string(), day: DayEnum, start: z.string(), end: z.string() });

export const TimetableConflictSchema = z.object({
  courses: z.array(z.string()).describe('Courses that can never be taken together'),
  clashes: z.array(z.object({ a: ClashSide, b: ClashSide })).describe('Examples of overlapping meetings'),
  message: z.string(),
});

export const timetableContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_timetable',
  title: 'Build a term timetable',
  description:
    'Builds conflict-free weekly timetables for a term: one lecture per course with a lab or tutorial of its own group, best ' +
    'first, within optional limits (no classes before/after a time, days off). When none fit, names the courses that always clash; ' +
    'courses with no sections that term are named. Use it to plan a term. Returns a page of combinations with each meeting\'s day ' +
    'and times, optionally as .ics. Example: { "term": "2026-spring", "courses": ["sfu:CMPT 225", "sfu:MACM 201"], "notBefore": "10:00" }.',
  input: z.strictObject({
    courses: z
      .array(z.string().min(3).max(64))
      .min(1)
      .max(10)
      .describe('Courses, e.g. ["sfu:CMPT 225", "MACM 201"]; codes without "institution:" use institution'),
    term: TermInput.optional().describe('Term, e.g. "2026-spring" or "Fall 2025"; default: the newest with sections'),
    institution: z.string().min(2).max(40).optional().describe('Institution for codes given without one, e.g. "sfu"'),
    notBefore: Clock.optional().describe('No class starts before, e.g. "10:00"'),
    notAfter: Clock.optional().describe('No class ends after, e.g. "17:30"'),
    daysOff: z.array(DayEnum).max(7).optional().describe('Days with no class, e.g. ["Fr"]'),
    rank: z.enum(RANKINGS).default('compact').describe('"compact" (fewest campus changes and gaps), "fewest-days" or "late-start"'),
    sections: z.array(z.string().min(4).max(80)).max(30).optional().describe('Sections to keep, e.g. ["CMPT 225 D100"]'),
    ics: z.boolean().default(false).describe('Also return each combination as an .ics file'),
    ...PaginationInput,
  }),
  output: paginated(CombinationSchema).extend({
    term: z.string(),
    termDates: z.object({ start: z.string(), end: z.string(), from: z.enum(['sections', 'season']) }),
    courses: z.array(TimetableCourseSchema),
    conflicts: z.array(TimetableConflictSchema).describe('When nothing fits: the smallest sets of courses that clash'),
    complete: z.boolean().describe('False when the search stopped at its budget'),
    availableTerms: z.array(z.string()).describe('Terms any of the courses has sections in, newest first'),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'schedule', 'sections', 'timetable'],
  examples: [
    { description: 'SFU CMPT 225, MACM 201 and MATH 232 in Spring 2026', input: { term: '2026-spring', courses: ['sfu:CMPT 225', 'sfu:MACM 201', 'sfu:MATH 232'] }, expect: 'success' },
    { description: 'No classes before 10:00 and Fridays off', input: { term: '2026-spring', institution: 'sfu', courses: ['CMPT 225', 'MACM 201'], notBefore: '10:00', daysOff: ['Fr'] }, expect: 'success' },
    { description: 'An unknown course is NOT_FOUND', input: { term: '2026-spring', courses: ['sfu:CMPT 999'] }, expect: 'NOT_FOUND' },
  ],
});
