import { isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type JSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import { bytesResponse } from './bytes-response.js';
import type { PreparedAnswers } from './json-answer.js';

/**
 * A 2025-era request that asked for no progress gets nothing but its result, so plain JSON serves it
 * without SSE framing (the 2026-07-28 path already answers so). Requests with a progress token keep
 * the SSE stream their notifications need.
 */
export async function wantsPlainJson(request: Request, parsedBody: unknown): Promise<boolean> {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  const progress = messages.some((message) => (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined);
  return !progress && (await isLegacyRequest(request, parsedBody));
}

/**
 * Serves one stateless 2025-era exchange with a JSON response, on a server of its own. With
 * `answers`, a single request's tools/call answer is written from the JSON it already holds
 * (json-answer.ts): the SDK frames a stand-in with an empty result, whose place the answer takes.
 */
export async function serveLegacyJson(server: Server, request: Request, options: { authInfo: AuthInfo; parsedBody: unknown; answers?: PreparedAnswers }): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const { answers, ...handleOptions } = options;
  let written: { standIn: string; body: Uint8Array<ArrayBuffer> } | undefined;
  if (answers && !Array.isArray(options.parsedBody)) {
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      const body = written ? undefined : answers.encode(message);
      if (!body) return send(message, sendOptions);
      const standIn = { ...message, result: {} } as JSONRPCMessage;
      written = { standIn: JSON.stringify(standIn), body };
      return send(standIn, sendOptions);
    };
  }
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, handleOptions);
    if (!written) return response;
    const framed = await response.text();
    // The SDK answers one request with exactly the message it was given; anything else is a bug here.
    if (framed !== written.standIn) throw new Error('The SDK framed a JSON answer in an unexpected way');
    return bytesResponse(written.body, { status: response.status, headers: response.headers });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
