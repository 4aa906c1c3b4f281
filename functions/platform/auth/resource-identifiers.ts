/**
 * The resource identifiers (RFC 8707) of this server reached at `base` (origin plus any base path):
 * `<base>/mcp` and `<base>/mcp/<domain>`. An access token is bound to one of them; all of them are
 * the same resource server, so a token for `/mcp/course` also serves `/mcp` and the REST twins.
 */
export function isResourceOf(resource: string, base: string): boolean {
  if (resource === `${base}/mcp`) return true;
  return resource.startsWith(`${base}/mcp/`) && /^[a-z]+$/.test(resource.slice(base.length + '/mcp/'.length));
}
