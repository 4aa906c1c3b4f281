import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../functions/platform/domain-error.js';
import { mapError } from '../../functions/mcp/tools/errors.js';
import type { ModelTarget } from '../../functions/session/tutor/language-model.js';
import { providerFailure } from '../../functions/session/tutor/run-turn.js';

const LEAKED_KEY = 'sk-proj-LEAKMEleakmeLEAKMEleakme1234';
const PROVIDER_MESSAGE = `Incorrect API key provided: ${LEAKED_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`;

const byok: ModelTarget = { source: 'byok', provider: 'openai', model: 'gpt-4.1-mini', apiKey: LEAKED_KEY, credentialId: '01JD0000000000000000000001', outbound: 'public' };
const operator: ModelTarget = { source: 'operator', provider: 'openai-compatible', model: 'tiny', apiKey: 'operator-key-0123456789', baseUrl: 'http://127.0.0.1:1/v1', outbound: 'any' };

function apiError(statusCode: number | undefined, responseHeaders?: Record<string, string>): APICallError {
  return new APICallError({
    message: PROVIDER_MESSAGE,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
    responseBody: JSON.stringify({ error: { message: PROVIDER_MESSAGE, type: 'invalid_request_error' } }),
    isRetryable: statusCode === 429 || (statusCode ?? 0) >= 500,
  });
}

function retryError(errors: unknown[], reason: 'maxRetriesExceeded' | 'errorNotRetryable' = 'maxRetriesExceeded'): RetryError {
  return new RetryError({ message: `Failed after ${errors.length} attempts. Last error: ${PROVIDER_MESSAGE}`, reason, errors });
}

/** The ErrorResponse code the tool edge gives the error. */
const codeOf = (error: DomainError) => mapError(error, 'r').response.code;

/** Everything an agent or user could see of the error. */
function visible(error: DomainError): string {
  const mapped = mapError(error, 'req-1');
  return JSON.stringify({ response: mapped.response, instruction: mapped.instruction, message: error.message, details: error.details, raw: error.instruction });
}

function expectNoLeak(error: DomainError) {
  const text = visible(error);
  expect(text).not.toContain('LEAKME');
  expect(text).not.toContain('leakme');
  expect(text).not.toContain('Incorrect API key provided');
  expect(text).not.toContain('platform.openai.com');
}

