import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { ParseResultSchema } from '../prerequisites/tree.js';

export const requisitesContract = defineContract({
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
});
