import * as z from 'zod/v4';
import type { AdapterContext, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import { parseLangaraCourseList } from './langara-course-list.js';
import { courseCode, provenance, shape, text } from './shared.js';

const SOURCE = 'langara-catalogue';
const INSTITUTION = 'langara';

const CourseShape = z.object({
  subject: z.string(),
  course_code: z.union([z.number().int(), z.string()]),
  credits: z.number().nullish(),
  hours: z.record(z.string(), z.number()).nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
});

function courseFragment(raw: unknown, context: AdapterContext): CourseFragment {
  const course = shape(CourseShape, raw);
  const code = courseCode(course.subject, course.course_code);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    provenance: provenance(SOURCE, context, code),
    title: text(course.title),
    description: text(course.description),
    // 54 courses list 0 credits (non-credit/developmental); that is a real value, unlike a missing one.
    credits: course.credits ?? null,
    // Kept as published ({lecture, seminar, lab} weekly hours) so the UI can label them.
    hours: course.hours ?? undefined,
  };
}

export const langaraCatalogueAdapter: SourceAdapter = {
  name: SOURCE,
  description: 'Langara College course catalogue (langara-course-api catalogue.json): titles, descriptions, credits, weekly hours',
  institutions: [INSTITUTION],
  parse: parseLangaraCourseList('courses', courseFragment),
};
