import { listInstitutions } from '../../shared/catalog/institution-registry.js';
import { findInstitution, INSTITUTIONS } from '../../shared/catalog/institutions.js';
import { pageOf } from '../../shared/tools/pagination.js';
import { bindCatalogTool, freshness } from '../course-lookup.js';
import { catalogCacheFor } from '../catalog-cache.js';
import { nextScheduledRun } from '../ingestion-schedule.js';
import { institutionsContract } from '../contracts/institutions.js';
import { transferReceiversBySender } from '../transfer-senders-store.js';

export const institutionsTool = bindCatalogTool(institutionsContract, async (args, ctx) => {
  const stored = await listInstitutions(ctx.services.store);
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
  const receivers = await transferReceiversBySender(ctx.services.store, [...stored, ...known].map((i) => i.id));
  const institutions = [...stored, ...known].map((institution) => {
    const entry = findInstitution(institution.id);
    const aliases = [...new Set([...(entry?.aliases ?? []), ...(entry && entry.name !== institution.name ? [entry.name] : [])])];
    const sendsTo = receivers.get(institution.id) ?? [];
    return {
      ...institution,
      sources: institution.sources.map((s) => ({ ...s, nextScheduledRun: nextScheduledRun(s.lastIngestedAt, ctx.services.config) })),
      lastIngestedAt: institution.sources.map((s) => s.lastIngestedAt).sort().at(-1) ?? null,
      courses: courseCounts.get(institution.id) ?? 0,
      ...(aliases.length ? { aliases } : {}),
      sendsTransferRules: sendsTo.length > 0,
      ...(sendsTo.length ? { transferReceivers: sendsTo } : {}),
    };
  });
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
});
