import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { distinctBins } from '../grade-bins.js';
import { gradeTrend, summarizeGrades } from '../grade-summary.js';
import { teachersMatching } from '../instructor-names.js';
import { newestFirst } from '../term-input.js';
import { gradesContract } from '../contracts/grades.js';

export const gradesTool = bindCatalogTool(gradesContract, async (args, ctx) => {
  const { bundle, view } = await loadCourse(ctx, args.course);
  // "Nick Bradley" finds the sections listed under "Nicholas Bradley" too: one person, two spellings.
  const teachers = args.instructor ? teachersMatching(args.instructor, bundle.grades.flatMap((g) => g.instructors.map((name) => ({ name, term: g.term, together: g.instructors })))) : undefined;
  const sections = bundle.grades
    .filter((g) => !args.term || g.term === args.term)
    .filter((g) => !teachers || g.instructors.some((name) => teachers.has(name)))
    .sort((a, b) => newestFirst(a.term, b.term) || a.section.localeCompare(b.section))
    // Each student once: a bin restating narrower ones (PAIR's "<50") is not counted beside them.
    .map(({ kind: _kind, bins, ...grades }) => ({ ...grades, bins: distinctBins(bins) }));
  const summary = summarizeGrades(sections);
  const suppressed = sections.filter((s) => s.suppressed).length;
  return {
    data: {
      course: view.ref,
      sections,
      summary,
      trend: gradeTrend(sections),
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
});
