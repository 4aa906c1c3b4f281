import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { institutionId } from '../../catalog/institutions.js';
import { pageOf } from '../../mcp/tools/pagination.js';
import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { searchContract } from '../contracts/search.js';

export const searchTool = bindCatalogTool(searchContract, async (args, ctx) => {
  const institution = args.institution ? institutionId(args.institution) : undefined;
  const index = await catalogCacheFor(ctx.services.store).getIndex();
  const hits = index.query(args.query, { institution, subject: args.subject?.toUpperCase(), level: args.level, term: args.term });
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
        snippet: course.snippet,
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
});
