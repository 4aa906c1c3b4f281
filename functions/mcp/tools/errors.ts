import * as z from 'zod/v4';
import { DomainError, type DomainErrorKind } from '../../platform/domain-error.js';
import { fieldPath, INPUT_BOUNDS, truncated } from './input-bounds.js';
import { ERROR_CODES, ToolError, type ErrorCode } from './tool-error.js';

export { ERROR_CODES, ToolError, type ErrorCode };

const ErrorCodeSchema = z.enum(ERROR_CODES);

const QuotaLimitSchema = z.object({
  current: z.number(),
  max: z.number(),
  window: z.string(),
});

const FieldIssueSchema = z.object({
  field: z.string().describe('Dotted path of the failing input field; "(root)" for the whole input'),
  message: z.string(),
  code: z.string().optional(),
});
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

const ErrorDetailSchema = z.object({
  reason: z.string().optional(),
  retryAfter: z.number().optional(),
  limit: QuotaLimitSchema.optional(),
  fields: z.array(FieldIssueSchema).optional(),
  omittedFields: z.number().int().optional().describe('Failing fields beyond those listed in fields'),
  hints: z.array(z.string()).optional(),
});

export const ErrorResponseSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: ErrorDetailSchema.optional(),
  requestId: z.string(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE_ENTITY: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** What the agent should do next, per code (seed 002's `instruction`). */
const DEFAULT_INSTRUCTION: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Fix the fields named in details.fields and call the tool again.',
  UNAUTHORIZED: 'Ask the user to sign in or supply a valid bearer token, then retry.',
  FORBIDDEN: 'The token lacks the permission this tool needs; tell the user instead of retrying.',
  NOT_FOUND: 'Verify the identifier; do not retry with the same value.',
  CONFLICT: 'Use a new clientEventId or re-read the current state before retrying.',
  UNPROCESSABLE_ENTITY: 'The input is well-formed but not acceptable; explain details.reason to the user.',
  RATE_LIMITED: 'Wait details.retryAfter seconds before retrying; tell the user about the limit.',
  INTERNAL_ERROR: 'Retry once later; if it persists, report the requestId to the operator.',
  SERVICE_UNAVAILABLE: 'A dependency is temporarily unavailable; retry after a short wait.',
};

/** The one table from a domain error's kind to the ErrorResponse code callers see. */
const CODE_BY_KIND: Record<DomainErrorKind, ErrorCode> = {
  invalid: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  unprocessable: 'UNPROCESSABLE_ENTITY',
  'limit-reached': 'RATE_LIMITED',
  unavailable: 'SERVICE_UNAVAILABLE',
};

export interface MappedError {
  response: ErrorResponse;
  status: number;
  instruction: string;
  /** True when the error was neither a ToolError nor a DomainError: the caller must log it, callers never see its detail. */
  unexpected: boolean;
}

/** The one place any thrown value becomes an ErrorResponse. */
export function mapError(error: unknown, requestId: string): MappedError {
  const code = error instanceof DomainError ? CODE_BY_KIND[error.kind] : error instanceof ToolError ? error.code : undefined;
  if (code) {
    const { message, details, instruction } = error as DomainError | ToolError;
    return {
      response: {
        code,
        message,
        ...(details ? { details } : {}),
        requestId,
      },
      status: HTTP_STATUS_BY_CODE[code],
      instruction: instruction ?? DEFAULT_INSTRUCTION[code],
      unexpected: false,
    };
  }
  return {
    response: {
      code: 'INTERNAL_ERROR',
      message: 'The server failed to complete the request.',
      requestId,
    },
    status: 500,
    instruction: DEFAULT_INSTRUCTION.INTERNAL_ERROR,
    unexpected: true,
  };
}

/**
 * Turns zod issues into named fields, so a caller knows exactly what to fix. Bounded: at most
 * `issuesListed` fields, each unknown key once with a short message, long names and messages cut.
 */
function fieldIssuesFromZod(error: z.ZodError): { fields: FieldIssue[]; omitted: number } {
  const all: FieldIssue[] = [];
  let total = 0;
  for (const issue of error.issues) {
    // An unknown key is a problem with that key, so name it rather than its parent object.
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    const message = issue.code === 'unrecognized_keys' ? 'unknown field' : truncated(issue.message);
    total += paths.length;
    for (const path of paths) {
      if (all.length >= INPUT_BOUNDS.issuesListed) break;
      all.push({ field: fieldPath(path as (string | number)[]), message, code: issue.code });
    }
  }
  return { fields: all, omitted: total - all.length };
}

export function validationError(error: z.ZodError): ToolError {
  const { fields, omitted } = fieldIssuesFromZod(error);
  return invalidInput(fields, omitted);
}

/** BAD_REQUEST naming each field (those listed; the rest counted in `omittedFields`). */
export function invalidInput(fields: FieldIssue[], omitted = 0): ToolError {
  const names = [...new Set(fields.map((f) => f.field))].join(', ');
  const more = omitted ? ` and ${omitted} more` : '';
  return new ToolError('BAD_REQUEST', truncated(`Invalid input: ${names}`, 1000) + more, { fields, ...(omitted ? { omittedFields: omitted } : {}) });
}
