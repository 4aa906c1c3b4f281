import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import { readCsvTable, rowCells, type CsvRow, type CsvTable } from '../../catalog/ingestion/csv.js';
import { RecordError, combine, courseCode, field, fileRejected, mapRecords, provenance, readJson, shape, text } from './shared.js';

/**
 * UBC's Workday-era Academic Calendar, both campuses, one source with the format detected:
 *  - a JSON array of `{code, subject, number, title, description, credits}` is UBC Vancouver
 *    (romansinkus/ubc-courses, May 2026);
 *  - a CSV headed `Subject,Course ID,Course Title,Course Description,Credits` is UBC Okanagan
 *    (Kanish010/Course-Recommendation, July 2024), campus taken from the `_O` suffix of the code.
 * Prerequisites are not separate fields: they are cut out of the description text here and parsed
 * by the prerequisite parser on request, like every other text source.
 */
const SOURCE = 'ubc-calendar';
const CAMPUS_SUFFIX: Record<string, string> = { V: 'ubc', O: 'ubco' };
const UBCO_COLUMNS = ['Subject', 'Course ID', 'Course Title', 'Course Description', 'Credits'];

/** Labels that end one part of a calendar description and start the next. */
const LABEL = /\b(Pre-?requisites?|Prequisite|Co-?requisites?|Equivalency|Recommended|Recommendation)\s*:\s*/gi;
const HOURS = /\[\s*(\d+(?:\.\d+)?)\s*\*?-\s*(\d+(?:\.\d+)?)\s*\*?-\s*(\d+(?:\.\d+)?)\s*\*?\s*\]\.?/;
const NOT_CDF = /\s*This course is not eligible for Credit\/D\/Fail grading\.?/i;

/** `APBI_V 315` → `APBI 315`: references inside Workday descriptions keep the campus suffix. */
export function stripCampusSuffixes(value: string): string {
  return value.replace(/\b([A-Z]{2,5})_[VO]\b/g, '$1');
}

export interface CalendarDescription {
  description?: string;
  prerequisitesText?: string;
  corequisitesText?: string;
  notes?: string;
  hours?: Record<string, number>;
}

/**
 * Splits a calendar description at its labels: the prose before the first label is the
 * description; `Prerequisite:` and `Corequisite:` parts become the requisite texts; `Equivalency:`,
 * `Recommended:` and the Credit/D/Fail sentence become notes. The `[3-2-0]` block is the weekly
 * lecture-lab-tutorial hours.
 */
export function splitCalendarDescription(raw: string | null | undefined): CalendarDescription {
  let body = stripCampusSuffixes(raw ?? '').replace(/\s+/g, ' ').trim();
  if (!body) return {};
  const notes: string[] = [];
  if (NOT_CDF.test(body)) {
    notes.push('This course is not eligible for Credit/D/Fail grading.');
    body = body.replace(NOT_CDF, ' ').trim();
  }
  let hours: Record<string, number> | undefined;
  const hoursMatch = HOURS.exec(body);
  if (hoursMatch) {
    hours = { lecture: Number(hoursMatch[1]), lab: Number(hoursMatch[2]), tutorial: Number(hoursMatch[3]) };
    body = `${body.slice(0, hoursMatch.index)} ${body.slice(hoursMatch.index + hoursMatch[0].length)}`.replace(/\s+/g, ' ').trim();
  }
  const labels = [...body.matchAll(LABEL)];
  const description = text(labels.length ? body.slice(0, labels[0]!.index) : body);
  const prereqs: string[] = [];
  const coreqs: string[] = [];
  labels.forEach((match, i) => {
    const start = match.index + match[0].length;
    const end = i + 1 < labels.length ? labels[i + 1]!.index : body.length;
    const part = body.slice(start, end).trim();
    if (!part) return;
    const label = match[1]!.toLowerCase();
    if (label.startsWith('pre')) prereqs.push(part);
    else if (label.startsWith('co')) coreqs.push(part);
    else notes.push(`${match[1]}: ${part}`);
  });
  return {
    description,
    prerequisitesText: text(prereqs.join(' ')),
    corequisitesText: text(coreqs.join(' ')),
    notes: text(notes.join(' ')),
    hours,
  };
}

