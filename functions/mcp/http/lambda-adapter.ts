import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/executionModeStreamifyResponse';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaLogger } from '../../platform/observability.js';
import type { FetchHandler } from './authorization-server-edge.js';
import { withClientAddress } from './client-address.js';

/**
 * API Gateway's proxy events in and out of a web-standard handler, with streamed responses, under
 * Powertools' logger: what every request function is built on (the MCP functions in mcp-lambda.ts).
 */

/** A function that only serves HTTP through a web-standard app (the authorization server). */
export function createWebLambdaHandler(buildApp: () => Promise<FetchHandler>) {
  let app: Promise<FetchHandler> | undefined;
  return withPowertools(async (event: unknown) => answerApiGatewayEvent(await (app ??= buildApp()), event as APIGatewayProxyEvent));
}

/**
 * The logger middleware (Lambda context on every line). No metrics middleware: each tool call publishes
 * its own EMF record as it ends (recordToolCall), so there is never anything left to flush, and a flush
 * of nothing (initialize, tools/list) would only log a notice per request. Traces come from the function's
 * active X-Ray tracing (the SDK passes the trace header on to DynamoDB and forwarded invokes); Powertools'
 * tracer would only add a handler subsegment, for 120 KB of X-Ray SDK in every request bundle and its
 * start-up cost (ADR 0013).
 */
export function withPowertools(handle: (event: unknown) => Promise<unknown>) {
  return middy({ executionMode: executionModeStreamifyResponse })
    .use(injectLambdaContext(lambdaLogger))
    .handler(handle);
}

export async function answerApiGatewayEvent(app: FetchHandler, event: APIGatewayProxyEvent) {
  const response = await app(toRequest(event));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  // Cookies cannot share one header line; the streaming prelude carries them as a list.
  const cookies = response.headers.getSetCookie();
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: response.body ? Readable.fromWeb(response.body as WebReadableStream) : '',
  };
}

/** API Gateway REST proxy event → web Request. The stage is kept in the URL so links we build resolve. */
function toRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    for (const value of values ?? []) headers.append(name, value);
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && !headers.has(name)) headers.set(name, value);
  }
  const host = headers.get('host') ?? event.requestContext?.domainName ?? 'localhost';
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    for (const value of values ?? []) query.append(name, value);
  }
  const search = query.size ? `?${query}` : '';
  const body = event.body == null ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  const request = new Request(`https://${host}${event.path}${search}`, {
    method: event.httpMethod,
    headers,
    body: event.httpMethod === 'GET' || event.httpMethod === 'HEAD' ? undefined : body,
  });
  return withClientAddress(request, event.requestContext?.identity?.sourceIp ?? undefined);
}
