import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ulid } from 'ulid';
import { AUTHORIZATION_SERVER_ENTRY, bundle, bundleDir, DOMAIN_ENTRIES, LAMBDA_HARNESS } from '../../bench/cold-start.js';
import { LAMBDA_BUNDLING, type FunctionBundle } from '../../lib/constructs/lambda-bundling.js';
import { ALL_CONTRACTS } from '../../functions/all-contracts.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { ENDPOINT_TOOLS } from '../../functions/mcp/discovery/endpoint-tools.js';
import { buildOpenApiDocument } from '../../functions/mcp/http/openapi.js';
import { createStore } from '../../functions/platform/store/dynamo-client.js';
import { forwardedOnly } from '../../functions/mcp/tools/define-tool.js';
import { ToolRegistry } from '../../functions/mcp/tools/registry.js';
import { ensureTable } from '../../local/ensure-table.js';
import { startFakeProvider } from '../support/fake-llm-provider.js';
import { SfuOutlinesReplay } from '../support/sfu-outlines-replay.js';

/**
 * What CDK deploys is an esbuild bundle, not the sources the other tests import: module order and
 * cycles can differ there (zod's classes were undefined at load once), and so can what a cold start
 * loads. Each entry is bundled as the stack bundles it (bundleFunction: index.mjs, its chunks, its
 * lazy parts and the files beside it), loaded in a fresh process with the Lambda streaming runtime's
 * globals, and asked for one request.
 */

/** What a cold start may load (index.mjs and the chunks it imports statically), per function (ADR 0049). */
const START_BUDGET_BYTES: Record<string, number> = {
  // The goal was 500 KB: the MCP SDK and zod (320 KB) and the AWS SDK's DynamoDB client with its core
  // (220 KB, every bearer token is checked against the table) leave no room for the contracts it serves.
  router: 800_000,
  oauth: 1_000_000,
  session: 1_000_000,
  user: 1_000_000,
  course: 1_000_000,
  transfer: 1_000_000,
};

/** Packages a function's cold start must never load: each is imported only by the calls that need it. */
const NEVER_AT_START: Record<string, string[]> = {
  // The Lambda client comes with the first forwarded call, the OpenAPI generator with the first GET /openapi.json.
  router: ['@aws-sdk/client-lambda', '@asteasolutions/zod-to-openapi'],
  // Its own edge, not the MCP app; openid-client with the first sign-in at the identity provider.
  oauth: ['@modelcontextprotocol/server', 'zod', 'openid-client', '@aws-lambda-powertools/metrics'],
  // The AI SDK with the first tutor turn; the Lambda client with the first lookup in another domain.
  session: ['ai', '@ai-sdk/provider-utils', '@aws-sdk/client-lambda'],
};
/** The AWS SDK imports these only when the environment holds no credentials, which in Lambda it always does. */
const CREDENTIAL_CHAIN = ['@aws-sdk/credential-provider-ini', '@aws-sdk/credential-provider-sso', '@aws-sdk/credential-provider-web-identity', '@aws-sdk/nested-clients'];

let dir: string;
const bundles = new Map<string, FunctionBundle>();
const bundled = (entry: string) => {
  if (!bundles.has(entry)) bundles.set(entry, bundle(entry, dir));
  return bundles.get(entry)!;
};
beforeAll(async () => {
  dir = await bundleDir();
  await writeFile(path.join(dir, 'harness.mjs'), LAMBDA_HARNESS);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(file: string, event: unknown, env: Record<string, string>): Promise<{ status: number; body: string; cookies?: string[]; headers?: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, 'harness.mjs'), file, JSON.stringify(event)], {
      env: { PATH: process.env.PATH, TN_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true', TN_RUNTIME: 'local', TN_DATA_DIR: path.join(dir, 'data'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`exit ${code}: ${stderr.slice(-800)}`))));
  });
}

