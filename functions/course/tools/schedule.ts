import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { newestFirst } from '../term-input.js';
import { scheduleContract } from '../contracts/schedule.js';

export const scheduleTool = bindCatalogTool(scheduleContract, async (args, ctx) => {
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
});
