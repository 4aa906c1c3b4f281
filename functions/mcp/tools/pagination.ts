import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/v4';
import { ToolError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const PaginationInput = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Maximum items per page (1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE})`),
  cursor: z.string().min(1).max(2048).optional().describe('Opaque cursor from the previous page\'s nextCursor; omit for the first page'),
};

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().optional().describe('Pass as cursor to get the next page; absent on the last page'),
    totalCount: z.number().int().optional(),
    hasMore: z.boolean(),
  });
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
  totalCount?: number;
  hasMore: boolean;
}

/** Where a cursor may be used: the tool, the caller, and the query it paged through. */
export interface CursorScope {
  tool: string;
  userId?: string;
  query?: unknown;
}

/**
 * Opaque, tamper-evident cursors: an HMAC over the position and its scope. A modified cursor, or one
 * minted for another tool, user or query, fails verification and is BAD_REQUEST.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(scope: CursorScope, position: unknown): string {
    const body = Buffer.from(JSON.stringify({ s: scopeHash(scope), p: position })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode<P>(scope: CursorScope, cursor: string): P {
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined || !this.verify(body, mac)) throw invalidCursor();
    let parsed: { s?: string; p?: P };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (parsed.s !== scopeHash(scope) || parsed.p === undefined) throw invalidCursor();
    return parsed.p;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  private verify(body: string, mac: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function scopeHash(scope: CursorScope): string {
  return createHash('sha256')
    .update(JSON.stringify([scope.tool, scope.userId ?? '', scope.query ?? null]))
    .digest('base64url')
    .slice(0, 16);
}

function invalidCursor(): ToolError {
  return ToolError.badRequest('The cursor is invalid, was modified, or belongs to another query. Start again without a cursor.', [
    { field: 'cursor', message: 'invalid or tampered cursor' },
  ]);
}

/** Pages an in-memory list with offset cursors bound to the same scope (tool, user, query). */
export function pageOf<T>(items: T[], args: { limit: number; cursor?: string }, codec: CursorCodec, scope: CursorScope): Page<T> {
  const offset = args.cursor ? codec.decode<{ offset: number }>(scope, args.cursor).offset : 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidCursor();
  const end = offset + args.limit;
  const hasMore = end < items.length;
  return {
    items: items.slice(offset, end),
    ...(hasMore ? { nextCursor: codec.encode(scope, { offset: end }) } : {}),
    totalCount: items.length,
    hasMore,
  };
}
