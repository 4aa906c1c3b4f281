import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';

export const InstructorSchema = z.object({
  name: z.string().describe('One entry per person, however spelled'),
  spellings: z.array(z.string()).optional(),
  terms: z.array(z.string()).describe('Terms taught, newest first'),
  sections: z.array(z.object({ term: z.string(), section: z.string() })),
  grades: z
    .object({
      sections: z.number().int(),
      enrolled: z.number().int(),
      weightedAverage: z.number().nullable(),
      terms: z.array(z.string()).optional(),
    })
    .nullable()
    .describe('Grade averages of this instructor\'s sections, where grade data exists'),
});

export const instructorContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_instructor',
  title: 'Who teaches a course',
  description:
    'Lists who has taught a course, in which terms and sections, with the grade averages of their sections where grade data ' +
    'exists (UBC). Use this when a student asks who teaches a course or compares instructors. Returns instructors, most ' +
    'recent first. Example: { "course": "sfu:CMPT 225" }.',
  input: z.strictObject({ course: CourseRefInput }),
  output: z.object({ course: z.string(), instructors: z.array(InstructorSchema) }),
  responseTime: 'fast',
  tags: ['catalog', 'instructors'],
  examples: [{ description: 'Instructors of SFU CMPT 225', input: { course: 'sfu:CMPT 225' }, expect: 'success' }],
});
