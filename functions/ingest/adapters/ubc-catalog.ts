import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { RecordError, combine, field, mapRecords, provenance, readJson, shape, text } from './shared.js';

const SOURCE = 'ubc-catalog';
const INSTITUTION = 'ubc';

const CourseShape = z.object({
  code: z.string(),
  name: z.string().nullish(),
  desc: z.string().nullish(),
  cred: z.number().nullish(),
  prer: z.string().nullish(),
  crer: z.string().nullish(),
  link: z.string().nullish(),
});

function courseFragment(raw: unknown, context: AdapterContext): CourseFragment {
  const course = shape(CourseShape, raw);
  const code = normalizeCourseCode(course.code);
  if (!code) throw new RecordError(`not a course code: "${course.code}"`);
  const link = text(course.link);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    // `link` is the old SSC course page: a real per-course URL, even if the page has since moved to Workday.
    provenance: provenance(SOURCE, context, code, link ? { sourceUrl: link } : {}),
    title: text(course.name),
    description: text(course.desc),
    // 114 courses have `cred: null` (variable or unlisted credit); that stays unknown, not zero.
    credits: course.cred ?? null,
    prerequisitesText: text(course.prer),
    corequisitesText: text(course.crer),
  };
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, z.array(z.unknown()));
  if (!file.ok) return file.output;
  return combine(mapRecords(file.value, (item) => field(item, 'code'), (item) => [courseFragment(item, context)]));
}

export const ubcCatalogAdapter: SourceAdapter = {
  name: SOURCE,
  description: 'UBC Vancouver course catalog (ubcfinder courses.json, ~2022): titles, descriptions, credits, prerequisite text',
  institutions: [INSTITUTION],
  parse,
};
