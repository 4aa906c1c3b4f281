import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { completeness, loadCourse } from '../course-lookup.js';
import { newestFirst } from '../term-input.js';
import { outlineContract } from '../contracts/outline.js';

export const outlineTool = bindCatalogTool(outlineContract, async (args, ctx) => {
  const { bundle, view } = await loadCourse(ctx, args.course);
  const terms = [...new Set([...bundle.offerings.map((o) => o.term), ...bundle.sections.map((s) => s.term)])].sort(newestFirst);
  const term = args.term ?? terms[0] ?? null;
  const sections = bundle.sections.filter((s) => s.term === term);
  const offerings = bundle.offerings.filter((o) => o.term === term);
  const deliveryMethods = [...new Set([...sections.map((s) => s.deliveryMethod), view.deliveryMethod].filter((d): d is string => Boolean(d)))];
  const data = {
    course: view.ref,
    title: view.title,
    term,
    description: view.description,
    designation: view.designation,
    deliveryMethods,
    credits: view.credits,
    notes: view.notes,
    prerequisitesText: view.prerequisitesText,
    corequisitesText: view.corequisitesText,
    instructors: [...new Set([...sections.flatMap((s) => s.instructors), ...offerings.flatMap((o) => o.instructors)])],
    sections: sections.map((s) => s.section),
    // None of the ingested sources publish grading schemes or required texts; say so rather than guess.
    grading: null,
    texts: [],
    missing: ['grading', 'texts', ...(term ? [] : ['term'])],
  };
  return {
    data,
    hints: {
      confidence: [{ name: 'outline-completeness', value: completeness([data.description, data.designation, data.credits, data.instructors, term]) }],
      warnings: args.term && !terms.includes(args.term) ? [{ type: 'validation', severity: 'low', message: `No offering data for ${args.term}; course-level fields shown.` }] : [],
      nextActions: [{ action: 'see-sections', priority: 'medium', tool: 'tn_course_section_list', data: { course: view.ref, ...(term ? { term } : {}) } }],
      validityPeriod: 'long',
    },
  };
});
