import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InvokeCommand } from '@aws-sdk/client-lambda';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { createStore } from '../../functions/platform/store/dynamo-client.js';
import { ensureTable } from '../../local/ensure-table.js';
import { apiGatewayEvent, installLambdaStreamingRuntime, invokeStreaming, lambdaContext } from '../support/lambda-runtime.js';

let userHandler: unknown;
let token: string;

beforeAll(async () => {
  const tableName = `tn-lambda-${ulid()}`;
  Object.assign(process.env, {
    TN_TABLE_NAME: tableName,
    TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    TN_DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'tn-lambda-')),
  });
  const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
  await ensureTable(store.client, tableName);
  ({ token } = await createPersonalAccessToken(store, { userId: 'lambda-user' }));
  installLambdaStreamingRuntime();
  ({ handler: userHandler } = await import('../../functions/user/handler.js'));
});

describe('user domain Lambda entry (middy, streaming mode)', () => {
  it('serves a REST twin from an API Gateway proxy event, streaming the HTTP prelude and body', async () => {
    const response = await invokeStreaming(userHandler, apiGatewayEvent({ method: 'POST', path: '/v1/tools/tn_user_preferences_get', body: {}, token }));
    expect(response.metadata?.statusCode).toBe(200);
    expect(JSON.parse(response.body).tutoringStyle).toBe('socratic');
  });

  it('answers MCP on /mcp/user and 405 on GET', async () => {
    const list = await invokeStreaming(
      userHandler,
      { ...apiGatewayEvent({ method: 'POST', path: '/mcp/user', body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } }),
        headers: { host: 'abc123.execute-api.us-west-2.amazonaws.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        multiValueHeaders: {} },
    );
    expect(list.metadata?.statusCode).toBe(200);
    expect(list.body).toContain('tn_user_byok_add');
    const get = await invokeStreaming(userHandler, apiGatewayEvent({ method: 'GET', path: '/mcp/user' }));
    expect(get.metadata?.statusCode).toBe(405);
  });

  it('refuses a browser request from a foreign Origin, and serves agents (no Origin) and local tools', async () => {
    const call = (origin?: string) => {
      const event = apiGatewayEvent({ method: 'POST', path: '/v1/tools/tn_user_preferences_get', body: {}, token });
      if (origin) event.headers = { ...event.headers, origin };
      return invokeStreaming(userHandler, { ...event, multiValueHeaders: Object.fromEntries(Object.entries(event.headers).map(([k, v]) => [k, [v!]])) });
    };
    expect((await call('https://attacker.example')).metadata?.statusCode).toBe(403);
    expect((await call()).metadata?.statusCode).toBe(200);
    expect((await call('http://localhost:6274')).metadata?.statusCode).toBe(200);
  });

  it('runs a forwarded tool invocation and returns the Invocation JSON', async () => {
    const response = await invokeStreaming(userHandler, {
      kind: 'tn.tool-invoke',
      toolName: 'tn_user_subscription',
      input: {},
      requestId: ulid(),
      traceId: 'a'.repeat(32),
      principal: { kind: 'user', userId: 'lambda-user', permissions: ['subscription:read'], via: 'jwt' },
    });
    const invocation = JSON.parse(response.body);
    expect(invocation.ok).toBe(true);
    expect(invocation.data.plan).toBe('free');
    expect(response.metadata).toBeUndefined();
  });
});

/** Lambda's Invoke cannot run here: this client hands the payload to the real user handler in-process. */
function lambdaRunningUserHandler() {
  const invoked: string[] = [];
  const lambda = {
    async send(command: InvokeCommand) {
      invoked.push(String(command.input.FunctionName));
      if (command.input.FunctionName === 'broken') return { FunctionError: 'Unhandled' };
      const streamed = await invokeStreaming(userHandler, JSON.parse(Buffer.from(command.input.Payload as Uint8Array).toString()));
      return { Payload: Buffer.from(streamed.body) };
    },
  };
  return { lambda, invoked };
}

describe('/mcp router forwarding', () => {
  it('forwards each call to its domain function and maps a failing domain to SERVICE_UNAVAILABLE', async () => {
    const { remoteExecutor } = await import('../../functions/mcp/http/remote-executor.js');
    const { ALL_DOMAIN_TOOLS } = await import('../../functions/all-tools.js');
    const { ToolRegistry } = await import('../../functions/mcp/tools/registry.js');
    const { createServices } = await import('../../functions/platform/services.js');
    const { loadConfig } = await import('../../functions/platform/config.js');
    const services = await createServices(loadConfig());
    const registry = new ToolRegistry('tn_', ALL_DOMAIN_TOOLS);
    const { lambda, invoked } = lambdaRunningUserHandler();
    const request = {
      toolName: 'tn_user_quota',
      principal: { kind: 'user' as const, userId: 'lambda-user', permissions: new Set(['quota:read']), via: 'jwt' as const },
      requestId: ulid(),
      traceId: 'b'.repeat(32),
      services,
      registry,
    };
    const ok = await remoteExecutor(lambda as never, { user: 'user-fn' })(registry.get('tn_user_quota')!, {}, request);
    expect(ok.ok).toBe(true);
    expect(invoked).toEqual(['user-fn']);
    const { logger } = await import('../../functions/platform/observability.js');
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const failed = await remoteExecutor(lambda as never, { user: 'broken' })(registry.get('tn_user_quota')!, {}, request);
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.error.code).toBe('SERVICE_UNAVAILABLE');
    // The operator learns which domain failed and why; the caller only that the service did not answer.
    expect(logged).toHaveBeenCalledWith('forwarding failed', expect.objectContaining({ tool: 'tn_user_quota', error: 'domain function user failed: Unhandled' }));
    expect(JSON.stringify(failed)).not.toContain('Unhandled');
    logged.mockRestore();
    expect(lambdaContext().functionName).toBe('tn-test');
  });
});

