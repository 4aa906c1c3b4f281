import { effectiveDate, institutionTimeZone } from '../../catalog/effective-date.js';
import { institutionId } from '../../catalog/institutions.js';
import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { equivalencesOf, inForce } from '../../catalog/transfer-equivalence.js';
import { equivalentElsewhereContract } from '../contracts/equivalent-elsewhere.js';

export const equivalentElsewhereTool = bindCatalogTool(equivalentElsewhereContract, async (args, ctx) => {
  const { bundle, view } = await loadCourse(ctx, args.course);
  const asOf = effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(view.institution));
  const other = args.otherInstitution ? institutionId(args.otherInstitution) : undefined;
  const all = equivalencesOf(bundle.transferRules);
  const matching = all
    .filter((e) => inForce(e, asOf))
    .filter((e) => args.direction === 'both' || e.direction === args.direction)
    .filter((e) => !other || e.otherInstitution === other)
    .sort((a, b) => a.otherInstitution.localeCompare(b.otherInstitution) || b.effectiveStart.localeCompare(a.effectiveStart));
  const page = pageOf(matching, args, ctx.services.cursors, { tool: ctx.toolName, query: [view.ref, other, args.direction, asOf] });
  return {
    data: page,
    hints: {
      confidence: [
        { name: 'rules-found', value: matching.length ? 1 : 0 },
        { name: 'typed-targets', value: matching.length ? matching.filter((e) => e.targets.every((t) => t.kind !== 'unparsed')).length / matching.length : 0 },
      ],
      nextActions: matching.length
        ? [{ action: 'resolve-set', priority: 'medium', tool: 'tn_transfer_resolve', description: 'resolve several courses together (bundled rules)' }]
        : [{ action: 'no-rules', priority: 'low', description: all.length ? 'no rule is in force for that date or filter' : 'no transfer rules are stored for this course' }],
      ...(all.length ? {} : { contextNeeded: ['BC Transfer Guide rules for this course (npm run ingest -- --source bctransferguide)'] }),
      validityPeriod: 'long',
    },
  };
});
