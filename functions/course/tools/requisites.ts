import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { parsePrerequisites } from '../prerequisites/parser.js';
import { extractRequisites } from '../prerequisites/requisites.js';
import { ParseResultSchema } from '../prerequisites/tree.js';

export const requisitesTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_requisites',
  title: 'Corequisites and exclusions',
  description:
    'Returns a course\'s corequisites (text and parsed tree) and its antirequisites / credit exclusions ("Students with ' +
    'credit for X may not take this course for further credit", "Credit will be granted for only one of …") with the ' +
    'courses they name. Use this before enrolling, to avoid a course the student cannot get credit for. Example: { "course": "sfu:CMPT 120" }.',
  input: z.strictObject({ course: CourseRefInput }),
  output: z.object({
    course: z.string(),
    corequisites: z.object({ text: z.string().nullable(), parsed: ParseResultSchema.nullable() }),
    exclusions: z.array(
      z.object({
        codes: z.array(z.string()).describe('Courses that exclude (or are excluded by) this one'),
        refs: z.array(z.string()),
        text: z.string().describe('The sentence as published'),
      }),
    ),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'prerequisites'],
  examples: [{ description: 'Exclusions of SFU CMPT 120', input: { course: 'sfu:CMPT 120' }, expect: 'success' }],
  async handler(args, ctx) {
    const { view } = await loadCourse(ctx, args.course);
    const coreqText = view.corequisitesText;
    const corequisites = coreqText
      ? parsePrerequisites(coreqText, { institution: view.institution, defaultSubject: view.subject, corequisite: true })
      : null;
    // SFU states exclusions in notes; UBC and Langara inside the description.
    const exclusions = [view.notes, view.description]
      .flatMap((text) => extractRequisites(text ?? '', { self: view.code, defaultSubject: view.subject }))
      .map((requisite) => ({ ...requisite, refs: requisite.codes.map((code) => `${view.institution}:${code}`) }));
    return {
      data: { course: view.ref, corequisites: { text: coreqText, parsed: corequisites }, exclusions },
      hints: {
        confidence: [
          { name: 'corequisites-parsed', value: !corequisites || corequisites.fullyParsed ? 1 : 0.4 },
          { name: 'source-text-available', value: view.notes || view.description ? 1 : 0.3 },
        ],
        nextActions: exclusions.length
          ? [{ action: 'check-record', priority: 'high', description: 'ask whether the student already has credit for an excluded course' }]
          : [],
        validityPeriod: 'long',
      },
    };
  },
});