const HOST = 'abc123.execute-api.us-west-2.amazonaws.com';
const event = (method: string, eventPath: string, body?: unknown, headers: Record<string, string> = {}) => ({
  httpMethod: method,
  path: eventPath,
  headers: { host: HOST, 'content-type': 'application/json', ...headers },
  multiValueHeaders: {},
  body: body === undefined ? null : JSON.stringify(body),
  isBase64Encoded: false,
  requestContext: {},
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const packageOf = (input: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

async function tableWithUser(userId: string) {
  const tableName = `tn-bundle-${ulid()}`;
  const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
  await ensureTable(store.client, tableName);
  const { token } = await createPersonalAccessToken(store, { userId });
  return { store, token, env: { TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'), TN_TABLE_NAME: tableName } };
}

describe('deployed bundles', () => {
  it.each(Object.entries(DOMAIN_ENTRIES))('%s: the bundle loads and answers', async (domain, entry) => {
    const answer = await run(bundled(entry).file, event('POST', '/v1/tools/tn_tools_list', { domain: domain === 'router' ? 'course' : domain }), {});
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).tools.length).toBeGreaterThan(0);
  }, 60_000);

  it('keeps what each cold start loads within its budget, and what only some calls need out of it', () => {
    const entries = { ...DOMAIN_ENTRIES, oauth: AUTHORIZATION_SERVER_ENTRY };
    for (const [name, entry] of Object.entries(entries)) {
      const built = bundled(entry);
      expect(built.startBytes, name).toBeLessThan(START_BUDGET_BYTES[name]!);
      const packages = new Set(built.startInputs.map(packageOf));
      for (const absent of [...CREDENTIAL_CHAIN, ...(NEVER_AT_START[name] ?? [])]) expect(packages.has(absent), `${name} loads ${absent} at start`).toBe(false);
      // Those packages are still in the function, for the calls that import them.
      if (name === 'router' || name === 'oauth') expect(built.onDemandBytes, name).toBeGreaterThan(0);
    }
  }, 180_000);

  it('session: a tutor turn in the bundle loads the AI SDK part beside it and answers through the provider', async () => {
    const provider = await startFakeProvider();
    const { store, token, env: table } = await tableWithUser('bundle-user');
    try {
      const file = bundled(DOMAIN_ENTRIES.session!).file;
      expect((await stat(path.join(path.dirname(file), 'ai-runtime.js'))).size).toBeGreaterThan(1_000_000);
      const env = {
        ...table,
        TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
        TN_DEFAULT_LLM_MODEL: 'fake-model',
        TN_DEFAULT_LLM_API_KEY: 'sk-operator-bundle-0001',
        TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
      };
      provider.enqueue({ text: 'A stack is last in, first out.' });
      const started = await run(file, event('POST', '/v1/tools/tn_session_start', { topic: 'stacks' }, bearer(token)), env);
      expect(started.status, started.body).toBe(200);
      const asked = await run(file, event('POST', '/v1/tools/tn_session_ask', { sessionId: JSON.parse(started.body).sessionId, message: 'What is a stack?' }, bearer(token)), env);
      expect(asked.status, asked.body).toBe(200);
      expect(JSON.parse(asked.body).response).toBe('A stack is last in, first out.');
      expect(provider.requests.at(-1)?.body.messages.at(-1).content).toContain('What is a stack?');
    } finally {
      store.doc.destroy();
      await provider.close();
    }
  }, 90_000);

  it.each(LAMBDA_BUNDLING.viewEntries.map((entry) => [entry]))('%s: serves its MCP Apps views from the pages written beside the bundle', async (entry) => {
    const file = bundled(entry).file;
    const mcpPath = entry.includes('router') ? '/mcp' : `/mcp/${path.basename(path.dirname(entry))}`;
    const mcp = (body: unknown) => event('POST', mcpPath, body, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' });
    const listed = await run(file, mcp({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} }), {});
    expect(listed.status, listed.body).toBe(200);
    const views = (JSON.parse(listed.body).result.resources as { uri: string; mimeType: string }[]).filter((r) => r.uri.startsWith('ui://'));
    expect(views.length).toBeGreaterThan(0);
    for (const view of views) {
      const read = await run(file, mcp({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: view.uri } }), {});
      expect(read.status, read.body).toBe(200);
      const [content] = JSON.parse(read.body).result.contents;
      expect(content).toMatchObject({ uri: view.uri, mimeType: 'text/html;profile=mcp-app' });
      expect(content.text).toMatch(/^<!doctype html>[\s\S]*<script>[\s\S]+<\/script>/);
    }
  }, 90_000);

  it('router: builds /openapi.json on the first request for it, from a chunk its cold start does not load, as the local server does', async () => {
    const answer = await run(bundled(DOMAIN_ENTRIES.router!).file, event('GET', '/openapi.json'), { TN_PUBLIC_BASE_URL: `https://${HOST}/prod` });
    expect(answer.status, answer.body).toBe(200);
    const served = JSON.parse(answer.body);
    expect(served).toEqual(buildOpenApiDocument(new ToolRegistry('tn_', [...ALL_CONTRACTS.map(forwardedOnly), ...ENDPOINT_TOOLS]), `https://${HOST}/prod`));
    expect(Object.keys(served.paths)).toContain('/v1/tools/tn_course_prereqs');
    expect(Object.keys(served.paths).length).toBe(ALL_CONTRACTS.length + ENDPOINT_TOOLS.length);
  }, 60_000);

  it('router: forwards a call through the Lambda client it loads with the first one, to the domain function\'s bundle', async () => {
    const { store, token, env: table } = await tableWithUser('forwarded-user');
    const invoked: { functionName: string; event: { kind: string; toolName: string; principal: { userId?: string } } }[] = [];
    // Lambda's Invoke API on 127.0.0.1 (the SDK's AWS_ENDPOINT_URL_LAMBDA), running the user function's own bundle.
    const lambda: Server = createServer(async (request, response) => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(request.url ?? '');
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      invoked.push({ functionName: decodeURIComponent(match?.[1] ?? ''), event: payload });
      const result = await run(bundled(DOMAIN_ENTRIES.user!).file, payload, table);
      response.writeHead(200, { 'content-type': 'application/json' }).end(result.body);
    });
    await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        ...table,
        TN_DOMAIN_FUNCTIONS: JSON.stringify({ user: 'tn-user-fn' }),
        AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`,
        AWS_REGION: 'us-west-2',
        AWS_ACCESS_KEY_ID: 'bundle-test',
        AWS_SECRET_ACCESS_KEY: 'bundle-test',
      };
      const answer = await run(bundled(DOMAIN_ENTRIES.router!).file, event('POST', '/v1/tools/tn_user_quota', {}, bearer(token)), env);
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ plan: expect.anything(), prompts: expect.anything() });
      expect(invoked).toHaveLength(1);
      expect(invoked[0]).toMatchObject({ functionName: 'tn-user-fn', event: { kind: 'tn.tool-invoke', toolName: 'tn_user_quota', principal: { userId: 'forwarded-user' } } });
    } finally {
      lambda.close();
      store.doc.destroy();
    }
  }, 90_000);

  describe('oauth', () => {
    const base = `https://${HOST}/prod`;
    const oauthEnv = () => ({ TN_OAUTH_ISSUER: base, TN_PUBLIC_BASE_URL: base, TN_OAUTH_SECRET: 'bundle-test-secret', TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint') });

    it('the bundle loads and publishes its metadata', async () => {
      const answer = await run(bundled(AUTHORIZATION_SERVER_ENTRY).file, event('GET', '/.well-known/oauth-authorization-server'), oauthEnv());
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body).issuer).toBe(base);
    }, 60_000);

    it('sends a sign-in to the identity provider through the OpenID flow it loads then', async () => {
      // A real OpenID provider on 127.0.0.1 plays Cognito; only its discovery document is read here.
      const identityServer = createServer();
      await new Promise<void>((resolve) => identityServer.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(identityServer.address() as AddressInfo).port}`;
      const identityProvider = new Provider(issuer, { clients: [{ client_id: 'tutor-nexus', redirect_uris: [`${base}/oauth/callback`], token_endpoint_auth_method: 'none' }] });
      identityServer.on('request', identityProvider.callback());
      const { store, env: table } = await tableWithUser('unused');
      try {
        const env = { ...oauthEnv(), ...table, TN_OAUTH_UPSTREAM_ISSUER: issuer, TN_OAUTH_UPSTREAM_CLIENT_ID: 'tutor-nexus' };
        const file = bundled(AUTHORIZATION_SERVER_ENTRY).file;
        const redirectUri = 'https://claude.ai/api/mcp/auth_callback';
        const registered = await run(file, event('POST', '/oauth/register', { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }), env);
        expect(registered.status, registered.body).toBe(201);
        const query = { response_type: 'code', client_id: JSON.parse(registered.body).client_id, redirect_uri: redirectUri, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', resource: `${base}/mcp` };
        const authorize = await run(file, { ...event('GET', '/oauth/authorize'), multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) }, env);
        expect(authorize.status, authorize.body).toBe(303);
        const interaction = authorize.headers!.location!.replace(/^\/prod/, '');
        const cookie = (authorize.cookies ?? []).map((set) => set.split(';')[0]).join('; ');
        const signIn = await run(file, event('GET', interaction, undefined, { cookie }), env);
        expect(signIn.status, signIn.body).toBe(302);
        const location = new URL(signIn.headers!.location!);
        expect(`${location.origin}${location.pathname}`).toBe(`${issuer}/auth`);
        expect(location.searchParams.get('client_id')).toBe('tutor-nexus');
        expect(location.searchParams.get('code_challenge_method')).toBe('S256');
        expect(location.searchParams.get('redirect_uri')).toBe(`${base}/oauth/callback`);
      } finally {
        identityServer.close();
        store.doc.destroy();
      }
    }, 90_000);
  });

  it('ingest: the scheduled crawl bundle loads and crawls the replayed SFU outlines into the table', async () => {
    const replay = new SfuOutlinesReplay();
    const origins = await replay.start();
    const tableName = `tn-bundle-${ulid()}`;
    const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
    try {
      await ensureTable(store.client, tableName);
      const file = bundled('functions/ingest/handler.ts').file;
      // The scheduled runtime reduced to what the handler touches: one invocation with 14 minutes left.
      const harness = path.join(dir, 'scheduled-harness.mjs');
      await writeFile(
        harness,
        `const { handler } = await import(process.argv[2]);
const result = await handler({}, { getRemainingTimeInMillis: () => 840000, functionName: 'tn-ingest', awsRequestId: 'r1', invokedFunctionArn: 'arn:aws:lambda:us-west-2:123456789012:function:tn-ingest', memoryLimitInMB: '1536', functionVersion: '$LATEST' });
console.log(JSON.stringify(result));`,
      );
      const result = await new Promise<any>((resolve, reject) => {
        const child = spawn(process.execPath, [harness, file], {
          env: {
            PATH: process.env.PATH,
            TN_LOG_LEVEL: 'ERROR',
            POWERTOOLS_METRICS_DISABLED: 'true',
            TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
            TN_TABLE_NAME: tableName,
            TN_INGEST_SOURCE: 'sfu-outlines',
            TN_INGEST_ORIGINS: '[]',
            TN_CRAWL: 'on',
            TN_SFU_TERMS: '2026/fall',
            ...origins,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout.trim().split('\n').at(-1)!)) : reject(new Error(`exit ${code}: ${stderr.slice(-800)}`))));
      });
      expect(result.crawl).toMatchObject({ status: 'complete', pages: { failed: 0, missing: 1 } });
      expect(result.crawl.pages.fetched).toBeGreaterThan(100);
    } finally {
      store.doc.destroy();
      await replay.close();
    }
  }, 120_000);
});
