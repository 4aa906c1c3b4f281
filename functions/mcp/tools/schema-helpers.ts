import * as z from 'zod/v4';

/** `.optional()` wraps a schema and drops its description; this keeps it. */
export function optionalField<T extends z.ZodType>(schema: T) {
  return schema.optional().describe(schema.description ?? '');
}

/** An RFC 3339 timestamp with any offset (seed 000); what the server writes is always UTC (`Z`). */
export function timestampField() {
  return z.iso.datetime({ offset: true });
}
