import * as z from 'zod/v4';
import type { AnyToolContract, AnyToolDefinition } from './define-tool.js';

export interface ToolJsonSchemas {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

// Definitions live for the life of the process, so their JSON Schemas are computed once.
const memo = new WeakMap<AnyToolContract, ToolJsonSchemas>();

export function jsonSchemasOf(definition: AnyToolContract): ToolJsonSchemas {
  let schemas = memo.get(definition);
  if (!schemas) {
    schemas = {
      input: strip(z.toJSONSchema(definition.input, { io: 'input', unrepresentable: 'any' })),
      output: strip(z.toJSONSchema(definition.output, { io: 'output', unrepresentable: 'any' })),
    };
    memo.set(definition, schemas);
  }
  return schemas;
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return portableFormats(rest) as Record<string, unknown>;
}

const ULID_PATTERN = '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$';

/** `format: "ulid"` is not a JSON Schema format clients know; a pattern says the same portably. */
function portableFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableFormats);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, portableFormats(value)] as const);
  const result: Record<string, unknown> = Object.fromEntries(entries);
  if (result.format === 'ulid') {
    delete result.format;
    result.pattern ??= ULID_PATTERN;
  }
  return result;
}

/** MCP annotations derive from seed 001's metadata, never set by hand. */
export function annotationsOf(definition: AnyToolDefinition) {
  return {
    title: definition.title,
    readOnlyHint: definition.category === 'query' || definition.category === 'analysis',
    destructiveHint: Boolean(definition.destructive),
    idempotentHint: definition.idempotent,
    openWorldHint: Boolean(definition.openWorld),
  };
}

/** Seed 001 metadata as published in tools/list `_meta`, the contract file and the docs. */
export function metadataOf(definition: AnyToolDefinition) {
  return {
    domain: definition.domain,
    version: definition.version,
    category: definition.category,
    access: definition.access,
    permissions: definition.permissions,
    responseTime: definition.responseTime,
    cacheable: definition.cacheable,
    ...(definition.cacheable ? { cacheTTL: definition.cacheTTL } : {}),
    idempotent: definition.idempotent,
    tags: definition.tags,
    ...(definition.rateLimit ? { rateLimit: definition.rateLimit } : {}),
    ...(definition.deprecated ? { deprecated: definition.deprecated } : {}),
  };
}
