import type { AppConfig } from '../platform/config.js';

/**
 * The schedule ingestion runs on in AWS, as `rate(<n> <unit>)` (the EventBridge expression the stack
 * uses, passed as TN_INGEST_RATE). Locally nothing is scheduled.
 */
function ingestionIntervalMs(rate: string | undefined): number | undefined {
  const match = /^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$/.exec(rate?.trim() ?? '');
  if (!match) return undefined;
  const unit = match[2]!.replace(/s$/, '');
  return Number(match[1]) * ({ minute: 60_000, hour: 3_600_000, day: 86_400_000 } as Record<string, number>)[unit]!;
}

export function nextScheduledRun(lastIngestedAt: string, config: Pick<AppConfig, 'runtime'>, rate = process.env.TN_INGEST_RATE): string | null {
  const interval = config.runtime === 'aws' ? ingestionIntervalMs(rate) : undefined;
  if (!interval) return null;
  return new Date(Date.parse(lastIngestedAt) + interval).toISOString();
}
