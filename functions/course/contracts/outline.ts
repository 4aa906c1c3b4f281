import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const outlineContract = defineContract({
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
});
