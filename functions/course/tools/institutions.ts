import * as z from 'zod/v4';
import { listInstitutions } from '../../ingest/institution-registry.js';
import { INSTITUTIONS } from '../../shared/catalog/institutions.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { CATALOG_TOOL, freshness } from '../course-lookup.js';
import { nextScheduledRun } from '../ingestion-schedule.js';

const InstitutionSchema = z.object({
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
});

export const institutionsTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_institutions',
  title: 'List institutions',
  description:
    'Lists the institutions Tutor Nexus knows, with the slug to use in course references, the BC Transfer Guide code, and per ' +
    'data source when it was last ingested and when the next scheduled ingestion runs. Use this to find the right institution id ' +
    'or to tell a student how fresh the data is. Returns a page of institutions. Example: {}.',
  input: z.strictObject({ ...PaginationInput }),
  output: paginated(InstitutionSchema),
  responseTime: 'fast',
  tags: ['catalog', 'institutions'],
  examples: [{ description: 'All institutions', input: {}, expect: 'success' }],
  async handler(args, ctx) {
    const stored = await listInstitutions(ctx.services.store);
    // Institutions we know by name (every BC Transfer Guide code we accept) are listed even before any
    // catalog source covers them, with no sources: a student can still use their slug.
    const known = INSTITUTIONS.filter((i) => !stored.some((s) => s.id === i.id)).map((i) => ({
      id: i.id,
      name: i.name,
      ...(i.bctgCode ? { bctgCode: i.bctgCode } : {}),
      sources: [],
    }));
    const institutions = [...stored, ...known].map((institution) => ({
      ...institution,
      sources: institution.sources.map((s) => ({ ...s, nextScheduledRun: nextScheduledRun(s.lastIngestedAt, ctx.services.config) })),
      lastIngestedAt: institution.sources.map((s) => s.lastIngestedAt).sort().at(-1) ?? null,
    }));
    institutions.sort((a, b) => b.sources.length - a.sources.length || a.id.localeCompare(b.id));
    const page = pageOf(institutions, args, ctx.services.cursors, { tool: ctx.toolName });
    const withData = institutions.filter((i) => i.sources.length);
    return {
      data: page,
      hints: {
        confidence: [
          { name: 'institutions-with-catalog-data', value: institutions.length ? withData.length / institutions.length : 0 },
          { name: 'freshness', value: withData.length ? Math.min(...withData.map((i) => freshness(i.lastIngestedAt ?? undefined, ctx.now()))) : 0 },
        ],
        nextActions: [{ action: 'search-courses', priority: 'medium', tool: 'tn_course_search', description: 'search one institution\'s courses' }],
        validityPeriod: 'long',
      },
    };
  },
});
