import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { ToolError } from '../../shared/tools/errors.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { TermInput } from '../term-input.js';
import { SectionOutputSchema } from './section-list.js';

export const sectionGetTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_section_get',
  title: 'Get one section',
  description:
    'Returns one section of a course in a term: meetings (days, times, dates, campus, room), instructors, delivery, class ' +
    'number or CRN, seats and waitlist where known. Use this when the student asks about a specific section. Unknown sections are ' +
    'NOT_FOUND listing the term\'s sections. Example: { "course": "sfu:CMPT 225", "term": "2025-fall", "section": "D100" }.',
  input: z.strictObject({
    course: CourseRefInput,
    term: TermInput,
    section: z.string().trim().min(1).max(12).describe('Section code, e.g. "D100" (SFU) or "001" (Langara)'),
  }),
  output: SectionOutputSchema,
  responseTime: 'fast',
  tags: ['catalog', 'sections'],
  examples: [
    { description: 'SFU CMPT 225 D100 in Fall 2025', input: { course: 'sfu:CMPT 225', term: '2025-fall', section: 'D100' }, expect: 'success' },
    { description: 'An unknown section is NOT_FOUND', input: { course: 'sfu:CMPT 225', term: '2025-fall', section: 'Z999' }, expect: 'NOT_FOUND' },
  ],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const inTerm = bundle.sections.filter((s) => s.term === args.term);
    const found = inTerm.find((s) => s.section.toUpperCase() === args.section.toUpperCase());
    if (!found) {
      throw ToolError.notFound(
        `No section ${args.section} of ${view.ref} in ${args.term}.`,
        inTerm.length ? [`Sections in ${args.term}: ${inTerm.map((s) => s.section).join(', ')}`] : ['No sections are known for that term; see tn_course_schedule.'],
      );
    }
    const { kind: _kind, ...section } = found;
    return {
      data: section,
      hints: {
        confidence: [
          { name: 'meeting-times-known', value: section.meetings.some((m) => m.startTime) ? 1 : 0.5 },
          { name: 'instructor-known', value: section.instructors.length ? 1 : 0.5 },
          { name: 'seats-known', value: section.seats ? 1 : 0.5, weight: 0.5 },
        ],
        nextActions: [{ action: 'instructor-history', priority: 'low', tool: 'tn_course_instructor', data: { course: view.ref } }],
        validityPeriod: 'medium',
      },
    };
  },
});
