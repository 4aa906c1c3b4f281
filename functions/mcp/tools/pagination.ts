import * as z from 'zod/v4';
import { CursorCodec, invalidCursor, type CursorScope } from '../../platform/cursor-codec.js';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

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
