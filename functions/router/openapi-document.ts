import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_CONTRACTS } from '../all-contracts.js';
import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { buildOpenApiDocument } from '../shared/http/openapi.js';
import { OPENAPI_FILE } from '../shared/http/openapi-document.js';
import { forwardedOnly } from '../shared/tools/define-tool.js';
import { ToolRegistry } from '../shared/tools/registry.js';

/**
 * The router's `/openapi.json`, generated at deploy time for the deployment's tool prefix from the same
 * contracts the router serves (in the order it lists them), and written beside its bundle: the router
 * reads it there (openApiDocumentBeside) and adds the server it was reached at.
 */
export function writeRouterOpenApiDocument(dir: string, toolPrefix: string): void {
  const registry = new ToolRegistry(toolPrefix, [...ALL_CONTRACTS.map(forwardedOnly), ...ENDPOINT_TOOLS]);
  writeFileSync(path.join(dir, OPENAPI_FILE), JSON.stringify(buildOpenApiDocument(registry)));
}
