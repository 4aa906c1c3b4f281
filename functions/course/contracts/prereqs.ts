import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { ParseResultSchema, RequirementNodeSchema } from '../prerequisites/tree.js';

export const CompletedSchema = z.strictObject({
  course: z.string().min(3).max(64).describe('Course code, e.g. "CMPT 125" or "sfu:CMPT 125"'),
  grade: z.string().trim().min(1).max(8).optional().describe('Letter grade ("B+") or percentage ("78%"), if known'),
});

export const prereqsContract = defineContract({
  ...CATALOG_TOOL,
  // The answer depends on the student's record, so only the parse is worth caching.
  cacheable: false,
  cacheTTL: undefined,
  name: 'course_prereqs',
  title: 'Prerequisites, parsed and checked',
  description:
    'Returns a course\'s prerequisite text and a parsed tree (AND/OR of courses with minimum grades, "or equivalent", ' +
    'concurrency, and non-course conditions kept as text; clauses it could not parse are flagged, never dropped). Given the ' +
    'courses a student completed (with grades), it answers whether they are satisfied and what is missing (a short verdict); leadsTo: what requires it. Use this for "can I ' +
    'take X?". Example: { "course": "sfu:CMPT 225", "completed": [{ "course": "CMPT 125", "grade": "B" }, { "course": "MACM 101" }] }.',
  input: z.strictObject({
    course: CourseRefInput,
    completed: z.array(CompletedSchema).max(200).optional().describe('Courses the student has completed, with grades when known'),
    inProgress: optionalField(z.array(z.string().min(3).max(64)).max(50).describe('Courses the student is taking now (count only where concurrent enrolment is allowed)')),
  }),
  output: z.object({
    course: z.string(),
    text: z.string().nullable().describe('The prerequisite text as published'),
    parsed: ParseResultSchema,
    treeFrom: z
      .enum(['source', 'parser'])
      .optional()
      .describe('"source" when the catalog itself publishes the rule as a tree (UVic\'s Kuali rules) and that tree is returned; "parser" when it was parsed from the text'),
    check: z
      .object({
        satisfied: z.union([z.boolean(), z.literal('unknown')]).describe('true, false, or "unknown" when something cannot be verified'),
        missing: z.array(RequirementNodeSchema).describe('The smallest unmet parts of the tree'),
        unmetConditions: z.array(z.string()).describe('Non-course conditions that could not be verified'),
        explanation: z.array(z.string()),
        status: z.enum(['met', 'met-if-grades', 'not-met', 'cannot-check', 'not-known']).optional(),
        verdict: z.string().optional().describe('For the student: one or two sentences, ≤ 160 characters'),
        stillNeeded: z.array(z.object({ text: z.string(), courses: z.array(z.string()) })).optional().describe('On the way needing fewest courses'),
        gradesToConfirm: z.array(z.object({ course: z.string(), minGrade: z.string() })).optional(),
        cannotCheck: z.array(z.string()).optional(),
      })
      .nullable()
      .describe('Present when completed courses were given'),
    prerequisitesKnown: z.boolean().optional().describe('False without a catalogue entry: unknown, not empty'),
    leadsTo: z.array(z.object({ course: z.string(), code: z.string(), title: z.string().nullable() })).optional().describe('Courses whose requisites name this one'),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'prerequisites'],
  examples: [
    { description: 'Parse SFU CMPT 225 prerequisites', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    {
      description: 'Check a student record against them',
      input: { course: 'sfu:CMPT 225', completed: [{ course: 'CMPT 125', grade: 'B' }, { course: 'MACM 101', grade: 'C' }] },
      expect: 'success',
    },
  ],
});
