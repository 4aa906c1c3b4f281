import * as z from 'zod/v4';
import { termOrder } from '../../shared/catalog/terms.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { CATALOG_TOOL, completeness, CourseRefInput, freshness, loadCourse } from '../course-lookup.js';
import { CourseViewSchema } from '../course-view.js';

export const getTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_get',
  title: 'Get a course',
  description:
    'Returns everything known about one course: title, description, credits, prerequisite and corequisite text, notes, ' +
    'designation, attributes, the terms it is offered and has sections or grade data for, and where each part came from. Use this ' +
    'when the student names a course. Unknown courses are NOT_FOUND with close matches. Example: { "course": "sfu:CMPT 225" }.',
  input: z.strictObject({ course: CourseRefInput }),
  output: CourseViewSchema.extend({
    offeredTerms: z.array(z.string()).describe('Terms with offerings or sections, newest first'),
    sectionTerms: z.array(z.string()),
    gradeTerms: z.array(z.string()).describe('Terms with grade distributions (tn_course_grades)'),
    materialsCount: z.number().int(),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'course'],
  examples: [
    { description: 'SFU CMPT 225', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    { description: 'A loose reference is normalised', input: { course: 'SFU:cmpt120' }, expect: 'success' },
    { description: 'An unknown course is NOT_FOUND with close matches', input: { course: 'sfu:CMPT 999' }, expect: 'NOT_FOUND' },
  ],
  async handler(args, ctx) {
    const { view, bundle } = await loadCourse(ctx, args.course);
    const terms = (values: string[]) => [...new Set(values)].sort((a, b) => termOrder(b) - termOrder(a));
    const data = {
      ...view,
      offeredTerms: terms([...bundle.offerings.map((o) => o.term), ...bundle.sections.map((s) => s.term)]),
      sectionTerms: terms(bundle.sections.map((s) => s.term)),
      gradeTerms: terms(bundle.grades.map((g) => g.term)),
      materialsCount: bundle.materials.length,
    };
    const newest = view.sources.map((s) => s.ingestedAt).sort().at(-1);
    return {
      data,
      hints: {
        confidence: [
          { name: 'field-completeness', value: completeness([view.title, view.description, view.credits, view.prerequisitesText]) },
          { name: 'freshness', value: freshness(newest, ctx.now()), weight: 0.5 },
        ],
        nextActions: [
          ...(view.prerequisitesText ? [{ action: 'check-prerequisites', priority: 'high' as const, tool: 'tn_course_prereqs', data: { course: view.ref } }] : []),
          ...(data.sectionTerms.length ? [{ action: 'see-sections', priority: 'medium' as const, tool: 'tn_course_schedule', data: { course: view.ref } }] : []),
          ...(data.gradeTerms.length ? [{ action: 'see-grades', priority: 'low' as const, tool: 'tn_course_grades', data: { course: view.ref } }] : []),
        ],
        relatedResources: view.sources.map((s) => ({ type: 'source', id: s.sourceRecordId, label: s.source, relevance: 1 })),
        sourceQuality: 'high',
        validityPeriod: 'long',
      },
    };
  },
});
