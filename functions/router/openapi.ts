/**
 * The router's OpenAPI document builder, as a module of its own: the router imports it on the first
 * GET /openapi.json, so in the bundle it is a chunk (with zod-to-openapi) that no other request loads.
 */
export { buildOpenApiDocument } from '../mcp/http/openapi.js';
