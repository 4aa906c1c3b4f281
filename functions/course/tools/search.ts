import * as z from 'zod/v4';
import { institutionId } from '../../shared/catalog/institutions.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { catalogCacheFor } from '../catalog-cache.js';
import { CATALOG_TOOL } from '../course-lookup.js';

const HitSchema = z.object({
  ref: z.string(),
  title: z.string().nullable(),
  credits: z.number().nullable(),
  institution: z.string(),
  level: z.number().int(),
  score: z.number().describe('Relevance (BM25); higher is better, comparable only within one search'),
  snippet: z.string().nullable().describe('Start of the description'),
});

export const searchTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_search',
  title: 'Search courses',
  description:
    'Ranked full-text search over course codes, titles and descriptions, optionally within one institution, subject or year ' +
    'level. Use this when the student describes a topic ("data structures", "linear algebra") or a partial code. Returns a page ' +
    'of matches with refs to pass to tn_course_get. Example: { "query": "data structures", "institution": "sfu" }.',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe('Words or a course code, e.g. "data structures" or "CMPT 225"'),
    institution: z.string().min(2).max(40).optional().describe('Institution slug or code, e.g. "sfu", "UBCV", "langara"'),
    subject: z.string().regex(/^[A-Za-z]{2,5}$/).optional().describe('Subject code, e.g. "CMPT"'),
    level: z.number().int().min(1).max(9).optional().describe('Year level: 1 for 100-level (1000-level at Langara), 2 for 200-level, …'),
    ...PaginationInput,
  }),
  output: paginated(HitSchema),
  responseTime: 'fast',
  tags: ['catalog', 'search'],
  examples: [
    { description: 'Data structures at SFU', input: { query: 'data structures', institution: 'sfu', limit: 5 }, expect: 'success' },
    { description: 'An empty query is refused', input: { query: '' }, expect: 'BAD_REQUEST' },
  ],
  async handler(args, ctx) {
    const institution = args.institution ? institutionId(args.institution) : undefined;
    const index = await catalogCacheFor(ctx.services.store).getIndex();
    const hits = index.query(args.query, { institution, subject: args.subject?.toUpperCase(), level: args.level });
    const page = pageOf(hits, args, ctx.services.cursors, { tool: ctx.toolName, query: { ...args, limit: undefined, cursor: undefined } });
    const top = hits[0]?.score ?? 0;
    return {
      data: {
        ...page,
        items: page.items.map(({ course, score }) => ({
          ref: course.ref,
          title: course.title,
          credits: course.credits,
          institution: course.institution,
          level: course.level,
          score: Math.round(score * 1000) / 1000,
          snippet: course.description ? course.description.slice(0, 160) : null,
        })),
      },
      hints: {
        confidence: [
          { name: 'has-results', value: hits.length ? 1 : 0 },
          // A clear winner is more trustworthy than a flat field of weak matches.
          { name: 'top-score-margin', value: hits.length > 1 ? Math.min(1, (top - hits[1]!.score) / top + 0.5) : hits.length },
        ],
        nextActions: hits.length
          ? [{ action: 'open-course', priority: 'high', tool: 'tn_course_get', description: `get details of ${hits[0]!.course.ref}`, data: { course: hits[0]!.course.ref } }]
          : [{ action: 'broaden-search', priority: 'high', tool: 'tn_course_search', description: 'try fewer words or drop the filters' }],
        sourceQuality: 'high',
        validityPeriod: 'long',
      },
    };
  },
});
