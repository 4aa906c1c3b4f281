import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { CATALOG_TOOL, completeness, CourseRefInput, loadCourse } from '../course-lookup.js';
import { newestFirst, TermInput } from '../term-input.js';

export const outlineTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_outline',
  title: 'Course outline',
  description:
    'Returns the outline of a course for a term: description, designation (e.g. SFU WQB), delivery, credits, notes, requisite ' +
    'text, the term\'s instructors and sections, and grading and texts where the source has them (null, and said so, where it ' +
    'does not). Use this when a student asks what a course covers or how it runs. Example: { "course": "sfu:CMPT 225", "term": "2025-fall" }.',
  input: z.strictObject({ course: CourseRefInput, term: TermInput.optional().describe('Term; defaults to the newest term with data') }),
  output: z.object({
    course: z.string(),
    title: z.string().nullable(),
    term: z.string().nullable(),
    description: z.string().nullable(),
    designation: z.string().nullable(),
    deliveryMethods: z.array(z.string()),
    credits: z.number().nullable(),
    notes: z.string().nullable(),
    prerequisitesText: z.string().nullable(),
    corequisitesText: z.string().nullable(),
    instructors: z.array(z.string()),
    sections: z.array(z.string()),
    grading: z.string().nullable().describe('Grading scheme, when the source publishes it'),
    texts: z.array(z.string()).describe('Required texts, when the source publishes them'),
    missing: z.array(z.string()).describe('Outline parts the source does not provide'),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'outline'],
  examples: [
    { description: 'SFU CMPT 225 outline, newest term', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    { description: 'For a given term', input: { course: 'sfu:CMPT 225', term: 'Fall 2025' }, expect: 'success' },
  ],
  async handler(args, ctx) {
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
  },
});
