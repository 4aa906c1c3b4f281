import * as z from 'zod/v4';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { institutionId } from '../../shared/catalog/institutions.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { EquivalenceSchema, equivalencesOf, inForce } from '../transfer-equivalence.js';

export const equivalentElsewhereTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_equivalent_elsewhere',
  title: 'Equivalent courses elsewhere',
  description:
    'Returns the courses at other institutions that this course transfers to (outgoing) or that transfer to it (incoming), from the ' +
    'BC Transfer Guide rules Tutor Nexus has ingested, in force at a date (default today). Use this for "what is CPSC 1150 ' +
    'worth at SFU?"; for a set of courses use tn_transfer_resolve. Example: { "course": "langara:CPSC 1150", "otherInstitution": "sfu" }.',
  input: z.strictObject({
    course: CourseRefInput,
    otherInstitution: z.string().min(2).max(40).optional().describe('Only rules with this institution, e.g. "sfu" or "UBCV"'),
    direction: z.enum(['outgoing', 'incoming', 'both']).default('both').describe('outgoing, incoming, or both (default)'),
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force on; default today')),
    ...PaginationInput,
  }),
  output: paginated(EquivalenceSchema),
  responseTime: 'fast',
  tags: ['catalog', 'transfer'],
  examples: [{ description: 'Where Langara CPSC 1150 transfers', input: { course: 'langara:CPSC 1150' }, expect: 'success' }],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const asOf = effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(view.institution));
    const other = args.otherInstitution ? institutionId(args.otherInstitution) : undefined;
    const all = equivalencesOf(bundle.extras);
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
  },
});
