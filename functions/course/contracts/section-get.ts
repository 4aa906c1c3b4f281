import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';
import { SectionOutputSchema } from './section-list.js';

export const sectionGetContract = defineContract({
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
});
