import { isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { Preflight } from './preflight.js';

/**
 * A 2025-era request that asked for no progress gets nothing but its result, so plain JSON serves it
 * without SSE framing (the 2026-07-28 path already answers so). Requests with a progress token keep
 * the SSE stream their notifications need. This is the user-land routing the SDK documents for
 * `isLegacyRequest`: the SDK's own transport in its JSON response mode does the rest.
 */
export async function wantsPlainJson(request: Request, body: Pick<Preflight, 'parsed' | 'asksForProgress'>): Promise<boolean> {
  return !body.asksForProgress && (await isLegacyRequest(request, body.parsed));
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
