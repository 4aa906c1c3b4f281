import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { CourseViewSchema } from '../../catalog/course-view.js';

export const getContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_get',
  title: 'Get a course',
  description:
    'Returns everything known about one course: title, description, credits, prerequisite and corequisite text, notes, ' +
    'designation, attributes, the terms it is offered and has sections or grade data for, and where each part came from. Use this ' +
    'when the student names a course. Unknown courses are NOT_FOUND with close matches. Example: { "course": "sfu:CMPT 225" }.',
  input: z.strictObject({ course: CourseRefInput }),
  output: CourseViewSchema.extend({
    offeredTerms: z.array(z.string()).describe('Terms with offerings or sections, newest first'),
    sectionTerms: z.array(z.string()),
    gradeTerms: z.array(z.string()).describe('Terms with grade distributions (tn_course_grades)'),
    materialsCount: z.number().int(),
    knownFrom: z.array(z.enum(['catalogue', 'offerings', 'sections', 'grades', 'materials', 'transfer-rules'])).optional(),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'course'],
  examples: [
    { description: 'SFU CMPT 225', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    { description: 'A loose reference is normalised', input: { course: 'SFU:cmpt120' }, expect: 'success' },
    { description: 'An unknown course is NOT_FOUND with close matches', input: { course: 'sfu:CMPT 999' }, expect: 'NOT_FOUND' },
  ],
});
