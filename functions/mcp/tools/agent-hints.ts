import * as z from 'zod/v4';

const Priority = z.enum(['critical', 'high', 'medium', 'low']);

const SuggestedActionSchema = z.object({
  action: z.string(),
  priority: Priority,
  description: z.string().optional(),
  tool: z.string().optional().describe('Tool that performs this action, when there is one'),
  data: z.record(z.string(), z.unknown()).optional(),
  category: z.enum(['exploration', 'optimization', 'correction', 'learning']).optional(),
  expectedOutcome: z.string().optional(),
  reversible: z.boolean().optional(),
});

const RelatedResourceSchema = z.object({
  type: z.string(),
  id: z.string(),
  label: z.string(),
  relevance: z.number().min(0).max(1),
});

const RiskFactorSchema = z.object({
  type: z.enum(['performance', 'accuracy', 'cost', 'complexity', 'user-experience', 'security']),
  severity: Priority,
  description: z.string(),
  probability: z.number().min(0).max(1),
  impact: z.number().min(0).max(1),
  mitigation: z.string().optional(),
});

const WarningSchema = z.object({
  type: z.enum(['validation', 'duplicate', 'conflict', 'deprecation', 'performance']),
  severity: Priority,
  message: z.string(),
  suggestedFix: z.string().optional(),
});

export const AgentHintsSchema = z.object({
  suggestedNextActions: z.array(SuggestedActionSchema),
  relatedResources: z.array(RelatedResourceSchema),
  confidence: z.number().min(0).max(1),
  sourceQuality: z.enum(['high', 'medium', 'low', 'unknown']),
  validityPeriod: z.enum(['immediate', 'short', 'medium', 'long', 'indefinite']),
  contextNeeded: z.array(z.string()),
  assumptions: z.array(z.string()),
  riskFactors: z.array(RiskFactorSchema),
  dependencies: z.array(
    z.object({
      action: z.string(),
      dependsOn: z.array(z.string()),
      type: z.enum(['required', 'recommended', 'optional']),
      reason: z.string().optional(),
    }),
  ),
  estimatedImpact: z.object({ benefit: z.number(), effort: z.number(), roi: z.number() }),
  preferenceAlignment: z.array(
    z.object({
      action: z.string(),
      preference: z.string(),
      alignment: z.enum(['strong', 'moderate', 'weak', 'neutral', 'conflict']),
      score: z.number().min(-1).max(1),
    }),
  ),
  reasoning: z.string().optional(),
  warnings: z.array(WarningSchema).optional(),
});

export type AgentHints = z.infer<typeof AgentHintsSchema>;
type SuggestedAction = z.infer<typeof SuggestedActionSchema>;

/**
 * Evidence a confidence score is computed from. Each signal is a ratio in [0, 1]
 * (e.g. share of requested fields found, freshness of the data); the score is
 * their weighted mean, so it moves with the data instead of being a constant.
 */
export interface ConfidenceSignal {
  name: string;
  value: number;
  weight?: number;
}

export function computeConfidence(signals: ConfidenceSignal[]): number {
  if (signals.length === 0) return 0;
  let total = 0;
  let weights = 0;
  for (const signal of signals) {
    const weight = signal.weight ?? 1;
    total += Math.min(1, Math.max(0, signal.value)) * weight;
    weights += weight;
  }
  return weights === 0 ? 0 : Math.round((total / weights) * 1000) / 1000;
}

/** What a tool handler says about its result; the framework fills the rest of seed 001's fields. */
export interface HintInput {
  confidence: ConfidenceSignal[];
  nextActions?: SuggestedAction[];
  relatedResources?: z.infer<typeof RelatedResourceSchema>[];
  sourceQuality?: AgentHints['sourceQuality'];
  validityPeriod?: AgentHints['validityPeriod'];
  contextNeeded?: string[];
  assumptions?: string[];
  riskFactors?: z.infer<typeof RiskFactorSchema>[];
  warnings?: z.infer<typeof WarningSchema>[];
  reasoning?: string;
}

const PRIORITY_BENEFIT: Record<z.infer<typeof Priority>, number> = { critical: 1, high: 0.8, medium: 0.5, low: 0.2 };

export function buildAgentHints(input: HintInput): AgentHints {
  const actions = input.nextActions ?? [];
  const benefit = actions.length ? Math.max(...actions.map((a) => PRIORITY_BENEFIT[a.priority])) : 0;
  const effort = actions.length ? Math.min(1, 0.1 * actions.length) : 0;
  const confidence = computeConfidence(input.confidence);
  return {
    suggestedNextActions: actions,
    relatedResources: input.relatedResources ?? [],
    confidence,
    sourceQuality: input.sourceQuality ?? 'high',
    validityPeriod: input.validityPeriod ?? 'short',
    contextNeeded: input.contextNeeded ?? [],
    assumptions: input.assumptions ?? [],
    riskFactors: input.riskFactors ?? [],
    dependencies: [],
    estimatedImpact: { benefit, effort, roi: effort === 0 ? 0 : Math.round((benefit / effort) * 100) / 100 },
    preferenceAlignment: [],
    reasoning:
      input.reasoning ??
      `Confidence ${confidence} from ${input.confidence.map((s) => `${s.name}=${round(s.value)}`).join(', ') || 'no signals'}.`,
    ...(input.warnings?.length ? { warnings: input.warnings } : {}),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
