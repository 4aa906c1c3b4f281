import * as z from 'zod/v4';
import { definePrompt, defineResource, type AnyPromptContract, type AnyResourceContract } from '../../mcp/surface/surface-contract.js';
import { defineView, type ViewContract } from '../../mcp/surface/view-contract.js';

interface RuleDetails {
  rule: {
    ruleId: string;
    senderInstitution: string;
    receiverInstitution: string;
    sourceCourses: { institution: string; code: string; credits: number | null }[];
    rawDetail: string;
    conditionText: string | null;
    effectiveStart: string;
    effectiveEnd: string | null;
    evidence: { label: string; url: string }[];
  };
  status: 'active' | 'retired';
  history: unknown[];
}

function ruleMarkdown({ rule, status, history }: RuleDetails): string {
  const sending = rule.sourceCourses.map((c) => `${c.institution}:${c.code}${c.credits === null ? '' : ` (${c.credits})`}`).join(' & ');
  return [
    `# ${sending} → ${rule.receiverInstitution}`,
    '',
    `**${rule.rawDetail}**`,
    '',
    ...(rule.conditionText ? [`- **Condition:** ${rule.conditionText}`] : []),
    `- **In force:** ${rule.effectiveStart} to ${rule.effectiveEnd ?? 'open-ended'} (${status})`,
    `- **Rule id:** \`${rule.ruleId}\``,
    ...(history.length ? [`- **Other rules for these courses:** ${history.length}`] : []),
    '',
    ...rule.evidence.map((e) => `- [${e.label}](${e.url})`),
  ].join('\n');
}

const RULE_ID = /^[A-Za-z0-9_-]{4,80}$/;

export const transferRuleResource = defineResource({
  name: 'transfer-rule',
  domain: 'transfer',
  title: 'Transfer rule',
  description: 'One transfer-credit rule with its published wording, dates and evidence links: the same view as tn_transfer_details.',
  uriTemplate: 'transfer-rule://{ruleId}',
  params: z.strictObject({ ruleId: z.string().regex(RULE_ID).describe('Rule id from tn_transfer_resolve or tn_transfer_search') }),
  access: 'public',
  readsTools: ['transfer_details'],
  read: async ({ ruleId }, readTool) => {
    const details = (await readTool('transfer_details', { ruleId })) as RuleDetails;
    return { markdown: ruleMarkdown(details), json: details };
  },
  linkFrom: { fields: ['ruleId'], variables: (value) => (RULE_ID.test(value) ? { ruleId: value } : undefined), name: (value) => `transfer rule ${value}` },
});

export const planMyTransferPrompt = definePrompt({
  name: 'plan-my-transfer',
  domain: 'transfer',
  title: 'Plan my transfer',
  description: 'Works out what a student\'s courses are worth at another institution, rule by rule with evidence, and what to take next.',
  args: z.strictObject({
    from: z.string().min(2).max(80).describe('Sending institution (slug, code or name), e.g. "langara"'),
    to: z.string().min(2).max(80).describe('Receiving institution (slug, code or name), e.g. "sfu"'),
    courses: z.string().min(3).max(2000).describe('Courses taken at the sending institution, comma-separated, e.g. "langara:CPSC 1150, langara:CPSC 1160"'),
  }),
  completions: { from: 'institution', to: 'institution', courses: 'course-list' },
  usesTools: ['transfer_resolve', 'transfer_details', 'transfer_search', 'course_get'],
  render: ({ from, to, courses }) =>
    [
      `I took these courses at ${from}: ${courses}. I want to transfer to ${to}. What credit do I get?`,
      '',
      `Use tn_transfer_resolve with { "sourceInstitution": "${from}", "targetInstitution": "${to}", "sourceCourses": [...] } (every course above).`,
      'List the exact matches first (sending courses → credit, with credits), then partial matches and what each still needs, then courses with',
      'no rule. For any rule whose condition matters, read it with tn_transfer_details and quote its wording and evidence link.',
      `If a course has no rule, tn_transfer_search shows what ${from} courses do transfer; tn_course_get explains a ${to} course.`,
    ].join('\n'),
});

export const transferResources: AnyResourceContract[] = [transferRuleResource];
export const transferPrompts: AnyPromptContract[] = [planMyTransferPrompt];

export const transferPlanView = defineView({
  name: 'transfer-plan',
  domain: 'transfer',
  title: 'Transfer plan',
  description:
    'A tn_transfer_resolve result as a board: what each course earns under the plan with its credits, awards that wait on a condition or ' +
    'on more courses of a bundle, courses that earn nothing, and a comparison of where else the same courses count.',
  tools: ['transfer_resolve'],
});

export const transferViews: ViewContract[] = [transferPlanView];
