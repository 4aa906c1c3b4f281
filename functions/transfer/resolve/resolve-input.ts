import * as z from 'zod/v4';
import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { DomainError } from '../../platform/domain-error.js';
import type { StudentFacts } from '../rule-text/conditions.js';

/** Inputs tn_transfer_resolve and tn_transfer_compare share: the courses taken and what is known about the student. */
export const SourceCoursesInput = z
  .array(z.string().min(3).max(64))
  .min(1)
  .max(60)
  .describe('Courses taken, e.g. ["CPSC 1150", "MATH 1171"] (a set; "langara:CPSC 1150" also works)');

export const StudentFactsInput = {
  program: z.string().min(2).max(120).optional().describe('The program or faculty the student is in or admitted to, e.g. "Mechanical Engineering": program conditions are checked against it'),
  grades: z
    .record(z.string().min(3).max(64), z.string().regex(/^(?:[A-Da-d][+-]?|[Ff])$/, 'a letter grade like "B+"'))
    .optional()
    .describe('Letter grade per sending course, e.g. { "CPSC 1150": "B+" }: minimum-grade conditions are checked against it'),
};

export const CompletedAtTargetInput = z
  .array(z.string().min(3).max(64))
  .max(100)
  .optional()
  .describe('Courses the student already has credit for at the receiving institution, e.g. ["POL 231"]: conditions like "if SFU POL 231 already obtained" then hold, and those courses are not awarded again');

const withoutPrefix = (input: string) => (input.includes(':') ? input.slice(input.indexOf(':') + 1) : input);

/** A course code typed loosely ("langara:cpsc1160", "CPSC 1160"), or BAD_REQUEST naming the field. */
export function courseCodeInput(input: string, field: string): string {
  const code = normalizeCourseCode(withoutPrefix(input));
  if (!code) throw DomainError.invalid(`"${input}" is not a course code like "CPSC 1150".`, [{ field, message: 'expected SUBJECT NUMBER' }]);
  return code;
}

/** The given courses as normalised codes (a set, sorted), or BAD_REQUEST naming the entry that is no course code. */
export function readSourceCourses(inputs: string[]): { codes: string[]; normalized: { input: string; code: string }[] } {
  const normalized = inputs.map((input, index) => ({ input, code: courseCodeInput(input, `sourceCourses.${index}`) }));
  return { codes: [...new Set(normalized.map((n) => n.code))].sort(), normalized };
}

export function studentFacts(args: { completedAtTarget?: string[]; program?: string; grades?: Record<string, string> }): StudentFacts {
  // "SFU POL 231", "sfu:POL 231" and "POL 231" name the same receiving course.
  const code = (input: string) => normalizeCourseCode(withoutPrefix(input).replace(/^[A-Z]{2,5} (?=[A-Z]{2,5} \d)/i, ''));
  return {
    completedAtTarget: new Set((args.completedAtTarget ?? []).map((input) => code(input) ?? input.trim().toUpperCase())),
    program: args.program?.trim(),
    grades: new Map(Object.entries(args.grades ?? {}).map(([course, grade]) => [code(course) ?? course, grade.toUpperCase()])),
  };
}

export const CompletedOnInput = z
  .record(z.string().min(3).max(64), z.string().regex(/^\d{4}-(?:0[1-9]|1[0-2])(?:-\d{2})?$/, 'an RFC 3339 full-date like "2010-12-15" or a year-month like "2010-12"'))
  .optional()
  .describe(
    'When each sending course was completed, e.g. { "POLI 1250": "2010-12" } (a month means its last day): each resolves against the rules ' +
      'in force then, a bundle at its last course\'s date; others use asOfDate.',
  );

/** The completion dates as ISO dates per normalised code, or BAD_REQUEST naming the entry that is no course given or no real date. */
export function readCompletedOn(input: Record<string, string> | undefined, codes: string[]): Map<string, string> | undefined {
  if (!input) return undefined;
  const dates = new Map<string, string>();
  for (const [course, value] of Object.entries(input)) {
    const field = `completedOn.${course}`;
    const code = courseCodeInput(course, field);
    if (!codes.includes(code)) throw DomainError.invalid(`completedOn names ${course}, which is not among sourceCourses.`, [{ field, message: 'not one of sourceCourses' }]);
    const [year, month, day] = value.split('-').map(Number) as [number, number, number | undefined];
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day !== undefined && (day < 1 || day > last)) throw DomainError.invalid(`completedOn.${course} is not a real date: ${value}.`, [{ field, message: 'no such day' }]);
    dates.set(code, `${value.slice(0, 7)}-${String(day ?? last).padStart(2, '0')}`);
  }
  return dates;
}
