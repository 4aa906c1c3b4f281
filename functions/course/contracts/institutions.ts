import * as z from 'zod/v4';
import { defineContract } from '../../shared/tools/define-tool.js';
import { paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { CATALOG_TOOL } from './catalog-tool.js';

export const InstitutionSchema = z.object({
  id: z.string().describe('Slug used in course references, e.g. "sfu"'),
  name: z.string(),
  bctgCode: z.string().optional().describe('BC Transfer Guide code, e.g. "UBCV"'),
  sources: z.array(
    z.object({
      source: z.string(),
      lastIngestedAt: z.iso.datetime(),
      records: z.number().int(),
      nextScheduledRun: z.iso.datetime().nullable().describe('When scheduled ingestion runs next; null when not scheduled (local)'),
    }),
  ),
  lastIngestedAt: z.iso.datetime().nullable(),
  courses: z.number().int().optional().describe('Courses in the catalog for this institution, merged across its sources (0 when no catalog source covers it)'),
  aliases: z.array(z.string()).optional().describe('Other names and codes the transfer tools accept for it, e.g. "UBC Vancouver", "LANG"'),
  sendsTransferRules: z
    .boolean()
    .optional()
    .describe('Whether Tutor Nexus holds BC Transfer Guide rules with this institution as the sending institution, i.e. whether tn_transfer_resolve can plan transfers from it'),
  transferReceivers: z.array(z.string()).optional().describe('As a sender: the institutions it has transfer rules towards (slugs)'),
});

export const institutionsContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_institutions',
  title: 'List institutions',
  description:
    'Lists the institutions Tutor Nexus knows, with the slug to use in course references, the BC Transfer Guide code, and per ' +
    'data source when it was last ingested, how many records its last run carried and when the next scheduled ingestion runs. Use this to find the right institution id ' +
    'or to tell a student how fresh and how complete the data is (course count per institution). Returns a page of institutions. Example: {}.',
  input: z.strictObject({ ...PaginationInput }),
  output: paginated(InstitutionSchema),
  responseTime: 'fast',
  tags: ['catalog', 'institutions'],
  examples: [{ description: 'All institutions', input: {}, expect: 'success' }],
});
