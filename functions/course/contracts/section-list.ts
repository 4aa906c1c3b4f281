import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { SectionSchema } from '../../catalog/catalog-model.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const SectionOutputSchema = SectionSchema.omit({ kind: true });

export const sectionListContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_section_list',
  title: 'List sections of a course',
  description:
    'Lists the sections of a course in a term (or every term, newest first) with meeting days and times, campus, delivery, ' +
    'instructors and seats where the source has them. Use this when the student is choosing a section or checking for time ' +
    'conflicts. Returns a page of sections. Example: { "course": "sfu:CMPT 225", "term": "2025-fall" }.',
  input: z.strictObject({ course: CourseRefInput, term: optionalField(TermInput), ...PaginationInput }),
  output: paginated(SectionOutputSchema),
  responseTime: 'fast',
  tags: ['catalog', 'schedule', 'sections'],
  examples: [
    { description: 'SFU CMPT 225 sections in Fall 2025', input: { course: 'sfu:CMPT 225', term: '2025-fall' }, expect: 'success' },
    { description: 'Langara CPSC 1150 in Langara\'s term code', input: { course: 'langara:CPSC 1150', term: '202330' }, expect: 'success' },
  ],
});
