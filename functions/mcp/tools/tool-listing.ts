import { annotationsOf, jsonSchemasOf } from './json-schemas.js';
import type { AnyToolDefinition } from './define-tool.js';
import type { ToolRegistry } from './registry.js';

/**
 * A tool as `tools/list` shows it: what a host needs to offer it to a model and call it, within what a
 * host can afford to put in front of the model on every conversation (ADR 0026: ≤ 60,000 characters for
 * every tool on /mcp, ≤ 16,000 for one). The full schemas, seed-001 metadata and examples stay in the
 * contract file, the generated docs, OpenAPI and `tn_tools_list` (with `includeSchemas`).
 *
 * What is left out never changes what a call may be: the server validates every call against the full
 * schema, and each listed schema accepts everything the full one does (it only says less).
 */
export function listedTool(definition: AnyToolDefinition, registry: ToolRegistry, extra: { _meta?: Record<string, unknown> } = {}) {
  const schemas = jsonSchemasOf(definition);
  // Written with the default prefix: the caller renders the whole listing once (ToolRegistry.rendered).
  return {
    name: registry.servedName(definition),
    title: definition.title,
    description: definition.description,
    inputSchema: listedInput(schemas.input) as { type: 'object' },
    outputSchema: outputShape(schemas.output) as { type: 'object' },
    annotations: annotationsOf(definition),
    ...(extra._meta ? { _meta: extra._meta } : {}),
  };
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Formats that say what their generated `pattern` says (zod emits both for dates and times). */
const SELF_DESCRIBING_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid']);
/** A parameter is depth 1; an object's properties one deeper. Below this, a value is a document copied from another tool's output. */
const INPUT_DEPTH = 1;

type Schema = Record<string, unknown>;

/**
 * The input schema with every parameter and its description, less what only a validator reads: string
 * length bounds (a longer or empty value is refused with the field named), zod's integer bounds
 * (±2^53−1), a date pattern beside its `format`, a description repeated inside an `anyOf` branch, and the inner structure of objects nested below a parameter's own fields (such as a
 * snapshot to pass back verbatim), which is listed by type and description.
 */
function listedInput(schema: Schema): Schema {
  const visit = (node: unknown, depth: number, parentDescribed: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, depth, parentDescribed));
    if (!node || typeof node !== 'object') return node;
    const source = node as Schema;
    if (source.type === 'object' && source.properties && depth > INPUT_DEPTH) return typeOnly(source, true);
    const result: Schema = {};
    for (const [key, value] of Object.entries(source)) {
      if ((key === 'maximum' && value === MAX_SAFE) || (key === 'minimum' && value === -MAX_SAFE)) continue;
      if (key === 'pattern' && SELF_DESCRIBING_FORMATS.has(String(source.format))) continue;
      if (key === 'minLength' || key === 'maxLength') continue;
      if (key === 'description' && parentDescribed) continue;
      if (key === 'properties') {
        result.properties = Object.fromEntries(Object.entries(value as Schema).map(([name, property]) => [name, visit(property, depth + 1, false)]));
      } else if (key === 'anyOf' || key === 'oneOf') {
        result[key] = visit(value, depth, parentDescribed || typeof source.description === 'string');
      } else if (key === 'items' || key === 'additionalProperties') {
        result[key] = visit(value, depth, false);
      } else {
        result[key] = value;
      }
    }
    return result;
  };
  return visit(schema, 0, false) as Schema;
}

/**
 * The output's top level: each field with its type (and enum or constant), nested values by type alone,
 * no descriptions, nothing required. Clients that validate `structuredContent` against it still can (a
 * later additive field is accepted: no `additionalProperties: false`); what each field means, and which
 * are always there, is in the docs and `tn_tools_list`.
 */
function outputShape(schema: Schema): Schema {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return { type: 'object', properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, typeOnly(property, false)])) };
}

function typeOnly(schema: Schema, described: boolean): Schema {
  if (Array.isArray(schema.anyOf)) return { anyOf: (schema.anyOf as Schema[]).map((branch) => typeOnly(branch, false)), ...(described && schema.description ? { description: schema.description } : {}) };
  const result: Schema = {};
  if (schema.type !== undefined) result.type = schema.type;
  if (schema.enum !== undefined) result.enum = schema.enum;
  if (schema.const !== undefined) result.const = schema.const;
  if (described && typeof schema.description === 'string') result.description = schema.description;
  return result;
}
