import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, Meeting, Section, SourceAdapter } from '../../catalog/catalog-model.js';
import { creditsFromUnits } from './sfu-outlines.js';
import { RecordError, combine, courseCode, distinctNames, field, mapRecords, provenance, readJson, shape, term, text, validItems } from './shared.js';

const SOURCE = 'sfu-sections';
const INSTITUTION = 'sfu';

const CourseShape = z.object({
  dept: z.string(),
  number: z.string(),
  title: z.string().nullish(),
  units: z.string().nullish(),
  term: z.string(),
  sections: z.array(z.unknown()),
});

const ScheduleShape = z.object({
  startDate: z.string().nullish(),
  endDate: z.string().nullish(),
  campus: z.string().nullish(),
  days: z.string().nullish(),
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
  sectionCode: z.string().nullish(),
});

const SectionShape = z.object({
  section: z.string(),
  deliveryMethod: z.string().nullish(),
  classNumber: z.string().nullish(),
  instructors: z.array(z.object({ name: z.string().nullish() })).nullish(),
  schedules: z.array(ScheduleShape).nullish(),
});

interface ParentCourse {
  code: string;
  term: string;
  title?: string;
  credits: number | null;
}

type Day = Meeting['days'][number];
const DAY_TOKENS = /Mo|Tu|We|Th|Fr|Sa|Su/g;

/** "Mo, We, Fr" (also "MoWe") → ['Mo','We','Fr']; unknown tokens reject rather than silently drop a day. */
export function parseSfuDays(input: string | null | undefined): Day[] {
  const value = input ?? '';
  const days = (value.match(DAY_TOKENS) ?? []) as Day[];
  if (value.replace(DAY_TOKENS, '').replace(/[\s,]/g, '') !== '') throw new RecordError(`unrecognised days: "${value}"`);
  return days;
}

/** "8:30" → "08:30"; blank → undefined (no fixed time, e.g. co-op or independent study). */
export function padTime(input: string | null | undefined): string | undefined {
  const value = input?.trim();
  if (!value) return undefined;
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) throw new RecordError(`unrecognised time: "${value}"`);
  return `${match[1]!.padStart(2, '0')}:${match[2]}`;
}

function meeting(schedule: z.infer<typeof ScheduleShape>): Meeting {
  return {
    // The model requires a type; a blank code (none in the shipped data) must not reject the section.
    type: text(schedule.sectionCode) ?? 'OTHER',
    days: parseSfuDays(schedule.days),
    startTime: padTime(schedule.startTime),
    endTime: padTime(schedule.endTime),
    startDate: text(schedule.startDate),
    endDate: text(schedule.endDate),
    campus: text(schedule.campus),
  };
}

function section(parent: ParentCourse, raw: unknown, context: AdapterContext): Section {
  const parsed = shape(SectionShape, raw);
  const sectionId = text(parsed.section);
  if (!sectionId) throw new RecordError('section is blank');
  const meetings = (parsed.schedules ?? []).map(meeting);
  return {
    kind: 'section',
    institution: INSTITUTION,
    code: parent.code,
    provenance: provenance(SOURCE, context, `${parent.term} ${parent.code} ${sectionId}`),
    term: parent.term,
    section: sectionId,
    title: parent.title,
    classNumber: text(parsed.classNumber),
    credits: parent.credits,
    deliveryMethod: text(parsed.deliveryMethod),
    // Co-op and some lab meetings carry no campus; the first meeting that names one stands for the section.
    campus: meetings.find((m) => m.campus)?.campus,
    instructors: distinctNames((parsed.instructors ?? []).map((instructor) => instructor.name ?? '')),
    meetings,
  };
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, z.array(z.unknown()));
  if (!file.ok) return file.output;
  const courses = validItems(
    file.value,
    (item) => `${field(item, 'term')} ${field(item, 'dept')} ${field(item, 'number')}`,
    (item) => {
      const course = shape(CourseShape, item);
      const parent: ParentCourse = {
        code: courseCode(course.dept, course.number),
        term: term(course.term),
        title: text(course.title),
        credits: creditsFromUnits(course.units),
      };
      return course.sections.map((entry) => ({ parent, raw: entry }));
    },
  );
  const sections = mapRecords(
    courses.valid.flat(),
    (item) => `${item.parent.term} ${item.parent.code} ${field(item.raw, 'section')}`,
    (item) => [section(item.parent, item.raw, context)],
  );
  return combine(courses.output, sections);
}

export const sfuSectionsAdapter: SourceAdapter = {
  name: SOURCE,
  // One file per term: a run retires only sections of the terms it carries.
  scopeOf: (record) => ('term' in record && record.term) || 'all',
  description: 'SFU class sections per term (sfucourses-api sections/<term>.json): meetings, instructors, class numbers',
  institutions: [INSTITUTION],
  parse,
};
