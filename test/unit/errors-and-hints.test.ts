import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { buildAgentHints, computeConfidence } from '../../functions/mcp/tools/agent-hints.js';
import { ERROR_CODES, mapError, ToolError, validationError } from '../../functions/mcp/tools/errors.js';
import { quotaWindow } from '../../functions/platform/store/quota-counter.js';

describe('error mapping', () => {
  it('maps each code to its HTTP status and an instruction', () => {
    const statuses = ERROR_CODES.map((code) => mapError(new ToolError(code, 'x'), 'r').status);
    expect(statuses).toEqual([400, 401, 403, 404, 409, 422, 429, 500, 503]);
    expect(mapError(new ToolError('RATE_LIMITED', 'x'), 'r').instruction).toMatch(/retryAfter/);
  });

  it('turns unknown errors into INTERNAL_ERROR without leaking their message', () => {
    const mapped = mapError(new Error('connect ECONNREFUSED 10.0.0.7:8000 secret=abc'), 'req-1');
    expect(mapped.response).toEqual({ code: 'INTERNAL_ERROR', message: 'The server failed to complete the request.', requestId: 'req-1' });
    expect(mapped.unexpected).toBe(true);
  });

  it('names every failing field of a validation error, including unknown keys', () => {
    const schema = z.strictObject({ a: z.number(), b: z.object({ c: z.string() }) });
    const result = schema.safeParse({ a: 'x', b: { c: 1 }, zzz: true });
    const error = validationError(result.error!);
    expect(error.details?.fields?.map((f) => f.field).sort()).toEqual(['a', 'b.c', 'zzz']);
  });
});

describe('agent hints', () => {
  it('computes confidence as a weighted mean of the signals, clamped', () => {
    expect(computeConfidence([{ name: 'a', value: 1 }, { name: 'b', value: 0 }])).toBe(0.5);
    expect(computeConfidence([{ name: 'a', value: 1, weight: 3 }, { name: 'b', value: 0 }])).toBe(0.75);
    expect(computeConfidence([{ name: 'a', value: 7 }])).toBe(1);
    expect(computeConfidence([])).toBe(0);
  });

  it('fills every required seed-001 field and explains the score', () => {
    const hints = buildAgentHints({ confidence: [{ name: 'fresh', value: 0.8 }], nextActions: [{ action: 'x', priority: 'high' }] });
    expect(hints).toMatchObject({ confidence: 0.8, sourceQuality: 'high', contextNeeded: [], riskFactors: [], dependencies: [], preferenceAlignment: [] });
    expect(hints.estimatedImpact.roi).toBeGreaterThan(0);
    expect(hints.reasoning).toContain('fresh=0.8');
  });
});

describe('quota windows', () => {
  it('aligns day windows to UTC midnight and minute windows to the minute', () => {
    const day = quotaWindow(86_400_000, new Date('2026-11-22T15:30:00Z'));
    expect(day).toMatchObject({ key: '2026-11-22', label: 'day' });
    expect(day.endsAt.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    const minute = quotaWindow(60_000, new Date('2026-11-22T15:30:45Z'));
    expect(minute.label).toBe('minute');
    expect(minute.endsAt.toISOString()).toBe('2026-11-22T15:31:00.000Z');
  });
});
