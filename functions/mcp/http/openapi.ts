import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { SERVICE_VERSION } from '../../platform/config.js';
import { ErrorResponseSchema, HTTP_STATUS_BY_CODE } from '../tools/errors.js';
import { annotationsOf, metadataOf } from '../tools/json-schemas.js';
import type { ToolRegistry } from '../tools/registry.js';

/** The OpenAPI 3.1 document of every REST twin, generated from the same definitions as MCP. */
export function buildOpenApiDocument(registry: ToolRegistry, serverUrl?: string): Record<string, unknown> {
  const openapi = new OpenAPIRegistry();
  // A meta id makes the generator emit one shared component instead of inlining it per path.
  const errorResponse = ErrorResponseSchema.meta({ id: 'ErrorResponse' });
  const bearer = openapi.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  for (const definition of registry.getAll()) {
    const name = registry.servedName(definition);
    const errorStatuses = new Set([400, 500, 503]);
    if (definition.access === 'user') [401, 403].forEach((s) => errorStatuses.add(s));
    if (definition.rateLimit) errorStatuses.add(HTTP_STATUS_BY_CODE.RATE_LIMITED);
    openapi.registerPath({
      method: 'post',
      path: `/v1/tools/${name}`,
      operationId: name,
      summary: definition.title,
      description: definition.description,
      tags: [definition.domain],
      ...(definition.access === 'user' ? { security: [{ [bearer.name]: [] }] } : {}),
      request: { body: { required: true, content: { 'application/json': { schema: definition.input } } } },
      responses: {
        200: { description: 'The tool output', content: { 'application/json': { schema: definition.output } } },
        ...Object.fromEntries(
          [...errorStatuses].map((status) => [
            status,
            { description: 'ErrorResponse (seed 000)', content: { 'application/json': { schema: errorResponse } } },
          ]),
        ),
        ...(definition.category === 'mutation' ? { 404: { description: 'Not found', content: { 'application/json': { schema: errorResponse } } } } : {}),
      },
      'x-tn-metadata': metadataOf(definition),
      'x-tn-annotations': annotationsOf(definition),
    } as Parameters<typeof openapi.registerPath>[0]);
  }

  // Renamed for the prefix as a whole, once: the app builds this document on the first request for it and keeps its text.
  return registry.servedText(new OpenApiGeneratorV31(openapi.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Tutor Nexus tools',
      version: SERVICE_VERSION,
      description: 'REST twins of the Tutor Nexus MCP tools: POST the tool input, receive its output or an ErrorResponse.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
  })) as unknown as Record<string, unknown>;
}
