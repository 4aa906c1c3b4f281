import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from './config.js';
import { logger } from './observability.js';

// Module scope on purpose: one metrics instance per warm process (Powertools' guidance). Apart from the
// logger, so functions that run no tools (the authorization server) load no metrics code.
// Powertools' own notices go through the same logger and level as ours.
export const metrics = new Metrics({ namespace: 'TutorNexus', serviceName: SERVICE_NAME, logger });

export interface ToolCallMetric {
  tool: string;
  durationMs: number;
  outcome: 'success' | 'error';
  errorCode?: string;
  cached: boolean;
}

/**
 * One EMF record per call, all four metrics under the tool dimension. Add-and-publish runs
 * synchronously, so concurrent calls in one process never mix their dimensions.
 */
export function recordToolCall(metric: ToolCallMetric): void {
  metrics.addDimension('tool', metric.tool);
  metrics.addMetric('ToolCalls', MetricUnit.Count, 1);
  metrics.addMetric('ToolLatency', MetricUnit.Milliseconds, metric.durationMs);
  metrics.addMetric('ToolErrors', MetricUnit.Count, metric.outcome === 'error' ? 1 : 0);
  metrics.addMetric('CacheHits', MetricUnit.Count, metric.cached ? 1 : 0);
  metrics.publishStoredMetrics();
}
