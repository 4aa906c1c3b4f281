import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
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
      lastVerifiedAt: z.iso.datetime().optional().describe("When a crawl of the live source last found this institution's data current; absent for data from files"),
      rulesSent: z.number().int().optional().describe('Of the records, transfer rules with this institution as sender'),
    }),
  ),
  lastIngestedAt: z.iso.datetime().nullable(),
  courses: z.number().int().optional().describe('Courses in the catalog for this institution, merged across its sources (0 when no catalog source covers it)'),
  sendsTransferRules: z.boolean().optional().describe('Whether transfer rules from this institution are held: tn_transfer_resolve can plan from it'),
});

export const SourceFreshnessSchema = z.object({
  source: z.string().describe('bctransferguide or sfu-outlines'),
  feeds: z.array(z.string()).describe('The sources[].source its records go to'),
  verifiedAt: z.iso.datetime().nullable().describe('Every part still crawled (each sender, each term not over) was found current at least this recently; null before a complete crawl'),
  newestVerifiedAt: z.iso.datetime().nullable(),
  changedAt: z.iso.datetime().nullable().describe('When a crawl last changed its data'),
  ageHours: z.number().nullable().describe('Hours since verifiedAt'),
  parts: z.array(z.object({ part: z.string().describe('e.g. sender:LANG, term:2026-fall'), verifiedAt: z.iso.datetime(), changedAt: z.iso.datetime().optional(), lastFailedAt: z.iso.datetime().optional() })),
  lastRun: z
    .object({
      status: z.string().describe('complete, paused (resumes), failed, busy or fresh'),
      finishedAt: z.iso.datetime(),
      pages: z.object({ fetched: z.number().int(), unchanged: z.number().int(), failed: z.number().int(), missing: z.number().int() }),
    })
    .optional(),
});

export const institutionsContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_institutions',
  title: 'List institutions',
  description:
    'Lists the institutions Tutor Nexus knows, with the slug to use in course references, the BC Transfer Guide code, and per ' +
    'data source when it was last ingested, how many records its last run carried and when the next scheduled ingestion runs. Use this to find the right institution id ' +
    'or to tell a student how fresh and how complete the data is (course count per institution), and which institutions have transfer rules as senders ' +
    '(sendsTransferRules); sourceFreshness: when each live source (BC Transfer Guide, SFU outlines) was last crawled and verified. ' +
    'Returns a page of institutions. Example: {}.',
  input: z.strictObject({ ...PaginationInput }),
  output: paginated(InstitutionSchema).extend({
    sourceFreshness: z.array(SourceFreshnessSchema).optional().describe('Per source crawled from its live site'),
  }),
  responseTime: 'fast',
  tags: ['catalog', 'institutions'],
  examples: [{ description: 'All institutions', input: {}, expect: 'success' }],
});