describe('a domain function without a completer', () => {
  it('serves its prompts and resources on /mcp/{domain} and declares no completion capability', async () => {
    const { handler: transferHandler } = await import('../../functions/transfer/handler.js');
    const post = (body: unknown) =>
      invokeStreaming(transferHandler, {
        ...apiGatewayEvent({ method: 'POST', path: '/mcp/transfer', body }),
        headers: { host: 'abc123.execute-api.us-west-2.amazonaws.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        multiValueHeaders: {},
      });
    const prompts = await post({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} });
    expect(prompts.metadata?.statusCode).toBe(200);
    expect(prompts.body).toContain('plan-my-transfer');
    const initialized = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(initialized.body).toContain('"prompts"');
    expect(initialized.body).not.toContain('"completions"');
  });
});

describe('completion forwarded from the router to the course function', () => {
  it('answers a tn.complete event in the course function, and the router\'s completer relays it', async () => {
    const { handler: courseHandler } = await import('../../functions/course/handler.js');
    const { remoteCompleter } = await import('../../functions/mcp/http/remote-executor.js');
    const { createServices } = await import('../../functions/platform/services.js');
    const { loadConfig } = await import('../../functions/platform/config.js');
    const invoked: string[] = [];
    const lambda = {
      async send(command: InvokeCommand) {
        invoked.push(String(command.input.FunctionName));
        const streamed = await invokeStreaming(courseHandler, JSON.parse(Buffer.from(command.input.Payload as Uint8Array).toString()));
        return { Payload: Buffer.from(streamed.body) };
      },
    };
    const complete = remoteCompleter(lambda as never, { course: 'course-fn' });
    const services = await createServices(loadConfig());
    expect((await complete(services, 'institution', 'lan', {})).values).toEqual(['langara']);
    expect((await complete(services, 'course', 'simon', {})).values).toEqual(['sfu:']);
    expect(invoked).toEqual(['course-fn', 'course-fn']);
    expect((await remoteCompleter(lambda as never, {})(services, 'institution', 'lan', {})).values).toEqual([]);
  });
});

