import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { newestFirst } from '../term-input.js';
import { sectionListContract } from '../contracts/section-list.js';

export const sectionListTool = bindCatalogTool(sectionListContract, async (args, ctx) => {
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
});
