import * as z from 'zod/v4';
import type { AdapterContext, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import { parseLangaraCourseList } from './langara-course-list.js';
import { courseCode, provenance, shape } from './shared.js';

const SOURCE = 'langara-attributes';
const INSTITUTION = 'langara';

const AttributesShape = z.object({
  subject: z.string(),
  course_code: z.union([z.number().int(), z.string()]),
  // Booleans only: a flag we cannot read as true/false must reject the row, not be guessed.
  attributes: z.record(z.string(), z.boolean()),
});

function courseFragment(raw: unknown, context: AdapterContext): CourseFragment {
  const course = shape(AttributesShape, raw);
  const code = courseCode(course.subject, course.course_code);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    provenance: provenance(SOURCE, context, code),
    // Only attributes: this source owns nothing else, so merging never blanks the catalogue's fields.
    // Source key order (AR, SC, HUM, LSC, SCI, SOC, UT) is kept so output is stable across runs.
    attributes: Object.entries(course.attributes)
      .filter(([, value]) => value)
      .map(([name]) => name),
  };
}

export const langaraAttributesAdapter: SourceAdapter = {
  name: SOURCE,
  description: 'Langara College course attributes (AR, SC, HUM, LSC, SCI, SOC, UT flags) as course fragments',
  institutions: [INSTITUTION],
  parse: parseLangaraCourseList('attributes', courseFragment),
};
