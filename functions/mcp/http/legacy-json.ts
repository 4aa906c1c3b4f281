import { isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';

/**
 * A 2025-era request that asked for no progress gets nothing but its result, so plain JSON serves it
 * without SSE framing (the 2026-07-28 path already answers so). Requests with a progress token keep
 * the SSE stream their notifications need. This is the user-land routing the SDK documents for
 * `isLegacyRequest`: the SDK's own transport in its JSON response mode does the rest.
 */
export async function wantsPlainJson(request: Request, parsedBody: unknown): Promise<boolean> {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  const progress = messages.some((message) => (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined);
  return !progress && (await isLegacyRequest(request, parsedBody));
}

/** Serves one stateless 2025-era exchange with a JSON response, on a server of its own. */
export async function serveLegacyJson(server: Server, request: Request, options: { authInfo: AuthInfo; parsedBody: unknown }): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, options);
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
