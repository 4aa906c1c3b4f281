import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { GradeDistributionSchema } from '../../catalog/catalog-model.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const SummarySchema = z.object({
  sections: z.number().int(),
  terms: z.array(z.string()),
  enrolled: z.number().int().describe('Students counted across sections with a known count'),
  weightedAverage: z.number().nullable().describe('Enrolment-weighted mean of section averages'),
  medianOfSectionMedians: z.number().nullable(),
  lowestSectionAverage: z.number().nullable(),
  highestSectionAverage: z.number().nullable(),
});

export const TrendSchema = z
  .object({
    byTerm: z
      .array(
        z.object({
          term: z.string(),
          sections: z.number().int(),
          enrolled: z.number().int(),
          average: z.number().nullable().describe('Enrolment-weighted mean of the term\'s section averages; null when all were suppressed'),
          median: z.number().nullable().describe('Median of the term\'s section medians (v2 data only)'),
        }),
      )
      .describe('One entry per term, oldest first'),
    averageChangePerYear: z.number().nullable().describe('Least-squares slope of the term averages, in grade points per year'),
    direction: z
      .enum(['harder', 'easier', 'steady', 'insufficient-data'])
      .describe('"harder" when averages fall by 1+ point a year over 3+ terms, "easier" when they rise as much'),
    explanation: z.string(),
  })
  .describe('Is this course getting harder: averages and medians by term and their trend');

export const gradesContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_grades',
  title: 'Grade distributions',
  description:
    'Returns grade distributions of a course per section and term (average, median, percentiles, bins, enrolment, ' +
    'instructors) and an overall summary. Bins the source suppressed (too few students) are null and flagged, never zero. ' +
    'A trend over terms (average and median by term, change per year) answers "is this course getting harder". ' +
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
    trend: TrendSchema.optional(),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'grades'],
  examples: [
    { description: 'UBC CPSC 110 grade distributions', input: { course: 'ubc:CPSC 110' }, expect: 'success' },
    { description: 'One term only', input: { course: 'ubc:CPSC 110', term: '2024W' }, expect: 'success' },
  ],
});
