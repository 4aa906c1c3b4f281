import { pageOf } from '../../mcp/tools/pagination.js';
import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { similarContract } from '../contracts/similar.js';

export const similarTool = bindCatalogTool(similarContract, async (args, ctx) => {
  const { view } = await loadCourse(ctx, args.course);
  const index = await catalogCacheFor(ctx.services.store).getIndex();
  const hits = index.similar(view);
  const page = pageOf(hits, args, ctx.services.cursors, { tool: ctx.toolName, query: view.ref });
  const top = hits[0]?.score ?? 0;
  return {
    data: {
      ...page,
      items: page.items.map(({ course, score }) => ({
        ref: course.ref,
        title: course.title,
        score: top ? Math.round((score / top) * 1000) / 1000 : 0,
        sharedSubject: course.subject === view.subject,
      })),
    },
    hints: {
      confidence: [
        { name: 'has-description', value: view.description ? 1 : 0.3 },
        { name: 'has-results', value: hits.length ? 1 : 0 },
      ],
      assumptions: ['Similarity is lexical (shared words in titles and descriptions), not curricular equivalence'],
      nextActions: [{ action: 'compare', priority: 'medium', tool: 'tn_course_get', description: 'open a similar course' }],
      validityPeriod: 'long',
    },
  };
});
