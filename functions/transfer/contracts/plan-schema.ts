import * as z from 'zod/v4';
import { CONSTRAINT_TYPES } from '../rule-model.js';

export const PlanConstraintSchema = z.object({
  type: z.enum(CONSTRAINT_TYPES).describe('one-of, precludes, cap or repeatable (see tn_transfer_details: rule.constraints)'),
  side: z.enum(['sending', 'receiving']).describe('Whose courses `courses` names'),
  courses: z.array(z.string()),
  max: z.number().int().optional(),
  maxCredits: z.number().optional(),
  subject: z.string().optional(),
  level: z.number().int().optional(),
  text: z.string().describe('The sentence as published'),
  ruleIds: z.array(z.string()).describe('Rules whose wording states it'),
  limitedPlan: z.boolean().describe('True when it kept out of the plan an award that would otherwise fit'),
});