describe('providerFailure', () => {
  it.each([401, 403])('BYOK %i is UNPROCESSABLE_ENTITY and tells the user to check their key', (status) => {
    const error = providerFailure(apiError(status), byok);
    expect(error).toBeInstanceOf(DomainError);
    expect(codeOf(error)).toBe('UNPROCESSABLE_ENTITY');
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('openai');
    expect(error.instruction).toMatch(/key/i);
    expect(error.instruction).toContain('same clientEventId');
    expect(error.details?.reason).toBe(`provider authentication failed (${status})`);
    expect(error.details?.hints?.join(' ')).toContain('tn_user_byok_add');
    expect(mapError(error, 'r').status).toBe(422);
    expectNoLeak(error);
  });

  it.each([401, 403])('operator %i is SERVICE_UNAVAILABLE (the user cannot fix the operator key)', (status) => {
    const error = providerFailure(apiError(status), operator);
    expect(codeOf(error)).toBe('SERVICE_UNAVAILABLE');
    expect(error.details?.reason).toBe(`provider responded ${status}`);
    expect(error.instruction ?? '').not.toMatch(/replace their .* key/);
    expect(mapError(error, 'r').status).toBe(503);
    expectNoLeak(error);
  });

  it.each([400, 404, 422])('BYOK %i is UNPROCESSABLE_ENTITY naming the configured model', (status) => {
    const error = providerFailure(apiError(status), byok);
    expect(codeOf(error)).toBe('UNPROCESSABLE_ENTITY');
    expect(error.message).toContain('"gpt-4.1-mini"');
    expect(error.details?.reason).toBe(`provider refused the request (${status})`);
    expectNoLeak(error);
  });

  it('429 with retry-after: 42 is SERVICE_UNAVAILABLE with details.retryAfter 42', () => {
    for (const target of [byok, operator]) {
      const error = providerFailure(apiError(429, { 'retry-after': '42' }), target);
      expect(codeOf(error)).toBe('SERVICE_UNAVAILABLE');
      expect(error.message).toContain('rate limiting');
      expect(error.details?.retryAfter).toBe(42);
      expect(error.details?.reason).toBe('provider responded 429');
      expect(error.instruction).toContain('details.retryAfter');
      expectNoLeak(error);
    }
  });

  it('429 rounds a fractional retry-after up and falls back to 20 s without (or with an unusable) header', () => {
    expect(providerFailure(apiError(429, { 'retry-after': '1.2' }), byok).details?.retryAfter).toBe(2);
    expect(providerFailure(apiError(429), byok).details?.retryAfter).toBe(20);
    expect(providerFailure(apiError(429, { 'retry-after': 'soon' }), byok).details?.retryAfter).toBe(20);
  });

  it.each([500, 502, 503, 529])('%i is SERVICE_UNAVAILABLE with a short retryAfter, for BYOK and operator alike', (status) => {
    for (const target of [byok, operator]) {
      const error = providerFailure(apiError(status), target);
      expect(codeOf(error)).toBe('SERVICE_UNAVAILABLE');
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.details).toMatchObject({ reason: `provider responded ${status}`, retryAfter: 5 });
      expectNoLeak(error);
    }
  });

  it('a 5xx with retry-after uses the header', () => {
    expect(providerFailure(apiError(503, { 'retry-after': '7' }), operator).details?.retryAfter).toBe(7);
  });

  it('a RetryError is judged by its last error', () => {
    const auth = providerFailure(retryError([apiError(500), apiError(401)], 'errorNotRetryable'), byok);
    expect(codeOf(auth)).toBe('UNPROCESSABLE_ENTITY');
    expect(auth.details?.reason).toBe('provider authentication failed (401)');
    expectNoLeak(auth);

    const limited = providerFailure(retryError([apiError(500), apiError(429, { 'retry-after': '42' })]), byok);
    expect(codeOf(limited)).toBe('SERVICE_UNAVAILABLE');
    expect(limited.details?.retryAfter).toBe(42);
    expectNoLeak(limited);

    const server = providerFailure(retryError([apiError(401), apiError(503)]), byok);
    expect(codeOf(server)).toBe('SERVICE_UNAVAILABLE');
    expect(server.details?.reason).toBe('provider responded 503');
  });

  it('a failure without a status (network error) is SERVICE_UNAVAILABLE "provider unreachable"', () => {
    const network = providerFailure(new TypeError(`fetch failed: ${PROVIDER_MESSAGE}`), byok);
    expect(codeOf(network)).toBe('SERVICE_UNAVAILABLE');
    expect(network.details).toMatchObject({ reason: 'provider unreachable', retryAfter: 5 });
    expect(network.message).not.toMatch(/HTTP/);
    expectNoLeak(network);

    const noStatus = providerFailure(apiError(undefined), byok);
    expect(noStatus.details?.reason).toBe('provider unreachable');
    expectNoLeak(noStatus);

    const wrapped = providerFailure(retryError([new Error(PROVIDER_MESSAGE)]), operator);
    expect(wrapped.details?.reason).toBe('provider unreachable');
    expectNoLeak(wrapped);
  });

  it('reads a statusCode from errors that are not APICallErrors', () => {
    const error = Object.assign(new Error(PROVIDER_MESSAGE), { statusCode: 401 });
    const mapped = providerFailure(error, byok);
    expect(codeOf(mapped)).toBe('UNPROCESSABLE_ENTITY');
    expectNoLeak(mapped);
    expect(providerFailure(Object.assign(new Error('x'), { statusCode: '401' }), byok).details?.reason).toBe('provider unreachable');
  });

  it('never carries the key or the provider message in any field, whatever the status', () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 503, undefined]) {
      for (const target of [byok, operator]) {
        const error = providerFailure(apiError(status, { 'retry-after': '3', 'x-request-id': LEAKED_KEY }), target);
        expectNoLeak(error);
        expect(error.cause).toBeUndefined();
      }
    }
  });
});
