import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { MaterialSchema } from '../../catalog/catalog-model.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const materialsContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_materials',
  title: 'Course materials',
  description:
    'Lists study materials ingested for a course (past exams, homework, notes, texts, syllabi) with links and terms, from the ' +
    'materials manifests an operator loaded (docs/materials-manifest.md). Use this when a student wants practice material. Returns ' +
    'an empty list with a hint when nothing is known; entries are never invented. Example: { "course": "sfu:CMPT 225", "kind": "exam" }.',
  input: z.strictObject({
    course: CourseRefInput,
    kind: MaterialSchema.shape.materialKind.optional().describe('Only this kind: exam, homework, notes, text, syllabus or other'),
    term: optionalField(TermInput),
    ...PaginationInput,
  }),
  output: paginated(MaterialSchema.omit({ kind: true })),
  responseTime: 'fast',
  tags: ['catalog', 'materials'],
  examples: [{ description: 'Past exams for SFU CMPT 225', input: { course: 'sfu:CMPT 225', kind: 'exam' }, expect: 'success' }],
});
