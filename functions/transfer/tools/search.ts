import { z } from 'zod';
import { normalizeCourseCode } from '../../shared/catalog/course-ref.js';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { institutionId } from '../../shared/catalog/institutions.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { TRANSFER_TOOL } from '../transfer-tool.js';
import { ToolError } from '../../shared/tools/errors.js';
import { paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { ruleSummary, RuleSummarySchema } from '../match-output.js';
import { inForce } from '../resolve.js';
import { pairRules } from '../transfer-store.js';

export const searchTool = defineTool({
  ...TRANSFER_TOOL,
  name: 'transfer_search',
  title: 'Search transfer agreements',
  description:
    'Lists the BC Transfer Guide agreements from one institution to another, optionally for one subject or one course and only ' +
    'those in force at a date. Use this to browse what transfers between two schools; for a student\'s set of courses use ' +
    'tn_transfer_resolve. Returns a page of rules with their targets and dates. Example: { "sourceInstitution": "langara", ' +
    '"targetInstitution": "sfu", "subject": "CPSC" }.',
  input: z.strictObject({
    sourceInstitution: z.string().min(2).max(40).describe('Sending institution slug or code, e.g. "langara"'),
    targetInstitution: z.string().min(2).max(40).describe('Receiving institution slug or code, e.g. "sfu"'),
    subject: z.string().regex(/^[A-Za-z]{2,5}$/).optional().describe('Only this sending subject, e.g. "CPSC"'),
    course: z.string().min(3).max(64).optional().describe('Only this sending course, e.g. "CPSC 1150"'),
    asOfDate: optionalField(effectiveDateInput('Only rules in force on this date; all dates when omitted')),
    ...PaginationInput,
  }),
  output: paginated(RuleSummarySchema),
  category: 'query',
  responseTime: 'fast',
  tags: ['transfer', 'search'],
  examples: [{ description: 'Langara CPSC agreements with SFU', input: { sourceInstitution: 'langara', targetInstitution: 'sfu', subject: 'CPSC' }, expect: 'success' }],
  async handler(args, ctx) {
    const sender = institutionId(args.sourceInstitution);
    const receiver = institutionId(args.targetInstitution);
    const code = args.course ? normalizeCourseCode(args.course.includes(':') ? args.course.split(':')[1]! : args.course) : undefined;
    if (args.course && !code) throw ToolError.badRequest('course must be a code like "CPSC 1150".', [{ field: 'course', message: 'expected SUBJECT NUMBER' }]);
    const prefix = code ? `${code}#` : args.subject ? `${args.subject.toUpperCase()} ` : undefined;
    const asOf = args.asOfDate === undefined ? undefined : effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver));
    const scope = { tool: ctx.toolName, query: [sender, receiver, prefix, asOf] };
    const startKey = args.cursor ? ctx.services.cursors.decode<Record<string, unknown>>(scope, args.cursor) : undefined;
    const page = await pairRules(ctx.services.store, { sender, receiver, prefix, limit: args.limit, startKey });
    const rules = asOf ? page.rules.filter((r) => inForce(r, asOf)) : page.rules;
    return {
      data: {
        items: rules.map(ruleSummary),
        ...(page.lastKey ? { nextCursor: ctx.services.cursors.encode(scope, page.lastKey) } : {}),
        hasMore: Boolean(page.lastKey),
      },
      hints: {
        confidence: [
          { name: 'rules-found', value: rules.length ? 1 : 0 },
          { name: 'typed-targets', value: rules.length ? rules.filter((r) => r.fullyParsed).length / rules.length : 0 },
        ],
        nextActions: [{ action: 'resolve', priority: 'medium', tool: 'tn_transfer_resolve', description: 'resolve a student\'s set of courses' }],
        assumptions: ['A page may hold fewer items than the limit when rules outside asOfDate are filtered out; follow nextCursor'],
        validityPeriod: 'long',
      },
    };
  },
});