describe("the session function's contract runner (the tutor's lookups)", () => {
  it('runs another domain\'s tool by its contract in that domain\'s function, and answers SERVICE_UNAVAILABLE where none is configured', async () => {
    const { remoteContractRunner } = await import('../../functions/mcp/http/remote-executor.js');
    const { subscriptionContract } = await import('../../functions/user/contracts/subscription.js');
    const { getContract } = await import('../../functions/course/contracts/get.js');
    const { forwardedOnly } = await import('../../functions/mcp/tools/define-tool.js');
    const { ToolRegistry } = await import('../../functions/mcp/tools/registry.js');
    const { createServices } = await import('../../functions/platform/services.js');
    const { loadConfig } = await import('../../functions/platform/config.js');
    const services = await createServices(loadConfig());
    const { lambda, invoked } = lambdaRunningUserHandler();
    const request = (toolName: string) => ({
      toolName,
      principal: { kind: 'user' as const, userId: 'lambda-user', permissions: new Set(['subscription:read']), via: 'jwt' as const },
      requestId: ulid(),
      traceId: 'c'.repeat(32),
      services,
      registry: new ToolRegistry('tn_', [subscriptionContract, getContract].map(forwardedOnly)),
    });
    const run = remoteContractRunner(lambda as never, { user: 'user-fn' });
    const ok = await run(subscriptionContract, {}, request('tn_user_subscription'));
    expect(ok.ok && (ok.data as { plan: string }).plan).toBe('free');
    const { logger } = await import('../../functions/platform/observability.js');
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const missing = await run(getContract, { course: 'sfu:CMPT 120' }, request('tn_course_get'));
    expect(!missing.ok && missing.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(logged).toHaveBeenCalledWith('forwarding failed', expect.objectContaining({ tool: 'tn_course_get', error: expect.stringContaining('TN_DOMAIN_FUNCTIONS') }));
    logged.mockRestore();
    expect(invoked).toEqual(['user-fn']);
  });
});

describe('authorization server Lambda entry (behind the API stage path)', () => {
  const base = 'https://abc123.execute-api.us-west-2.amazonaws.com/prod';
  let oauthHandler: unknown;
  beforeAll(async () => {
    Object.assign(process.env, { TN_OAUTH_ISSUER: base, TN_PUBLIC_BASE_URL: base, TN_OAUTH_SECRET: 'lambda-test-secret-0123456789' });
    ({ handler: oauthHandler } = await import('../../functions/oauth/handler.js'));
  });

  it('publishes metadata whose endpoints keep the stage path API Gateway strips from event.path', async () => {
    const response = await invokeStreaming(oauthHandler, apiGatewayEvent({ method: 'GET', path: '/.well-known/oauth-authorization-server' }));
    expect(response.metadata?.statusCode).toBe(200);
    const metadata = JSON.parse(response.body);
    expect(metadata.issuer).toBe(base);
    expect(metadata.token_endpoint).toBe(`${base}/oauth/token`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('registers a client and starts an authorization with the interaction cookie and a stage-relative redirect', async () => {
    const registered = await invokeStreaming(
      oauthHandler,
      apiGatewayEvent({ method: 'POST', path: '/oauth/register', body: { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'none' } }),
    );
    expect(registered.metadata?.statusCode).toBe(201);
    const clientId = JSON.parse(registered.body).client_id as string;
    const query = { response_type: 'code', client_id: clientId, redirect_uri: 'https://claude.ai/api/mcp/auth_callback', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', resource: `${base}/mcp` };
    const authorize = await invokeStreaming(oauthHandler, {
      ...apiGatewayEvent({ method: 'GET', path: '/oauth/authorize' }),
      multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])),
    });
    expect(authorize.metadata?.statusCode).toBe(303);
    const location = (authorize.metadata?.headers as Record<string, string>).location!;
    expect(location).toMatch(/^\/prod\/oauth\/interaction\/[\w-]+$/);
    expect((authorize.metadata as { cookies?: string[] }).cookies?.some((cookie) => cookie.startsWith('_interaction='))).toBe(true);
  });
});
