import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';

export const similarContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_similar',
  title: 'Find similar courses',
  description:
    'Finds courses at the same institution whose title and description are most similar to a given course (text similarity, ' +
    'never the course itself). Use this when a course is full or not offered and the student wants alternatives. Returns a ' +
    'ranked page of courses. Example: { "course": "sfu:CMPT 225" }.',
  input: z.strictObject({ course: CourseRefInput, ...PaginationInput }),
  output: paginated(z.object({ ref: z.string(), title: z.string().nullable(), score: z.number(), sharedSubject: z.boolean() })),
  responseTime: 'fast',
  tags: ['catalog', 'search'],
  examples: [{ description: 'Courses like SFU CMPT 225', input: { course: 'sfu:CMPT 225', limit: 5 }, expect: 'success' }],
});
