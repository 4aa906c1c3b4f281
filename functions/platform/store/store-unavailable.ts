import { DomainError } from '../domain-error.js';

/** Seconds a caller should wait before retrying: a restarted emulator serves again within a few. */
const RETRY_AFTER_SECONDS = 5;

/** Errors of the connection to the table (not of a request): the emulator died, the network dropped. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** The service's own "not now" answers: throttled, or failing on its side. */
const SERVICE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  $fault?: unknown;
  $metadata?: unknown;
  errors?: unknown;
}

function isConnectionFailure(error: SdkErrorShape): boolean {
  if (typeof error.code === 'string' && CONNECTION_CODES.has(error.code)) return true;
  // Node reports a failed connect to several addresses as an AggregateError of them.
  return Array.isArray(error.errors) && error.errors.some((inner) => typeof inner === 'object' && inner !== null && isConnectionFailure(inner as SdkErrorShape));
}

/**
 * The table could not be reached, or declined for now, after the client's own retries: every tool
 * needs it, so the caller hears SERVICE_UNAVAILABLE with when to retry (HTTP 503), not INTERNAL_ERROR
 * (500). A request the table refused (a failed condition, a bad key) is not this: it stays as it was.
 */
export function storeUnavailable(error: unknown): DomainError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as SdkErrorShape;
  const fromStoreClient = shape.$metadata !== undefined;
  const serverSide = fromStoreClient && (shape.$fault === 'server' || (typeof shape.name === 'string' && SERVICE_NAMES.has(shape.name)));
  if (!serverSide && !isConnectionFailure(shape)) return undefined;
  return new DomainError('unavailable', 'The data store is not answering right now.', { reason: 'store unavailable', retryAfter: RETRY_AFTER_SECONDS });
}
