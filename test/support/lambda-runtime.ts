import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

export interface StreamedResponse {
  metadata?: { statusCode: number; headers?: Record<string, string> };
  body: string;
}

/**
 * The two pieces of the Lambda Node.js runtime a streaming handler touches (`awslambda.streamifyResponse`
 * and `HttpResponseStream.from`), so the real bundled handler can run in-process. Installed before the
 * handler module is imported, exactly as the runtime does.
 */
export function installLambdaStreamingRuntime(): void {
  (globalThis as Record<string, unknown>).awslambda = {
    streamifyResponse: (handler: unknown) => handler,
    HttpResponseStream: {
      from(stream: Writable & { metadata?: unknown }, metadata: unknown) {
        stream.metadata = metadata;
        return stream;
      },
    },
  };
}

type StreamingHandler = (event: unknown, stream: Writable, context: Context) => Promise<void>;

export async function invokeStreaming(handler: unknown, event: unknown): Promise<StreamedResponse> {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  }) as Writable & { metadata?: StreamedResponse['metadata'] };
  await (handler as StreamingHandler)(event, stream, lambdaContext());
  return { metadata: stream.metadata, body: Buffer.concat(chunks).toString('utf8') };
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'tn-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-west-2:123456789012:function:tn-test',
    memoryLimitInMB: '1024',
    awsRequestId: `req-${Math.random().toString(16).slice(2)}`,
    logGroupName: '/aws/lambda/tn-test',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function apiGatewayEvent(args: { method: string; path: string; body?: unknown; token?: string }): APIGatewayProxyEvent {
  const headers: Record<string, string> = { host: 'abc123.execute-api.us-west-2.amazonaws.com', 'content-type': 'application/json' };
  if (args.token) headers.authorization = `Bearer ${args.token}`;
  return {
    httpMethod: args.method,
    path: args.path,
    resource: args.path,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: args.body === undefined ? null : JSON.stringify(args.body),
    isBase64Encoded: false,
    requestContext: { domainName: 'abc123.execute-api.us-west-2.amazonaws.com', stage: 'prod' } as APIGatewayProxyEvent['requestContext'],
  };
}
