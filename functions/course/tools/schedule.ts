import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { newestFirst, TermInput } from '../term-input.js';

const TermOfferingSchema = z.object({
  term: z.string(),
  sectionCount: z.number().int().describe('Sections known for the term (0 when only the offering is known)'),
  instructors: z.array(z.string()),
  deliveryMethods: z.array(z.string()),
  campuses: z.array(z.string()),
  meetingPatterns: z.array(z.string()).describe('e.g. "D100 LEC MoWeFr 13:30-14:20 Burnaby"'),
  openSeats: z.number().int().nullable().describe('Sum of open seats where the source reports seats; null when unknown'),
});

export const scheduleTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_schedule',
  title: 'Course offerings by term',
  description:
    'Lists when a course is offered and returns, newest term first, per term the number of sections, instructors, delivery methods, ' +
    'campuses, meeting times and open seats where known. Use this to answer "when is it offered?" before picking a section ' +
    '(tn_course_section_list). Example: { "course": "sfu:CMPT 225" } or with { "term": "2026-spring" }.',
  input: z.strictObject({ course: CourseRefInput, term: optionalField(TermInput), ...PaginationInput }),
  output: paginated(TermOfferingSchema),
  responseTime: 'fast',
  tags: ['catalog', 'schedule'],
  examples: [
    { description: 'When SFU CMPT 225 is offered', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    { description: 'A malformed term is refused', input: { course: 'sfu:CMPT 225', term: 'someday' }, expect: 'BAD_REQUEST' },
  ],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const terms = [...new Set([...bundle.offerings.map((o) => o.term), ...bundle.sections.map((s) => s.term)])]
      .filter((term) => !args.term || term === args.term)
      .sort(newestFirst);
    const rows = terms.map((term) => {
      const sections = bundle.sections.filter((s) => s.term === term);
      const offeringInstructors = bundle.offerings.filter((o) => o.term === term).flatMap((o) => o.instructors);
      const seats = sections.map((s) => s.seats?.available).filter((n): n is number => typeof n === 'number');
      return {
        term,
        sectionCount: sections.length,
        instructors: [...new Set([...sections.flatMap((s) => s.instructors), ...offeringInstructors])],
        deliveryMethods: [...new Set(sections.map((s) => s.deliveryMethod).filter((d): d is string => Boolean(d)))],
        campuses: [...new Set(sections.flatMap((s) => [s.campus, ...s.meetings.map((m) => m.campus)]).filter((c): c is string => Boolean(c)))],
        meetingPatterns: sections.flatMap((s) =>
          s.meetings
            .filter((m) => m.days.length)
            .map((m) => `${s.section} ${m.type} ${m.days.join('')} ${m.startTime ?? '?'}-${m.endTime ?? '?'}${m.campus ? ` ${m.campus}` : ''}`),
        ),
        openSeats: seats.length ? seats.reduce((a, b) => a + b, 0) : null,
      };
    });
    const page = pageOf(rows, args, ctx.services.cursors, { tool: ctx.toolName, query: [view.ref, args.term] });
    return {
      data: page,
      hints: {
        confidence: [
          { name: 'terms-found', value: rows.length ? 1 : 0 },
          { name: 'terms-with-sections', value: rows.length ? rows.filter((r) => r.sectionCount > 0).length / rows.length : 0 },
        ],
        nextActions: rows.length
          ? [{ action: 'list-sections', priority: 'medium', tool: 'tn_course_section_list', data: { course: view.ref, term: rows[0]!.term } }]
          : [{ action: 'check-course', priority: 'medium', tool: 'tn_course_get', description: 'no offerings are recorded for this course' }],
        assumptions: ['Only terms present in the ingested schedules and outlines are known'],
        validityPeriod: 'medium',
      },
    };
  },
});
