import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { GradeDistributionSchema } from '../catalog-model.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { summarizeGrades } from '../grade-summary.js';
import { newestFirst, TermInput } from '../term-input.js';

const SummarySchema = z.object({
  sections: z.number().int(),
  terms: z.array(z.string()),
  enrolled: z.number().int().describe('Students counted across sections with a known count'),
  weightedAverage: z.number().nullable().describe('Enrolment-weighted mean of section averages'),
  medianOfSectionMedians: z.number().nullable(),
  lowestSectionAverage: z.number().nullable(),
  highestSectionAverage: z.number().nullable(),
});

export const gradesTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_grades',
  title: 'Grade distributions',
  description:
    'Returns grade distributions of a course per section and term (average, median, percentiles, bins, enrolment, ' +
    'instructors) and an overall summary. Bins the source suppressed (too few students) are null and flagged, never zero. ' +
    'Use this when a student asks how hard a course is or how an instructor grades. Example: { "course": "ubc:CPSC 110" }.',
  input: z.strictObject({
    course: CourseRefInput,
    term: optionalField(TermInput),
    instructor: z.string().trim().min(2).max(80).optional().describe('Only sections taught by someone whose name contains this'),
  }),
  output: z.object({
    course: z.string(),
    sections: z.array(GradeDistributionSchema.omit({ kind: true })),
    summary: SummarySchema,
    suppression: z.object({ anySuppressed: z.boolean(), suppressedSections: z.number().int(), note: z.string() }),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'grades'],
  examples: [
    { description: 'UBC CPSC 110 grade distributions', input: { course: 'ubc:CPSC 110' }, expect: 'success' },
    { description: 'One term only', input: { course: 'ubc:CPSC 110', term: '2024W' }, expect: 'success' },
  ],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const needle = args.instructor?.toLowerCase();
    const sections = bundle.grades
      .filter((g) => !args.term || g.term === args.term)
      .filter((g) => !needle || g.instructors.some((name) => name.toLowerCase().includes(needle)))
      .sort((a, b) => newestFirst(a.term, b.term) || a.section.localeCompare(b.section))
      .map(({ kind: _kind, ...grades }) => grades);
    const summary = summarizeGrades(sections);
    const suppressed = sections.filter((s) => s.suppressed).length;
    return {
      data: {
        course: view.ref,
        sections,
        summary,
        suppression: {
          anySuppressed: suppressed > 0,
          suppressedSections: suppressed,
          note: suppressed
            ? 'Some figures were suppressed by the source to protect small classes; they are null here, not zero.'
            : 'No figures were suppressed.',
        },
      },
      hints: {
        confidence: [
          { name: 'sections-with-data', value: sections.length ? 1 : 0 },
          { name: 'unsuppressed-share', value: sections.length ? 1 - suppressed / sections.length : 0, weight: 0.5 },
        ],
        nextActions: sections.length
          ? [{ action: 'compare-instructors', priority: 'low', tool: 'tn_course_instructor', data: { course: view.ref } }]
          : [{ action: 'no-grade-data', priority: 'low', description: 'grade data exists only for UBC courses ingested from the PAIR reports' }],
        assumptions: ['Averages describe past sections; they do not predict a future section'],
        sourceQuality: 'high',
        validityPeriod: 'long',
      },
    };
  },
});