/** "3" → 3, "1.5" → 1.5; ranges ("3-6") and blanks are unknown credit, not a number. */
function calendarCredits(value: string | null | undefined): number | null {
  const trimmed = value?.trim();
  return trimmed && /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}

function fragment(institution: string, code: string, title: string | undefined, description: string | null | undefined, credits: string | null | undefined, context: AdapterContext, url?: string): CourseFragment {
  const parts = splitCalendarDescription(description);
  return {
    kind: 'course',
    institution,
    code,
    provenance: provenance(SOURCE, context, `${institution}:${code}`, url ? { sourceUrl: url } : {}),
    title,
    ...parts,
    credits: calendarCredits(credits),
  };
}

const VancouverShape = z.object({
  code: z.string().nullish(),
  subject: z.string(),
  number: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  credits: z.string().nullish(),
});

function vancouverCourse(raw: unknown, context: AdapterContext): CourseFragment {
  const course = shape(VancouverShape, raw);
  const code = courseCode(course.subject, course.number);
  const title = text(course.title);
  if (!title) throw new RecordError('title is blank');
  const page = `https://vancouver.calendar.ubc.ca/course-descriptions/subject/${course.subject.trim().toLowerCase()}v`;
  return fragment('ubc', code, title, course.description, course.credits, context, page);
}

function okanaganCourse(table: CsvTable, row: CsvRow, context: AdapterContext): CourseFragment {
  const cells = rowCells(table, row);
  if (typeof cells === 'string') throw new RecordError(cells);
  const id = (cells['Course ID'] ?? '').trim();
  const match = /^([A-Z]{2,5})_([VO])\s+(\d{3}[A-Z]?)$/.exec(id);
  if (!match) throw new RecordError(`line ${row.line}: not a Workday course id: "${id}"`);
  const institution = CAMPUS_SUFFIX[match[2]!]!;
  const title = text(cells['Course Title']);
  if (!title) throw new RecordError(`line ${row.line}: title is blank`);
  // The scraper appended the subject page's footer to each page's last course.
  const description = (cells['Course Description'] ?? '').split(' Subscribe to ')[0];
  const page = `https://okanagan.calendar.ubc.ca/course-descriptions/subject/${match[1]!.toLowerCase()}o`;
  return fragment(institution, courseCode(match[1]!, match[3]!), title, description, cells.Credits, context, page);
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  if (raw.trimStart().startsWith('[')) {
    const file = readJson(raw, context, z.array(z.unknown()));
    if (!file.ok) return file.output;
    return combine(mapRecords(file.value, (item) => `ubc:${field(item, 'subject')} ${field(item, 'number')}`, (item) => [vancouverCourse(item, context)]));
  }
  const table = readCsvTable(raw);
  const missing = table ? UBCO_COLUMNS.filter((name) => !table.header.includes(name)) : UBCO_COLUMNS;
  if (!table || missing.length > 0) {
    return fileRejected(context, `neither a Vancouver calendar JSON array nor an Okanagan CSV (missing ${missing.join(', ')})`, raw).output;
  }
  const idColumn = table.header.indexOf('Course ID');
  return combine(mapRecords(table.rows, (row) => row.fields[idColumn]?.trim() ?? '?', (row) => [okanaganCourse(table, row, context)]));
}

export const ubcCalendarAdapter: SourceAdapter = {
  name: SOURCE,
  // One file per campus: loading the Okanagan CSV never retires Vancouver courses.
  scopeOf: (record) => record.institution,
  description: 'UBC Academic Calendar, Workday era (format detected: Vancouver 2026 courses.json, Okanagan 2024 CSV): titles, descriptions, credits, hours, requisite text cut from the description',
  institutions: ['ubc', 'ubco'],
  parse,
};
