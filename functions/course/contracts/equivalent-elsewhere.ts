import * as z from 'zod/v4';
import { effectiveDateInput } from '../../catalog/effective-date.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { EquivalenceSchema } from '../../catalog/transfer-equivalence.js';

export const equivalentElsewhereContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_equivalent_elsewhere',
  title: 'Equivalent courses elsewhere',
  description:
    'Returns the courses at other institutions that this course transfers to (outgoing) or that transfer to it (incoming), from the ' +
    'BC Transfer Guide rules Tutor Nexus has ingested, in force at a date (default today). Use this for "what is CPSC 1150 ' +
    'worth at SFU?"; for a set of courses use tn_transfer_resolve. Example: { "course": "langara:CPSC 1150", "otherInstitution": "sfu" }.',
  input: z.strictObject({
    course: CourseRefInput,
    otherInstitution: z.string().min(2).max(40).optional().describe('Only rules with this institution, e.g. "sfu" or "UBCV"'),
    direction: z.enum(['outgoing', 'incoming', 'both']).default('both').describe('outgoing, incoming, or both (default)'),
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force on; default today')),
    ...PaginationInput,
  }),
  output: paginated(EquivalenceSchema),
  responseTime: 'fast',
  tags: ['catalog', 'transfer'],
  examples: [{ description: 'Where Langara CPSC 1150 transfers', input: { course: 'langara:CPSC 1150' }, expect: 'success' }],
});
