/**
 * What domain modules throw when a request cannot be served as asked. It speaks in domain terms
 * only: the tool edge (mcp/tools/errors.ts, `mapError`) turns each kind into an ErrorResponse
 * code and HTTP status, in one table (ADR 0015).
 */
export const DOMAIN_ERROR_KINDS = ['invalid', 'unauthenticated', 'forbidden', 'not-found', 'conflict', 'unprocessable', 'limit-reached', 'unavailable'] as const;
export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

/** One input field that is wrong and why, named by its dotted path. */
export interface InvalidField {
  field: string;
  message: string;
  code?: string;
}

/** What the caller needs to act on the error; the edge passes it on as the ErrorResponse's details. */
export interface DomainErrorDetails {
  reason?: string;
  /** Seconds until a retry can succeed. */
  retryAfter?: number;
  limit?: { current: number; max: number; window: string };
  fields?: InvalidField[];
  omittedFields?: number;
  hints?: string[];
}

/** A refused quota increment, as the quota counter reports it (structural, so this module imports no store). */
export interface RefusedQuota {
  current: number;
  max: number;
  window: { label: string; endsAt: Date };
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly details?: DomainErrorDetails;
  /** What the agent should do next, when the kind's default advice does not fit. */
  readonly instruction?: string;

  constructor(kind: DomainErrorKind, message: string, details?: DomainErrorDetails, instruction?: string) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.details = details;
    this.instruction = instruction;
  }

  static invalid(message: string, fields?: InvalidField[]): DomainError {
    return new DomainError('invalid', message, fields ? { fields } : undefined);
  }
  static notFound(message: string, hints?: string[]): DomainError {
    return new DomainError('not-found', message, hints?.length ? { hints } : undefined);
  }
  static unprocessable(message: string, reason?: string): DomainError {
    return new DomainError('unprocessable', message, reason ? { reason } : undefined);
  }
  /** retryAfter is the seconds to the window's end (seed 000's example), at least one. */
  static limitReached(message: string, refused: RefusedQuota, now: Date, reason: string, instruction?: string): DomainError {
    return new DomainError(
      'limit-reached',
      message,
      {
        reason,
        retryAfter: Math.max(1, Math.ceil((refused.window.endsAt.getTime() - now.getTime()) / 1000)),
        limit: { current: refused.current, max: refused.max, window: refused.window.label },
      },
      instruction,
    );
  }
}
