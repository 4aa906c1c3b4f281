import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { SectionSchema } from '../catalog-model.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { newestFirst, TermInput } from '../term-input.js';

export const SectionOutputSchema = SectionSchema.omit({ kind: true });

export const sectionListTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_section_list',
  title: 'List sections of a course',
  description:
    'Lists the sections of a course in a term (or every term, newest first) with meeting days and times, campus, delivery, ' +
    'instructors and seats where the source has them. Use this when the student is choosing a section or checking for time ' +
    'conflicts. Returns a page of sections. Example: { "course": "sfu:CMPT 225", "term": "2025-fall" }.',
  input: z.strictObject({ course: CourseRefInput, term: optionalField(TermInput), ...PaginationInput }),
  output: paginated(SectionOutputSchema),
  responseTime: 'fast',
  tags: ['catalog', 'schedule', 'sections'],
  examples: [
    { description: 'SFU CMPT 225 sections in Fall 2025', input: { course: 'sfu:CMPT 225', term: '2025-fall' }, expect: 'success' },
    { description: 'Langara CPSC 1150 in Langara\'s term code', input: { course: 'langara:CPSC 1150', term: '202330' }, expect: 'success' },
  ],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const sections = bundle.sections
      .filter((s) => !args.term || s.term === args.term)
      .sort((a, b) => newestFirst(a.term, b.term) || a.section.localeCompare(b.section))
      .map(({ kind: _kind, ...section }) => section);
    const page = pageOf(sections, args, ctx.services.cursors, { tool: ctx.toolName, query: [view.ref, args.term] });
    const withTimes = sections.filter((s) => s.meetings.some((m) => m.startTime)).length;
    return {
      data: page,
      hints: {
        confidence: [
          { name: 'sections-found', value: sections.length ? 1 : 0 },
          { name: 'meeting-times-known', value: sections.length ? withTimes / sections.length : 0 },
        ],
        nextActions: sections.length
          ? [{ action: 'open-section', priority: 'low', tool: 'tn_course_section_get', data: { course: view.ref, term: sections[0]!.term, section: sections[0]!.section } }]
          : [{ action: 'check-terms', priority: 'medium', tool: 'tn_course_schedule', description: 'see which terms have sections' }],
        validityPeriod: 'medium',
      },
    };
  },
});
