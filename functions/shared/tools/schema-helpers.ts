import type { z } from 'zod';

/** `.optional()` wraps a schema and drops its description; this keeps it. */
export function optionalField<T extends z.ZodType>(schema: T) {
  return schema.optional().describe(schema.description ?? '');
}
