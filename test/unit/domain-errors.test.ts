import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN_ERROR_KINDS, DomainError, type DomainErrorKind } from '../../functions/platform/domain-error.js';
import { mapError, type ErrorCode } from '../../functions/mcp/tools/errors.js';
import { quotaWindow } from '../../functions/platform/store/quota-counter.js';

/** Written out here, not read from the table, so a changed mapping shows up as a failing line. */
const EXPECTED: Record<DomainErrorKind, [ErrorCode, number]> = {
  invalid: ['BAD_REQUEST', 400],
  unauthenticated: ['UNAUTHORIZED', 401],
  forbidden: ['FORBIDDEN', 403],
  'not-found': ['NOT_FOUND', 404],
  conflict: ['CONFLICT', 409],
  unprocessable: ['UNPROCESSABLE_ENTITY', 422],
  'limit-reached': ['RATE_LIMITED', 429],
  unavailable: ['SERVICE_UNAVAILABLE', 503],
};

describe('domain errors at the tool edge', () => {
  it.each(DOMAIN_ERROR_KINDS.map((kind) => [kind, ...EXPECTED[kind]] as const))('maps %s to %s (HTTP %i), message and details as thrown', (kind, code, status) => {
    const details = { reason: 'why', hints: ['what next'] };
    const mapped = mapError(new DomainError(kind, 'It failed.', details), 'req-1');
    expect(mapped.response).toEqual({ code, message: 'It failed.', details, requestId: 'req-1' });
    expect(mapped.status).toBe(status);
    expect(mapped.unexpected).toBe(false);
    expect(mapped.instruction).toBeTruthy();
  });

  it('keeps the instruction given, and omits details when there are none', () => {
    const mapped = mapError(new DomainError('conflict', 'Taken.', undefined, 'Use a new id.'), 'r');
    expect(mapped.instruction).toBe('Use a new id.');
    expect(mapped.response).not.toHaveProperty('details');
    expect(mapError(DomainError.notFound('Gone.', []), 'r').response).not.toHaveProperty('details');
  });

  it('carries named fields, hints and reasons from the constructors', () => {
    expect(mapError(DomainError.invalid('Bad.', [{ field: 'course', message: 'expected a code' }]), 'r').response.details).toEqual({
      fields: [{ field: 'course', message: 'expected a code' }],
    });
    expect(mapError(DomainError.notFound('No course.', ['Close matches: x']), 'r').response.details).toEqual({ hints: ['Close matches: x'] });
    expect(mapError(DomainError.unprocessable('No.', 'because'), 'r').response.details).toEqual({ reason: 'because' });
  });

  it('renders a refused quota as before: reason, seconds to the window end, then the limit', () => {
    const now = new Date('2026-11-22T23:59:58.500Z');
    const refused = { admitted: false, current: 20, max: 20, window: quotaWindow(86_400_000, now) };
    const mapped = mapError(DomainError.limitReached('Daily prompt limit exceeded', refused, now, 'used 20/20', 'Wait.'), 'r');
    expect(JSON.stringify(mapped.response)).toBe(
      '{"code":"RATE_LIMITED","message":"Daily prompt limit exceeded","details":{"reason":"used 20/20","retryAfter":2,"limit":{"current":20,"max":20,"window":"day"}},"requestId":"r"}',
    );
    expect(mapped.instruction).toBe('Wait.');
    expect(DomainError.limitReached('x', refused, refused.window.endsAt, 'r').details?.retryAfter).toBe(1);
  });
});

/** Only these speak ErrorResponse codes; everything else throws DomainError (ADR 0015). */
const EDGE = /^functions\/(?:[^/]+\/tools|mcp\/http|router)\//;
const ERRORS_MODULE = 'functions/mcp/tools/errors.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Files under functions/ whose imports (or re-exports) from the errors module can reach ToolError. */
function toolErrorImporters(): string[] {
  return sourceFiles(path.resolve('functions')).filter((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+([^;]*?)\s+from\s+'(\.{1,2}\/[^']+)'/gms)].some((match) => {
      const target = path.relative(process.cwd(), path.resolve(path.dirname(file), match[2]!.replace(/\.js$/, '.ts')));
      return target.split(path.sep).join('/') === ERRORS_MODULE && /\bToolError\b|\*\s*as\b/.test(match[1]!);
    }),
  ).map((file) => path.relative(process.cwd(), file).split(path.sep).join('/'));
}

describe('ToolError stays at the edge', () => {
  const importers = toolErrorImporters();

  it('finds the edge files that import it (the reader is not blind)', () => {
    expect(importers).toContain('functions/mcp/tools/invoke-tool.ts');
    expect(importers).toContain('functions/mcp/http/rest.ts');
  });

  it('is imported by no domain module', () => {
    expect(importers.filter((file) => !EDGE.test(file))).toEqual([]);
  });
});
