import { spawn } from 'node:child_process';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ulid } from 'ulid';
import { bundle, bundleDir, DOMAIN_ENTRIES, LAMBDA_HARNESS } from '../../bench/cold-start.js';
import { LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.js';
import { createPersonalAccessToken } from '../../functions/shared/auth/personal-access-tokens.js';
import { createStore } from '../../functions/shared/store/dynamo-client.js';
import { ensureTable } from '../../local/ensure-table.js';
import { startFakeProvider } from '../support/fake-llm-provider.js';
import { SfuOutlinesReplay } from '../support/sfu-outlines-replay.js';

/**
 * What CDK deploys is an esbuild bundle, not the sources the other tests import: module order and
 * cycles can differ there (zod's classes were undefined at load once). Each entry is bundled as the
 * stack bundles it, loaded in a fresh process with the Lambda streaming runtime's globals, and asked
 * for one request.
 */

let dir: string;
beforeAll(async () => {
  dir = await bundleDir();
  await writeFile(path.join(dir, 'harness.mjs'), LAMBDA_HARNESS);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(file: string, event: unknown, env: Record<string, string>): Promise<{ status: number; body: string }> {
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

const event = (method: string, eventPath: string, body?: unknown, token?: string) => ({
  httpMethod: method,
  path: eventPath,
  headers: { host: 'abc123.execute-api.us-west-2.amazonaws.com', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  multiValueHeaders: {},
  body: body === undefined ? null : JSON.stringify(body),
  isBase64Encoded: false,
  requestContext: {},
});

describe('deployed bundles', () => {
  it.each(Object.entries(DOMAIN_ENTRIES))('%s: the bundle loads and answers', async (domain, entry) => {
    const file = await bundle(entry, dir);
    const answer = await run(file, event('POST', '/v1/tools/tn_tools_list', { domain: domain === 'router' ? 'course' : domain }), {});
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).tools.length).toBeGreaterThan(0);
  }, 60_000);

  it('router: serves /openapi.json from the part beside its bundle, which its cold start does not load', async () => {
    const file = await bundle(DOMAIN_ENTRIES.router!, dir);
    expect((await stat(path.join(dir, 'openapi.js'))).size).toBeGreaterThan(20_000);
    const answer = await run(file, event('GET', '/openapi.json'), {});
    expect(answer.status, answer.body).toBe(200);
    const document = JSON.parse(answer.body);
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/v1/tools/tn_course_prereqs');
  }, 60_000);

  it('keeps every request bundle under 1 MB (AWS SDK included), the AI SDK out of the session\'s cold start', async () => {
    for (const [domain, entry] of Object.entries(DOMAIN_ENTRIES)) {
      const bytes = (await stat(await bundle(entry, dir))).size;
      expect(bytes, domain).toBeLessThan(1_000_000);
    }
    // The lazily loaded part really holds the AI SDK (it is what a tutor turn imports).
    expect((await stat(path.join(dir, 'ai-runtime.js'))).size).toBeGreaterThan(1_000_000);
  }, 120_000);

  it('session: a tutor turn in the bundle loads the AI SDK part beside it and answers through the provider', async () => {
    const provider = await startFakeProvider();
    const tableName = `tn-bundle-${ulid()}`;
    const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
    try {
      await ensureTable(store.client, tableName);
      const { token } = await createPersonalAccessToken(store, { userId: 'bundle-user' });
      const file = await bundle(DOMAIN_ENTRIES.session!, dir);
      const env = {
        TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
        TN_TABLE_NAME: tableName,
        TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
        TN_DEFAULT_LLM_MODEL: 'fake-model',
        TN_DEFAULT_LLM_API_KEY: 'sk-operator-bundle-0001',
        TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
      };
      provider.enqueue({ text: 'A stack is last in, first out.' });
      const started = await run(file, event('POST', '/v1/tools/tn_session_start', { topic: 'stacks' }, token), env);
      expect(started.status, started.body).toBe(200);
      const asked = await run(file, event('POST', '/v1/tools/tn_session_ask', { sessionId: JSON.parse(started.body).sessionId, message: 'What is a stack?' }, token), env);
      expect(asked.status, asked.body).toBe(200);
      expect(JSON.parse(asked.body).response).toBe('A stack is last in, first out.');
      expect(provider.requests.at(-1)?.body.messages.at(-1).content).toContain('What is a stack?');
    } finally {
      store.doc.destroy();
      await provider.close();
    }
  }, 60_000);

  it.each(LAMBDA_BUNDLING.viewEntries.map((entry) => [entry]))('%s: serves its MCP Apps views from the pages written beside the bundle', async (entry) => {
    const file = await bundle(entry, dir);
    const mcp = (body: unknown) => ({ ...event('POST', entry.includes('router') ? '/mcp' : `/mcp/${path.basename(path.dirname(entry))}`, body), headers: { ...event('POST', '/').headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
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
  }, 60_000);

  it('oauth: the bundle loads and publishes its metadata', async () => {
    const file = await bundle('functions/oauth/handler.ts', dir);
    const base = 'https://abc123.execute-api.us-west-2.amazonaws.com/prod';
    const answer = await run(file, event('GET', '/.well-known/oauth-authorization-server'), {
      TN_OAUTH_ISSUER: base,
      TN_PUBLIC_BASE_URL: base,
      TN_OAUTH_SECRET: 'bundle-test-secret',
      TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).issuer).toBe(base);
  }, 60_000);
  it('ingest: the scheduled crawl bundle loads and crawls the replayed SFU outlines into the table', async () => {
    const replay = new SfuOutlinesReplay();
    const origins = await replay.start();
    const tableName = `tn-bundle-${ulid()}`;
    const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
    try {
      await ensureTable(store.client, tableName);
      const file = await bundle('functions/ingest/handler.ts', dir);
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
