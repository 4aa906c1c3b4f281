import { ToolError } from '../../mcp/tools/errors.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { sectionGetContract } from '../contracts/section-get.js';

export const sectionGetTool = bindCatalogTool(sectionGetContract, async (args, ctx) => {
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
});
