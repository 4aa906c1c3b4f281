import { randomBytes } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './config.js';

const LOG_LEVEL = (process.env.TN_LOG_LEVEL ?? 'INFO').toUpperCase();
const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
// Correlation ids matter in CloudWatch, not to a person reading a terminal.
const QUIET_FIELDS = new Set(['requestId', 'traceId']);

/** What the code logs through: Powertools' JSON lines, or one short line each for a person watching `npm start`. */
export interface AppLogger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

// Module scope on purpose: one logger per warm process (Powertools' guidance); metrics are tool-metrics.ts.
/** Powertools' logger itself, for its Lambda middleware (context keys on every JSON line). */
export const lambdaLogger = new Logger({ serviceName: SERVICE_NAME, logLevel: LOG_LEVEL as 'INFO' });
/** JSON in AWS (and wherever TN_LOG_FORMAT=json); `npm start` sets TN_LOG_FORMAT=pretty. */
export const logger: AppLogger = process.env.TN_LOG_FORMAT === 'pretty' ? lineLogger(LOG_LEVEL) : jsonLogger();

/** Log fields every line of one request carries; passed explicitly so concurrent requests never share them. */
export type RequestLogger = AppLogger;

function jsonLogger(): AppLogger {
  return {
    debug: (message, extra = {}) => lambdaLogger.debug(message, extra),
    info: (message, extra = {}) => lambdaLogger.info(message, extra),
    warn: (message, extra = {}) => lambdaLogger.warn(message, extra),
    error: (message, extra = {}) => lambdaLogger.error(message, extra),
  };
}


/**
 * One line per event, `09:41:02 tn_course_search ok 12 ms` for a tool call, warnings and errors on stderr
 * with their fields. TN_LOG_LEVEL still filters (WARN for a quiet terminal).
 */
function lineLogger(threshold: string): AppLogger {
  const minimum = LEVELS.includes(threshold) ? LEVELS.indexOf(threshold) : LEVELS.length;
  const write = (level: string, message: string, extra: Record<string, unknown> = {}) => {
    if (LEVELS.indexOf(level) < minimum) return;
    const time = new Date().toTimeString().slice(0, 8);
    const text = message === 'tool call' ? toolCallLine(extra) : [level === 'INFO' ? '' : level, message, ...fieldsOf(extra)].filter(Boolean).join(' ');
    (level === 'INFO' ? process.stdout : process.stderr).write(`${time} ${text}\n`);
  };
  return {
    debug: (message, extra) => write('DEBUG', message, extra),
    info: (message, extra) => write('INFO', message, extra),
    warn: (message, extra) => write('WARN', message, extra),
    error: (message, extra) => write('ERROR', message, extra),
  };
}

function toolCallLine(fields: Record<string, unknown>): string {
  const outcome = fields.outcome === 'success' ? 'ok' : String(fields.code ?? fields.outcome);
  return `${String(fields.tool)} ${outcome} ${Math.round(Number(fields.executionTime))} ms${fields.cached ? ' (cached)' : ''}`;
}

function fieldsOf(extra: Record<string, unknown>): string[] {
  return Object.entries(extra)
    .filter(([name, value]) => !QUIET_FIELDS.has(name) && value !== undefined)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : value instanceof Error ? value.message : JSON.stringify(value)}`);
}

export function requestLogger(fields: Record<string, unknown>): RequestLogger {
  return {
    debug: (message, extra) => logger.debug(message, { ...fields, ...extra }),
    info: (message, extra) => logger.info(message, { ...fields, ...extra }),
    warn: (message, extra) => logger.warn(message, { ...fields, ...extra }),
    error: (message, extra) => logger.error(message, { ...fields, ...extra }),
  };
}

/** X-Ray root in Lambda, the W3C traceparent when a caller sent one, else a fresh id. */
export function resolveTraceId(headers: Headers): string {
  const xray = process.env._X_AMZN_TRACE_ID?.match(/Root=([^;]+)/)?.[1];
  if (xray) return xray;
  const traceparent = headers.get('traceparent')?.split('-');
  if (traceparent && traceparent.length === 4 && /^[0-9a-f]{32}$/.test(traceparent[1] ?? '')) return traceparent[1]!;
  return randomBytes(16).toString('hex');
}
