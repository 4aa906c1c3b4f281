import { randomBytes } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from './config.js';

// Module scope on purpose: one logger and metrics per warm process (Powertools' guidance).
export const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: (process.env.TN_LOG_LEVEL ?? 'INFO') as 'INFO' });
export const metrics = new Metrics({ namespace: 'TutorNexus', serviceName: SERVICE_NAME });

/** Log fields every line of one request carries; passed explicitly so concurrent requests never share them. */
export interface RequestLogger {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

export function requestLogger(fields: Record<string, unknown>): RequestLogger {
  return {
    info: (message, extra) => logger.info(message, { ...fields, ...extra }),
    warn: (message, extra) => logger.warn(message, { ...fields, ...extra }),
    error: (message, extra) => logger.error(message, { ...fields, ...extra }),
  };
}

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

/** X-Ray root in Lambda, the W3C traceparent when a caller sent one, else a fresh id. */
export function resolveTraceId(headers: Headers): string {
  const xray = process.env._X_AMZN_TRACE_ID?.match(/Root=([^;]+)/)?.[1];
  if (xray) return xray;
  const traceparent = headers.get('traceparent')?.split('-');
  if (traceparent && traceparent.length === 4 && /^[0-9a-f]{32}$/.test(traceparent[1] ?? '')) return traceparent[1]!;
  return randomBytes(16).toString('hex');
}
