import { listInstitutions } from '../../catalog/institution-registry.js';
import { INSTITUTIONS } from '../../catalog/institutions.js';
import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { freshness } from '../course-lookup.js';
import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { nextScheduledRun } from '../ingestion-schedule.js';
import { institutionsContract } from '../contracts/institutions.js';
import { readCrawlFreshness } from '../source-freshness.js';

export const institutionsTool = bindCatalogTool(institutionsContract, async (args, ctx) => {
  const [stored, crawled] = await Promise.all([listInstitutions(ctx.services.store), readCrawlFreshness(ctx.services.store, ctx.now())]);
  // The warm function's catalog index already holds every merged course: counting there costs no reads.
  const index = await catalogCacheFor(ctx.services.store).getIndex();
  const courseCounts = index.courseCounts();
  // Institutions we know by name (every BC Transfer Guide code we accept) are listed even before any
  // catalog source covers them, with no sources: a student can still use their slug.
  const known = INSTITUTIONS.filter((i) => !stored.some((s) => s.id === i.id)).map((i) => ({
    id: i.id,
    name: i.name,
    ...(i.bctgCode ? { bctgCode: i.bctgCode } : {}),
    sources: [],
  }));
  const institutions = [...stored, ...known].map((institution) => {
    const verified = crawled.byInstitution.get(institution.id);
    const sources = institution.sources.map(({ sent, ...s }) => {
      const crawl = verified?.get(s.source);
      const rulesSent = crawl?.sent ?? sent;
      return {
        ...s,
        nextScheduledRun: nextScheduledRun(s.lastIngestedAt, ctx.services.config),
        ...(crawl ? { lastVerifiedAt: crawl.verifiedAt } : {}),
        ...(rulesSent !== undefined ? { rulesSent } : {}),
      };
    });
    return {
      ...institution,
      sources,
      lastIngestedAt: institution.sources.map((s) => s.lastIngestedAt).sort().at(-1) ?? null,
      courses: courseCounts.get(institution.id) ?? 0,
      sendsTransferRules: sources.some((s) => s.source === 'bctransferguide' && (s.rulesSent ?? 0) > 0),
    };
  });
  institutions.sort((a, b) => b.sources.length - a.sources.length || a.id.localeCompare(b.id));
  const page = pageOf(institutions, args, ctx.services.cursors, { tool: ctx.toolName });
  const withData = institutions.filter((i) => i.sources.length);
  return {
    data: { ...page, sourceFreshness: crawled.sources },
    hints: {
      confidence: [
        { name: 'institutions-with-catalog-data', value: institutions.length ? withData.length / institutions.length : 0 },
        { name: 'freshness', value: withData.length ? Math.min(...withData.map((i) => freshness(i.lastIngestedAt ?? undefined, ctx.now()))) : 0 },
      ],
      nextActions: [{ action: 'search-courses', priority: 'medium', tool: 'tn_course_search', description: 'search one institution\'s courses' }],
      validityPeriod: 'long',
    },
  };
});
