import * as z from 'zod/v4';
import { effectiveDateInput } from '../../catalog/effective-date.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { TRANSFER_TOOL } from './transfer-tool.js';
import { InstitutionInput } from './institution-input.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { RuleSummarySchema } from '../resolve/match-output.js';
import { AWARD_FORMS } from '../award-forms.js';

const SearchItemSchema = RuleSummarySchema.extend({
  awardedAs: z
    .array(z.enum(AWARD_FORMS))
    .optional()
    .describe('With targetCourse: how the rule gives it (target, alternative, exemption, conditional, partial; generic for generic credit)'),
});

export const searchContract = defineContract({
  ...TRANSFER_TOOL,
  name: 'transfer_search',
  title: 'Search transfer agreements',
  description:
    'Lists the BC Transfer Guide agreements from one institution to another, optionally for one subject or one course and only ' +
    'those in force at a date. Use this to browse what transfers between two schools; for a student\'s set of courses use ' +
    'tn_transfer_resolve. With targetCourse it looks the other way: which sending courses (or sets) earn that receiving course, from ' +
    'one sender or all, in any form the wording awards it, or generic credit such as "ASC 2XX" (awardedAs says how). Returns a page of rules with their targets and dates. Example: { "sourceInstitution": "langara", ' +
    '"targetInstitution": "sfu", "subject": "CPSC" }; reverse: { "targetInstitution": "sfu", "targetCourse": "CMPT 225" }.',
  input: z.strictObject({
    sourceInstitution: z.string().min(2).max(80).optional().describe('Sending institution slug, code or name, e.g. "langara"; optional with targetCourse (then every sender)'),
    targetInstitution: InstitutionInput('Receiving'),
    subject: z.string().regex(/^[A-Za-z]{2,5}$/).optional().describe('Only this sending subject, e.g. "CPSC"'),
    course: z.string().min(3).max(64).optional().describe('Only this sending course, e.g. "CPSC 1150"'),
    targetCourse: z
      .string()
      .min(3)
      .max(64)
      .optional()
      .describe('Reverse lookup: only rules that award this receiving course or generic credit, e.g. "CMPT 225", "sfu:CMPT 225", "ASC 2XX" (which sending courses or sets earn it)'),
    asOfDate: optionalField(effectiveDateInput('Only rules in force on this date; all dates when omitted')),
    ...PaginationInput,
  }),
  output: paginated(SearchItemSchema),
  category: 'query',
  responseTime: 'fast',
  tags: ['transfer', 'search'],
  examples: [
    { description: 'Langara CPSC agreements with SFU', input: { sourceInstitution: 'langara', targetInstitution: 'sfu', subject: 'CPSC' }, expect: 'success' },
    { description: 'Reverse lookup: what earns SFU CMPT 225, from any sender', input: { targetInstitution: 'sfu', targetCourse: 'CMPT 225' }, expect: 'success' },
    { description: 'Reverse lookup of generic credit: what earns SFU ASC 2XX', input: { targetInstitution: 'sfu', targetCourse: 'ASC 2XX' }, expect: 'success' },
  ],
});
