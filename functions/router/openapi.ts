/**
 * The router's OpenAPI document builder, as a part of its own: the router imports this file by its
 * relative path on the first GET /openapi.json, and the deployed bundle keeps it beside the entry
 * (LAMBDA_BUNDLING.lazyParts), so the cold start of every other request does not parse it.
 */
export { buildOpenApiDocument } from '../shared/http/openapi.js';
