import * as z from 'zod/v4';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { institutionId } from '../../shared/catalog/institutions.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { courseCodeInput } from '../resolve-input.js';
import { TRANSFER_TOOL } from '../transfer-tool.js';
import { ToolError } from '../../shared/tools/errors.js';
import { paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { ruleSummary, RuleSummarySchema } from '../match-output.js';
import { inForce } from '../resolve.js';
import type { Store } from '../../shared/store/dynamo-client.js';
import type { TransferRule } from '../rule-model.js';
import { getRules, pairRules, RoundTrips, rulesAwarding, type PairPage } from '../transfer-store.js';

export const searchTool = defineTool({
  ...TRANSFER_TOOL,
  name: 'transfer_search',
  title: 'Search transfer agreements',
  description:
    'Lists the BC Transfer Guide agreements from one institution to another, optionally for one subject or one course and only ' +
    'those in force at a date. Use this to browse what transfers between two schools; for a student\'s set of courses use ' +
    'tn_transfer_resolve. With targetCourse it looks the other way: which sending courses (or sets) earn that receiving course, from ' +
    'one sender or all. Returns a page of rules with their targets and dates. Example: { "sourceInstitution": "langara", ' +
    '"targetInstitution": "sfu", "subject": "CPSC" }; reverse: { "targetInstitution": "sfu", "targetCourse": "CMPT 225" }.',
  input: z.strictObject({
    sourceInstitution: z.string().min(2).max(40).optional().describe('Sending institution slug or code, e.g. "langara"; optional with targetCourse (then every sender)'),
    targetInstitution: z.string().min(2).max(40).describe('Receiving institution slug or code, e.g. "sfu"'),
    subject: z.string().regex(/^[A-Za-z]{2,5}$/).optional().describe('Only this sending subject, e.g. "CPSC"'),
    course: z.string().min(3).max(64).optional().describe('Only this sending course, e.g. "CPSC 1150"'),
    targetCourse: z
      .string()
      .min(3)
      .max(64)
      .optional()
      .describe('Reverse lookup: only rules that award this receiving course, e.g. "CMPT 225" or "sfu:CMPT 225" (which sending courses or sets earn it)'),
    asOfDate: optionalField(effectiveDateInput('Only rules in force on this date; all dates when omitted')),
    ...PaginationInput,
  }),
  output: paginated(RuleSummarySchema),
  category: 'query',
  responseTime: 'fast',
  tags: ['transfer', 'search'],
  examples: [
    { description: 'Langara CPSC agreements with SFU', input: { sourceInstitution: 'langara', targetInstitution: 'sfu', subject: 'CPSC' }, expect: 'success' },
    { description: 'Reverse lookup: what earns SFU CMPT 225, from any sender', input: { targetInstitution: 'sfu', targetCourse: 'CMPT 225' }, expect: 'success' },
  ],
  async handler(args, ctx) {
    const sender = args.sourceInstitution === undefined ? undefined : institutionId(args.sourceInstitution);
    const receiver = institutionId(args.targetInstitution);
    const code = args.course ? courseCodeInput(args.course, 'course') : undefined;
    const target = args.targetCourse ? courseCodeInput(args.targetCourse, 'targetCourse') : undefined;
    if (!sender && !target) {
      throw ToolError.badRequest('sourceInstitution is required unless targetCourse is given.', [{ field: 'sourceInstitution', message: 'required without targetCourse' }]);
    }
    const prefix = code ? `${code}#` : args.subject ? `${args.subject.toUpperCase()} ` : undefined;
    const asOf = args.asOfDate === undefined ? undefined : effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver));
    const scope = { tool: ctx.toolName, query: [sender, receiver, prefix, asOf, target] };
    const startKey = args.cursor ? ctx.services.cursors.decode<Record<string, unknown>>(scope, args.cursor) : undefined;
    const page = target
      ? await awardingPage(ctx.services.store, { receiver, code: target, sender, limit: args.limit, startKey })
      : await pairRules(ctx.services.store, { sender: sender!, receiver, prefix, limit: args.limit, startKey });
    const sendingMatches = (r: TransferRule) => !target || !prefix || r.sourceCourses.some((c) => (code ? c.code === code : c.code.startsWith(prefix)));
    const rules = page.rules.filter((r) => (!asOf || inForce(r, asOf)) && sendingMatches(r));
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
        assumptions: ['A page may hold fewer items than the limit when rules outside asOfDate or the filters are left out; follow nextCursor'],
        validityPeriod: 'long',
      },
    };
  },
});

/** A page of the rules awarding one receiving course, read in full (one Query and one BatchGetItem). */
async function awardingPage(store: Store, args: Parameters<typeof rulesAwarding>[1]): Promise<PairPage> {
  const page = await rulesAwarding(store, args);
  const rules = await getRules(store, page.ruleIds, new RoundTrips());
  const order = new Map(page.ruleIds.map((id, index) => [id, index]));
  return { rules: rules.sort((a, b) => order.get(a.ruleId)! - order.get(b.ruleId)!), ...(page.lastKey ? { lastKey: page.lastKey } : {}) };
}
