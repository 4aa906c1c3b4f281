import type { DomainErrorDetails, InvalidField } from '../../platform/domain-error.js';

/** The ErrorResponse codes (seed 000); errors.ts holds their schema, this module none, so the authenticator's importers load no zod. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'UNPROCESSABLE_ENTITY',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What the edge itself refuses (authentication, input validation, cursors, the HTTP layer), already in
 * ErrorResponse codes. Domain modules throw DomainError instead (ADR 0015).
 */
export class ToolError extends Error {
  readonly code: ErrorCode;
  /** Passed on as the ErrorResponse's details (the same shape as a domain error's). */
  readonly details?: DomainErrorDetails;
  readonly instruction?: string;

  constructor(code: ErrorCode, message: string, details?: DomainErrorDetails, instruction?: string) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
    this.instruction = instruction;
  }

  static badRequest(message: string, fields?: InvalidField[]): ToolError {
    return new ToolError('BAD_REQUEST', message, fields ? { fields } : undefined);
  }
  static notFound(message: string, hints?: string[]): ToolError {
    return new ToolError('NOT_FOUND', message, hints?.length ? { hints } : undefined);
  }
}
